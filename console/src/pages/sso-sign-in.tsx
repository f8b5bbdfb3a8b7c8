/**
 * The sign-in page's single sign-on button (docs/console.md "Single sign-on"): "Sign in with
 * Microsoft / Google / your organisation". It finds the agency's provider with GET
 * /api/auth/sso/discover (by the agency of /sign-in?agency=<uuid>, or by the domain of the e-mail
 * typed) and sends the browser to its start URL; it comes back signed in.
 */
import { useState } from 'react';
import { api } from '../api.ts';
import { Button, ProblemMessage, useAction, useLoad } from '../ui.tsx';

export type Provider = 'microsoft' | 'google' | 'other';

const BUTTON_LABEL: Record<Provider, string> = {
  microsoft: 'Sign in with Microsoft',
  google: 'Sign in with Google',
  other: 'Sign in with your organisation',
};

/** Sends the browser to the agency's provider; it comes back signed in at `next`. */
function go(startUrl: string, next: string, email?: string) {
  const q = new URLSearchParams({ return_to: next.startsWith('/') && !next.startsWith('//') ? next : '/' });
  if (email) q.set('login_hint', email);
  window.location.assign(`${startUrl}?${q.toString()}`);
}

/**
 * The sign-in page's single sign-on button. With `agency` (the sign-in link an agency shares,
 * /sign-in?agency=<uuid>) it names the agency's provider at once; otherwise it looks up the
 * domain of the e-mail typed in the field named `email` of the page's form.
 */
export function SsoSignIn({ agency, next }: { agency: string | null; next: string }) {
  const known = useLoad(
    async () => (agency ? { found: (await api.GET('/api/auth/sso/discover', { params: { query: { agency } } })).data?.data ?? null } : { found: null }),
    [agency],
  );
  const { problem, busy, run } = useAction();
  const [note, setNote] = useState<string | null>(null);
  const found = known.data?.found ?? null;
  const label = found ? BUTTON_LABEL[found.provider] : BUTTON_LABEL.other;
  const onPress = () => {
    setNote(null);
    if (found) return go(found.start_url, next);
    const input = document.querySelector<HTMLInputElement>('input[name="email"]');
    const email = input?.value.trim() ?? '';
    if (!email.includes('@')) {
      setNote('Type your work e-mail address above first: it tells us which organisation signs you in.');
      input?.focus();
      return;
    }
    void run(async () => {
      const res = await api.GET('/api/auth/sso/discover', { params: { query: { email } } }).catch(() => null);
      const hit = res?.data?.data;
      if (!hit) return setNote(`Single sign-on is not set up for ${email.slice(email.indexOf('@') + 1)}. Sign in with your password.`);
      go(hit.start_url, next, email);
    });
  };
  return (
    <section aria-labelledby="sso-heading" className="sso-sign-in">
      <h2 id="sso-heading" className="visually-hidden">
        Single sign-on
      </h2>
      <p className="hint">{found ? `${found.agency_name} uses single sign-on.` : 'Does your agency use Microsoft 365 or Google Workspace?'}</p>
      <Button variant="secondary" onPress={onPress} isDisabled={busy}>
        {busy ? 'Looking up…' : label}
      </Button>
      {note ? (
        <p className="notice" role="status">
          {note}
        </p>
      ) : null}
      <ProblemMessage problem={problem} />
    </section>
  );
}
