/**
 * HTML text built from values, escaped in one place (docs/security.md "Signed links": every value
 * a page or an e-mail shows is escaped). `escapeHtml` makes a value safe inside an element and
 * inside a quoted attribute value (`&`, `<`, `>`, `"` and `'` become entities; the same five that
 * a TwiML reply's text needs escaped in XML). The `html` tag escapes every interpolated value and
 * leaves alone what an earlier `html` (or `trustedHtml`) made, so templates nest without escaping
 * twice.
 */

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * `value` as text safe in HTML element content and quoted attribute values (and XML text).
 * @param value any value: null and undefined are '', anything else its String()
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Markup already safe to send (made by `html` or `trustedHtml`): interpolated as it is. */
export class SafeHtml {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toString(): string {
    return this.text;
  }
}

/** Marks markup written in the code (never a value from a request or the database) as safe. */
export function trustedHtml(text: string): SafeHtml {
  return new SafeHtml(text);
}

/**
 * Tagged template: the literal parts as written, each value escaped (escapeHtml) unless it is
 * SafeHtml; an array's items each so, joined with nothing; null, undefined and false are ''.
 * @example html`<p>${name}</p>` -> SafeHtml('<p>O&#39;Brien &amp; Sons</p>')
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

function part(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === false) return '';
  return escapeHtml(value);
}
