import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, userClient, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { LINES, LINES_TOTALS, moneyWorld } from './world.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
});
afterAll(async () => t.close());

describe('price list and estimates', () => {
  it('adds items, contractor rates override the list price in the estimate', async () => {
    const plumbing = (await t.db.selectFrom('trades').select('id').where('code', '=', 'plumbing').executeTakeFirstOrThrow()).id;
    await t.db.updateTable('jobs').set({ trade_id: plumbing }).where('uuid', '=', w.job.uuid).execute();
    const a = await w.adminA.client.post('/api/pricing/items', { code: 'PLB-CALL', name: 'Plumber call-out', trade_id: plumbing, unit: 'each', unit_price_pence: 6_500 });
    expect(a.statusCode, a.body).toBe(201);
    const b = await w.adminA.client.post('/api/pricing/items', { code: 'PLB-HR', name: 'Plumber hour', trade_id: plumbing, job_type_id: 1, unit: 'hour', unit_price_pence: 4_500 });
    expect(b.statusCode).toBe(201);
    expect((await w.adminA.client.post('/api/pricing/items', { code: 'PLB-CALL', name: 'Dup', unit: 'each', unit_price_pence: 1 })).statusCode).toBe(409);
    expect((await w.adminA.client.post('/api/pricing/items', { code: 'X', name: 'Bad unit', unit: 'litre', unit_price_pence: 1 })).statusCode).toBe(400);
    const rate = await w.adminA.client.put(`/api/pricing/items/${a.json().data.uuid}/contractor-rates/${w.contractorUuid}`, { unit_price_pence: 5_000 });
    expect(rate.statusCode, rate.body).toBe(200);
    const est = await w.adminA.client.get(`/api/pricing/estimate?job_uuid=${w.job.uuid}`);
    expect(est.statusCode, est.body).toBe(200);
    const e = est.json().data;
    expect(e.lines.map((l: { description: string }) => l.description)).toEqual(['Plumber hour', 'Plumber call-out']);
    expect(e.lines[1].unit_price_pence).toBe(5_000);
    expect(e.net_pence).toBe(9_500);
    expect(e.vat_pence).toBe(1_900);
    const list = (await w.adminA.client.get('/api/pricing/items?limit=1')).json();
    expect(list.count).toBe(2);
    expect(list.data).toHaveLength(1);
    expect((await w.adminB.client.get(`/api/pricing/items/${a.json().data.uuid}`)).statusCode).toBe(404);
  });

  it('VAT rates are a table with effective dates', async () => {
    const res = (await w.adminA.client.get('/api/pricing/vat-rates')).json();
    expect(res.data.map((r: { code: string; rate_bp: number }) => `${r.code}:${r.rate_bp}`).sort()).toEqual(['exempt:0', 'reduced:500', 'standard:2000', 'zero:0']);
    expect(res.data[0].effective_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('quotes', () => {
  it('contractor submits, agent approves: agreed cost set and the job moves to Approved', async () => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 2 });
    const q = await w.contractor.client.post(`/api/jobs/${job.uuid}/quotes`, { lines: LINES, notes: 'Two hours at most' });
    expect(q.statusCode, q.body).toBe(201);
    expect(q.json().data).toMatchObject({ status: 'submitted', ...LINES_TOTALS });
    const staffQuote = await w.agentA1.client.post(`/api/jobs/${job.uuid}/quotes`, { contractor_uuid: w.contractorUuid, lines: [LINES[0]] });
    expect(staffQuote.statusCode).toBe(201);
    expect((await w.contractor.client.post(`/api/jobs/${job.uuid}/quotes/${q.json().data.uuid}/approve`, {})).statusCode).toBe(403);
    const ok = await w.agentA1.client.post(`/api/jobs/${job.uuid}/quotes/${q.json().data.uuid}/approve`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.status).toBe('approved');
    const jobAfter = (await w.adminA.client.get(`/api/jobs/${job.uuid}`)).json().data;
    expect(jobAfter.agreed_cost_pence).toBe(LINES_TOTALS.gross_pence);
    expect(jobAfter.status_id).toBe(3);
    const other = (await w.adminA.client.get(`/api/jobs/${job.uuid}/quotes/${staffQuote.json().data.uuid}`)).json().data;
    expect(other.status).toBe('rejected');
    expect((await w.agentA1.client.post(`/api/jobs/${job.uuid}/quotes/${q.json().data.uuid}/reject`, {})).statusCode).toBe(409);
    const events = (await t.db.selectFrom('outbox').select('name').where('name', 'like', 'quote.%').execute()).map((e) => e.name);
    expect(events).toEqual(expect.arrayContaining(['quote.submitted', 'quote.approved', 'quote.rejected']));
  });

  it('a quote above the job type limit needs the above-limit key', async () => {
    await w.adminA.client.put('/api/pricing/settings', { approval_limits: [{ job_type_id: 1, limit_pence: 5_000 }] });
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 1 });
    const q = (await w.contractor.client.post(`/api/jobs/${job.uuid}/quotes`, { lines: LINES })).json().data;
    const agent = await w.agentA1.client.post(`/api/jobs/${job.uuid}/quotes/${q.uuid}/approve`, {});
    expect(agent.statusCode).toBe(403);
    expect(agent.json().error).toContain('approval limit');
    const admin = await w.adminA.client.post(`/api/jobs/${job.uuid}/quotes/${q.uuid}/approve`, {});
    expect(admin.statusCode, admin.body).toBe(200);
  });

  it('rejects with a reason', async () => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 4 });
    const q = (await w.contractor.client.post(`/api/jobs/${job.uuid}/quotes`, { lines: LINES })).json().data;
    const res = await w.adminA.client.post(`/api/jobs/${job.uuid}/quotes/${q.uuid}/reject`, { reason: 'Too dear' });
    expect(res.json().data).toMatchObject({ status: 'rejected', decision_reason: 'Too dear' });
  });

  it("keeps the agency's decision note from the contractor (docs/money.md \"Quotes\")", async () => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 2 });
    const q = (await w.contractor.client.post(`/api/jobs/${job.uuid}/quotes`, { lines: LINES })).json().data;
    const ok = await w.adminA.client.post(`/api/jobs/${job.uuid}/quotes/${q.uuid}/approve`, { reason: 'within landlord limit for a tap repair' });
    expect(ok.json().data.decision_reason).toBe('within landlord limit for a tap repair');
    expect((await w.agentA1.client.get(`/api/jobs/${job.uuid}/quotes/${q.uuid}`)).json().data.decision_reason).toBe('within landlord limit for a tap repair');
    const theirs = (await w.contractor.client.get(`/api/jobs/${job.uuid}/quotes/${q.uuid}`)).json().data;
    expect(theirs).toMatchObject({ status: 'approved', decision_reason: null });
    expect((await w.contractor.client.get(`/api/jobs/${job.uuid}/quotes`)).json().data[0].decision_reason).toBeNull();
  });
});

describe('visibility', () => {
  it('contractors see only their own; tenants never see money (403); another agency gets 404', async () => {
    const inv = (await w.contractor.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES })).json().data;
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 1 });
    const q = (await w.contractor.client.post(`/api/jobs/${job.uuid}/quotes`, { lines: LINES })).json().data;
    // Staff quote for the other contractor on the same job: invisible to the first contractor.
    const otherUuid = (await t.db.selectFrom('contractors').select('uuid').where('company_name', '=', 'Other Trades').executeTakeFirstOrThrow()).uuid;
    const oq = (await w.adminA.client.post(`/api/jobs/${job.uuid}/quotes`, { contractor_uuid: otherUuid, lines: LINES })).json().data;
    const mine = (await w.contractor.client.get(`/api/jobs/${job.uuid}/quotes`)).json();
    expect(mine.data.map((x: { uuid: string }) => x.uuid)).toEqual([q.uuid]);
    expect((await w.contractor.client.get(`/api/jobs/${job.uuid}/quotes/${oq.uuid}`)).statusCode).toBe(404);
    expect((await w.otherContractor.client.get(`/api/invoices/${inv.uuid}`)).statusCode).toBe(404);
    expect((await w.otherContractor.client.get('/api/invoices')).json().count).toBe(0);
    expect((await w.contractor.client.get(`/api/invoices/${inv.uuid}`)).statusCode).toBe(200);
    for (const url of ['/api/invoices', `/api/invoices/${inv.uuid}`, `/api/invoices/${inv.uuid}/pdf`, `/api/jobs/${job.uuid}/quotes`, '/api/pricing/items', `/api/pricing/estimate?job_uuid=${job.uuid}`]) {
      expect((await w.tenant.client.get(url)).statusCode, url).toBe(403);
    }
    expect((await w.tenant.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES })).statusCode).toBe(403);
    expect((await w.adminB.client.get(`/api/invoices/${inv.uuid}`)).statusCode).toBe(404);
    expect((await w.adminB.client.post(`/api/invoices/${inv.uuid}/issue`)).statusCode).toBe(404);
    expect((await w.adminB.client.get(`/api/jobs/${job.uuid}/quotes`)).statusCode).toBe(404);
    expect((await w.adminB.client.get('/api/invoices')).json().count).toBe(0);
    expect((await w.contractor.client.post('/api/pricing/items', { code: 'C', name: 'c', unit: 'each', unit_price_pence: 1 })).statusCode).toBe(403);
  });

  it('an agent of a branch that does not see the job gets 404; an API account of the agency reads', async () => {
    const inv = (await w.contractor.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES })).json().data;
    expect((await w.agentA2.client.get(`/api/invoices/${inv.uuid}`)).statusCode).toBe(404);
    const api = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await api.client.get(`/api/invoices/${inv.uuid}`)).statusCode).toBe(200);
  });
});
