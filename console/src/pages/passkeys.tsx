/**
 * The Account page's passkeys (docs/console.md "Account"; docs/security.md "Passkeys"): the
 * caller's passkeys listed with when each was added and last used (GET /api/users/me/two-factor),
 * a new one added under a name from the browser's own prompt (POST /api/users/me/passkeys/options,
 * then navigator.credentials.create through passkey.ts, then POST /api/users/me/passkeys), and one
 * removed after a confirmation (DELETE /api/users/me/passkeys/{id}).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { createPasskey, passkeysSupported } from '../passkey.ts';
import { Field } from '../field.tsx';
import { Button, formatDateTime, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Loaded, Notice } from './people-forms.tsx';

/** The Account page's "Passkeys" section. */
export function PasskeysSection() {
  const status = useLoad(['two-factor', 'me'], async () => (await api.GET('/api/users/me/two-factor')).data!.data);
  const action = useAction();
  const confirm = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const supported = passkeysSupported();
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    void action.run(async () => {
      setDone(null);
      const options = (await api.POST('/api/users/me/passkeys/options', { body: {} })).data!.data;
      const response = await createPasskey(options);
      const { data } = await api.POST('/api/users/me/passkeys', {
        body: { response: response as unknown as Record<string, never>, ...(name ? { name } : {}) },
      });
      form.reset();
      setDone(`Passkey "${data!.data.name}" added: you can sign in with it instead of your password.`);
      status.reload();
    });
  };
  const remove = (p: { id: string; name: string }) =>
    confirm.ask({
      title: `Remove the passkey "${p.name}"?`,
      body: 'It no longer signs you in. The device may still list it: remove it there too.',
      confirmLabel: 'Remove',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/users/me/passkeys/{id}', { params: { path: { id: p.id } }, body: {} });
          setDone(`Passkey "${p.name}" removed.`);
          status.reload();
        }),
    });
  return (
    <section aria-labelledby="passkeys">
      <h2 id="passkeys">Passkeys</h2>
      <p className="hint">
        A passkey signs you in with your device&apos;s fingerprint, face or PIN instead of a password, and counts as a second factor. It never leaves the
        device.
      </p>
      <Notice text={done} />
      <ProblemMessage problem={action.problem} />
      <Loaded load={status}>
        {(s) =>
          s.passkeys.length === 0 ? (
            <p>You have no passkeys yet.</p>
          ) : (
            <ul className="passkey-list" aria-label="Your passkeys">
              {s.passkeys.map((p) => (
                <li key={p.id}>
                  <strong>{p.name}</strong>{' '}
                  <span className="hint">
                    added {formatDateTime(p.created_at)}, {p.last_used_at ? `last used ${formatDateTime(p.last_used_at)}` : 'not used yet'}
                  </span>{' '}
                  <Button variant="danger" onPress={() => remove(p)} isDisabled={action.busy} aria-label={`Remove passkey ${p.name}`}>
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {supported ? (
        <form className="form" onSubmit={add}>
          <Field label="Name of the new passkey" name="name" maxLength={100} description="Such as the device it is on: Work laptop, iPhone." />
          <div className="actions">
            <Button type="submit" isDisabled={action.busy}>
              Add a passkey
            </Button>
          </div>
        </form>
      ) : (
        <p className="hint">This browser cannot make passkeys.</p>
      )}
      {confirm.dialog}
    </section>
  );
}
