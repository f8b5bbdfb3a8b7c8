/**
 * The pages a link in an e-mail opens, often a person's first visit on their phone: accept an
 * invitation (/accept-invitation?token=..., POST /api/users/invitations/accept), ask for a password
 * reset (/reset-password, POST /api/auth/password-reset) and choose the new password
 * (/reset-password?token=..., POST /api/auth/password-reset/confirm). Native inputs (`Labelled`),
 * like the sign-in page, so they load without react-aria (docs/console.md "How it is built and
 * served").
 */
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { Button, formValues, PageTitle, ProblemMessage, useAction } from '../ui.tsx';
import { Labelled } from './labelled.tsx';

/** /accept-invitation?token=...: choose a password, then sign in. */
export function AcceptInvitation() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <main id="main" className="narrow">
      <PageTitle>Accept your invitation</PageTitle>
      {!token ? <p className="problem">This link has no invitation token. Open the link from the invitation e-mail again.</p> : null}
      <NewPasswordForm
        name="password"
        label="Choose a password"
        submit="Accept invitation"
        disabled={!token}
        done="Invitation accepted. Sign in with your e-mail address and the new password."
        save={async (password) => void (await api.POST('/api/users/invitations/accept', { body: { token, password } }))}
      />
    </main>
  );
}

/**
 * The one-field form that sets a password from an e-mail link, then sends the user to sign in
 * with `done` as the message; the API's error shows under the field or the button.
 */
function NewPasswordForm(props: { name: string; label: string; submit: string; done: string; disabled?: boolean; save: (password: string) => Promise<void> }) {
  const navigate = useNavigate();
  const { problem, busy, run } = useAction();
  const error = problem?.field === props.name ? problem.message : null;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        const v = formValues(e);
        void run(async () => {
          await props.save(v[props.name] ?? '');
          navigate(`/sign-in?done=${encodeURIComponent(props.done)}`);
        });
      }}
    >
      <Labelled label={props.label} required hint="8 to 128 characters." error={error}>
        {(id, describedBy) => (
          <input
            id={id}
            name={props.name}
            type="password"
            required
            autoComplete="new-password"
            minLength={8}
            maxLength={128}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
          />
        )}
      </Labelled>
      {error ? null : <ProblemMessage problem={problem} />}
      <Button type="submit" isDisabled={busy || props.disabled}>
        {props.submit}
      </Button>
    </form>
  );
}

/** /reset-password: ask for a reset link; /reset-password?token=...: choose the new password. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [sent, setSent] = useState(false);
  const { problem, busy, run } = useAction();
  if (!token) {
    const error = problem?.field === 'email' ? problem.message : null;
    return (
      <main id="main" className="narrow">
        <PageTitle>Reset your password</PageTitle>
        {sent ? (
          <p className="notice" role="status">
            If an account uses that address, an e-mail with a reset link is on its way. The link works for one hour.
          </p>
        ) : (
          <form
            className="form"
            onSubmit={(e) => {
              const v = formValues(e);
              void run(async () => {
                await api.POST('/api/auth/password-reset', { body: { email: v.email ?? '' } });
                setSent(true);
              });
            }}
          >
            <Labelled label="E-mail address" required error={error}>
              {(id, describedBy) => (
                <input id={id} name="email" type="email" required autoComplete="username" aria-describedby={describedBy} aria-invalid={error ? true : undefined} />
              )}
            </Labelled>
            <ProblemMessage problem={problem} />
            <Button type="submit" isDisabled={busy}>
              Send reset link
            </Button>
          </form>
        )}
        <p>
          <Link to="/sign-in">Back to sign in</Link>
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="narrow">
      <PageTitle>Choose a new password</PageTitle>
      <NewPasswordForm
        name="new_password"
        label="New password"
        submit="Set new password"
        done="Password changed. Sign in with the new password."
        save={async (password) => void (await api.POST('/api/auth/password-reset/confirm', { body: { token, new_password: password } }))}
      />
    </main>
  );
}
