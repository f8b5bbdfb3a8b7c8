import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XERO_BILL_COLUMNS, XERO_STATEMENT_COLUMNS } from '../../../src/modules/money/money/invoice-csv.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { LINES, moneyWorld } from './world.ts';

const FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;
let invoiceUuid: string;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const inv = (await w.contractor.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES, contractor_reference: 'FG-1001', supplier_invoice_date: '2026-11-21' })).json().data;
  invoiceUuid = inv.uuid;
  await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
  await w.adminA.client.post(`/api/invoices/${inv.uuid}/payments`, { amount_pence: 5_000, paid_on: '2026-11-21', method: 'bank_transfer', reference: 'BACS 0042' });
  await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [LINES[1]], reason: 'Part not fitted' });
});
afterAll(async () => t.close());

/** Every text item of every page, joined with spaces. */
async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl: FONTS }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  await doc.destroy();
  return parts.join(' ');
}

describe('invoice PDF', () => {
  it('parsed back by a PDF text extractor, shows agency, VAT numbers, lines and totals', async () => {
    const res = await w.contractor.client.get(`/api/invoices/${invoiceUuid}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const s of ['INVOICE', 'INV-000001', 'Agency A', 'GB987654321', 'GB123456789', 'Fletcher Plumbing', 'Labour', '£77.60', '£14.01', '£91.61', '£50.00']) {
      expect(text, s).toContain(s);
    }
    expect(text).toContain('Outstanding');
    expect(text).toContain('£31.00'); // 91.61 - 50.00 paid - 10.61 credited
  });
});

describe('CSV export', () => {
  it('bills CSV in the Xero bills layout parses back with the invoice and the credit note', async () => {
    const res = await w.adminA.client.get('/api/invoices/export/bills.csv?from_date=2026-11-01&to_date=2026-11-30');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows: string[][] = parse(res.body);
    expect(rows[0]).toEqual([...XERO_BILL_COLUMNS]);
    const records: Record<string, string>[] = parse(res.body, { columns: true });
    const inv = records.filter((r) => r['*InvoiceNumber'] === 'INV-000001');
    expect(inv.map((r) => r.Description)).toEqual(['Labour', 'Energy-saving part']);
    expect(inv[0]).toMatchObject({ '*ContactName': 'Fletcher Plumbing', Reference: 'FG-1001', '*InvoiceDate': '21/11/2026', '*DueDate': '21/12/2026', Total: '91.61', '*Quantity': '1.5', '*UnitAmount': '45.00', '*TaxType': '20% (VAT on Expenses)', TaxAmount: '13.50', Currency: 'GBP' });
    expect(inv[1]).toMatchObject({ '*TaxType': '5% (VAT on Expenses)', TaxAmount: '0.51' });
    const cn = records.find((r) => r['*InvoiceNumber'] === 'CN-000001');
    expect(cn).toMatchObject({ Total: '-10.61', '*UnitAmount': '-10.10' });
  });

  it('payments CSV in the Xero bank statement layout parses back', async () => {
    const res = await w.adminA.client.get('/api/invoices/export/payments.csv');
    const records: Record<string, string>[] = parse(res.body, { columns: true });
    expect(Object.keys(records[0]!)).toEqual([...XERO_STATEMENT_COLUMNS]);
    expect(records[0]).toMatchObject({ '*Date': '21/11/2026', '*Amount': '-50.00', Payee: 'Fletcher Plumbing', Reference: 'BACS 0042' });
  });

  it('exports are for the accounts team: contractors get 403, another agency an empty file', async () => {
    expect((await w.contractor.client.get('/api/invoices/export/bills.csv')).statusCode).toBe(403);
    const b = await w.adminB.client.get('/api/invoices/export/bills.csv');
    expect(parse(b.body)).toHaveLength(1);
  });
});
