/**
 * The one guard against spreadsheet formula injection (OWASP "CSV injection"; docs/security.md
 * "Exports"): every CSV and XLSX cell the service writes passes through `safeCell`. A text cell
 * that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read by Excel, LibreOffice
 * or Google Sheets as a formula, so it is prefixed with a single quote and shows as the text it is.
 * Numbers, and text that is a plain decimal number (such as the signed amounts "-12.50" of the
 * accounting exports), are kept as they are: a spreadsheet reads them as numbers, never formulas.
 * The quote is a mark of the file, not of the text: `readCell` takes it off again when a file is
 * read back (the import, docs/onboarding.md "Round trip"), so `readCell(safeCell(t)) === t` for
 * every text t. Text that already starts with quotes before a formula sign gets one more, so
 * text typed as `'=x` comes back as `'=x`.
 */

/** A cell of an export: text, a number, or empty. */
export type ExportCell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;

/** True when a spreadsheet would treat `text` as the start of a formula. */
export function startsFormula(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/** True when safeCell quotes `text`: it starts a formula once its leading quotes are taken off. */
function needsQuote(text: string): boolean {
  return startsFormula(text.replace(/^'+/, ''));
}

/**
 * A cell made safe to open in a spreadsheet.
 * @param value the cell: text, a number, or null
 * @returns the value, with a leading `'` when it is text that would start a formula
 */
export function safeCell<T extends ExportCell>(value: T): T {
  return (typeof value === 'string' && needsQuote(value) ? `'${value}` : value) as T;
}

/**
 * A cell of a file read back as it was written before safeCell: the quote safeCell put before a
 * formula sign taken off (what a spreadsheet does with a leading quote too), any other text as it is.
 * @param text the cell as read
 * @returns the text as typed
 */
export function readCell(text: string): string {
  return text.startsWith("'") && needsQuote(text.slice(1)) ? text.slice(1) : text;
}

/** Every cell of a row made safe (safeCell). */
export function safeRow<T extends ExportCell>(row: readonly T[]): T[] {
  return row.map(safeCell);
}
