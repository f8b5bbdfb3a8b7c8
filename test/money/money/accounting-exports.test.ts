/**
 * Exports for the accounting packages (docs/money.md "Exports"), parsed back (csv-parse, exceljs)
 * and checked for each package's required columns. The column lists come from:
 * - Xero: the CSV templates of Xero's "Import bills", "Import invoices" (sales) and "Import a bank
 *   statement" screens (Xero Central); the starred columns are the ones Xero requires.
 * - QuickBooks Online (UK): the sample files of "Import invoices" and "Import bills" (QuickBooks
 *   help "Import invoices in batches"), starred columns required; bank transactions in the
 *   3-column CSV of "Upload bank transactions" (Date, Description, Amount).
 * - Sage 50 Accounts: the "Audit Trail Transaction Full Template" of Sage's import templates
 *   (Sage knowledge base "Import data: audit trail transactions"); compulsory: Type, Account
 *   Reference, Nominal A/C Ref, Date, Net Amount, Tax Code.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { LINES, moneyWorld } from './world.ts';

const REQUIRED: Record<string, Record<string, string[]>> = {
  xero: {
    bills: ['*ContactName', '*InvoiceNumber', '*InvoiceDate', '*DueDate', '*Quantity', '*UnitAmount', '*AccountCode', '*TaxType'],
    sales: ['*ContactName', '*InvoiceNumber', '*InvoiceDate', '*DueDate', '*Description', '*Quantity', '*UnitAmount', '*AccountCode', '*TaxType'],
    payments: ['*Date', '*Amount'],
  },
  quickbooks: {
    bills: ['*BillNo', '*Supplier', '*BillDate', '*DueDate', '*Account', '*LineAmount', '*LineTaxCode'],
    sales: ['*InvoiceNo', '*Customer', '*InvoiceDate', '*DueDate', '*ItemAmount', '*ItemTaxCode'],
    payments: ['Date', 'Description', 'Amount'],
  },
  sage: {
    bills: ['Type', 'Account Reference', 'Nominal A/C Ref', 'Date', 'Net Amount', 'Tax Code'],
    sales: ['Type', 'Account Reference', 'Nominal A/C Ref', 'Date', 'Net Amount', 'Tax Code'],
    payments: ['Type', 'Account Reference', 'Nominal A/C Ref', 'Date', 'Net Amount', 'Tax Code'],
  },
};
const URL: Record<string, (pkg: string) => string> = {
  bills: (pkg) => `/api/invoices/export/${pkg}/bills`,
  payments: (pkg) => `/api/invoices/export/${pkg}/payments`,
  sales: (pkg) => `/api/recharges/export/${pkg}`,
};

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;
let invoiceNumber: string;
/** The self-billed invoice's own number (its supplier's series), which the credit note cites (docs/money.md). */
let ownNumber: string;
let creditNumber: string;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7, addressId: w.address.id, title: 'Leaking stopcock' });
  const jobUuid = (await t.db.selectFrom('jobs').select('uuid').where('id', '=', job.id).executeTakeFirstOrThrow()).uuid;
  const ada = (await w.adminA.client.post('/api/landlords', { name: 'Ada Lovelace', email: 'ada@example.test', address_line1: '1 Park Square', address_town: 'Leeds', address_postcode: 'LS1 2ND' })).json().data;
  const addressUuid = (await t.db.selectFrom('addresses').select('uuid').where('id', '=', w.address.id).executeTakeFirstOrThrow()).uuid;
  await w.adminA.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: addressUuid, share_bp: 10000 });
  await w.adminA.client.put('/api/recharges/settings', { fee_mode: 'percent', fee_percent_bp: 1000, fee_fixed_pence: 0 });
  const inv = (await w.adminA.client.post('/api/invoices', { job_uuid: jobUuid, lines: LINES })).json().data;
  const issued = (await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`)).json().data;
  invoiceNumber = issued.invoice_number;
  ownNumber = issued.vat_invoice_number;
  await w.adminA.client.post(`/api/invoices/${inv.uuid}/payments`, { amount_pence: 5_000, paid_on: '2026-11-21', method: 'bank_transfer', reference: 'BACS 0042' });
  creditNumber = (await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [LINES[1]], reason: 'Part not fitted' })).json().data.invoice_number;
  await dispatchPendingEvents(t.deps, backgroundHandlers());
});
afterAll(async () => t.close());

async function csv(url: string): Promise<Record<string, string>[]> {
  const res = await w.adminA.client.get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return parse(res.body, { columns: true });
}

async function xlsx(url: string): Promise<{ header: string[]; rows: ExcelJS.CellValue[][] }> {
  const res = await w.adminA.client.get(url);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const values = ws.getSheetValues().filter(Boolean) as ExcelJS.CellValue[][];
  return { header: (values[0] as string[]).slice(1), rows: values.slice(1).map((r) => r.slice(1)) };
}

describe('each package finds its required columns, in CSV and XLSX', () => {
  for (const [pkg, kinds] of Object.entries(REQUIRED)) {
    for (const [kind, required] of Object.entries(kinds)) {
      it(`${pkg} ${kind}`, async () => {
        const rows = await csv(URL[kind]!(pkg));
        expect(rows.length, `${pkg} ${kind} rows`).toBeGreaterThan(0);
        for (const col of required) {
          expect(Object.keys(rows[0]!), col).toContain(col);
          for (const r of rows) expect(r[col], `${pkg} ${kind} ${col}`).not.toBe('');
        }
        const book = await xlsx(`${URL[kind]!(pkg)}?format=xlsx`);
        expect(book.header).toEqual(Object.keys(rows[0]!));
        expect(book.rows).toHaveLength(rows.length);
      });
    }
  }
});

describe('amounts, dates and credit notes', () => {
  it('Xero bills: decimal pounds, DD/MM/YYYY, the credit note negative and citing the invoice it corrects', async () => {
    const rows = await csv('/api/invoices/export/xero/bills');
    expect(rows.find((r) => r['*InvoiceNumber'] === invoiceNumber)).toMatchObject({ '*InvoiceDate': '21/11/2026', Total: '91.61', '*UnitAmount': '45.00', '*TaxType': '20% (VAT on Expenses)' });
    expect(rows.find((r) => r['*InvoiceNumber'] === creditNumber)).toMatchObject({ Reference: ownNumber, Total: '-10.61', '*TaxType': '5% (VAT on Expenses)' });
  });

  it('XLSX holds real dates and numbers', async () => {
    const { header, rows } = await xlsx('/api/invoices/export/sage/bills?format=xlsx');
    const at = (name: string) => header.indexOf(name);
    const pi = rows.find((r) => r[at('Type')] === 'PI')!;
    expect(pi[at('Date')]).toBeInstanceOf(Date);
    expect((pi[at('Date')] as Date).toISOString().slice(0, 10)).toBe('2026-11-21');
    expect(pi[at('Net Amount')]).toBe(67.5);
    expect(pi[at('Tax Code')]).toBe('T1');
    const pc = rows.find((r) => r[at('Type')] === 'PC')!;
    expect(pc[at('Extra Reference')]).toBe(ownNumber);
    expect(pc[at('Tax Code')]).toBe('T5');
  });

  it('QuickBooks bills: tax exclusive lines with UK tax codes; the credit note names the invoice in Memo', async () => {
    const rows = await csv('/api/invoices/export/quickbooks/bills');
    const inv = rows.filter((r) => r['*BillNo'] === invoiceNumber);
    expect(inv.map((r) => [r['*LineAmount'], r['*LineTaxCode'], r.LineTaxAmount])).toEqual([['67.50', '20.0% S', '13.50'], ['10.10', '5.0% R', '0.51']]);
    expect(rows.find((r) => r['*BillNo'] === creditNumber)!.Memo).toContain(`against ${ownNumber}`);
  });

  it('recharges: sales invoices with the cost passed on and the fee with VAT; the credit cites the recharge', async () => {
    const rows = await csv('/api/recharges/export/xero');
    const rch = rows.filter((r) => r['*InvoiceNumber'] === 'RCH-000001');
    // Recharge treatment: the agency's onward supply per rate with its output VAT (10.10 at 5 %: 0.51; 67.50 at 20 %: 13.50); fee 10 % of 77.60 = 7.76 with 1.55 VAT
    expect(rch.map((r) => [r['*UnitAmount'], r['*TaxType'], r.TaxAmount, r['*AccountCode']])).toEqual([
      ['10.10', '5% (VAT on Income)', '0.51', '200'], ['67.50', '20% (VAT on Income)', '13.50', '200'], ['7.76', '20% (VAT on Income)', '1.55', '200'],
    ]);
    expect(rch[0]).toMatchObject({ '*ContactName': 'Ada Lovelace', POPostalCode: 'LS1 2ND', Total: '100.92' });
    const credit = rows.filter((r) => r['*InvoiceNumber'] === 'RCC-000002');
    expect(credit[0]).toMatchObject({ Reference: 'RCH-000001', '*UnitAmount': '-10.10', '*TaxType': '5% (VAT on Income)', TaxAmount: '-0.51' });
    const sage = await csv('/api/recharges/export/sage');
    expect(sage.filter((r) => r.Type === 'SC').every((r) => r['Extra Reference'] === 'RCH-000001')).toBe(true);
  });

  it('payments: money out, per package', async () => {
    expect((await csv('/api/invoices/export/quickbooks/payments'))[0]).toMatchObject({ Date: '21/11/2026', Amount: '-50.00' });
    expect((await csv('/api/invoices/export/sage/payments'))[0]).toMatchObject({ Type: 'PA', 'Net Amount': '50.00', 'Extra Reference': invoiceNumber, Reference: 'BACS 0042' });
  });

  it('unknown packages are 400; exports are for the accounts team', async () => {
    expect((await w.adminA.client.get('/api/invoices/export/sage50/bills')).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/invoices/export/xero/bills?format=pdf')).statusCode).toBe(400);
    expect((await w.contractor.client.get('/api/invoices/export/xero/bills')).statusCode).toBe(403);
    expect((await w.agentA1.client.get('/api/recharges/export/xero')).statusCode).toBe(403);
    expect(parse((await w.adminB.client.get('/api/recharges/export/xero')).body)).toHaveLength(1);
  });
});
