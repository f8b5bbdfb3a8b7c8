/**
 * Streaming writers of the reports (docs/insight.md "Reports"): CSV through csv-stringify and XLSX
 * through exceljs's streaming WorkbookWriter. Rows come from an async iterator and are written one
 * at a time, so a report of any size is never held in memory whole.
 */
import { PassThrough, Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { safeCell } from '../../../lib/spreadsheet-safe.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

export type Cell = string | number | null;
export interface Column {
  key: string;
  header: string;
}
export type ReportFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

async function writeCsv(columns: Column[], rows: AsyncIterable<Record<string, Cell>>, out: Writable) {
  const source = Readable.from(
    (async function* () {
      for await (const r of rows) yield columns.map((c) => safeCell(r[c.key] ?? null));
    })(),
  );
  await pipeline(source, stringify({ header: true, columns: columns.map((c) => c.header), bom: false }), out);
}

async function writeXlsx(columns: Column[], rows: AsyncIterable<Record<string, Cell>>, out: Writable, sheet: string) {
  // Loaded when first used (docs/operations.md "Starting"): not on the start-up path.
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(cutGraphemes(sheet, 31));
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: Math.max(12, c.header.length + 2) }));
  for await (const r of rows) {
    ws.addRow(columns.map((c) => safeCell(r[c.key] ?? null))).commit();
  }
  ws.commit();
  await wb.commit();
}

/**
 * Starts writing the report and returns the stream to send; an error while producing rows
 * destroys the stream (the client sees a cut download, never a half report passed as whole).
 */
export function renderReport(format: ReportFormat, columns: Column[], rows: AsyncIterable<Record<string, Cell>>, sheet: string): PassThrough {
  const out = new PassThrough();
  const work = format === 'csv' ? writeCsv(columns, rows, out) : writeXlsx(columns, rows, out, sheet);
  work.catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

/** The whole report as one Buffer (e-mail attachments). */
export async function renderToBuffer(format: ReportFormat, columns: Column[], rows: AsyncIterable<Record<string, Cell>>, sheet: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of renderReport(format, columns, rows, sheet)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
