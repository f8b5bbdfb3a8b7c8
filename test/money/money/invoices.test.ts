import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { markOverdueInvoices } from '../../../src/modules/money/money/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { LINES, LINES_TOTALS, moneyWorld } from './world.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
});
afterAll(async () => t.close());

async function draft(lines: unknown = LINES, by = w.contractor.client, jobUuid = w.completed.uuid) {
  const res = await by.post('/api/invoices', { job_uuid: jobUuid, lines, contractor_reference: 'FG-1001', supplier_invoice_date: '2026-11-20' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

describe('invoices', () => {
  it('computes VAT per line and totals on the server', async () => {
    const inv = await draft();
    expect(inv.status).toBe('draft');
    expect(inv.invoice_number).toBeNull();
    expect({ net_pence: inv.net_pence, vat_pence: inv.vat_pence, gross_pence: inv.gross_pence }).toEqual(LINES_TOTALS);
    expect(inv.lines.map((l: { vat_pence: number }) => l.vat_pence)).toEqual([1_350, 51]);
  });

  it('a contractor not registered for VAT charges none', async () => {
    await w.adminA.client.put(`/api/pricing/contractors/${w.contractorUuid}/vat`, { registered: false });
    const inv = await draft();
    expect(inv.vat_registered).toBe(false);
    expect(inv.vat_pence).toBe(0);
    expect(inv.gross_pence).toBe(7_760);
    await w.adminA.client.put(`/api/pricing/contractors/${w.contractorUuid}/vat`, { registered: true, vat_number: 'GB123456789' });
  });

  it('refuses an invoice against a job that is not completed (409) and bad lines (400)', async () => {
    const res = await w.contractor.client.post('/api/invoices', { job_uuid: w.job.uuid, lines: LINES });
    expect(res.statusCode).toBe(409);
    const bad = await w.contractor.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: [{ ...LINES[0], quantity: 1.2345 }] });
    expect(bad.statusCode).toBe(400);
    const neg = await w.contractor.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: [{ ...LINES[0], unit_price_pence: -1 }] });
    expect(neg.statusCode).toBe(400);
  });

  it('issuing numbers the invoice, sets dates, moves the job to Invoiced and emits invoice.issued', async () => {
    const inv = await draft();
    const contractorTry = await w.contractor.client.post(`/api/invoices/${inv.uuid}/issue`);
    expect(contractorTry.statusCode).toBe(403);
    const res = await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
    expect(res.statusCode, res.body).toBe(200);
    const issued = res.json().data;
    expect(issued.invoice_number).toMatch(/^INV-\d{6}$/);
    expect(issued.issue_date).toBe('2026-11-21');
    // The contractor's own invoice is dated 20 November: its date, tax point and terms run from it (docs/money.md).
    expect(issued).toMatchObject({ invoice_date: '2026-11-20', supplier_invoice_date: '2026-11-20', vat_invoice_number: 'FG-1001', self_billed: false, tax_point: '2026-11-20' });
    expect(issued.due_date).toBe('2026-12-20');
    const job = (await w.adminA.client.get(`/api/jobs/${w.completed.uuid}`)).json().data;
    expect(job.status_id).toBe(8);
    const events = await t.db.selectFrom('outbox').select('name').where('name', '=', 'invoice.issued').execute();
    expect(events.length).toBeGreaterThan(0);
    // Immutable once issued.
    expect((await w.adminA.client.put(`/api/invoices/${inv.uuid}`, { notes: 'x' })).statusCode).toBe(409);
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`)).statusCode).toBe(409);
  });

  it('payments: part, then full; overpayment refused with 409 and nothing changes', async () => {
    const inv = await draft();
    await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
    const pay = (amount: number) => w.adminA.client.post(`/api/invoices/${inv.uuid}/payments`, { amount_pence: amount, paid_on: '2026-11-21', method: 'bank_transfer', reference: 'BACS' });
    const part = await pay(5_000);
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json().data.invoice.status).toBe('part_paid');
    const over = await pay(LINES_TOTALS.gross_pence);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toContain('exceeds');
    const after = (await w.adminA.client.get(`/api/invoices/${inv.uuid}`)).json().data;
    expect(after.paid_pence).toBe(5_000);
    const rest = await pay(LINES_TOTALS.gross_pence - 5_000);
    expect(rest.json().data.invoice.status).toBe('paid');
    expect((await pay(1)).statusCode).toBe(409);
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/void`, {})).statusCode).toBe(409);
    const list = (await w.adminA.client.get(`/api/invoices/${inv.uuid}/payments`)).json();
    expect(list.count).toBe(2);
  });

  it('state machine: illegal moves are 409', async () => {
    const inv = await draft();
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/payments`, { amount_pence: 1, paid_on: '2026-11-21', method: 'cash' })).statusCode).toBe(409);
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: LINES, reason: 'x' })).statusCode).toBe(409);
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/void`, { reason: 'duplicate' })).json().data.status).toBe('void');
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`)).statusCode).toBe(409);
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/void`)).statusCode).toBe(409);
  });

  it('credit notes reduce the outstanding amount and settle the invoice', async () => {
    const inv = await draft();
    await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
    const tooBig = await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [{ ...LINES[0], quantity: 10 }], reason: 'x' });
    expect(tooBig.statusCode).toBe(409);
    const cn = await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [LINES[1]], reason: 'Part not fitted' });
    expect(cn.statusCode, cn.body).toBe(201);
    expect(cn.json().data.invoice_number).toMatch(/^CN-\d{6}$/);
    expect(cn.json().data.gross_pence).toBe(1_010 + 51);
    const after = (await w.adminA.client.get(`/api/invoices/${inv.uuid}`)).json().data;
    expect(after.outstanding_pence).toBe(LINES_TOTALS.gross_pence - 1_061);
  });

  it('the overdue task marks past-due invoices once and emits invoice.overdue once', async () => {
    const inv = await draft();
    await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
    // Its due date passes (the clock stays put so that sessions stay valid).
    await t.db.updateTable('invoices').set({ due_date: '2026-11-20' }).where('uuid', '=', inv.uuid).execute();
    const first = await markOverdueInvoices(t.deps);
    const second = await markOverdueInvoices(t.deps);
    expect(first).toBeGreaterThan(0);
    expect(second).toBe(0);
    const after = (await w.adminA.client.get(`/api/invoices/${inv.uuid}`)).json().data;
    expect(after.status).toBe('overdue');
    const events = await t.db.selectFrom('outbox').select('payload').where('name', '=', 'invoice.overdue').execute();
    expect(events.filter((e) => JSON.stringify(e.payload).includes(inv.uuid))).toHaveLength(1);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const paid = await w.adminA.client.post(`/api/invoices/${inv.uuid}/payments`, { amount_pence: 100, paid_on: '2026-11-21', method: 'card' });
    expect(paid.json().data.invoice.status).toBe('overdue');
  });

  it('lists with filters and totals per status', async () => {
    const res = await w.adminA.client.get(`/api/invoices?contractor_uuid=${w.contractorUuid}&limit=2`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(2);
    expect(body.count).toBeGreaterThan(2);
    expect(Object.keys(body.totals).sort()).toEqual(['credited', 'draft', 'issued', 'overdue', 'paid', 'part_paid', 'void']);
    expect(body.totals.paid.count).toBeGreaterThan(0);
    const paidOnly = (await w.adminA.client.get('/api/invoices?status=paid')).json();
    expect(paidOnly.data.every((i: { status: string }) => i.status === 'paid')).toBe(true);
    expect((await w.adminA.client.get('/api/invoices?from_date=2026-11-21&to_date=2026-11-21')).statusCode).toBe(200);
    expect((await w.adminA.client.get('/api/invoices?status=bogus')).statusCode).toBe(400);
  });

  it('sorts by sort and order across pages (id breaks ties, drafts without number or dates last); a bad value is a 400', async () => {
    type Row = { uuid: string; invoice_number: string | null; due_date: string | null; gross_pence: number; outstanding_pence: number };
    const rows = async (qs: string) => {
      const res = await w.adminA.client.get(`/api/invoices?${qs}`);
      expect(res.statusCode, `${qs} ${res.body}`).toBe(200);
      return res.json().data as Row[];
    };
    const newestFirst = (await t.db.selectFrom('invoices').select('uuid').orderBy('id', 'desc').execute()).map((r) => r.uuid);
    const all = await rows('limit=200');
    expect(all.map((i) => i.uuid)).toEqual(newestFirst);
    expect(await rows('limit=200&sort=created_at&order=desc')).toEqual(all);
    expect((await rows('limit=200&sort=created_at&order=asc')).map((i) => i.uuid)).toEqual([...newestFirst].reverse());

    const byGross = await rows('limit=200&sort=gross_pence&order=asc');
    const gross = byGross.map((i) => i.gross_pence);
    expect(gross).toEqual([...gross].sort((a, b) => a - b));
    expect(new Set(gross).size).toBeGreaterThan(1);
    const paged: Row[] = [];
    for (let offset = 0; offset < byGross.length; offset += 2) paged.push(...(await rows(`limit=2&offset=${offset}&sort=gross_pence&order=asc`)));
    expect(paged.map((i) => i.uuid)).toEqual(byGross.map((i) => i.uuid));

    const owed = (await rows('limit=200&sort=outstanding_pence&order=desc')).map((i) => i.outstanding_pence);
    expect(owed).toEqual([...owed].sort((a, b) => b - a));
    for (const order of ['asc', 'desc'] as const) {
      const due = (await rows(`limit=200&sort=due_date&order=${order}`)).map((i) => i.due_date);
      const dated = due.filter((d): d is string => d !== null);
      expect(dated.length).toBeGreaterThan(0);
      expect(due.slice(dated.length).every((d) => d === null)).toBe(true);
      expect(dated).toEqual([...dated].sort((a, b) => (order === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
      const numbers = (await rows(`limit=200&sort=invoice_number&order=${order}`)).map((i) => i.invoice_number);
      const numbered = numbers.filter((n): n is string => n !== null);
      expect(numbers.slice(numbered.length).every((n) => n === null)).toBe(true);
      expect(numbered).toEqual([...numbered].sort((a, b) => (order === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
    }

    for (const qs of ['sort=net_pence', 'sort=id', 'order=up']) {
      const res = await w.adminA.client.get(`/api/invoices?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: `Invalid or missing required parameter: ${qs.split('=')[0]}` });
    }
  });

  it('every write is in the activity log', async () => {
    const actions = (await t.db.selectFrom('activity_log').select('action').distinct().execute()).map((r) => r.action);
    for (const a of ['invoice.create', 'invoice.issue', 'invoice.void', 'payment.record', 'credit_note.issue', 'invoice.overdue', 'contractor.vat_update']) expect(actions).toContain(a);
  });
});
