/**
 * The HTML pages a landlord sees after following an approval link (docs/landlords.md): the
 * question with a form (approve, decline, ask a question, with a comment), the thank-you page,
 * and one clear page per refusal (invalid, expired, used, revoked). Every value is escaped; the
 * pages load nothing from elsewhere. Dates for people in Europe/London ("Thu 26 Nov 2026").
 */
import { linkPage } from '../../../http/link-pages.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';
import { londonDate, londonTime } from '../../../lib/london-time.ts';
import type { LinkRefusal } from './approval-links.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Thu 26 Nov 2026, 14:00" in London time. */
export function londonDateTime(at: Date): string {
  const [y, m, d] = londonDate(at).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return `${DAYS[day]} ${d} ${MONTHS[m - 1]} ${y}, ${londonTime(at)}`;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.45}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{font-weight:600}
fieldset{border:1px solid #bbb;padding:.8rem}label{display:block;margin:.3rem 0}textarea{width:100%;min-height:5rem}
button{font-size:1rem;padding:.5rem 1.2rem;margin-top:.8rem}.note{color:#555;font-size:.9rem}`;

/** The approval pages' document: the signed-link shell (src/http/link-pages.ts) with their style. */
function page(title: string, body: string): string {
  return linkPage(title, STYLE, body);
}

/** What the answer page shows. */
export interface ApprovalView {
  agencyName: string;
  landlordName: string;
  jobReference: string;
  jobTitle: string;
  property: string | null;
  description: string;
  amount: string;
  limit: string;
  expiresAt: Date;
}

const ACTIONS = [
  ['approve', 'Approve the work'],
  ['decline', 'Decline the work'],
  ['question', 'Ask a question first'],
] as const;

/** The question and the answer form (the form posts back to the same link). */
export function answerPage(v: ApprovalView, action: string): string {
  const choices = ACTIONS.map(([value, label]) =>
    `<label><input type="radio" name="action" value="${value}"${value === action ? ' checked' : ''} required> ${esc(label)}</label>`).join('');
  return page(`Approval needed: ${v.jobReference}`, `
<h1>Approval needed for ${esc(v.jobReference)}</h1>
<p>Dear ${esc(v.landlordName)}, ${esc(v.agencyName)} asks for your approval of a cost above your spend limit.</p>
<dl><dt>Job</dt><dd>${esc(v.jobReference)}: ${esc(v.jobTitle)}</dd>
${v.property ? `<dt>Property</dt><dd>${esc(v.property)}</dd>` : ''}
<dt>Work</dt><dd>${esc(v.description)}</dd>
<dt>Cost</dt><dd>${esc(v.amount)} (incl. VAT)</dd>
<dt>Your limit</dt><dd>${esc(v.limit)}</dd>
<dt>Answer by</dt><dd>${esc(londonDateTime(v.expiresAt))}</dd></dl>
<form method="post"><fieldset><legend>Your answer</legend>${choices}
<label for="comment">Comment or question (optional)</label><textarea id="comment" name="comment" maxlength="2000"></textarea>
</fieldset><button type="submit">Send my answer</button></form>
<p class="note">This link works once. Your answer and comment are added to the job's history.</p>`);
}

const DONE: Record<string, string> = {
  approve: 'You approved the work. The agency will go ahead and keep you informed.',
  decline: 'You declined the work. The agency will contact you about what happens next.',
  question: 'Your question was sent to the agency. They will answer and ask you again.',
};

/** The thank-you page after an answer. */
export function donePage(action: string, jobReference: string): string {
  return page('Thank you', `<h1>Thank you</h1><p>${esc(DONE[action] ?? '')}</p><p class="note">Job ${esc(jobReference)}. You can close this page.</p>`);
}

const REFUSED: Record<LinkRefusal, { status: number; title: string; text: string }> = {
  invalid: { status: 400, title: 'This link is not valid', text: 'The link is incomplete or was changed. Please open it again from the e-mail, or contact the agency.' },
  expired: { status: 410, title: 'This link has expired', text: 'The time to answer has passed and the agency has been told. Please contact the agency if the work is still needed.' },
  used: { status: 409, title: 'This link has already been used', text: 'An answer was already given with this link, and it cannot be used twice. Please contact the agency to change it.' },
  revoked: { status: 410, title: 'This link was withdrawn', text: 'The agency withdrew this request. Please contact the agency if you have questions.' },
};

/**
 * The HTTP status, the page and the short title and text for a refused link (the title and text
 * also make the error envelope, for a client that does not ask for HTML).
 */
export function refusedPage(why: LinkRefusal): { status: number; html: string; title: string; text: string } {
  const r = REFUSED[why];
  return { status: r.status, html: page(r.title, `<h1>${esc(r.title)}</h1><p>${esc(r.text)}</p>`), title: r.title, text: r.text };
}
