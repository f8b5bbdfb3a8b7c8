/**
 * The accounting exports in each vendor's documented CSV import format (docs/money.md "Exports"),
 * parsed with csv-parse, one describe per format: the header row is the vendor template's (names
 * and order), every required cell is filled, dates are DD/MM/YYYY and real, amounts are decimal
 * pounds with two places, tax codes are the vendor's own names, the sign follows the vendor's
 * convention, and the totals reconcile with the invoices, recharges and payments the API reports.
 * The templates checked against:
 * - Xero (UK): the "Import bills" and "Import invoices" CSV templates (*ContactName, *InvoiceNumber,
 *   *InvoiceDate, *DueDate, *Description, *Quantity, *UnitAmount, *AccountCode, *TaxType required;
 *   DD/MM/YYYY; the TaxType is the tax rate's display name such as "20% (VAT on Income)"; a negative
 *   total imports as a credit note) and the bank statement CSV (*Date, *Amount; money out negative).
 * - QuickBooks Online (UK): the sample files of "Import invoices" and "Import bills" (starred
 *   columns required), "Import credit notes" (a credit note of its own: the invoice import takes no
 *   negative total), the 3-column bank upload (Date, Description, Amount); VAT codes 20.0% S,
 *   5.0% R, 0.0% Z, Exempt, No VAT.
 * - Sage 50 Accounts: "Audit trail transactions" import (Type, Account Reference up to 8 characters,
 *   Nominal A/C Ref, Date, Reference up to 30, Details up to 60, Net Amount, Tax Code T0..T9, Tax
 *   Amount ...); amounts positive, the Type (SI, SC, PI, PC, PA) gives the direction.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { moneyWorld } from './world.ts';

type Row = Record<string, string>;

/** The vendors' templates: header names in order. */
const TEMPLATE = {
  xero: {
    bills: ['*ContactName', 'EmailAddress', '*InvoiceNumber', 'Reference', '*InvoiceDate', '*DueDate', 'Total', 'Description', '*Quantity', '*UnitAmount', '*AccountCode', '*TaxType', 'TaxAmount', 'Currency'],
    sales: ['*ContactName', 'EmailAddress', 'POAddressLine1', 'POCity', 'POPostalCode', '*InvoiceNumber', 'Reference', '*InvoiceDate', '*DueDate', 'Total', '*Description', '*Quantity', '*UnitAmount', '*AccountCode', '*TaxType', 'TaxAmount', 'Currency'],
    payments: ['*Date', '*Amount', 'Payee', 'Description', 'Reference'],
  },
  quickbooks: {
    bills: ['*BillNo', '*Supplier', '*BillDate', '*DueDate', 'Terms', 'Location', 'Memo', '*Account', 'LineDescription', '*LineAmount', '*LineTaxCode', 'LineTaxAmount', 'Currency'],
    sales: ['*InvoiceNo', '*Customer', '*InvoiceDate', '*DueDate', 'Terms', 'Location', 'Memo', 'Item(Product/Service)', 'ItemDescription', 'ItemQuantity', 'ItemRate', '*ItemAmount', '*ItemTaxCode', 'ItemTaxAmount', 'Currency', 'Service Date'],
    credit_notes: ['*CreditNoteNo', '*Customer', '*CreditNoteDate', 'Location', 'Memo', 'Item(Product/Service)', 'ItemDescription', 'ItemQuantity', 'ItemRate', '*ItemAmount', '*ItemTaxCode', 'ItemTaxAmount', 'Currency', 'Service Date'],
    payments: ['Date', 'Description', 'Amount'],
  },
  sage: {
    audit: ['Type', 'Account Reference', 'Nominal A/C Ref', 'Department Code', 'Date', 'Reference', 'Details', 'Net Amount', 'Tax Code', 'Tax Amount', 'Exchange Rate', 'Extra Reference', 'User Name', 'Project Refn', 'Cost Code Refn'],
  },
} as const;

const XERO_PURCHASE_TAX = ['20% (VAT on Expenses)', '5% (VAT on Expenses)', 'Zero Rated Expenses', 'Exempt Expenses', 'No VAT'];
const XERO_SALES_TAX = ['20% (VAT on Income)', '5% (VAT on Income)', 'Zero Rated Income', 'Exempt Income', 'No VAT'];
const QBO_TAX = ['20.0% S', '5.0% R', '0.0% Z', 'Exempt', 'No VAT'];
const SAGE_TAX = ['T0', 'T1', 'T2', 'T5', 'T9'];

const LINES = [
  { description: 'Labour', quantity: 1.5, unit_price_pence: 4_500, vat_rate: 'standard' },
  { description: 'Energy-saving part', quantity: 1, unit_price_pence: 1_010, vat_rate: 'reduced' },
  { description: 'Grab rail', quantity: 2, unit_price_pence: 1_234, vat_rate: 'zero' },
];

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;
/** Every bill document in the export: register number -> its signed gross, net and VAT as the API reports them, and its treatment. */
const bills = new Map<string, { gross: number; net: number; vat: number; treatment: string; credit: boolean }>();
/** Recharge number -> signed total. */
const recharges = new Map<string, number>();
let paymentsTotal = 0;

const pence = (v: string | undefined) => Math.round(Number(v) * 100);
const byKey = (rows: Row[], key: string) => {
  const m = new Map<string, Row[]>();
  for (const r of rows) m.set(r[key]!, [...(m.get(r[key]!) ?? []), r]);
  return m;
};

async function csv(url: string): Promise<{ header: string[]; rows: Row[] }> {
  const res = await w.adminA.client.get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  const all = parse(res.body) as string[][];
  return { header: all[0]!, rows: parse(res.body, { columns: true }) as Row[] };
}

/** Checks the cells of the named columns: dates DD/MM/YYYY and real, amounts decimal pounds, required cells filled. */
function checkCells(rows: Row[], f: { dates: string[]; amounts: string[]; required: string[] }) {
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    for (const c of f.required) expect(r[c], c).not.toBe('');
    for (const c of f.dates) {
      if (r[c] === '' && !f.required.includes(c)) continue;
      expect(r[c], c).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
      const [d, m, y] = r[c]!.split('/').map(Number) as [number, number, number];
      const real = new Date(Date.UTC(y, m - 1, d));
      expect(real.getUTCDate() === d && real.getUTCMonth() === m - 1, `${c} ${r[c]} is a date`).toBe(true);
    }
    for (const c of f.amounts) expect(r[c], c).toMatch(/^-?\d+\.\d{2}$/);
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const admin = w.adminA.client;
  const addressUuid = (await t.db.selectFrom('addresses').select('uuid').where('id', '=', w.address.id).executeTakeFirstOrThrow()).uuid;
  for (const [name, share, postcode] of [['Ada Lovelace', 6000, 'LS1 2ND'], ['Bob Smith', 4000, 'LS1 5DQ']] as const) {
    const l = (await admin.post('/api/landlords', { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.test`, address_line1: '1 Park Square', address_town: 'Leeds', address_postcode: postcode })).json().data;
    await admin.post(`/api/landlords/${l.uuid}/properties`, { address_uuid: addressUuid, share_bp: share });
  }
  await admin.put('/api/recharges/settings', { fee_mode: 'percent', fee_percent_bp: 1000, fee_fixed_pence: 0 });
  const job = async () => {
    const j = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7, addressId: w.address.id, title: 'Repair' });
    return (await t.db.selectFrom('jobs').select('uuid').where('id', '=', j.id).executeTakeFirstOrThrow()).uuid;
  };
  const issue = async (body: Record<string, unknown>) => {
    const d = await admin.post('/api/invoices', { job_uuid: await job(), lines: LINES, ...body });
    expect(d.statusCode, d.body).toBe(201);
    const res = await admin.post(`/api/invoices/${d.json().data.uuid}/issue`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  // Recharge treatment: a self-billed invoice, a contractor's own one with a credit note; then disbursement: a contractor's own one.
  const selfBilled = await issue({});
  const own = await issue({ contractor_reference: 'FP-3301', supplier_invoice_date: '2026-11-18' });
  const cn = await admin.post(`/api/invoices/${own.uuid}/credit-notes`, { lines: [LINES[1]], reason: 'Part returned' });
  expect(cn.statusCode, cn.body).toBe(201);
  await admin.put('/api/pricing/settings', { vat_treatment: 'disbursement' });
  const disbursed = await issue({ contractor_reference: 'FP-3302', supplier_invoice_date: '2026-11-20' });
  for (const p of [{ amount_pence: 5_000, paid_on: '2026-11-21', reference: 'BACS 1' }, { amount_pence: 2_345, paid_on: '2026-11-21', reference: 'BACS 2' }]) {
    expect((await admin.post(`/api/invoices/${selfBilled.uuid}/payments`, { ...p, method: 'bank_transfer' })).statusCode).toBe(201);
    paymentsTotal += p.amount_pence;
  }
  await dispatchPendingEvents(t.deps, backgroundHandlers());
  for (const d of [selfBilled, own, cn.json().data, disbursed]) {
    const credit = d.kind === 'credit_note';
    const s = credit ? -1 : 1;
    bills.set(d.invoice_number, { gross: s * d.gross_pence, net: s * d.net_pence, vat: s * d.vat_pence, treatment: d.vat_treatment, credit });
  }
  for (const r of (await admin.get('/api/recharges?limit=100')).json().data as { number: string; total_pence: number }[]) recharges.set(r.number, r.total_pence);
  expect([...recharges.keys()].some((n) => n.startsWith('RCC-'))).toBe(true);
});
afterAll(async () => t.close());

describe('Xero (UK) CSV imports', () => {
  it('bills: the template, DD/MM/YYYY, purchase tax rate names, credit notes negative, each bill reconciles (disbursements without VAT)', async () => {
    const { header, rows } = await csv('/api/invoices/export/xero/bills');
    expect(header).toEqual(TEMPLATE.xero.bills);
    checkCells(rows, { dates: ['*InvoiceDate', '*DueDate'], amounts: ['Total', '*UnitAmount', 'TaxAmount'], required: TEMPLATE.xero.bills.filter((c) => c.startsWith('*')) });
    for (const r of rows) expect(XERO_PURCHASE_TAX).toContain(r['*TaxType']);
    const docs = byKey(rows, '*InvoiceNumber');
    expect(new Set(docs.keys())).toEqual(new Set(bills.keys()));
    for (const [number, lines] of docs) {
      const b = bills.get(number)!;
      const lineSum = lines.reduce((s, r) => s + Math.round(Number(r['*Quantity']) * pence(r['*UnitAmount'])) + pence(r.TaxAmount), 0);
      expect(lineSum, number).toBe(b.gross);
      for (const r of lines) expect(pence(r.Total), number).toBe(b.gross);
      expect(lines.reduce((s, r) => s + pence(r.TaxAmount), 0), `${number} VAT reclaimed`).toBe(b.treatment === 'disbursement' ? 0 : b.vat);
      if (b.credit) expect(lines.every((r) => pence(r['*UnitAmount']) < 0 && r.Reference === 'FP-3301'), number).toBe(true);
    }
    expect(docs.get([...bills].find(([, b]) => b.treatment === 'disbursement')![0])![0]!['*InvoiceDate']).toBe('20/11/2026');
  });

  it('sales invoices: the template, sales tax rate names, credits negative, each recharge reconciles to its total', async () => {
    const { header, rows } = await csv('/api/recharges/export/xero');
    expect(header).toEqual(TEMPLATE.xero.sales);
    checkCells(rows, { dates: ['*InvoiceDate', '*DueDate'], amounts: ['Total', '*UnitAmount', 'TaxAmount'], required: TEMPLATE.xero.sales.filter((c) => c.startsWith('*')) });
    for (const r of rows) expect(XERO_SALES_TAX).toContain(r['*TaxType']);
    const docs = byKey(rows, '*InvoiceNumber');
    expect(new Set(docs.keys())).toEqual(new Set(recharges.keys()));
    for (const [number, lines] of docs) {
      expect(lines.reduce((s, r) => s + Math.round(Number(r['*Quantity']) * pence(r['*UnitAmount'])) + pence(r.TaxAmount), 0), number).toBe(recharges.get(number));
      if (number.startsWith('RCC-')) expect(lines.every((r) => pence(r['*UnitAmount']) <= 0 && r.Reference!.startsWith('RCH-')), number).toBe(true);
    }
  });

  it('bank statement: *Date, *Amount with money out negative, adding up to the payments', async () => {
    const { header, rows } = await csv('/api/invoices/export/xero/payments');
    expect(header).toEqual(TEMPLATE.xero.payments);
    checkCells(rows, { dates: ['*Date'], amounts: ['*Amount'], required: ['*Date', '*Amount'] });
    expect(rows.reduce((s, r) => s + pence(r['*Amount']), 0)).toBe(-paymentsTotal);
  });
});

describe('QuickBooks Online (UK) CSV imports', () => {
  it('bills: the sample file, UK VAT codes, tax exclusive lines that reconcile per bill', async () => {
    const { header, rows } = await csv('/api/invoices/export/quickbooks/bills');
    expect(header).toEqual(TEMPLATE.quickbooks.bills);
    checkCells(rows, { dates: ['*BillDate', '*DueDate'], amounts: ['*LineAmount', 'LineTaxAmount'], required: TEMPLATE.quickbooks.bills.filter((c) => c.startsWith('*')) });
    for (const r of rows) expect(QBO_TAX).toContain(r['*LineTaxCode']);
    const docs = byKey(rows, '*BillNo');
    expect(new Set(docs.keys())).toEqual(new Set(bills.keys()));
    for (const [number, lines] of docs) {
      const b = bills.get(number)!;
      expect(lines.reduce((s, r) => s + pence(r['*LineAmount']) + pence(r.LineTaxAmount), 0), number).toBe(b.gross);
      expect(lines.reduce((s, r) => s + pence(r.LineTaxAmount), 0), number).toBe(b.treatment === 'disbursement' ? 0 : b.vat);
    }
  });

  it('invoices: no negative invoice (QuickBooks refuses one); each recharge reconciles, amount = quantity x rate', async () => {
    const { header, rows } = await csv('/api/recharges/export/quickbooks');
    expect(header).toEqual(TEMPLATE.quickbooks.sales);
    checkCells(rows, { dates: ['*InvoiceDate', '*DueDate', 'Service Date'], amounts: ['ItemRate', '*ItemAmount', 'ItemTaxAmount'], required: TEMPLATE.quickbooks.sales.filter((c) => c.startsWith('*')) });
    for (const r of rows) {
      expect(QBO_TAX).toContain(r['*ItemTaxCode']);
      expect(pence(r['*ItemAmount'])).toBe(Math.round(Number(r.ItemQuantity) * pence(r.ItemRate)));
    }
    const docs = byKey(rows, '*InvoiceNo');
    expect(new Set(docs.keys())).toEqual(new Set([...recharges.keys()].filter((n) => n.startsWith('RCH-'))));
    for (const [number, lines] of docs) {
      const total = lines.reduce((s, r) => s + pence(r['*ItemAmount']) + pence(r.ItemTaxAmount), 0);
      expect(total, number).toBe(recharges.get(number));
      expect(total, number).toBeGreaterThan(0);
    }
  });

  it('credit notes: their own import, amounts positive, each the opposite of its recharge credit; documents=all is a 400', async () => {
    const { header, rows } = await csv('/api/recharges/export/quickbooks?documents=credit_notes');
    expect(header).toEqual(TEMPLATE.quickbooks.credit_notes);
    checkCells(rows, { dates: ['*CreditNoteDate', 'Service Date'], amounts: ['ItemRate', '*ItemAmount', 'ItemTaxAmount'], required: TEMPLATE.quickbooks.credit_notes.filter((c) => c.startsWith('*')) });
    const docs = byKey(rows, '*CreditNoteNo');
    expect(new Set(docs.keys())).toEqual(new Set([...recharges.keys()].filter((n) => n.startsWith('RCC-'))));
    for (const [number, lines] of docs) {
      for (const r of lines) expect(pence(r['*ItemAmount']), number).toBeGreaterThan(0);
      expect(lines.reduce((s, r) => s + pence(r['*ItemAmount']) + pence(r.ItemTaxAmount), 0), number).toBe(-recharges.get(number)!);
      expect(lines[0]!.Memo).toMatch(/against RCH-\d{6}$/);
    }
    const all = await w.adminA.client.get('/api/recharges/export/quickbooks?documents=all');
    expect(all.statusCode).toBe(400);
    expect(all.json().error).toContain('separately');
  });

  it('bank upload: Date, Description, Amount, money out negative', async () => {
    const { header, rows } = await csv('/api/invoices/export/quickbooks/payments');
    expect(header).toEqual(TEMPLATE.quickbooks.payments);
    checkCells(rows, { dates: ['Date'], amounts: ['Amount'], required: ['Date', 'Description', 'Amount'] });
    expect(rows.reduce((s, r) => s + pence(r.Amount), 0)).toBe(-paymentsTotal);
  });
});

describe('Sage 50 Accounts audit trail CSV imports', () => {
  /** The field rules of the audit trail import: positive amounts, the lengths Sage allows, its tax codes. */
  function checkSage(rows: Row[], types: string[]) {
    checkCells(rows, { dates: ['Date'], amounts: ['Net Amount', 'Tax Amount'], required: ['Type', 'Account Reference', 'Nominal A/C Ref', 'Date', 'Net Amount', 'Tax Code'] });
    for (const r of rows) {
      expect(types).toContain(r.Type);
      expect(r['Account Reference']).toMatch(/^[A-Z0-9]{1,8}$/);
      expect(r['Nominal A/C Ref']).toMatch(/^\d{4}$/);
      expect(SAGE_TAX).toContain(r['Tax Code']);
      expect(r.Reference!.length).toBeLessThanOrEqual(30);
      expect([...r.Details!].length).toBeLessThanOrEqual(60);
      expect(pence(r['Net Amount'])).toBeGreaterThanOrEqual(0);
      expect(pence(r['Tax Amount'])).toBeGreaterThanOrEqual(0);
    }
  }

  it('purchase invoices and credits (PI, PC): each reconciles to its bill, disbursements T9 without VAT', async () => {
    const { header, rows } = await csv('/api/invoices/export/sage/bills');
    expect(header).toEqual(TEMPLATE.sage.audit);
    checkSage(rows, ['PI', 'PC']);
    const docs = byKey(rows, 'Reference');
    expect(new Set(docs.keys())).toEqual(new Set(bills.keys()));
    for (const [number, lines] of docs) {
      const b = bills.get(number)!;
      expect(lines.every((r) => r.Type === (b.credit ? 'PC' : 'PI')), number).toBe(true);
      expect(lines.reduce((s, r) => s + pence(r['Net Amount']) + pence(r['Tax Amount']), 0), number).toBe(Math.abs(b.gross));
      if (b.treatment === 'disbursement') expect(lines.every((r) => r['Tax Code'] === 'T9' && r['Tax Amount'] === '0.00'), number).toBe(true);
    }
  });

  it('sales invoices and credits (SI, SC): each reconciles to its recharge', async () => {
    const { header, rows } = await csv('/api/recharges/export/sage');
    expect(header).toEqual(TEMPLATE.sage.audit);
    checkSage(rows, ['SI', 'SC']);
    for (const [number, lines] of byKey(rows, 'Reference')) {
      expect(lines.every((r) => r.Type === (number.startsWith('RCC-') ? 'SC' : 'SI')), number).toBe(true);
      expect(lines.reduce((s, r) => s + pence(r['Net Amount']) + pence(r['Tax Amount']), 0), number).toBe(Math.abs(recharges.get(number)!));
    }
  });

  it('payments on account (PA) add up to the payments', async () => {
    const { header, rows } = await csv('/api/invoices/export/sage/payments');
    expect(header).toEqual(TEMPLATE.sage.audit);
    checkSage(rows, ['PA']);
    expect(rows.reduce((s, r) => s + pence(r['Net Amount']), 0)).toBe(paymentsTotal);
  });
});
