/**
 * The phone-sized HTML pages a contractor sees after following a works-order or quote link
 * (docs/works-orders.md): the job with a form per action the job's state allows, the outcome of
 * the last action, and one clear page per refusal (invalid, expired, used, withdrawn). Every value
 * is escaped; the pages load nothing from elsewhere. Dates for people in Europe/London.
 */
import { linkPage } from '../../../http/link-pages.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';
import { formatLondonDate, formatLondonDateTime } from '../../../lib/london-time.ts';
import { formatPounds } from '../money/index.ts';
import type { LinkRefusal } from './links.ts';
import type { LinkViewDto } from './works-orders.schemas.ts';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:1rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.45}
h1{font-size:1.3rem}h2{font-size:1.05rem;margin:1.2rem 0 .4rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{font-weight:600}
form{border:1px solid #ccc;border-radius:6px;padding:.8rem;margin:.6rem 0}label{display:block;margin:.3rem 0}
input,select,textarea{font-size:1rem;width:100%;box-sizing:border-box;padding:.4rem}textarea{min-height:4rem}
button{font-size:1rem;padding:.6rem 1.2rem;margin-top:.5rem;width:100%}.msg{background:#e7f4e4;border:1px solid #9c9;padding:.6rem;border-radius:6px}
.err{background:#fdecea;border:1px solid #e99;padding:.6rem;border-radius:6px}.note{color:#555;font-size:.9rem}`;

/** The works-order pages' document: the signed-link shell (src/http/link-pages.ts) with their style. */
function page(title: string, body: string): string {
  return linkPage(title, STYLE, body);
}

const form = (action: string, title: string, fields: string, button: string) =>
  `<form method="post"><h2>${esc(title)}</h2><input type="hidden" name="action" value="${action}">${fields}<button type="submit">${esc(button)}</button></form>`;

const lineFields = (what: string) => `<label>Description<input name="line_description" maxlength="500" required></label>
<label>Quantity<input name="line_quantity" inputmode="decimal" value="1" pattern="[0-9]{1,5}(\\.[0-9]{1,3})?"></label>
<label>Price each, £ ex VAT<input name="line_unit_price" inputmode="decimal" required pattern="[0-9]{1,7}(\\.[0-9]{1,2})?"></label>
<label>VAT<select name="line_vat_rate"><option value="standard">Standard 20 %</option><option value="reduced">Reduced 5 %</option><option value="zero">Zero</option><option value="exempt">Exempt</option></select></label>
<label>Notes on the ${what} (optional)<textarea name="notes" maxlength="2000"></textarea></label>`;

/** The job page with the forms the link allows now (`error`: a refused action's message; `token` for the photo form's address). */
export function jobPage(v: LinkViewDto, token: string, error: string | null = null): string {
  const j = v.job;
  const forms: string[] = [];
  const has = (a: string) => v.actions.includes(a);
  if (has('accept')) forms.push(form('accept', 'Accept the job', '', 'Accept'));
  if (has('book')) {
    const slots = v.time_ranges.map((t) => `<option value="${t.id}">${esc(t.label)}</option>`).join('');
    if (v.tenant_windows.length > 0) {
      // The tenant gave windows: the visit is booked inside one (docs/tenant-reporting.md "Booking the visit").
      const windows = v.tenant_windows.map((w) => `<option value="${esc(w.uuid)}">${esc(w.label)}</option>`).join('');
      forms.push(form('book', j.scheduled_for ? 'Move the visit' : 'Book the visit', `<p class="note">The tenant is in during these windows (London time).</p>
<label>Tenant's window<select name="window_uuid" required>${windows}</select></label><label>Arrive from<input type="time" name="from" required></label><label>Until<input type="time" name="until" required></label>`, 'Book'));
    } else {
      forms.push(form('book', j.scheduled_for ? 'Move the visit' : 'Book the visit', `<label>Date<input type="date" name="scheduled_for" required></label>${slots ? `<label>Time<select name="time_range_id"><option value="">Any time</option>${slots}</select></label>` : ''}`, 'Book'));
    }
  }
  if (has('attended')) forms.push(form('attended', 'On site', '<p class="note">Mark the job attended when you arrive.</p>', 'Mark attended'));
  if (has('completed')) forms.push(form('completed', 'Work done', '<p class="note">Mark the job completed when the work is finished.</p>', 'Mark completed'));
  if (has('invoice')) forms.push(form('invoice', 'Send your invoice', `${lineFields('invoice')}<label>Your invoice number (optional)<input name="contractor_reference" maxlength="60"></label>`, 'Send invoice'));
  if (has('quote')) forms.push(form('quote', 'Your quote', lineFields('quote'), 'Send quote'));
  if (has('note')) {
    forms.push(form('note', 'Add a note', '<label>Note for the agency<textarea name="body" maxlength="5000" required></textarea></label>', 'Add note'));
    forms.push(`<form method="post" action="${esc(token)}/photos" enctype="multipart/form-data" data-photos><h2>Add a photo</h2><label>Photo<input type="file" name="file" accept="image/*" capture="environment" required></label><label>Caption (optional)<input name="description" maxlength="500"></label><button type="submit">Upload photo</button></form>`);
  }
  if (has('decline')) forms.push(form('decline', 'Decline the job', '<label>Reason (optional)<textarea name="reason" maxlength="2000"></textarea></label>', 'Decline'));
  if (has('decline_quote')) forms.push(form('decline_quote', 'Cannot quote', '<label>Reason (optional)<textarea name="reason" maxlength="2000"></textarea></label>', 'I cannot quote'));
  const visit = j.scheduled_for ? `${formatLondonDate(new Date(`${j.scheduled_for}T12:00:00Z`))}${j.time_range ? `, ${j.time_range}` : ''}` : 'not booked';
  const invoices = v.invoices.map((i) => `<li>${esc(formatPounds(i.gross_pence))}: ${esc(i.status)}</li>`).join('');
  const heading = v.purpose === 'quote' ? `Quote requested: ${j.reference}` : `Works order ${j.reference}`;
  return page(heading, `
<h1>${esc(heading)}</h1>
<p>${esc(v.agency_name)} for ${esc(v.contractor_name)}</p>
${v.message ? `<p class="msg">${esc(v.message)}</p>` : ''}${error ? `<p class="err">${esc(error)}</p>` : ''}
<dl><dt>Job</dt><dd>${esc(j.title)}</dd>
${j.address ? `<dt>Address</dt><dd>${esc(j.address)}</dd>` : ''}
<dt>Details</dt><dd>${esc(j.description || '-')}</dd>
<dt>Priority</dt><dd>${j.priority}</dd>
${v.purpose === 'works_order' ? `<dt>Status</dt><dd>${esc(j.status)}${j.accepted_at ? ' (accepted)' : ''}</dd><dt>Visit</dt><dd>${esc(visit)}</dd>` : ''}
${v.quote_deadline ? `<dt>Answer by</dt><dd>${esc(formatLondonDateTime(new Date(v.quote_deadline)))}</dd>` : ''}
${invoices ? `<dt>Invoices</dt><dd><ul>${invoices}</ul></dd>` : ''}</dl>
${forms.join('\n')}
<p class="note">This link is for ${esc(v.contractor_name)} only and works until ${esc(formatLondonDateTime(new Date(v.expires_at)))}. Everything you do here goes on the job's record.</p>`);
}

const REFUSED: Record<LinkRefusal, { status: number; title: string; text: string }> = {
  invalid: { status: 400, title: 'This link is not valid', text: 'The link is incomplete or was changed. Please open it again from the e-mail, or contact the agency.' },
  expired: { status: 410, title: 'This link has expired', text: 'The time for this link has passed. Please contact the agency for a new one.' },
  used: { status: 409, title: 'This link has already been used', text: 'This link has already given its answer and cannot be used again. Please contact the agency to change it.' },
  revoked: { status: 410, title: 'This link was withdrawn', text: 'The agency withdrew this link (or the job is no longer yours). Please contact the agency if you have questions.' },
};

/** The status, page, title and text of a refused link. */
export function refusedPage(why: LinkRefusal): { status: number; html: string; title: string; text: string } {
  const r = REFUSED[why];
  return { status: r.status, html: page(r.title, `<h1>${esc(r.title)}</h1><p>${esc(r.text)}</p>`), title: r.title, text: r.text };
}
