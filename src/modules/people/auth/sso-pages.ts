/**
 * The page a browser sees when single sign-on is refused (docs/security.md "Single sign-on"):
 * the reason in one sentence and a link back to the sign-in page. Every value is escaped; the
 * page loads nothing from elsewhere.
 */
import { linkPage } from '../../../http/link-pages.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.45}
h1{font-size:1.4rem}.note{color:#555;font-size:.9rem}a{color:#0b57d0}`;

/**
 * The refusal page.
 * @param message the sentence shown (SSO_FAILURES)
 * @param reason the stable reason code, shown small for the agency's IT
 * @returns a whole HTML document
 */
export function ssoRefusedPage(message: string, reason: string): string {
  return linkPage(
    'Single sign-on failed',
    STYLE,
    `<main><h1>Single sign-on failed</h1><p role="alert">${esc(message)}</p>
<p><a href="/sign-in">Back to the sign-in page</a></p>
<p class="note">Reason code for your IT administrator: <code>${esc(reason)}</code>. No session was started.</p></main>`,
  );
}
