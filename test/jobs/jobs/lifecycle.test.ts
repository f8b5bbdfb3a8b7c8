import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVES, STATUS, STATUS_NAMES, type Party } from '../../../src/modules/jobs/jobs/lifecycle.ts';
import { createDemoContext } from '../../../src/seed/demo/load.ts';
import { jobsHistoryStep } from '../../../src/seed/demo/jobs-history.ts';
import { buildTestApp, csrf, type TestApp } from '../../helpers/app.ts';
import { insertJob, jobsWorld, type JobsWorld } from './fixtures.ts';

describe('jobs lifecycle: transition map, date fields, history, concurrency', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  const clientOf = (p: Party) => (p === 'staff' ? w.agentA1 : p === 'contractor' ? w.contractorUser : w.tenantUser);
  const jobAt = (status: number, extra: Record<string, unknown> = {}) =>
    insertJob(t, {
      agency_id: w.agencyA.id,
      branch_id: w.a1.id,
      status_id: status,
      contractor_id: w.contractor.id,
      tenant_id: w.tenant.id,
      address_id: w.address.id,
      reported_by_user_id: w.tenantUser.user.id,
      ...extra,
    });
  const history = (jobId: number) => t.db.selectFrom('job_status_history').selectAll().where('job_id', '=', jobId).orderBy('id').execute();

  /** A contractor invoice of the job, straight into the table (the money API has its own tests). */
  const invoiceFor = (jobId: number, status: 'draft' | 'issued') => {
    const now = t.clock.now();
    return t.db
      .insertInto('invoices')
      .values({
        uuid: crypto.randomUUID(), agency_id: w.agencyA.id, job_id: jobId, contractor_id: w.contractor.id, kind: 'invoice', status,
        number: status === 'draft' ? null : jobId, issued_at: status === 'draft' ? null : now,
        vat_registered: false, payment_terms_days: 30, net_pence: 8500, vat_pence: 0, gross_pence: 8500, created_at: now, updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  };

  const legal = MOVES.filter((m) => m.via === 'transition' || m.via === 'resume').flatMap((m) => m.parties.map((p) => ({ ...m, party: p })));

  it('lists every legal transition move in the map (sanity)', () => {
    expect(legal.length).toBeGreaterThan(30);
  });

  for (const mv of legal) {
    it(`${mv.party}: ${STATUS_NAMES[mv.from]} -> ${STATUS_NAMES[mv.to]} (${mv.via}) sets ${mv.sets ?? 'no date'} and writes history`, async () => {
      const job = await jobAt(mv.from, mv.from === STATUS.onHold ? { on_hold_from_status_id: mv.to } : {});
      // The move to Invoiced needs an issued invoice (docs/jobs.md "Invoiced and Closed").
      if (mv.to === STATUS.invoiced && mv.via === 'transition') await invoiceFor(job.id, 'issued');
      t.clock.advance(60);
      const c = clientOf(mv.party);
      const res = await c.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: mv.to, note: 'moving on' });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.status_id).toBe(mv.to);
      expect(data.status).toBe(STATUS_NAMES[mv.to]);
      expect(data.updated_at).toBe(t.clock.now().toISOString());
      if (mv.sets) expect(data[mv.sets]).toBe(t.clock.now().toISOString());
      const stored = await t.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      expect(stored.on_hold_from_status_id).toBe(mv.to === STATUS.onHold ? mv.from : null);
      const h = await history(job.id);
      expect(h).toHaveLength(1);
      expect(h[0]).toMatchObject({ from_status_id: mv.from, to_status_id: mv.to, by_user_id: c.user.id, note: 'moving on' });
      expect(new Date(h[0]!.created_at).toISOString()).toBe(t.clock.now().toISOString());
      const log = await t.db.selectFrom('activity_log').selectAll().where('resource_id', '=', job.id).where('action', '=', 'job.transition').execute();
      expect(log).toHaveLength(1);
    });
  }

  const illegal: Array<[number, number]> = [
    [STATUS.closed, STATUS.inProgress],
    [STATUS.reported, STATUS.completed],
    [STATUS.cancelled, STATUS.reported],
    [STATUS.completed, STATUS.reported],
    [STATUS.invoiced, STATUS.cancelled],
    [STATUS.closed, STATUS.onHold],
    [STATUS.inProgress, STATUS.scheduled],
    [STATUS.approved, STATUS.inProgress],
    [STATUS.reported, STATUS.reported],
  ];
  for (const [from, to] of illegal) {
    it(`refuses ${STATUS_NAMES[from]} -> ${STATUS_NAMES[to]} with 409 naming both, changing nothing`, async () => {
      const job = await jobAt(from);
      const res = await w.adminA.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: to });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, error: `Cannot move a job from ${STATUS_NAMES[from]} to ${STATUS_NAMES[to]}` });
      expect((await t.db.selectFrom('jobs').select('status_id').where('id', '=', job.id).executeTakeFirstOrThrow()).status_id).toBe(from);
      expect(await history(job.id)).toHaveLength(0);
    });
  }

  it('On hold resumes only to the status it came from', async () => {
    const job = await jobAt(STATUS.scheduled);
    expect((await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.onHold })).statusCode).toBe(200);
    const wrong = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.approved });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().error).toBe('Cannot move a job from On hold to Approved: it resumes to Scheduled');
    const back = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.scheduled });
    expect(back.statusCode).toBe(200);
    expect(back.json().data.on_hold_from_status_id).toBeNull();
  });

  it('moves made by assignment or decline are refused here with a hint', async () => {
    const job = await jobAt(STATUS.approved, { contractor_id: null });
    const res = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.assigned });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Cannot move a job from Approved to Assigned here: use POST /api/jobs/{uuid}/assignment');
  });

  it('a legal move the party may not make is 403 and writes nothing', async () => {
    const job = await jobAt(STATUS.reported);
    const byContractor = await w.contractorUser.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.approved });
    expect(byContractor.statusCode).toBe(403);
    expect(byContractor.json().error).toBe('You may not move this job from Reported to Approved');
    const byTenant = await w.tenantUser.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.approved });
    expect(byTenant.statusCode).toBe(403);
    const done = await jobAt(STATUS.completed);
    expect((await w.contractorUser.client.post(`/api/jobs/${done.uuid}/transitions`, { to_status_id: STATUS.invoiced })).statusCode).toBe(403);
    expect(await history(job.id)).toHaveLength(0);
  });

  it('Invoiced needs an issued invoice and Closed no draft one (docs/jobs.md "Invoiced and Closed")', async () => {
    const done = await jobAt(STATUS.completed);
    const early = await w.agentA1.client.post(`/api/jobs/${done.uuid}/transitions`, { to_status_id: STATUS.invoiced });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ success: false, error: 'A job becomes Invoiced when its invoice is issued: issue the invoice first' });
    const invoice = await invoiceFor(done.id, 'draft');
    const closing = await w.agentA1.client.post(`/api/jobs/${done.uuid}/transitions`, { to_status_id: STATUS.closed });
    expect(closing.statusCode).toBe(409);
    expect(closing.json().error).toBe('Cannot close a job while its invoice is a draft: issue or void the invoice first');
    expect(await history(done.id)).toHaveLength(0);
    await t.db.updateTable('invoices').set({ status: 'issued', number: 1, issued_at: t.clock.now() }).where('id', '=', invoice.id).execute();
    expect((await w.agentA1.client.post(`/api/jobs/${done.uuid}/transitions`, { to_status_id: STATUS.invoiced })).statusCode).toBe(200);
    expect((await w.agentA1.client.post(`/api/jobs/${done.uuid}/transitions`, { to_status_id: STATUS.closed })).statusCode).toBe(200);
  });

  it('a tenant may cancel only a Reported job it reported or that is its own', async () => {
    const other = await jobAt(STATUS.reported, { tenant_id: null, reported_by_user_id: w.agentA1.user.id });
    const res = await w.tenantUser.client.post(`/api/jobs/${other.uuid}/transitions`, { to_status_id: STATUS.cancelled });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Only the tenant who reported the job may cancel it');
    const approved = await jobAt(STATUS.approved);
    expect((await w.tenantUser.client.post(`/api/jobs/${approved.uuid}/transitions`, { to_status_id: STATUS.cancelled })).statusCode).toBe(403);
  });

  it('400 for an unknown status and for bad bodies; 403 without CSRF; nothing written', async () => {
    const job = await jobAt(STATUS.reported);
    const unknown = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: 99 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('Invalid or missing required parameter: to_status_id');
    expect((await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: 'three' })).statusCode).toBe(400);
    expect((await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: 3, note: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect((await w.agentA1.client.post('/api/jobs/not-a-uuid/transitions', { to_status_id: 3 })).statusCode).toBe(400);
    const noCsrf = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: 3 }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    expect(await history(job.id)).toHaveLength(0);
  });

  it('two concurrent moves: exactly one succeeds, one history row', async () => {
    const job = await jobAt(STATUS.assigned);
    const token = w.agentA1.token;
    const [c1, c2] = [await csrf(t.app, token), await csrf(t.app, token)];
    const send = (c: string, to: number) =>
      t.app.inject({ method: 'POST', url: `/api/jobs/${job.uuid}/transitions`, headers: { authorization: `Bearer ${token}`, 'x-csrf-token': c }, payload: { to_status_id: to } });
    const results = await Promise.all([send(c1, STATUS.inProgress), send(c2, STATUS.inProgress)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const h = await history(job.id);
    expect(h.map((r) => r.to_status_id)).toEqual([STATUS.inProgress]);
    const job2 = await jobAt(STATUS.inProgress);
    const [c3, c4] = [await csrf(t.app, token), await csrf(t.app, token)];
    const send2 = (c: string, to: number) =>
      t.app.inject({ method: 'POST', url: `/api/jobs/${job2.uuid}/transitions`, headers: { authorization: `Bearer ${token}`, 'x-csrf-token': c }, payload: { to_status_id: to } });
    const mixed = await Promise.all([send2(c3, STATUS.completed), send2(c4, STATUS.cancelled)]);
    expect(mixed.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await history(job2.id)).toHaveLength(1);
  });

  it('creation writes the first history row (null -> Reported); GET history shows it with the author', async () => {
    t.clock.advance(60);
    const created = await w.agentA1.client.post('/api/jobs/manage', { title: 'Leaking tap', priority: 3 });
    expect(created.statusCode).toBe(201);
    const uuid = created.json().data.uuid;
    const res = await w.agentA1.client.get(`/api/jobs/${uuid}/history`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, count: 1 });
    expect(res.json().data[0]).toMatchObject({
      from_status_id: null, from_status: null, to_status_id: 1, to_status: 'Reported',
      by_user_uuid: w.agentA1.user.uuid, by_user_name: w.agentA1.user.name, note: null, created_at: t.clock.now().toISOString(),
    });
    await w.agentA1.client.post(`/api/jobs/${uuid}/transitions`, { to_status_id: STATUS.approved, note: 'ok to go' });
    const after = await w.agentA1.client.get(`/api/jobs/${uuid}/history?limit=1&offset=1`);
    expect(after.json().count).toBe(2);
    expect(after.json().data).toHaveLength(1);
    expect(after.json().data[0]).toMatchObject({ from_status: 'Reported', to_status: 'Approved', note: 'ok to go' });
  });

  it('GET /api/jobs/statuses lists every status with its allowed next moves; GET /api/jobs/types the six types', async () => {
    const res = await w.tenantUser.client.get('/api/jobs/statuses');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(11);
    const closed = body.data.find((s: { ID: number }) => s.ID === STATUS.closed);
    expect(closed).toMatchObject({ code: 'closed', name: 'Closed', is_open: false, allowed_next: [] });
    const reported = body.data.find((s: { ID: number }) => s.ID === STATUS.reported);
    expect(reported.allowed_next.map((n: { status_id: number }) => n.status_id)).toEqual([2, 3, 10, 11]);
    expect(reported.allowed_next.find((n: { status_id: number }) => n.status_id === 3)).toEqual({ status_id: 3, name: 'Approved', parties: ['staff'], via: 'transition', sets: 'approved_at' });
    const types = await w.contractorUser.client.get('/api/jobs/types');
    expect(types.statusCode).toBe(200);
    expect(types.json().data.map((x: { code: string }) => x.code)).toEqual(['reactive_repair', 'emergency', 'planned_maintenance', 'inspection', 'compliance_check', 'void_works']);
  });

  it('the demo step writes history for jobs without any and sets the hold origin', async () => {
    const d = (n: number) => new Date(Date.UTC(2026, 10, 1, n));
    const closed = await jobAt(STATUS.closed, { created_at: d(0), approved_at: d(1), assigned_at: d(2), scheduled_for: d(3), attended_at: d(4), completed_at: d(5), invoiced_at: d(6), closed_at: d(7), updated_at: d(7), agent_user_id: w.agentA1.user.id });
    const held = await jobAt(STATUS.onHold, { created_at: d(0), approved_at: d(1), assigned_at: d(2), updated_at: d(2) });
    const before = await t.db.selectFrom('job_status_history').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await t.db.transaction().execute((trx) =>
      jobsHistoryStep(createDemoContext(trx, { seed: 1, now: t.clock.now(), passwordHash: '' })),
    );
    const h = await history(closed.id);
    expect(h.map((r) => [r.from_status_id, r.to_status_id])).toEqual([[null, 1], [1, 3], [3, 5], [5, 6], [6, 7], [7, 8], [8, 9]]);
    expect(h.map((r) => new Date(r.created_at).getTime())).toEqual([0, 1, 2, 4, 5, 6, 7].map((n) => d(n).getTime()));
    expect(h[1]!.by_user_id).toBe(w.agentA1.user.id);
    expect((await history(held.id)).at(-1)).toMatchObject({ from_status_id: STATUS.assigned, to_status_id: STATUS.onHold });
    expect((await t.db.selectFrom('jobs').select('on_hold_from_status_id').where('id', '=', held.id).executeTakeFirstOrThrow()).on_hold_from_status_id).toBe(STATUS.assigned);
    const after = await t.db.selectFrom('job_status_history').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const jobsWithout = await t.db.selectFrom('jobs as j').select('j.id').where((eb) => eb.not(eb.exists(eb.selectFrom('job_status_history as x').select('x.id').whereRef('x.job_id', '=', 'j.id')))).execute();
    expect(jobsWithout).toHaveLength(0);
    expect(Number(after.n)).toBeGreaterThan(Number(before.n));
  });
});
