import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, csrf, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { activity, insertJob } from '../../helpers/roles-branches.ts';

describe('branch sharing (spec 4.11)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let agentA2: Awaited<ReturnType<typeof userClient>>;
  const sharing = async (id: number) => (await t.db.selectFrom('branches').select('sharing_enabled').where('id', '=', id).executeTakeFirstOrThrow()).sharing_enabled;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    agentA2 = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a2.id });
    // Start from no sharing in agency A; B1 shares, which must never matter to agency A.
    await t.db.updateTable('branches').set({ sharing_enabled: false }).where('agency_id', '=', w.agencyA.id).execute();
    await t.db.updateTable('branches').set({ sharing_enabled: true }).where('id', '=', w.b1.id).execute();
  });
  afterAll(async () => t?.close());

  it('GET reads the sharing flag of the caller\'s branch', async () => {
    const res = await w.agentA1.client.get('/api/agents/branch-sharing');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { branch_uuid: w.a1.uuid, branch_name: 'A1', enabled: false }, message: 'Branch sharing retrieved' });
  });

  it('POST sets the flag of the caller\'s branch and logs it', async () => {
    const res = await agentA2.client.post('/api/agents/branch-sharing', { enabled: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Branch sharing enabled for A2' });
    expect(await sharing(w.a2.id)).toBe(true);
    expect((await agentA2.client.get('/api/agents/branch-sharing')).json().data.enabled).toBe(true);
    expect((await activity(t.db, 'branch.sharing_set')).at(-1)).toMatchObject({
      user_id: agentA2.user.id,
      resource_id: w.a2.id,
      agency_id: w.agencyA.id,
      details: { enabled: true, previous: false },
    });
    const off = await agentA2.client.post('/api/agents/branch-sharing', { enabled: false });
    expect(off.json().message).toBe('Branch sharing disabled for A2');
    expect(await sharing(w.a2.id)).toBe(false);
  });

  it('accepts the CSRF token in the body as the spec shows', async () => {
    const token = await csrf(t.app, agentA2.token);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agents/branch-sharing',
      headers: { authorization: `Bearer ${agentA2.token}` },
      payload: { enabled: false, csrf_token: token },
    });
    expect(res.statusCode).toBe(200);
  });

  it('an admin without a branch must name one (400 branch_uuid); another agency\'s is 404', async () => {
    const none = await w.adminA.client.get('/api/agents/branch-sharing');
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('Invalid or missing required parameter: branch_uuid');
    expect((await w.adminA.client.post('/api/agents/branch-sharing', { enabled: true })).statusCode).toBe(400);
    const named = await w.adminA.client.get(`/api/agents/branch-sharing?branch_uuid=${w.a1.uuid}`);
    expect(named.json().data).toMatchObject({ branch_uuid: w.a1.uuid, enabled: false });
    const cross = await w.adminA.client.post('/api/agents/branch-sharing', { enabled: false, branch_uuid: w.b1.uuid });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error).toBe('Branch not found');
    expect(await sharing(w.b1.id)).toBe(true);
  });

  it('an agent cannot name another branch (404) and needs a CSRF token; tenants lack the permission', async () => {
    expect((await w.agentA1.client.post('/api/agents/branch-sharing', { enabled: true, branch_uuid: w.a2.uuid })).statusCode).toBe(404);
    expect((await w.agentA1.client.post('/api/agents/branch-sharing', { enabled: true }, { csrf: false })).statusCode).toBe(403);
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenant.client.post('/api/agents/branch-sharing', { enabled: true })).statusCode).toBe(403);
    expect((await w.agentA1.client.post('/api/agents/branch-sharing', {})).statusCode).toBe(400);
    expect((await w.agentA1.client.post('/api/agents/branch-sharing', { enabled: 'yes' })).statusCode).toBe(400);
    expect(await sharing(w.a1.id)).toBe(false);
    expect(await sharing(w.a2.id)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/agents/branch-sharing' })).statusCode).toBe(401);
  });

  it('a closed branch cannot change its sharing (409)', async () => {
    const closedBranch = (await w.adminA.client.post('/api/admin/branches', { name: 'Closed' })).json().data;
    await w.adminA.client.post(`/api/admin/branches/${closedBranch.uuid}/close`);
    const res = await w.adminA.client.post('/api/agents/branch-sharing', { enabled: true, branch_uuid: closedBranch.uuid });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Branch is closed');
  });

  it('sharing lets agents of the agency\'s other branches see (never another agency\'s) jobs on GET /api/jobs/manage', async () => {
    const j1 = await insertJob(t.db, w.agencyA.id, w.a1.id, 1, 'A1 job');
    const j2 = await insertJob(t.db, w.agencyA.id, w.a2.id, 1, 'A2 job');
    const jb = await insertJob(t.db, w.agencyB.id, w.b1.id, 1, 'B1 job');
    const seen = async () => ((await w.agentA1.client.get('/api/jobs/manage?limit=200')).json().data as Array<{ uuid: string }>).map((j) => j.uuid).sort();

    expect(await seen()).toEqual([j1.uuid]);
    await agentA2.client.post('/api/agents/branch-sharing', { enabled: true });
    expect(await seen()).toEqual([j1.uuid, j2.uuid].sort());
    expect(await seen()).not.toContain(jb.uuid);
    // The A2 agent does not see A1's jobs: A1 does not share.
    const a2sees = ((await agentA2.client.get('/api/jobs/manage')).json().data as Array<{ uuid: string }>).map((j) => j.uuid);
    expect(a2sees).toEqual([j2.uuid]);
    await agentA2.client.post('/api/agents/branch-sharing', { enabled: false });
    expect(await seen()).toEqual([j1.uuid]);
  });
});
