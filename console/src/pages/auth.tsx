/**
 * The account page and a sign-in's later steps: the second factor and the recovery codes of a
 * sign-in begun on sign-in.tsx (which loads this module for them), and the change of the signed-in
 * account's password (POST /api/users/me/password). The pages of the e-mails' links (an
 * invitation, a password reset) are password-links.tsx's.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../api.ts';
import { useSession, type SecondFactorStep } from '../session.tsx';
import { Field } from '../field.tsx';
import { Button, formValues, PageTitle, ProblemMessage, useAction } from '../ui.tsx';
import { passkeyAssertion, passkeysSupported } from '../passkey.ts';

/** The Account page's sessions, notifications, calendar feed and look: their own chunk, off the sign-in pages' bundle. */
const AccountExtras = lazy(async () => ({ default: (await import('./account-extras.tsx')).AccountExtras }));

/** Server-named field errors for a Form's `validationErrors`. */
function fieldErrors(problem: { field: string | null; message: string } | null, fields: string[]): Record<string, string> {
  return problem?.field && fields.includes(problem.field) ? { [problem.field]: problem.message } : {};
}

/**
 * The second step of a sign-in (docs/security.md "Two-factor sign-in"): a code of the
 * authenticator app, a recovery code or one of the account's passkeys; under the agency's policy
 * without a factor yet, the QR code of a new secret first (POST /api/auth/two-factor/enrol).
 */
export function SecondFactor({ step, onDone, onRestart }: { step: SecondFactorStep; onDone: (codes: string[] | null) => void; onRestart: () => void }) {
  const session = useSession();
  const { problem, busy, run } = useAction();
  const [useRecovery, setUseRecovery] = useState(false);
  const [offer, setOffer] = useState<{ qr_code: string; secret: string } | null>(null);
  const enrolling = step.reason === 'second_factor_enrolment_required';
  useEffect(() => {
    if (!enrolling) return;
    void run(async () => {
      const res = await fetch('/api/auth/two-factor/enrol', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge: step.challenge }) });
      const json = (await res.json()) as { data?: { qr_code: string; secret: string }; error?: string };
      if (!res.ok || !json.data) throw Object.assign(new Error(json.error ?? 'The set-up could not start'), { status: res.status });
      setOffer(json.data);
    });
  }, [enrolling, step.challenge, run]);
  const stale = problem?.message?.includes('expired');
  const withPasskey = !enrolling && step.methods.includes('passkey') && passkeysSupported();
  const hasCode = enrolling || step.methods.includes('totp');
  const usePasskey = () => void run(async () => onDone(await session.finishSignIn(await passkeyAssertion({ challenge: step.challenge }))));
  return (
    <main id="main" className="narrow">
      <PageTitle>{enrolling ? 'Set up two-factor sign-in' : 'Two-factor sign-in'}</PageTitle>
      <p className="notice" role="status">{step.message}</p>
      {withPasskey ? (
        <p>
          <Button onPress={usePasskey} isDisabled={busy}>
            Use your passkey
          </Button>
        </p>
      ) : null}
      {withPasskey && !hasCode ? <ProblemMessage problem={problem} /> : null}
      {offer ? (
        <div className="two-factor-offer">
          <img src={offer.qr_code} alt="QR code for your authenticator app" width={200} height={200} />
          <p className="hint">
            Scan it with an authenticator app, or type this key: <code style={{ wordBreak: 'break-all' }}>{offer.secret}</code>
          </p>
        </div>
      ) : null}
      {hasCode ? (
        <Form
          className="form"
          onSubmit={(e) => {
            const v = formValues(e);
            void run(async () => {
              const answer = useRecovery ? { challenge: step.challenge, recovery_code: v.code ?? '' } : { challenge: step.challenge, code: v.code ?? '' };
              onDone(await session.finishSignIn(answer));
            });
          }}
        >
          <Field
            name="code"
            label={useRecovery ? 'Recovery code' : '6-digit code from your authenticator app'}
            isRequired
            autoComplete="one-time-code"
            {...(useRecovery ? {} : { inputMode: 'numeric' as const })}
          />
          <ProblemMessage problem={problem} />
          <Button type="submit" isDisabled={busy}>
            {busy ? 'Checking…' : 'Continue'}
          </Button>
        </Form>
      ) : null}
      {!enrolling && step.methods.includes('recovery_code') ? (
        <p>
          <Button variant="secondary" onPress={() => setUseRecovery(!useRecovery)}>
            {useRecovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
          </Button>
        </p>
      ) : null}
      {stale ? (
        <p>
          <Button variant="secondary" onPress={onRestart}>Start again</Button>
        </p>
      ) : null}
    </main>
  );
}

/** The recovery codes of a forced enrolment, shown once. */
export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <main id="main" className="narrow">
      <PageTitle>Your recovery codes</PageTitle>
      <p>Each code signs you in once if you lose your phone. Keep them somewhere safe: they are not shown again.</p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <Button onPress={onDone}>I have saved them</Button>
    </main>
  );
}

/** The account page: who is signed in, and the change-password form. */
export function Account() {
  const session = useSession();
  const [done, setDone] = useState<string | null>(null);
  const { problem, busy, run } = useAction();
  const me = session.me!;
  return (
    <>
      <PageTitle>Your account</PageTitle>
      <dl className="details">
        <dt>Name</dt>
        <dd>{me.name}</dd>
        <dt>E-mail</dt>
        <dd>{me.email}</dd>
        <dt>Role</dt>
        <dd>{me.role}</dd>
        {me.agency_name ? (
          <>
            <dt>Agency</dt>
            <dd>{me.agency_name}</dd>
          </>
        ) : null}
        {me.branch_name ? (
          <>
            <dt>Branch</dt>
            <dd>{me.branch_name}</dd>
          </>
        ) : null}
      </dl>
      <h2>Change password</h2>
      <Form
        className="form"
        validationErrors={fieldErrors(problem, ['current_password', 'new_password'])}
        onSubmit={(e) => {
          const form = e.currentTarget;
          const v = formValues(e);
          void run(async () => {
            await api.POST('/api/users/me/password', { body: { current_password: v.current_password ?? '', new_password: v.new_password ?? '' } });
            form.reset();
            setDone('Password changed. Your other sessions were signed out.');
          });
        }}
      >
        <Field name="current_password" label="Current password" type="password" isRequired autoComplete="current-password" />
        <Field
          name="new_password"
          label="New password"
          type="password"
          isRequired
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          description="8 to 128 characters."
        />
        <ProblemMessage problem={problem} />
        {done ? (
          <p className="notice" role="status">
            {done}
          </p>
        ) : null}
        <Button type="submit" isDisabled={busy}>
          Change password
        </Button>
      </Form>
      <Suspense fallback={null}>
        <AccountExtras />
      </Suspense>
    </>
  );
}
