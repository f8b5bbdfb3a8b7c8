import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createBranch, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

const PATH = '/api/agents/branch-sla-response-times';

describe('branch SLA response-time rules (spec 4.7, 4.8)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const valid = () => ({
    branch_uuid: w.a1.uuid,
    job_status_from_id: 1,
    job_status_to_id: 6,
    job_type_id: 2,
    date_field_to_track: 'attended_at',
    date_field_to_compare: 'created_at',
    job_priority: 1,
    minimum_response_days: 1,
    description: 'Emergency jobs attended within 1 day',
  });
  const ruleCount = async () => Number((await t.db.selectFrom('branch_sla_rules').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('creates a rule (200, data, activity entry) and lists it', async () => {
    const res = await w.agentA1.client.post(PATH, valid());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'SLA rule created' });
    expect(body.data).toMatchObject({ ...valid(), branch_name: 'A1', created_at: '2026-11-21T09:00:00.000Z' });
    const listed = await w.agentA1.client.get(PATH);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ success: true, count: 1, data: [{ uuid: body.data.uuid }] });
    const log = await t.db.selectFrom('activity_log').select(['action', 'agency_id']).where('action', '=', 'sla_rule.create').execute();
    expect(log).toEqual([{ action: 'sla_rule.create', agency_id: w.agencyA.id }]);
  });

  it('treats job_type_id, job_priority and description as optional (null = any)', async () => {
    const { job_type_id: _t, job_priority: _p, description: _d, ...minimal } = valid();
    const res = await w.adminA.client.post(PATH, { ...minimal, branch_uuid: w.a2.uuid });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ job_type_id: null, job_priority: null, description: '', branch_name: 'A2' });
  });

  it('updates a rule by uuid, keeping fields left out; null clears type and priority', async () => {
    const created = (await w.adminA.client.post(PATH, valid())).json().data;
    t.clock.advance(60);
    const res = await w.adminA.client.post(PATH, { uuid: created.uuid, minimum_response_days: 2, job_priority: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('SLA rule updated');
    expect(res.json().data).toMatchObject({ ...valid(), uuid: created.uuid, minimum_response_days: 2, job_priority: null });
    expect(res.json().data.updated_at).not.toBe(created.updated_at);
  });

  it('lists with a branch filter and pagination; an agent sees only its branch', async () => {
    await w.adminA.client.post(PATH, { ...valid(), branch_uuid: w.a2.uuid });
    const all = (await w.adminA.client.get(PATH)).json();
    const a2 = (await w.adminA.client.get(`${PATH}?branch_uuid=${w.a2.uuid}&limit=1&offset=0`)).json();
    expect(a2.data).toHaveLength(1);
    expect(a2.count).toBe(all.data.filter((r: { branch_uuid: string }) => r.branch_uuid === w.a2.uuid).length);
    const agent = (await w.agentA1.client.get(PATH)).json();
    expect(agent.data.every((r: { branch_uuid: string }) => r.branch_uuid === w.a1.uuid)).toBe(true);
    expect((await w.agentA1.client.get(`${PATH}?branch_uuid=${w.a2.uuid}`)).statusCode).toBe(404);
    expect((await w.adminA.client.get(`${PATH}?branch_uuid=${w.b1.uuid}`)).json()).toMatchObject({ success: false, error: 'Branch not found' });
    expect((await w.adminB.client.get(PATH)).json().count).toBe(0);
    expect((await w.sysops.client.get(PATH)).json().count).toBe(all.count);
    expect((await w.adminA.client.get(`${PATH}?limit=0`)).statusCode).toBe(400);
    expect((await w.adminA.client.get(`${PATH}?colour=red`)).statusCode).toBe(400);
  });

  it('rejects each invalid field with 400 naming it, and writes nothing', async () => {
    const before = await ruleCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ job_status_from_id: 99 }, 'job_status_from_id'],
      [{ job_status_to_id: 99 }, 'job_status_to_id'],
      [{ job_status_to_id: 1 }, 'job_status_to_id'],
      [{ job_type_id: 99 }, 'job_type_id'],
      [{ date_field_to_track: 'deleted_at' }, 'date_field_to_track'],
      [{ date_field_to_compare: 'password_hash' }, 'date_field_to_compare'],
      [{ date_field_to_compare: 'attended_at' }, 'date_field_to_compare'],
      [{ job_priority: 6 }, 'job_priority'],
      [{ job_priority: 0 }, 'job_priority'],
      [{ minimum_response_days: -1 }, 'minimum_response_days'],
      [{ minimum_response_days: 1.5 }, 'minimum_response_days'],
      [{ minimum_response_days: '3' }, 'minimum_response_days'],
      [{ branch_uuid: 'not-a-uuid' }, 'branch_uuid'],
      [{ description: 'x'.repeat(1001) }, 'description'],
    ];
    for (const [patch, name] of cases) {
      const res = await w.adminA.client.post(PATH, { ...valid(), ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${name}` });
    }
    for (const field of ['branch_uuid', 'job_status_from_id', 'job_status_to_id', 'date_field_to_track', 'date_field_to_compare', 'minimum_response_days']) {
      const body: Record<string, unknown> = valid();
      delete body[field];
      const res = await w.adminA.client.post(PATH, body);
      expect(res.json().error).toBe(`Invalid or missing required parameter: ${field}`);
    }
    const created = (await w.adminA.client.post(PATH, valid())).json().data;
    const bad = await w.adminA.client.post(PATH, { uuid: created.uuid, job_status_to_id: 1 });
    expect(bad.statusCode).toBe(400);
    expect((await w.adminA.client.get(PATH)).json().data.find((r: { uuid: string }) => r.uuid === created.uuid).job_status_to_id).toBe(6);
    expect(await ruleCount()).toBe(before + 1);
  });

  it('keeps branches to the caller: another agency or branch, or a closed branch, is 404 Branch', async () => {
    const closed = await createBranch(t.db, w.agencyA.id, 'Closed');
    await t.db.updateTable('branches').set({ closed_at: new Date() }).where('id', '=', closed.id).execute();
    for (const [client, branch] of [
      [w.adminA.client, w.b1.uuid],
      [w.agentA1.client, w.a2.uuid],
      [w.adminA.client, closed.uuid],
      [w.adminA.client, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await client.post(PATH, { ...valid(), branch_uuid: branch });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: 'Branch not found' });
    }
    const sys = await w.sysops.client.post(PATH, { ...valid(), branch_uuid: w.b1.uuid });
    expect(sys.statusCode).toBe(200);
  });

  it("answers 404 SLA rule not found for an unknown uuid and for another agency's or branch's rule", async () => {
    const ruleB = (await w.adminB.client.post(PATH, { ...valid(), branch_uuid: w.b1.uuid })).json().data;
    const ruleA2 = (await w.adminA.client.post(PATH, { ...valid(), branch_uuid: w.a2.uuid })).json().data;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [client, uuid] of [[w.adminA.client, ruleB.uuid], [w.agentA1.client, ruleA2.uuid], [w.adminA.client, unknown]] as const) {
      const upd = await client.post(PATH, { uuid, minimum_response_days: 9 });
      expect(upd.statusCode).toBe(404);
      expect(upd.json()).toEqual({ success: false, error: 'SLA rule not found' });
      const del = await client.delete(PATH, { uuid });
      expect(del.statusCode).toBe(404);
      expect(del.json().error).toBe('SLA rule not found');
    }
    const stored = await t.db.selectFrom('branch_sla_rules').select(['minimum_response_days', 'deleted_at']).where('uuid', '=', ruleB.uuid).executeTakeFirstOrThrow();
    expect(stored).toEqual({ minimum_response_days: 1, deleted_at: null });
  });

  it('deletes a rule (200 {success, message}); a second delete is 404; the rule leaves the list', async () => {
    const rule = (await w.agentA1.client.post(PATH, valid())).json().data;
    const res = await w.agentA1.client.delete(PATH, { uuid: rule.uuid });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'SLA rule deleted' });
    expect((await w.agentA1.client.delete(PATH, { uuid: rule.uuid })).statusCode).toBe(404);
    expect((await w.agentA1.client.get(PATH)).json().data.map((r: { uuid: string }) => r.uuid)).not.toContain(rule.uuid);
    expect((await w.agentA1.client.delete(PATH, {})).json().error).toBe('Invalid or missing required parameter: uuid');
    const log = await t.db.selectFrom('activity_log').select('resource_type').where('action', '=', 'sla_rule.delete').execute();
    expect(log).toEqual([{ resource_type: 'sla_rule' }]);
  });

  it('needs authentication, the permission and a CSRF token', async () => {
    expect((await t.app.inject({ method: 'GET', url: PATH })).statusCode).toBe(401);
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    for (const res of [await tenant.client.get(PATH), await tenant.client.post(PATH, valid()), await tenant.client.delete(PATH, { uuid: '00000000-0000-4000-8000-000000000000' })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, error: 'You do not have permission to perform this action' });
    }
    const before = await ruleCount();
    const noCsrf = await w.adminA.client.post(PATH, valid(), { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    const rule = (await w.adminA.client.post(PATH, valid())).json().data;
    expect((await w.adminA.client.delete(PATH, { uuid: rule.uuid }, { csrf: false })).statusCode).toBe(403);
    expect(await ruleCount()).toBe(before + 1);
  });
});
