import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { LINES, moneyWorld } from './world.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
});
afterAll(async () => t.close());

// On PostgreSQL the 20 issues run on separate pooled connections at once and queue on the counter
// row lock; PGlite has one connection, so there they interleave at the request level only. The
// test runs on both; the real race is exercised on PostgreSQL (CI runs both databases).
describe('invoice numbers', () => {
  it('20 concurrent issues get 1..20 with no gaps and no repeats; a failed issue gives its number back', async () => {
    const drafts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const job = i % 4 === 0 ? w.completed : await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7 });
      const res = await w.contractor.client.post('/api/invoices', { job_uuid: job.uuid, lines: LINES });
      expect(res.statusCode, res.body).toBe(201);
      drafts.push(res.json().data.uuid);
    }
    // Fetch CSRF tokens first so that the 20 issue requests themselves start together.
    const csrfs = await Promise.all(drafts.map(async () => (await w.adminA.client.get('/api/security/csrf-token')).json().data.token as string));
    const results = await Promise.all(drafts.map((uuid, i) =>
      t.app.inject({ method: 'POST', url: `/api/invoices/${uuid}/issue`, headers: { authorization: `Bearer ${w.adminA.token}`, 'x-csrf-token': csrfs[i]! } })));
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const numbers = results.map((r) => r.json().data.invoice_number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`));

    // An issue that fails inside its transaction (a VAT rate withdrawn) rolls its number back.
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7 });
    const bad = (await w.contractor.client.post('/api/invoices', { job_uuid: job.uuid, lines: LINES })).json().data.uuid;
    await t.db.updateTable('vat_rates').set({ effective_to: '2026-01-01' }).where('code', '=', 'reduced').execute();
    expect((await w.adminA.client.post(`/api/invoices/${bad}/issue`)).statusCode).toBe(400);
    await t.db.updateTable('vat_rates').set({ effective_to: null }).where('code', '=', 'reduced').execute();
    const again = await w.adminA.client.post(`/api/invoices/${bad}/issue`);
    expect(again.json().data.invoice_number).toBe('INV-000021');
    // Another agency counts on its own.
    const jobB = await insertJob(t.db, { agencyId: w.agencyB.id, branchId: w.b1.id, statusId: 7 });
    const cB = (await t.db.insertInto('contractors').values({ uuid: crypto.randomUUID(), agency_id: w.agencyB.id, company_name: 'B Trades', address_line1: '1 Mill Yard', address_town: 'York', address_postcode: 'YO1 7HH', created_at: new Date(), updated_at: new Date() }).returning('uuid').executeTakeFirstOrThrow()).uuid;
    await t.db.updateTable('agencies').set({ registered_line1: '1 High St', registered_town: 'York', registered_postcode: 'YO1 8AA' }).where('id', '=', w.agencyB.id).execute();
    const dB = (await w.adminB.client.post('/api/invoices', { job_uuid: jobB.uuid, contractor_uuid: cB, lines: LINES, contractor_reference: 'B-1', supplier_invoice_date: '2026-11-20' })).json().data.uuid;
    expect((await w.adminB.client.post(`/api/invoices/${dB}/issue`)).json().data.invoice_number).toBe('INV-000001');
  });
});
