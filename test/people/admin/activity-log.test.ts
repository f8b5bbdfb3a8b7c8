/**
 * Spec 2.3 and 4.6, docs/security.md promise 17: the audit log records authentication events, writes
 * (in the write's transaction) and refusals, and GET /api/admin/activity-log filters, pages and
 * scopes it by agency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAddress } from '../../helpers/factories.ts';
import { buildTestApp, Client, standardWorld, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof standardWorld>>;
beforeAll(async () => {
  t = await buildTestApp();
  w = await standardWorld(t);
  t.clock.set(new Date('2026-11-20T10:00:00Z'));
  await w.agentA1.client.post('/api/jobs/manage', { title: 'Yesterday job', priority: 3 });
  t.clock.set(new Date('2026-11-21T10:00:00Z'));
  await w.agentA1.client.post('/api/jobs/manage', { title: 'Today job', priority: 3 });
  await w.adminB.client.post('/api/jobs/manage', { title: 'Southbank job', priority: 3 });
});
afterAll(async () => t?.close());

describe('GET /api/admin/activity-log', () => {
  it('returns entries with exactly the fields of 2.3, newest first, with count', async () => {
    const res = await w.adminA.client.get('/api/admin/activity-log');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(typeof body.message).toBe('string');
    expect(body.count).toBeGreaterThan(0);
    const entry = body.data[0];
    expect(Object.keys(entry).sort()).toEqual(['ID', 'action', 'created_at', 'ip_address', 'resource_id', 'resource_type', 'user_id', 'user_name'].sort());
    expect(entry.created_at).toMatch(/Z$/);
    const times = body.data.map((e: { created_at: string }) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());
    for (const e of body.data) expect(e.action).toMatch(/^[a-z_]+\.[a-z_]+$/);
    // The bytes: the envelope and each entry in the order of spec 2.3 (written by the database).
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(body)).toEqual(['success', 'data', 'count', 'message']);
    for (const e of body.data) {
      expect(Object.keys(e)).toEqual(['ID', 'user_id', 'user_name', 'action', 'resource_type', 'resource_id', 'ip_address', 'created_at']);
      expect(e.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Number.isInteger(e.user_id)).toBe(true);
    }
  });

  it('records a write with who, what, when and where, in the same transaction', async () => {
    const res = await w.adminA.client.get('/api/admin/activity-log?action=job.create');
    const entries = res.json().data;
    expect(entries).toHaveLength(2);
    const job = await t.db.selectFrom('jobs').select(['id', 'created_at']).where('title', '=', 'Today job').executeTakeFirstOrThrow();
    const entry = entries.find((e: { resource_id: number }) => e.resource_id === job.id);
    expect(entry).toMatchObject({ user_id: w.agentA1.user.id, user_name: w.agentA1.user.name, resource_type: 'job', ip_address: '127.0.0.1' });
    expect(new Date(entry.created_at).getTime()).toBe(new Date(job.created_at).getTime());
  });

  it('a refused write leaves no entry and no row', async () => {
    const before = (await w.adminA.client.get('/api/admin/activity-log?action=job.create')).json().count;
    await w.agentA1.client.post('/api/jobs/manage', { title: '', priority: 3 });
    expect((await w.adminA.client.get('/api/admin/activity-log?action=job.create')).json().count).toBe(before);
  });

  it('filters by user_id, action and an inclusive date range', async () => {
    const byUser = (await w.adminA.client.get(`/api/admin/activity-log?user_id=${w.agentA1.user.id}`)).json();
    expect(byUser.data.every((e: { user_id: number }) => e.user_id === w.agentA1.user.id)).toBe(true);
    const day = (await w.adminA.client.get('/api/admin/activity-log?action=job.create&from_date=2026-11-20&to_date=2026-11-20')).json();
    expect(day.count).toBe(1);
    const range = (await w.adminA.client.get('/api/admin/activity-log?action=job.create&from_date=2026-11-20&to_date=2026-11-21')).json();
    expect(range.count).toBe(2);
    const none = (await w.adminA.client.get('/api/admin/activity-log?action=job.create&from_date=2026-11-22')).json();
    expect(none.count).toBe(0);
  });

  it('filters by the start of the action; with resources=true names and links the record and a move from and to', async () => {
    const found = await w.agentA1.client.get('/api/jobs/manage?q=Today');
    expect(found.statusCode, found.body).toBe(200);
    const job = found.json().data[0];
    const moved = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: 2 });
    expect(moved.statusCode, moved.body).toBe(200);
    const jobs = (await w.adminA.client.get('/api/admin/activity-log?action_prefix=job.&limit=200')).json();
    expect(jobs.count).toBeGreaterThanOrEqual(3);
    expect(jobs.data.every((e: { action: string }) => e.action.startsWith('job.'))).toBe(true);
    // The user's % and _ are matched literally.
    expect((await w.adminA.client.get('/api/admin/activity-log?action_prefix=j%25')).json().count).toBe(0);
    const plain = (await w.adminA.client.get('/api/admin/activity-log?action=job.transition')).json().data[0];
    expect(plain).not.toHaveProperty('resource_uuid');
    const richRes = await w.adminA.client.get('/api/admin/activity-log?action=job.transition&resources=true');
    expect(richRes.statusCode, richRes.body).toBe(200);
    const rich = richRes.json().data[0];
    expect(rich).toMatchObject({ resource_type: 'job', resource_uuid: job.uuid, resource_label: job.reference, from_status: 'Reported', to_status: 'Awaiting approval' });
    const create = (await w.adminA.client.get('/api/admin/activity-log?action=job.create&resources=true')).json().data[0];
    expect(create).toMatchObject({ resource_label: expect.stringMatching(/^JOB-/), from_status: null, to_status: null });
  });

  it("names other kinds of record in people's words: a custom compliance type and a compliance item of a property", async () => {
    const c = w.adminA.client;
    const type = await c.post('/api/compliance/types', { code: 'pat_testing', name: 'Portable appliance testing', interval_months: 12, required_document: 'PAT test record' });
    expect(type.statusCode, type.body).toBe(201);
    const typeEntry = (await c.get('/api/admin/activity-log?action=compliance_type.create&resources=true')).json().data[0];
    expect(typeEntry).toMatchObject({ resource_type: 'compliance_type', resource_uuid: type.json().data.uuid, resource_label: 'Portable appliance testing' });
    const address = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    const item = await c.post('/api/compliance/items', { address_uuid: address.uuid, type: 'pat_testing' });
    expect(item.statusCode, item.body).toBe(201);
    const itemEntry = (await c.get('/api/admin/activity-log?action_prefix=compliance_item.&resources=true')).json().data[0];
    expect(itemEntry).toMatchObject({ resource_type: 'compliance_item', resource_label: 'Portable appliance testing, LS8 4AA' });
  });

  it('pages with limit and offset', async () => {
    const all = (await w.adminA.client.get('/api/admin/activity-log?limit=200')).json();
    const page = (await w.adminA.client.get('/api/admin/activity-log?limit=1&offset=1')).json();
    expect(page.count).toBe(all.count);
    expect(page.data).toHaveLength(1);
    expect(page.data[0].ID).toBe(all.data[1].ID);
  });

  it("shows an agency admin only the agency's entries; SysOps see all", async () => {
    const a = (await w.adminA.client.get('/api/admin/activity-log?action=job.create')).json();
    expect(a.data.map((e: { user_id: number }) => e.user_id)).not.toContain(w.adminB.user.id);
    const all = (await w.sysops.client.get('/api/admin/activity-log?action=job.create')).json();
    expect(all.count).toBe(3);
  });

  it.each([
    ['from_date=21-11-2026', 'from_date'],
    ['to_date=2026-02-30', 'to_date'],
    ['user_id=abc', 'user_id'],
    ['from_date=2026-11-22&to_date=2026-11-20', 'to_date'],
  ])('rejects %s with 400', async (query, name) => {
    const res = await w.adminA.client.get(`/api/admin/activity-log?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`Invalid or missing required parameter: ${name}`);
  });

  it('401 without credentials and 403 without the key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/activity-log' })).statusCode).toBe(401);
    expect((await w.agentA1.client.get('/api/admin/activity-log')).statusCode).toBe(403);
  });
});

describe('authentication events', () => {
  it('login, failed login, mobile token issue and revoke, and logout are all recorded', async () => {
    const email = (await t.db.selectFrom('users').select('email').where('id', '=', w.agentA1.user.id).executeTakeFirstOrThrow()).email;
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ghost@example.test', password: 'whatever1' } });
    const mobile = (await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email, password: TEST_PASSWORD } })).json().data.token;
    await new Client(t.app, mobile).delete('/api/security/mobile-auth');
    const login = (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } })).json().token;
    await new Client(t.app, login).post('/api/auth/logout');
    const actions = (await w.sysops.client.get('/api/admin/activity-log?limit=200')).json().data.map((e: { action: string }) => e.action);
    for (const a of ['auth.login_failed', 'auth.mobile_token_issue', 'auth.mobile_token_revoke', 'auth.login', 'auth.logout']) {
      expect(actions).toContain(a);
    }
    const failed = (await w.sysops.client.get('/api/admin/activity-log?action=auth.login_failed')).json().data[0];
    expect(failed).toMatchObject({ user_id: 0, user_name: 'ghost@example.test', resource_id: null });
  });
});
