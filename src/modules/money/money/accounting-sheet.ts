/**
 * A table for an accounting package's import (docs/money.md "Exports"), written as CSV
 * (csv-stringify) or XLSX (exceljs). Cells are typed: text (through safeCell, so no formula
 * reaches the spreadsheet: src/lib/spreadsheet-safe.ts), dates (ISO in; DD/MM/YYYY in CSV as the
 * UK editions of Xero, QuickBooks Online and Sage read them; a real date cell in XLSX), amounts
 * (integer pence in; decimal pounds "123.45" in CSV, a number 123.45 in XLSX) and quantities.
 */
import { stringify } from 'csv-stringify/sync';
import { safeCell } from '../../../lib/spreadsheet-safe.ts';
import { decimalPounds } from './vat.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** One typed cell. */
export type SheetCell = { t: 'text'; v: string | null } | { t: 'date'; v: string | null } | { t: 'money'; v: number } | { t: 'qty'; v: number };
/** A table: the package's column headings and the rows. */
export interface Sheet {
  columns: readonly string[];
  rows: SheetCell[][];
}

export const text = (v: string | null | undefined): SheetCell => ({ t: 'text', v: v ?? null });
export const date = (v: string | null): SheetCell => ({ t: 'date', v });
export const money = (v: number): SheetCell => ({ t: 'money', v });
export const qty = (v: number): SheetCell => ({ t: 'qty', v });

/** DD/MM/YYYY from an ISO date. */
export function ukDate(iso: string | null): string {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

function csvCell(c: SheetCell): string {
  if (c.t === 'text') return safeCell(c.v ?? '');
  if (c.t === 'date') return ukDate(c.v);
  if (c.t === 'money') return decimalPounds(c.v);
  return String(c.v);
}

/** The table as CSV text (header row first). */
export function sheetCsv(sheet: Sheet): string {
  return stringify([[...sheet.columns], ...sheet.rows.map((r) => r.map(csvCell))]);
}

/**
 * The table as an XLSX workbook of one worksheet: dates are date cells (shown DD/MM/YYYY),
 * amounts numbers in pounds with two decimals.
 * @returns the .xlsx bytes
 */
export async function sheetXlsx(sheet: Sheet, name: string): Promise<Buffer> {
  // Loaded when first used (docs/operations.md "Starting"): not on the start-up path.
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  wb.created = new Date(0);
  wb.modified = new Date(0);
  const ws = wb.addWorksheet(cutGraphemes(name, 31));
  ws.addRow([...sheet.columns].map((c) => safeCell(c)));
  for (const r of sheet.rows) {
    const row = ws.addRow(r.map((c) => {
      if (c.t === 'text') return safeCell(c.v ?? '');
      if (c.t === 'date') return c.v ? new Date(`${c.v}T00:00:00Z`) : null;
      if (c.t === 'money') return c.v / 100;
      return c.v;
    }));
    r.forEach((c, i) => {
      if (c.t === 'date') row.getCell(i + 1).numFmt = 'dd/mm/yyyy';
      if (c.t === 'money') row.getCell(i + 1).numFmt = '0.00';
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * A Sage 50 account reference made from a name: its letters and digits, upper case, at most 8
 * (Sage's limit). The supplier or customer account must exist in Sage with this reference.
 */
export function sageAccountRef(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 8) || 'UNKNOWN';
}
