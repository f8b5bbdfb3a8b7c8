import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS } from '../../../src/modules/jobs/jobs/lifecycle.ts';
import { buildTestApp, createAgency, createBranch, csrf, userClient, type TestApp } from '../../helpers/app.ts';
import { createAddress, createContractor, createTenant, insertJob, jobsWorld, type JobsWorld } from './fixtures.ts';

describe('jobs records: create, read, edit, cancel, delete, idempotency', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  const countJobs = async () => Number((await t.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const tradeId = async (code: string) => (await t.db.selectFrom('trades').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

  it('POST accepts the full field set and GET returns every field', async () => {
    const plumbing = await tradeId('plumbing');
    const res = await w.agentA1.client.post('/api/jobs/manage', {
      title: '  Boiler not firing  ', priority: 2, description: 'No hot water since Monday', job_type_id: 2, trade_id: plumbing,
      address_uuid: w.address.uuid, tenant_uuid: w.tenant.uuid, estimated_cost_pence: 15000, agreed_cost_pence: 12500,
    });
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json().data;
    expect(job).toMatchObject({
      title: 'Boiler not firing', priority: 2, status_id: 1, status: 'Reported', is_open: true, job_type_id: 2, job_type: 'Emergency',
      trade_id: plumbing, trade: 'Plumbing', branch_uuid: w.a1.uuid, branch_name: 'A1', address_uuid: w.address.uuid, postcode: 'LS1 1AA',
      town: 'Leeds', tenant_uuid: w.tenant.uuid, tenant_name: 'Emily Clarke', contractor_uuid: null, estimated_cost_pence: 15000,
      agreed_cost_pence: 12500, agent_uuid: w.agentA1.user.uuid, agent_name: w.agentA1.user.name, currency: 'GBP',
      created_at: t.clock.now().toISOString(), approved_at: null, assigned_at: null, scheduled_for: null, attended_at: null,
      completed_at: null, invoiced_at: null, closed_at: null, cancelled_at: null,
    });
    expect(job.reference).toMatch(/^JOB-\d{6}$/);
    const read = await w.adminA.client.get(`/api/jobs/${job.uuid}`);
    expect(read.statusCode).toBe(200);
    // The detail adds the tenant's phone for staff and the assigned contractor (docs/jobs.md; lists and
    // the create answer do not carry it); everything else is the create answer's.
    expect(read.json()).toEqual({ success: true, data: { ...job, tenant_phone: null }, message: 'Job retrieved' });
    // Its history, activity entry and job.created event are written with it (the event by the
    // statement that takes the reference: the reference in the payload is the job's).
    const row = await t.db.selectFrom('jobs').select(['id', 'branch_id', 'tenant_id', 'agency_id']).where('uuid', '=', job.uuid).executeTakeFirstOrThrow();
    const history = await t.db.selectFrom('job_status_history').select(['from_status_id', 'to_status_id', 'by_user_id', 'created_at']).where('job_id', '=', row.id).execute();
    expect(history).toEqual([{ from_status_id: null, to_status_id: 1, by_user_id: w.agentA1.user.id, created_at: expect.anything() }]);
    expect(new Date(history[0]!.created_at).toISOString()).toBe(job.created_at);
    const entry = await t.db.selectFrom('activity_log').select(['user_id', 'agency_id']).where('action', '=', 'job.create').where('resource_id', '=', row.id).execute();
    expect(entry).toEqual([{ user_id: w.agentA1.user.id, agency_id: row.agency_id }]);
    const events = await t.db.selectFrom('outbox').select(['payload', 'agency_id']).where('name', '=', 'job.created').execute();
    const event = events.map((e) => ({ ...e, payload: (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) as Record<string, unknown> })).find((e) => e.payload.job_uuid === job.uuid);
    expect(event).toEqual({
      agency_id: row.agency_id,
      payload: { job_id: row.id, job_uuid: job.uuid, reference: job.reference, branch_id: row.branch_id, status_id: 1, priority: 2, tenant_id: row.tenant_id },
    });
  });

  // On PostgreSQL the creates run on separate pooled connections and queue on the counter row's lock,
  // taken by the job's insert itself; PGlite interleaves them at the request level (CI runs both).
  it('references: concurrent creates in one agency get the next numbers with no gaps or repeats, each event carrying its job\'s; past JOB-999999 the number grows', async () => {
    const agency = await createAgency(t.db);
    const branch = await createBranch(t.db, agency.id);
    const admin = await userClient(t, { role: 'admin', agencyId: agency.id });
    const tokens = await Promise.all(Array.from({ length: 12 }, () => csrf(t.app, admin.token)));
    const results = await Promise.all(tokens.map((c, i) =>
      t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { authorization: `Bearer ${admin.token}`, 'x-csrf-token': c }, payload: { title: `Leak ${i}`, priority: 3, branch_uuid: branch.uuid } })));
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const refs = results.map((r) => r.json().data.reference as string).sort();
    expect(refs).toEqual(Array.from({ length: 12 }, (_, i) => `JOB-${String(i + 1).padStart(6, '0')}`));
    const events = await t.db.selectFrom('outbox').select('payload').where('name', '=', 'job.created').where('agency_id', '=', agency.id).execute();
    const payloads = events.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) as { job_uuid: string; reference: string });
    expect(new Map(payloads.map((p) => [p.job_uuid, p.reference]))).toEqual(new Map(results.map((r) => [r.json().data.uuid, r.json().data.reference])));

    // The six digits are a minimum: the counter goes on past them.
    await t.db.updateTable('agency_counters').set({ value: 999_999 }).where('agency_id', '=', agency.id).where('name', '=', 'job_reference').execute();
    const next = await admin.client.post('/api/jobs/manage', { title: 'Seven digits', priority: 3, branch_uuid: branch.uuid });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().data.reference).toBe('JOB-1000000');
  });

  it('POST: bad fields are 400/404 and write nothing; contractors 403; no CSRF 403', async () => {
    const before = await countJobs();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ title: '', priority: 3 }, 400, 'Invalid or missing required parameter: title'],
      [{ title: 'x', priority: 6 }, 400, 'Invalid or missing required parameter: priority'],
      [{ title: 'x', priority: 3, job_type_id: 99 }, 400, 'Invalid or missing required parameter: job_type_id'],
      [{ title: 'x', priority: 3, trade_id: 999 }, 400, 'Invalid or missing required parameter: trade_id'],
      [{ title: 'x', priority: 3, estimated_cost_pence: -1 }, 400, 'Invalid or missing required parameter: estimated_cost_pence'],
      [{ title: 'x', priority: 3, address_uuid: w.addressB.uuid }, 404, 'Address not found'],
      [{ title: 'x', priority: 3, tenant_uuid: '00000000-0000-4000-8000-000000000000' }, 404, 'Tenant not found'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.agentA1.client.post('/api/jobs/manage', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    expect((await w.contractorUser.client.post('/api/jobs/manage', { title: 'x', priority: 3 })).statusCode).toBe(403);
    const noCsrf = await w.agentA1.client.post('/api/jobs/manage', { title: 'x', priority: 3 }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(await countJobs()).toBe(before);
  });

  it('a tenant reports at its address, may not set costs, and never sees costs or the agent', async () => {
    const refused = await w.tenantUser.client.post('/api/jobs/manage', { title: 'Mould', priority: 4, estimated_cost_pence: 100 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Invalid or missing required parameter: estimated_cost_pence');
    const res = await w.tenantUser.client.post('/api/jobs/manage', { title: 'Mould in bathroom', priority: 4 });
    expect(res.statusCode).toBe(201);
    const job = res.json().data;
    expect(job).toMatchObject({ address_uuid: w.address.uuid, tenant_uuid: w.tenant.uuid, branch_uuid: w.a1.uuid });
    for (const f of ['estimated_cost_pence', 'agreed_cost_pence', 'agent_uuid', 'agent_name', 'on_hold_from_status_id']) expect(job).not.toHaveProperty(f);
    await w.adminA.client.put(`/api/jobs/${job.uuid}`, { estimated_cost_pence: 9900 });
    const read = (await w.tenantUser.client.get(`/api/jobs/${job.uuid}`)).json().data;
    expect(read).not.toHaveProperty('estimated_cost_pence');
    const listed = (await w.tenantUser.client.get('/api/jobs/manage')).json().data;
    for (const j of listed) expect(j).not.toHaveProperty('estimated_cost_pence');
    expect((await w.adminA.client.get(`/api/jobs/${job.uuid}`)).json().data.estimated_cost_pence).toBe(9900);
  });

  it('GET: another agency and unknown uuids are 404 "Job not found"; a bad uuid is 400', async () => {
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id });
    const other = await w.adminB.client.get(`/api/jobs/${job.uuid}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, error: 'Job not found' });
    expect((await w.adminA.client.get('/api/jobs/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await w.adminA.client.get('/api/jobs/nope')).statusCode).toBe(400);
  });

  it('PUT changes only the given fields, records activity; bad input changes nothing', async () => {
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, title: 'Old', priority: 3 });
    t.clock.advance(60);
    const res = await w.agentA1.client.put(`/api/jobs/${job.uuid}`, { title: 'New title', priority: 1, agreed_cost_pence: 5000, tenant_uuid: w.tenant2.uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'New title', priority: 1, agreed_cost_pence: 5000, tenant_name: 'Noah Patel', description: '', updated_at: t.clock.now().toISOString() });
    const log = await t.db.selectFrom('activity_log').select(['action', 'details']).where('resource_id', '=', job.id).where('action', '=', 'job.update').execute();
    expect(log).toHaveLength(1);
    const snapshot = await t.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    t.clock.advance(60);
    const bad: Array<[Record<string, unknown>, number]> = [
      [{}, 400], [{ priority: 9 }, 400], [{ title: 'ok', job_type_id: 99 }, 400], [{ title: 'ok', trade_id: 0 }, 400],
      [{ title: 'ok', address_uuid: w.addressB.uuid }, 404], [{ title: 123 }, 400], [{ title: 'ok', agreed_cost_pence: 1.5 }, 400],
    ];
    for (const [body, status] of bad) expect((await w.agentA1.client.put(`/api/jobs/${job.uuid}`, body)).statusCode, JSON.stringify(body)).toBe(status);
    expect(await t.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow()).toEqual(snapshot);
    // null clears
    const cleared = await w.agentA1.client.put(`/api/jobs/${job.uuid}`, { tenant_uuid: null, agreed_cost_pence: null });
    expect(cleared.json().data).toMatchObject({ tenant_uuid: null, agreed_cost_pence: null });
  });

  it('PUT: 403 for shared-branch agents, contractors and without CSRF; 404 for another agency; 409 when closed', async () => {
    const shared = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a2.id });
    const ro = await w.agentA1.client.put(`/api/jobs/${shared.uuid}`, { title: 'mine now' });
    expect(ro.statusCode).toBe(403);
    expect(ro.json().error).toBe('Jobs of a shared branch are read-only for you');
    expect((await w.agentA1.client.get(`/api/jobs/${shared.uuid}`)).statusCode).toBe(200);
    expect((await w.contractorUser.client.put(`/api/jobs/${shared.uuid}`, { title: 'x' })).statusCode).toBe(403);
    expect((await w.adminA.client.put(`/api/jobs/${shared.uuid}`, { title: 'x' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.adminB.client.put(`/api/jobs/${shared.uuid}`, { title: 'x' })).statusCode).toBe(404);
    const closed = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.closed });
    const c = await w.adminA.client.put(`/api/jobs/${closed.uuid}`, { title: 'x' });
    expect(c.statusCode).toBe(409);
    expect(c.json().error).toBe('A Closed job cannot be edited');
    expect((await t.db.selectFrom('jobs').select('title').where('id', '=', shared.id).executeTakeFirstOrThrow()).title).toBe('Fixture job');
  });

  it('DELETE cancels through the lifecycle; soft_delete hides a cancelled job for administrators only', async () => {
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.approved });
    t.clock.advance(60);
    const res = await w.agentA1.client.delete(`/api/jobs/${job.uuid}`, { note: 'Tenant fixed it' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Job cancelled', data: { status_id: STATUS.cancelled, is_open: false, cancelled_at: t.clock.now().toISOString() } });
    const h = await t.db.selectFrom('job_status_history').selectAll().where('job_id', '=', job.id).execute();
    expect(h).toMatchObject([{ from_status_id: STATUS.approved, to_status_id: STATUS.cancelled, note: 'Tenant fixed it' }]);
    const again = await w.agentA1.client.delete(`/api/jobs/${job.uuid}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Cannot move a job from Cancelled to Cancelled');
    expect((await w.agentA1.client.delete(`/api/jobs/${job.uuid}?soft_delete=true`)).statusCode).toBe(403);
    const open = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id });
    const refused = await w.adminA.client.delete(`/api/jobs/${open.uuid}?soft_delete=true`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('Only a Closed or Cancelled job can be deleted; cancel it first');
    const del = await w.adminA.client.delete(`/api/jobs/${job.uuid}?soft_delete=true`);
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe('Job deleted');
    expect((await w.adminA.client.get(`/api/jobs/${job.uuid}`)).statusCode).toBe(404);
    expect((await w.adminA.client.get(`/api/jobs/${job.uuid}/history`)).statusCode).toBe(404);
    expect((await t.db.selectFrom('jobs').select('deleted_at').where('id', '=', job.id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();
    expect((await w.adminB.client.delete(`/api/jobs/${open.uuid}`)).statusCode).toBe(404);
    expect((await w.adminA.client.delete(`/api/jobs/${open.uuid}`, undefined, { csrf: false })).statusCode).toBe(403);
    expect((await w.tenantUser.client.delete(`/api/jobs/${open.uuid}`)).statusCode).toBe(404);
  });

  describe('Idempotency-Key', () => {
    const body = { title: 'Broken window', priority: 2 };
    it('same key and body: the first response again (status, body), one row; other body: 422 (docs/api.md "Idempotency-Key")', async () => {
      const before = await countJobs();
      const first = await w.agentA1.client.post('/api/jobs/manage', body, { headers: { 'idempotency-key': 'key-1' } });
      expect(first.statusCode).toBe(201);
      t.clock.advance(30);
      const second = await w.agentA1.client.post('/api/jobs/manage', { ...body }, { headers: { 'idempotency-key': 'key-1' } });
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(await countJobs()).toBe(before + 1);
      const other = await w.agentA1.client.post('/api/jobs/manage', { ...body, priority: 3 }, { headers: { 'idempotency-key': 'key-1' } });
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({ success: false, error: 'Idempotency-Key reused with a different request' });
      // another account's key space is its own
      const admin = await w.adminA.client.post('/api/jobs/manage', { ...body, branch_uuid: w.a1.uuid }, { headers: { 'idempotency-key': 'key-1' } });
      expect(admin.statusCode).toBe(201);
      expect(admin.json().data.uuid).not.toBe(first.json().data.uuid);
      expect(await countJobs()).toBe(before + 2);
      const stored = await t.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'key-1').execute();
      expect(stored).toHaveLength(2);
      expect(stored[0]!.request_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('keys expire after 24 hours; a failed first use keeps no key', async () => {
      const first = await w.agentA1.client.post('/api/jobs/manage', body, { headers: { 'idempotency-key': 'key-2' } });
      t.clock.advance(24 * 3600 + 1);
      const later = await w.agentA1.client.post('/api/jobs/manage', body, { headers: { 'idempotency-key': 'key-2' } });
      expect(later.statusCode).toBe(201);
      expect(later.json().data.uuid).not.toBe(first.json().data.uuid);
      const bad = await w.agentA1.client.post('/api/jobs/manage', { ...body, job_type_id: 99 }, { headers: { 'idempotency-key': 'key-3' } });
      expect(bad.statusCode).toBe(400);
      expect(await t.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'key-3').execute()).toHaveLength(0);
      const ok = await w.agentA1.client.post('/api/jobs/manage', body, { headers: { 'idempotency-key': 'key-3' } });
      expect(ok.statusCode).toBe(201);
    });

    it('concurrent first use of a key creates one job and every response is the same', async () => {
      const before = await countJobs();
      const token = w.agentA1.token;
      const tokens = [await csrf(t.app, token), await csrf(t.app, token), await csrf(t.app, token), await csrf(t.app, token)];
      const results = await Promise.all(
        tokens.map((c) =>
          t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { authorization: `Bearer ${token}`, 'x-csrf-token': c, 'idempotency-key': 'race' }, payload: body }),
        ),
      );
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      expect(new Set(results.map((r) => r.json().data.uuid)).size).toBe(1);
      expect(await countJobs()).toBe(before + 1);
    });

    it('a malformed key is 400', async () => {
      const res = await w.agentA1.client.post('/api/jobs/manage', body, { headers: { 'idempotency-key': 'x'.repeat(256) } });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('list filters and sorting', () => {
    let admin: Awaited<ReturnType<typeof userClient>>;
    let ids: { b1: { uuid: string }; b2: { uuid: string }; con: { uuid: string }; ten: { uuid: string }; flat: { uuid: string }; agent: Awaited<ReturnType<typeof userClient>> };
    beforeAll(async () => {
      const agency = await createAgency(t.db, 'Agency F');
      const b1 = await createBranch(t.db, agency.id, 'F1');
      const b2 = await createBranch(t.db, agency.id, 'F2');
      const con = await createContractor(t, agency.id);
      const ten = await createTenant(t, agency.id);
      admin = await userClient(t, { role: 'admin', agencyId: agency.id });
      const agent = await userClient(t, { role: 'agent', agencyId: agency.id, branchId: b1.id });
      const flat = await createAddress(t, agency.id, b2.id, 'LS6 2AB');
      ids = { b1, b2, con, ten, flat, agent };
      const d = (s: string) => new Date(s);
      const base = { agency_id: agency.id };
      const seeded = [
        await insertJob(t, { ...base, branch_id: b1.id, reference: 'JOB-000001', title: 'Leaking tap', priority: 3, status_id: 1, created_at: d('2026-11-01T10:00:00Z'), updated_at: d('2026-11-05T10:00:00Z') }),
        await insertJob(t, { ...base, branch_id: b1.id, reference: 'JOB-000002', title: 'Boiler 100% dead', priority: 1, status_id: 5, job_type_id: 2, contractor_id: con.id, scheduled_for: d('2026-11-25T00:00:00Z'), created_at: d('2026-11-02T10:00:00Z'), updated_at: d('2026-11-03T10:00:00Z') }),
        await insertJob(t, { ...base, branch_id: b2.id, reference: 'JOB-000003', title: 'Gutter', description: 'clear the under_sink trap', priority: 5, status_id: 1, tenant_id: ten.id, agent_user_id: agent.user.id, created_at: d('2026-11-03T10:00:00Z'), updated_at: d('2026-11-04T10:00:00Z') }),
        await insertJob(t, { ...base, branch_id: b2.id, reference: 'JOB-000004', title: 'Smoke alarm', address_id: flat.id, priority: 3, status_id: 5, job_type_id: 5, scheduled_for: d('2026-11-22T00:00:00Z'), created_at: d('2026-11-03T10:00:00Z'), updated_at: d('2026-11-06T10:00:00Z') }),
      ];
      expect(seeded).toHaveLength(4);
    });
    const refs = async (qs: string) => {
      const res = await admin.client.get(`/api/jobs/manage?${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return { refs: res.json().data.map((j: { reference: string }) => j.reference), count: res.json().count };
    };

    it('filters by each field', async () => {
      expect((await refs('status_id=5')).refs).toEqual(['JOB-000004', 'JOB-000002']);
      expect((await refs('job_type_id=2')).refs).toEqual(['JOB-000002']);
      expect((await refs('priority=3')).refs).toEqual(['JOB-000004', 'JOB-000001']);
      expect((await refs(`branch_uuid=${ids.b2.uuid}`)).refs).toEqual(['JOB-000004', 'JOB-000003']);
      expect((await refs(`contractor_uuid=${ids.con.uuid}`)).refs).toEqual(['JOB-000002']);
      expect((await refs(`tenant_uuid=${ids.ten.uuid}`)).refs).toEqual(['JOB-000003']);
      expect((await refs(`agent_uuid=${ids.agent.user.uuid}`)).refs).toEqual(['JOB-000003']);
      expect((await refs(`address_uuid=${ids.flat.uuid}`)).refs).toEqual(['JOB-000004']);
      expect((await refs('address_uuid=00000000-0000-4000-8000-000000000000')).count).toBe(0);
      expect((await refs('from_date=2026-11-02')).refs).toEqual(['JOB-000004', 'JOB-000003', 'JOB-000002']);
      expect((await refs('to_date=2026-11-02')).refs).toEqual(['JOB-000002', 'JOB-000001']);
      expect((await refs('from_date=2026-11-02&to_date=2026-11-02')).refs).toEqual(['JOB-000002']);
      expect((await refs('q=LEAK')).refs).toEqual(['JOB-000001']);
      expect((await refs('q=000003')).refs).toEqual(['JOB-000003']);
      expect((await refs('q=under_sink')).refs).toEqual(['JOB-000003']);
      expect((await refs('q=100%25')).refs).toEqual(['JOB-000002']);
      expect((await refs('q=_')).refs).toEqual(['JOB-000003']);
      expect((await refs('q=%25')).refs).toEqual(['JOB-000002']);
      expect((await refs(`branch_uuid=${ids.b2.uuid}&priority=5`)).refs).toEqual(['JOB-000003']);
      expect((await refs('contractor_uuid=00000000-0000-4000-8000-000000000000')).count).toBe(0);
    });

    it('sorts by each field in both orders, id breaking ties, nulls last', async () => {
      expect((await refs('')).refs).toEqual(['JOB-000004', 'JOB-000003', 'JOB-000002', 'JOB-000001']);
      expect((await refs('sort=created_at&order=asc')).refs).toEqual(['JOB-000001', 'JOB-000002', 'JOB-000003', 'JOB-000004']);
      expect((await refs('sort=updated_at&order=desc')).refs).toEqual(['JOB-000004', 'JOB-000001', 'JOB-000003', 'JOB-000002']);
      expect((await refs('sort=updated_at&order=asc')).refs).toEqual(['JOB-000002', 'JOB-000003', 'JOB-000001', 'JOB-000004']);
      expect((await refs('sort=priority&order=asc')).refs).toEqual(['JOB-000002', 'JOB-000001', 'JOB-000004', 'JOB-000003']);
      expect((await refs('sort=priority&order=desc')).refs).toEqual(['JOB-000003', 'JOB-000004', 'JOB-000001', 'JOB-000002']);
      expect((await refs('sort=scheduled_for&order=asc')).refs).toEqual(['JOB-000004', 'JOB-000002', 'JOB-000001', 'JOB-000003']);
      expect((await refs('sort=scheduled_for&order=desc')).refs).toEqual(['JOB-000002', 'JOB-000004', 'JOB-000003', 'JOB-000001']);
      const page = await refs('sort=priority&order=asc&limit=2&offset=1');
      expect(page).toEqual({ refs: ['JOB-000001', 'JOB-000004'], count: 4 });
    });

    it('bad filter values are 400', async () => {
      for (const qs of ['status_id=x', 'priority=6', 'sort=title', 'order=up', 'from_date=2026-13-01', 'branch_uuid=nope', 'unknown=1', 'from_date=2026-11-05&to_date=2026-11-01', 'limit=201']) {
        expect((await admin.client.get(`/api/jobs/manage?${qs}`)).statusCode, qs).toBe(400);
      }
    });
  });
});
