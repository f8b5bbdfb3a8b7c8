/**
 * Signing in and the account pages: sign in (POST /api/auth/session, a session cookie for this browser only), accept an
 * invitation (/accept-invitation?token=..., the link of the invitation e-mail), ask for and
 * confirm a password reset (/reset-password?token=..., the link of the reset e-mail), and change
 * the password of the signed-in account (POST /api/users/me/password).
 */
import { useState, type FormEvent } from 'react';
import { Checkbox, Form } from 'react-aria-components';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Logo, PageTitle, ProblemMessage, useAction } from '../ui.tsx';

function formValues(e: FormEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault();
  return Object.fromEntries([...new FormData(e.currentTarget).entries()].map(([k, v]) => [k, String(v)]));
}

/** Server-named field errors for a Form's `validationErrors`. */
function fieldErrors(problem: { field: string | null; message: string } | null, fields: string[]): Record<string, string> {
  return problem?.field && fields.includes(problem.field) ? { [problem.field]: problem.message } : {};
}

/** The sign-in page. */
export function SignIn() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [remember, setRemember] = useState(false);
  const { problem, busy, run } = useAction();
  return (
    <main id="main" className="narrow">
      <div className="sign-in-brand">
        <Logo size={48} />
        <p className="hint">Repairs and maintenance for your letting agency</p>
      </div>
      <PageTitle>Sign in</PageTitle>
      {session.endedReason ? (
        <p className="notice" role="status">
          {session.endedReason}
        </p>
      ) : null}
      {params.get('done') ? (
        <p className="notice" role="status">
          {params.get('done')}
        </p>
      ) : null}
      <Form
        className="form"
        validationErrors={fieldErrors(problem, ['email', 'password'])}
        onSubmit={(e) => {
          const v = formValues(e);
          void run(async () => {
            await session.signIn(v.email ?? '', v.password ?? '', remember);
            navigate(params.get('next') ?? '/', { replace: true });
          });
        }}
      >
        <Field name="email" label="E-mail address" type="email" isRequired autoComplete="username" />
        <Field name="password" label="Password" type="password" isRequired autoComplete="current-password" />
        <Checkbox className="checkbox" isSelected={remember} onChange={setRemember}>
          <span className="box" aria-hidden="true" />
          Keep me signed in for 30 days
        </Checkbox>
        <p className="hint">Without it the session ends after 30 minutes without activity, and after 2 hours at the latest.</p>
        <ProblemMessage problem={problem} />
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </Form>
      <p>
        <Link to="/reset-password">Forgotten your password?</Link>
      </p>
    </main>
  );
}

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
  return (
    <Form
      className="form"
      validationErrors={fieldErrors(problem, [props.name])}
      onSubmit={(e) => {
        const v = formValues(e);
        void run(async () => {
          await props.save(v[props.name] ?? '');
          navigate(`/sign-in?done=${encodeURIComponent(props.done)}`);
        });
      }}
    >
      <Field
        name={props.name}
        label={props.label}
        type="password"
        isRequired
        autoComplete="new-password"
        minLength={8}
        maxLength={128}
        description="8 to 128 characters."
      />
      {problem?.field === props.name ? null : <ProblemMessage problem={problem} />}
      <Button type="submit" isDisabled={busy || props.disabled}>
        {props.submit}
      </Button>
    </Form>
  );
}

/** /reset-password: ask for a reset link; /reset-password?token=...: choose the new password. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [sent, setSent] = useState(false);
  const { problem, busy, run } = useAction();
  if (!token) {
    return (
      <main id="main" className="narrow">
        <PageTitle>Reset your password</PageTitle>
        {sent ? (
          <p className="notice" role="status">
            If an account uses that address, an e-mail with a reset link is on its way. The link works for one hour.
          </p>
        ) : (
          <Form
            className="form"
            validationErrors={fieldErrors(problem, ['email'])}
            onSubmit={(e) => {
              const v = formValues(e);
              void run(async () => {
                await api.POST('/api/auth/password-reset', { body: { email: v.email ?? '' } });
                setSent(true);
              });
            }}
          >
            <Field name="email" label="E-mail address" type="email" isRequired autoComplete="username" />
            <ProblemMessage problem={problem} />
            <Button type="submit" isDisabled={busy}>
              Send reset link
            </Button>
          </Form>
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
    </>
  );
}
