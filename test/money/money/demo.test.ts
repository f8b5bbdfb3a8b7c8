import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../../../src/seed/demo/index.ts';
import { buildTestApp, Client, login, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let admin: Client;
let contractor: Client;

beforeAll(async () => {
  t = await buildTestApp();
  expect((await loadDemoIfEmpty(t.db, t.config, t.clock.now())).loaded).toBe(true);
  admin = new Client(t.app, await login(t.app, 'admin@northwind.test', t.config.demo.password));
  contractor = new Client(t.app, await login(t.app, 'contractor@northwind.test', t.config.demo.password));
});
afterAll(async () => t.close());

describe('money demo data', () => {
  it('has invoices in every state with gapless numbers, payments, a credit note, quotes and a price list', async () => {
    const res = await admin.get('/api/invoices?limit=200');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    for (const s of ['draft', 'issued', 'part_paid', 'paid', 'overdue', 'void']) expect(body.totals[s].count, s).toBeGreaterThan(0);
    const numbers = body.data.filter((i: { kind: string; invoice_number: string | null }) => i.kind === 'invoice' && i.invoice_number).map((i: { invoice_number: string }) => Number(i.invoice_number.slice(4))).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(numbers.map((_: number, i: number) => i + 1));
    expect(body.data.some((i: { kind: string }) => i.kind === 'credit_note')).toBe(true);
    const paid = body.data.find((i: { status: string }) => i.status === 'paid');
    expect((await admin.get(`/api/invoices/${paid.uuid}/payments`)).json().count).toBeGreaterThan(0);
    expect((await admin.get('/api/pricing/items')).json().count).toBeGreaterThan(5);
    expect((await contractor.get('/api/invoices')).json().count).toBe(body.count);
    const pdf = await admin.get(`/api/invoices/${paid.uuid}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const quotes = await t.db.selectFrom('quotes').select('status').distinct().execute();
    expect(quotes.map((q) => q.status).sort()).toEqual(['approved', 'rejected', 'submitted']);
  });

  it('has recharges for the landlords of billed properties, and statements whose totals are the sums of their lines', async () => {
    const res = await admin.get('/api/recharges?limit=200');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Array<{ landlord_uuid: string; kind: string; fee_net_pence: number; recharge_date: string }>;
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.some((r) => r.kind === 'credit')).toBe(true);
    expect(rows.every((r) => r.kind === 'credit' || r.fee_net_pence > 0)).toBe(true);
    const from = rows.map((r) => r.recharge_date).sort()[0]!;
    const s = (await admin.get(`/api/landlords/${rows[0]!.landlord_uuid}/statement?from_date=${from}&to_date=${t.clock.now().toISOString().slice(0, 10)}`)).json().data;
    expect(s.properties.length).toBeGreaterThan(0);
    expect(s.totals.total_pence).toBe(s.properties.flatMap((p: { lines: Array<{ total_pence: number }> }) => p.lines).reduce((a: number, l: { total_pence: number }) => a + l.total_pence, 0));
  });
});
