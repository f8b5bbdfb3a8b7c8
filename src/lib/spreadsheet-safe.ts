/**
 * The one guard against spreadsheet formula injection (OWASP "CSV injection"; docs/security.md
 * "Exports"): every CSV and XLSX cell the service writes passes through `safeCell`. A text cell
 * that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read by Excel, LibreOffice
 * or Google Sheets as a formula, so it is prefixed with a single quote and shows as the text it is.
 * Numbers, and text that is a plain decimal number (such as the signed amounts "-12.50" of the
 * accounting exports), are kept as they are: a spreadsheet reads them as numbers, never formulas.
 */

/** A cell of an export: text, a number, or empty. */
export type ExportCell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;

/** True when a spreadsheet would treat `text` as the start of a formula. */
export function startsFormula(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/**
 * A cell made safe to open in a spreadsheet.
 * @param value the cell: text, a number, or null
 * @returns the value, with a leading `'` when it is text that would start a formula
 */
export function safeCell<T extends ExportCell>(value: T): T {
  return (typeof value === 'string' && startsFormula(value) ? `'${value}` : value) as T;
}

/** Every cell of a row made safe (safeCell). */
export function safeRow<T extends ExportCell>(row: readonly T[]): T[] {
  return row.map(safeCell);
}
