/**
 * Two-factor sign-in and record keeping in the console (docs/console.md "Account" and "Agency
 * settings"; docs/security.md "Two-factor sign-in"; docs/gdpr.md "Retention"):
 * - on the Account page, the caller's own authenticator app: set up with a QR code, confirmed with
 *   a code (recovery codes shown once), replaced recovery codes, turned off with a code
 *   (GET /api/users/me/two-factor, POST .../totp, .../totp/verify, .../recovery-codes, DELETE .../totp);
 * - on the agency settings page, the staff two-factor policy (GET, PUT /api/security/two-factor-policy)
 *   and the retention schedule (GET, PUT /api/gdpr/retention).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { Field } from '../field.tsx';
import { Button, formatDateTime, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Loaded, Notice } from './people-forms.tsx';

/** Recovery codes shown once, to be written down or printed. */
function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <div className="notice" role="status">
      <p>
        Your recovery codes. Keep them somewhere safe: each works once, if you lose your phone. They are not shown again.
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A 6-digit code field with its own submit button. */
function CodeForm({ label, button, busy, onCode }: { label: string; button: string; busy: boolean; onCode: (code: string) => void }) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '').replace(/\s+/g, '');
    onCode(code);
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label={label} name="code" autoComplete="one-time-code" minLength={6} maxLength={8} isRequired />
      <div className="actions">
        <Button type="submit" isDisabled={busy}>
          {button}
        </Button>
      </div>
    </form>
  );
}

/** The Account page's "Two-factor sign-in": the caller's authenticator app and recovery codes. */
export function TwoFactorSection() {
  const status = useLoad(['two-factor', 'me'], async () => (await api.GET('/api/users/me/two-factor')).data!.data);
  const action = useAction();
  const confirm = useConfirm();
  const [offer, setOffer] = useState<{ qr_code: string; secret: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const start = () =>
    void action.run(async () => {
      setDone(null);
      setCodes(null);
      const { data } = await api.POST('/api/users/me/two-factor/totp', { body: {} });
      setOffer({ qr_code: data!.data.qr_code, secret: data!.data.secret });
    });
  const verify = (code: string) =>
    void action.run(async () => {
      const { data } = await api.POST('/api/users/me/two-factor/totp/verify', { body: { code } });
      setOffer(null);
      setCodes(data!.data.recovery_codes);
      setDone('Two-factor sign-in is on: you will be asked for a code from the app when you sign in.');
      status.reload();
    });
  const replaceCodes = (code: string) =>
    void action.run(async () => {
      const { data } = await api.POST('/api/users/me/two-factor/recovery-codes', { body: { code } });
      setCodes(data!.data.recovery_codes);
      setDone('New recovery codes made; the old ones no longer work.');
    });
  const turnOff = (code: string) =>
    confirm.ask({
      title: 'Turn off the authenticator app?',
      body: 'Signing in will need only your password (or a passkey). Your recovery codes stop working.',
      confirmLabel: 'Turn off',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/users/me/two-factor/totp', { body: { code } });
          setCodes(null);
          setDone('The authenticator app is off.');
          status.reload();
        }),
    });
  return (
    <section aria-labelledby="two-factor">
      <h2 id="two-factor">Two-factor sign-in</h2>
      <Notice text={done} />
      {codes ? <RecoveryCodeList codes={codes} /> : null}
      <ProblemMessage problem={action.problem} />
      <Loaded load={status}>
        {(s) =>
          s.totp_enabled ? (
            <>
              <p>
                An authenticator app is set up{s.totp_enabled_at ? ` since ${formatDateTime(s.totp_enabled_at)}` : ''}; {s.recovery_codes_left} recovery codes left.
                {s.required ? ' Your agency requires a second factor of staff.' : ''}
              </p>
              <CodeForm label="Code from the app, to make new recovery codes" button="Make new recovery codes" busy={action.busy} onCode={replaceCodes} />
              <CodeForm label="Code from the app, to turn it off" button="Turn off" busy={action.busy} onCode={turnOff} />
            </>
          ) : offer ? (
            <>
              <p>Scan the code with an authenticator app (Microsoft Authenticator, Google Authenticator, 1Password...), then type the 6 digits it shows.</p>
              <img src={offer.qr_code} alt="QR code to add Caretaker to an authenticator app" width={200} height={200} />
              <p className="hint">
                Cannot scan? Type this key into the app: <code>{offer.secret}</code>
              </p>
              <CodeForm label="Code from the app" button="Turn on" busy={action.busy} onCode={verify} />
            </>
          ) : (
            <>
              <p>
                {s.required
                  ? 'Your agency requires a second factor of staff: set up an authenticator app.'
                  : 'Add a code from an authenticator app to your password, so a stolen password is not enough to sign in.'}
              </p>
              <Button onPress={start} isDisabled={action.busy}>
                Set up an authenticator app
              </Button>
            </>
          )
        }
      </Loaded>
      {confirm.dialog}
    </section>
  );
}

/** The agency settings page's staff two-factor policy (admins). */
export function TwoFactorPolicySection() {
  const policy = useLoad(['two-factor', 'policy'], async () => (await api.GET('/api/security/two-factor-policy')).data!.data);
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const save = (required: boolean) =>
    void action.run(async () => {
      await api.PUT('/api/security/two-factor-policy', { body: { required } });
      setDone(required ? 'Staff must now sign in with a second factor; those without one set it up at their next sign-in.' : 'A second factor is now each person\'s choice.');
      policy.reload();
    });
  return (
    <section aria-labelledby="two-factor-policy">
      <h2 id="two-factor-policy">Two-factor sign-in for staff</h2>
      <Notice text={done} />
      <ProblemMessage problem={action.problem} />
      <Loaded load={policy}>
        {(p) => (
          <>
            <p>
              {p.required
                ? 'Admins and agents must sign in with a second factor (an authenticator app or a passkey).'
                : 'A second factor is optional for admins and agents.'}
            </p>
            <Button variant="secondary" onPress={() => save(!p.required)} isDisabled={action.busy}>
              {p.required ? 'Make it optional' : 'Require a second factor of staff'}
            </Button>
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The agency settings page's retention schedule: one period per record kind, statutory ones never shorter. */
export function RetentionSection() {
  const rows = useLoad(['gdpr', 'retention'], async () => (await api.GET('/api/gdpr/retention')).data!.data);
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const periods = (rows.data ?? []).map((r) => ({ record_kind: r.record_kind, months: Number(form.get(r.record_kind)) }));
    void action.run(async () => {
      await api.PUT('/api/gdpr/retention', { body: { periods: periods as { record_kind: never; months: number }[] } });
      setDone('Retention schedule saved; the daily task applies it.');
      rows.reload();
    });
  };
  return (
    <section aria-labelledby="retention">
      <h2 id="retention">How long records are kept</h2>
      <p className="hint">When a period ends, the daily task removes or anonymises the records as each row says. Periods the law sets can be lengthened, never shortened.</p>
      <Notice text={done} />
      <ProblemMessage problem={action.problem} />
      <Loaded load={rows}>
        {(list) => (
          <form className="form" onSubmit={submit}>
            {list.map((r) => (
              <div key={r.record_kind} className="field">
                <label htmlFor={`retention-${r.record_kind}`}>{r.title} (months)</label>
                <input
                  id={`retention-${r.record_kind}`}
                  name={r.record_kind}
                  type="number"
                  min={r.statutory ? r.default_months : 0}
                  max={1200}
                  defaultValue={r.months}
                  inputMode="numeric"
                  aria-describedby={`retention-${r.record_kind}-why`}
                />
                <p className="hint" id={`retention-${r.record_kind}-why`}>
                  {r.statutory ? 'Set by law' : 'Agency policy'}: {r.source}. Default {r.default_months} months. {r.applies_to}
                </p>
              </div>
            ))}
            <div className="actions">
              <Button type="submit" isDisabled={action.busy}>
                Save the schedule
              </Button>
            </div>
          </form>
        )}
      </Loaded>
    </section>
  );
}
