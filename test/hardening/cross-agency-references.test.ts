/**
 * docs/security.md promise 24: every id in a body or query that names a record is resolved inside the
 * caller's agency; another agency's record answers exactly like a missing one and its name never
 * comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS } from '../../src/modules/jobs/jobs/lifecycle.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { insertJob, attachedRecordsWorld } from '../helpers/attached-records-world.ts';

describe('cross-agency references in bodies and queries', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  let foreignTradeId: number;
  let ownTradeId: number;
  let foreignSlotId: number;
  const now = new Date('2026-11-20T09:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp();
    w = await attachedRecordsWorld(t);
    // Job references of the fixture's jobs are inserted directly; start the API's counter past them.
    await t.db.insertInto('agency_counters').values([{ agency_id: w.agencyA.id, name: 'job_reference', value: 1000 }, { agency_id: w.agencyB.id, name: 'job_reference', value: 1000 }]).execute();
    foreignTradeId = (await t.db.insertInto('trades').values({ code: 'secret_b', name: 'Secret trade of B', agency_id: w.agencyB.id }).returning('id').executeTakeFirstOrThrow()).id;
    ownTradeId = (await t.db.insertInto('trades').values({ code: 'own_a', name: 'Own trade of A', agency_id: w.agencyA.id }).returning('id').executeTakeFirstOrThrow()).id;
    foreignSlotId = (await t.db.insertInto('job_time_ranges').values({ range_label: 'Secret slot of B', starts_at: '07:00', ends_at: '08:00', agency_id: w.agencyB.id, created_at: now, updated_at: now, retired_at: null }).returning('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  it("refuses another agency's private trade on job create exactly like a missing trade", async () => {
    const foreign = await w.adminA.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, branch_uuid: w.a1.uuid, trade_id: foreignTradeId });
    const missing = await w.adminA.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, branch_uuid: w.a1.uuid, trade_id: 2_000_000 });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: trade_id' });
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.body).not.toContain('Secret trade');
    const own = await w.adminA.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, branch_uuid: w.a1.uuid, trade_id: ownTradeId });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.trade).toBe('Own trade of A');
  });

  it("refuses another agency's private trade on job update and leaves the job unchanged", async () => {
    const before = await t.db.selectFrom('jobs').select(['trade_id', 'updated_at']).where('id', '=', w.job.id).executeTakeFirstOrThrow();
    const res = await w.adminA.client.put(`/api/jobs/${w.job.uuid}`, { trade_id: foreignTradeId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: trade_id' });
    expect(await t.db.selectFrom('jobs').select(['trade_id', 'updated_at']).where('id', '=', w.job.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it("refuses another agency's time slot on an assignment exactly like a missing slot", async () => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: STATUS.approved });
    const contractorUuid = (await t.db.selectFrom('contractors').select('uuid').where('id', '=', w.contractorId).executeTakeFirstOrThrow()).uuid;
    const foreign = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: contractorUuid, time_range_id: foreignSlotId });
    const missing = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: contractorUuid, time_range_id: 2_000_000 });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: time_range_id' });
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.body).not.toContain('Secret slot');
    const row = await t.db.selectFrom('jobs').select(['status_id', 'time_range_id']).where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status_id: STATUS.approved, time_range_id: null });
  });

  it('a global slot still works on an assignment', async () => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: STATUS.approved });
    const contractorUuid = (await t.db.selectFrom('contractors').select('uuid').where('id', '=', w.contractorId).executeTakeFirstOrThrow()).uuid;
    const res = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: contractorUuid, time_range_id: 1, scheduled_for: '2026-11-25' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("job list filters with another agency's uuids match nothing, like unknown uuids", async () => {
    const bContractor = await t.db.insertInto('contractors').values({ uuid: crypto.randomUUID(), agency_id: w.agencyB.id, company_name: 'B Co', created_at: now, updated_at: now }).returning('uuid').executeTakeFirstOrThrow();
    const foreign = await w.adminA.client.get(`/api/jobs/manage?contractor_uuid=${bContractor.uuid}&branch_uuid=${w.b1.uuid}`);
    const unknown = await w.adminA.client.get(`/api/jobs/manage?contractor_uuid=${crypto.randomUUID()}&branch_uuid=${crypto.randomUUID()}`);
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual(unknown.json());
  });
});
