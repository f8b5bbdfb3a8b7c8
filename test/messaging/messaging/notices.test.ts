/**
 * Notices (docs/messaging.md "Notices"): published to an agency, a branch or a role, shown to the
 * right users between starts_at and expires_at, read receipts, who read it, and the usual 4xx
 * (bad window, foreign branch or role, another agency's notice, missing permission).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { jobsWorld, type JobsWorld } from '../../jobs/jobs/fixtures.ts';

describe('notices', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  const titles = async (client: JobsWorld['agentA1']['client']) => ((await client.get('/api/notices/current')).json().data as Array<{ title: string }>).map((n) => n.title);

  it('reaches the agency, one branch or one role, only inside the window, critical first', async () => {
    const now = t.clock.now();
    const post = (body: Record<string, unknown>) => w.adminA.client.post('/api/notices', body);
    const all = await post({ title: 'Office closed Friday', body: 'The Leeds office is closed on Friday.', severity: 'warning' });
    expect(all.statusCode, all.body).toBe(201);
    expect(all.json()).toMatchObject({ message: 'Notice published', data: { title: 'Office closed Friday', severity: 'warning', branch_uuid: null, role_code: null, starts_at: now.toISOString(), expires_at: null, created_by: w.adminA.user.name, read_count: 0 } });
    expect((await post({ title: 'A2 only', body: 'x', branch_uuid: w.a2.uuid })).statusCode).toBe(201);
    expect((await post({ title: 'Contractors only', body: 'x', role_code: 'contractor', severity: 'critical' })).statusCode).toBe(201);
    expect((await post({ title: 'Later', body: 'x', starts_at: new Date(now.getTime() + 3_600_000).toISOString() })).statusCode).toBe(201);
    expect((await post({ title: 'Short', body: 'x', expires_at: new Date(now.getTime() + 60_000).toISOString() })).statusCode).toBe(201);
    expect((await w.adminB.client.post('/api/notices', { title: 'Agency B', body: 'x' })).statusCode).toBe(201);

    expect(await titles(w.agentA1.client)).toEqual(['Office closed Friday', 'Short']);
    expect((await titles(w.agentA2.client)).sort()).toEqual(['A2 only', 'Office closed Friday', 'Short']);
    expect((await titles(w.contractorUser.client))[0]).toBe('Contractors only');
    expect(await titles(w.adminB.client)).toEqual(['Agency B']);
    t.clock.advance(3_600);
    expect((await titles(w.tenantUser.client)).sort()).toEqual(['Later', 'Office closed Friday']);
    expect((await w.sysops.client.get('/api/notices/current')).json()).toMatchObject({ count: 0, data: [] });
    expect((await w.adminA.client.get('/api/notices?state=expired')).json().data.map((n: { title: string }) => n.title)).toEqual(['Short']);
  });

  it('read receipts: once per user, only for a notice addressed to the caller; the author sees who read it', async () => {
    const created = await w.adminA.client.post('/api/notices', { title: 'Fire drill', body: 'Tuesday 10:00', branch_uuid: w.a1.uuid });
    const uuid = created.json().data.uuid as string;
    const first = await w.agentA1.client.post(`/api/notices/${uuid}/read`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ uuid, read_at: t.clock.now().toISOString() });
    t.clock.advance(30);
    expect((await w.agentA1.client.post(`/api/notices/${uuid}/read`)).json().data.read_at).toBe(first.json().data.read_at);
    expect((await w.agentA2.client.post(`/api/notices/${uuid}/read`)).json()).toEqual({ success: false, error: 'Notice not found' });
    expect((await w.adminB.client.post(`/api/notices/${uuid}/read`)).statusCode).toBe(404);
    await w.tenantUser.client.post(`/api/notices/${uuid}/read`);
    const unread = await w.agentA1.client.get('/api/notices/current?unread=true');
    expect(unread.json().data.map((n: { uuid: string }) => n.uuid)).not.toContain(uuid);
    const reads = await w.adminA.client.get(`/api/notices/${uuid}/reads`);
    expect(reads.json()).toMatchObject({ count: 1, data: [{ user_uuid: w.agentA1.user.uuid, name: w.agentA1.user.name }] });
    expect((await w.adminA.client.get(`/api/notices/${uuid}`)).json().data.read_count).toBe(1);
    expect((await w.adminB.client.get(`/api/notices/${uuid}/reads`)).statusCode).toBe(404);
    expect((await w.agentA1.client.get(`/api/notices/${uuid}/reads`)).statusCode).toBe(403);
  });

  it('edits and withdraws; refuses a bad window, a foreign branch or role and another agency notice, changing nothing', async () => {
    const created = await w.adminA.client.post('/api/notices', { title: 'Boiler amnesty', body: 'Report boiler faults this week.' });
    const uuid = created.json().data.uuid as string;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ expires_at: '2020-01-01T00:00:00Z' }, 400, 'Invalid or missing required parameter: expires_at'],
      [{ branch_uuid: w.b1.uuid }, 404, 'Branch not found'],
      [{ role_code: 'nope' }, 404, 'Role not found'],
      [{}, 400, 'Invalid or missing required parameter: body'],
      [{ severity: 'urgent' }, 400, 'Invalid or missing required parameter: severity'],
      [{ title: 'a\u0000b' }, 400, 'Invalid or missing required parameter: title'],
      [{ role_code: 'x\u0000' }, 400, 'Invalid or missing required parameter: role_code'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.adminA.client.put(`/api/notices/${uuid}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    expect((await w.adminB.client.put(`/api/notices/${uuid}`, { title: 'x' })).statusCode).toBe(404);
    expect((await w.adminA.client.post('/api/notices', { title: 'x', body: 'y', branch_uuid: w.b1.uuid })).statusCode).toBe(404);
    const edited = await w.adminA.client.put(`/api/notices/${uuid}`, { severity: 'critical', role_code: 'tenant' });
    expect(edited.json().data).toMatchObject({ title: 'Boiler amnesty', severity: 'critical', role_code: 'tenant' });
    expect((await titles(w.tenantUser.client))[0]).toBe('Boiler amnesty');
    expect((await w.adminA.client.delete(`/api/notices/${uuid}`)).json()).toEqual({ success: true, message: 'Notice withdrawn' });
    expect(await titles(w.tenantUser.client)).not.toContain('Boiler amnesty');
    expect((await w.adminA.client.get(`/api/notices/${uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.post('/api/notices', { title: 'x', body: 'y' })).statusCode).toBe(403);
    const actions = await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'notice').execute();
    expect(new Set(actions.map((a) => a.action))).toEqual(new Set(['notice.create', 'notice.update', 'notice.delete']));
  });
});
