/**
 * The sign-in page (POST /api/auth/session through session.tsx: a session cookie for this browser
 * only), with the passkey and single sign-on buttons. The first page a new user sees, so it is
 * built of native inputs (`Labelled`) and loads without react-aria (docs/console.md "How it is
 * built and served"); a second factor and the recovery codes of a forced enrolment are auth.tsx's,
 * loaded when the sign-in asks for them.
 */
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PAGE_LOADING } from '../layout.tsx';
import { passkeysSupported } from '../passkey.ts';
import { useSession, type SecondFactorStep } from '../session.tsx';
import { Button, formValues, Logo, PageTitle, ProblemMessage, useAction } from '../ui.tsx';
import { Labelled } from './labelled.tsx';
import { SsoSignIn } from './sso-sign-in.tsx';

const SecondFactor = lazy(async () => ({ default: (await import('./auth.tsx')).SecondFactor }));
const RecoveryCodesShown = lazy(async () => ({ default: (await import('./auth.tsx')).RecoveryCodesShown }));

/** The sign-in page: e-mail and password (or a passkey, or the agency's single sign-on), then a second factor when the account has one. */
export function SignIn() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [remember, setRemember] = useState(false);
  const { problem, busy, run } = useAction();
  const [step, setStep] = useState<SecondFactorStep | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const next = params.get('next') ?? '/';
  if (recoveryCodes) {
    return (
      <Suspense fallback={PAGE_LOADING}>
        <RecoveryCodesShown codes={recoveryCodes} onDone={() => navigate(next, { replace: true })} />
      </Suspense>
    );
  }
  if (step) {
    return (
      <Suspense fallback={PAGE_LOADING}>
        <SecondFactor
          step={step}
          onDone={(codes) => (codes ? setRecoveryCodes(codes) : navigate(next, { replace: true }))}
          onRestart={() => setStep(null)}
        />
      </Suspense>
    );
  }
  // A problem the server names a field for is shown under that field.
  const fieldError = (name: string) => (problem?.field === name ? problem.message : null);
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
      <form
        className="form"
        onSubmit={(e) => {
          const v = formValues(e);
          void run(async () => {
            const factor = await session.signIn(v.email ?? '', v.password ?? '', remember);
            if (factor) setStep(factor);
            else navigate(next, { replace: true });
          });
        }}
      >
        <Labelled label="E-mail address" required error={fieldError('email')}>
          {(id, describedBy) => (
            <input id={id} name="email" type="email" required autoComplete="username" aria-describedby={describedBy} aria-invalid={fieldError('email') ? true : undefined} />
          )}
        </Labelled>
        <Labelled label="Password" required error={fieldError('password')}>
          {(id, describedBy) => (
            <input
              id={id}
              name="password"
              type="password"
              required
              autoComplete="current-password"
              aria-describedby={describedBy}
              aria-invalid={fieldError('password') ? true : undefined}
            />
          )}
        </Labelled>
        <label className="checkbox">
          <input type="checkbox" className="visually-hidden" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <span className="box" aria-hidden="true" />
          Keep me signed in for 30 days
        </label>
        <p className="hint">Without it the session ends after 30 minutes without activity, and after 2 hours at the latest.</p>
        <ProblemMessage problem={problem} />
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {passkeysSupported() ? (
        <section aria-labelledby="passkey-heading" className="passkey-sign-in">
          <h2 id="passkey-heading" className="visually-hidden">
            Passkey
          </h2>
          <Button
            variant="secondary"
            isDisabled={busy}
            onPress={() =>
              void run(async () => {
                const factor = await session.signInWithPasskey(remember);
                if (factor) setStep(factor);
                else navigate(next, { replace: true });
              })
            }
          >
            Sign in with a passkey
          </Button>
        </section>
      ) : null}
      <SsoSignIn agency={params.get('agency')} next={params.get('next') ?? '/'} />
      <p>
        <Link to="/reset-password">Forgotten your password?</Link>
      </p>
    </main>
  );
}
