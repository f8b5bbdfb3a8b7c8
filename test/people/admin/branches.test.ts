import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { activity, insertJob } from '../../helpers/roles-branches.ts';

describe('branches', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const branchesNamed = (name: string) => t.db.selectFrom('branches').selectAll().where('name', '=', name).execute();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  describe('GET /api/admin/branches', () => {
    it('lists the caller\'s agency\'s branches with agency and sharing flag', async () => {
      const res = await w.adminA.client.get('/api/admin/branches');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, count: 2, message: 'Branches retrieved' });
      expect(body.data[0]).toEqual({
        uuid: w.a1.uuid,
        name: 'A1',
        agency: { uuid: w.agencyA.uuid, name: 'Agency A' },
        sharing_enabled: false,
        closed_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(body.data[1]).toMatchObject({ uuid: w.a2.uuid, sharing_enabled: true });
      const agent = await w.agentA1.client.get('/api/admin/branches?q=a2');
      expect(agent.json().data.map((b: { name: string }) => b.name)).toEqual(['A2']);
      // LIKE wildcards in q are taken literally.
      expect((await w.adminA.client.get('/api/admin/branches?q=a_')).json().count).toBe(0);
      expect((await w.adminA.client.get('/api/admin/branches?q=%25')).json().count).toBe(0);
    });

    it('shows SysOps every agency, or one with agency_uuid; others naming another agency get 404', async () => {
      expect((await w.sysops.client.get('/api/admin/branches')).json().count).toBe(3);
      const b = await w.sysops.client.get(`/api/admin/branches?agency_uuid=${w.agencyB.uuid}`);
      expect(b.json().data.map((x: { name: string }) => x.name)).toEqual(['B1']);
      expect((await w.adminA.client.get(`/api/admin/branches?agency_uuid=${w.agencyB.uuid}`)).statusCode).toBe(404);
      const page = await w.sysops.client.get('/api/admin/branches?limit=1&offset=2');
      expect(page.json()).toMatchObject({ count: 3, data: [{ name: 'B1' }] });
    });

    it('refuses callers without the permission and unknown query parameters', async () => {
      const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
      expect((await tenant.client.get('/api/admin/branches')).statusCode).toBe(403);
      expect((await w.adminA.client.get('/api/admin/branches?colour=red')).statusCode).toBe(400);
    });
  });

  describe('POST /api/admin/branches', () => {
    it('creates a branch in the admin\'s agency', async () => {
      const res = await w.adminA.client.post('/api/admin/branches', { name: ' Harrogate ', sharing_enabled: true });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ name: 'Harrogate', agency: { uuid: w.agencyA.uuid }, sharing_enabled: true, closed_at: null });
      expect((await activity(t.db, 'branch.create')).at(-1)).toMatchObject({ agency_id: w.agencyA.id, user_id: w.adminA.user.id });
    });

    it('refuses a name already used in the agency (409, any case) but allows it in another agency', async () => {
      const dup = await w.adminA.client.post('/api/admin/branches', { name: 'harrogate' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().error).toBe('A branch named harrogate already exists in this agency');
      expect((await w.adminB.client.post('/api/admin/branches', { name: 'Harrogate' })).statusCode).toBe(201);
    });

    it('needs agency_uuid from SysOps; an admin naming another agency gets 404', async () => {
      const missing = await w.sysops.client.post('/api/admin/branches', { name: 'Bristol' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error).toBe('Invalid or missing required parameter: agency_uuid');
      const ok = await w.sysops.client.post('/api/admin/branches', { name: 'Bristol', agency_uuid: w.agencyB.uuid });
      expect(ok.json().data.agency.name).toBe('Agency B');
      const cross = await w.adminA.client.post('/api/admin/branches', { name: 'Sneaky', agency_uuid: w.agencyB.uuid });
      expect(cross.statusCode).toBe(404);
      expect(await branchesNamed('Sneaky')).toHaveLength(0);
    });

    it('validates the body and needs the permission and a CSRF token', async () => {
      expect((await w.adminA.client.post('/api/admin/branches', { name: '  ' })).statusCode).toBe(400);
      expect((await w.adminA.client.post('/api/admin/branches', { name: 'x'.repeat(101) })).statusCode).toBe(400);
      expect((await w.agentA1.client.post('/api/admin/branches', { name: 'Agent branch' })).statusCode).toBe(403);
      expect((await w.adminA.client.post('/api/admin/branches', { name: 'No token' }, { csrf: false })).statusCode).toBe(403);
      expect(await branchesNamed('No token')).toHaveLength(0);
      expect(await branchesNamed('Agent branch')).toHaveLength(0);
    });
  });

  describe('PUT /api/admin/branches/{uuid}', () => {
    it('renames a branch and sets its sharing flag', async () => {
      const res = await w.adminA.client.put(`/api/admin/branches/${w.a1.uuid}`, { name: 'A1 North', sharing_enabled: true });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ name: 'A1 North', sharing_enabled: true });
      await w.adminA.client.put(`/api/admin/branches/${w.a1.uuid}`, { name: 'A1', sharing_enabled: false });
    });

    it('answers 409 for a taken name, 404 for another agency\'s or unknown branch, 400 for nothing to change', async () => {
      expect((await w.adminA.client.put(`/api/admin/branches/${w.a1.uuid}`, { name: 'A2' })).statusCode).toBe(409);
      const cross = await w.adminA.client.put(`/api/admin/branches/${w.b1.uuid}`, { name: 'Mine now' });
      expect(cross.statusCode).toBe(404);
      expect(cross.json().error).toBe('Branch not found');
      expect((await w.adminA.client.put('/api/admin/branches/00000000-0000-4000-8000-000000000000', { name: 'Ghost' })).statusCode).toBe(404);
      expect((await w.adminA.client.put(`/api/admin/branches/${w.a1.uuid}`, {})).statusCode).toBe(400);
      expect((await w.adminA.client.put('/api/admin/branches/not-a-uuid', { name: 'x' })).statusCode).toBe(400);
      expect((await w.adminA.client.put(`/api/admin/branches/${w.a1.uuid}`, { name: 'x' }, { csrf: false })).statusCode).toBe(403);
      expect((await branchesNamed('A1'))).toHaveLength(1);
    });
  });

  describe('POST /api/admin/branches/{uuid}/close and /reopen', () => {
    it('refuses to close a branch with open jobs (409), closes it once they are closed', async () => {
      const branch = (await w.adminA.client.post('/api/admin/branches', { name: 'Wakefield' })).json().data;
      const row = (await branchesNamed('Wakefield'))[0]!;
      const open = await insertJob(t.db, w.agencyA.id, row.id, 6);
      await insertJob(t.db, w.agencyA.id, row.id, 9);
      await insertJob(t.db, w.agencyA.id, row.id, 10);
      const refused = await w.adminA.client.post(`/api/admin/branches/${branch.uuid}/close`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toBe('Branch has 1 open job(s); close, cancel or move them first');
      expect((await branchesNamed('Wakefield'))[0]!.closed_at).toBeNull();

      await t.db.updateTable('jobs').set({ status_id: 9 }).where('id', '=', open.id).execute();
      t.clock.advance(60);
      const closed = await w.adminA.client.post(`/api/admin/branches/${branch.uuid}/close`, {});
      expect(closed.statusCode).toBe(200);
      expect(closed.json().data.closed_at).toBe(t.clock.now().toISOString());
      expect((await activity(t.db, 'branch.close')).at(-1)).toMatchObject({ resource_id: row.id });
      expect((await w.adminA.client.post(`/api/admin/branches/${branch.uuid}/close`)).statusCode).toBe(409);

      const list = await w.adminA.client.get('/api/admin/branches');
      expect(list.json().data.map((b: { name: string }) => b.name)).not.toContain('Wakefield');
      const all = await w.adminA.client.get('/api/admin/branches?include_closed=true&q=wake');
      expect(all.json().data[0]).toMatchObject({ name: 'Wakefield', closed_at: t.clock.now().toISOString() });

      const reopened = await w.adminA.client.post(`/api/admin/branches/${branch.uuid}/reopen`);
      expect(reopened.statusCode).toBe(200);
      expect(reopened.json().data.closed_at).toBeNull();
      expect((await w.adminA.client.post(`/api/admin/branches/${branch.uuid}/reopen`)).statusCode).toBe(409);
    });

    it('answers 404 for another agency\'s branch and 403 without permission or CSRF token', async () => {
      expect((await w.adminA.client.post(`/api/admin/branches/${w.b1.uuid}/close`)).statusCode).toBe(404);
      expect((await w.agentA1.client.post(`/api/admin/branches/${w.a1.uuid}/close`)).statusCode).toBe(403);
      expect((await w.adminA.client.post(`/api/admin/branches/${w.a1.uuid}/close`, undefined, { csrf: false })).statusCode).toBe(403);
      expect((await branchesNamed('A1'))[0]!.closed_at).toBeNull();
      expect((await branchesNamed('B1'))[0]!.closed_at).toBeNull();
    });
  });

  describe('GET /api/admin/branches: sort and order', () => {
    it('sorts by name or by agency (then name) across pages, the id breaking ties; agency ascending by default; a bad value is a 400', async () => {
      const made: Record<string, string> = {};
      for (const [key, name, agency] of [['aa', 'Sortq Alpha', w.agencyA.uuid], ['ab', 'Sortq Beta', w.agencyA.uuid], ['ba', 'Sortq Alpha', w.agencyB.uuid], ['bg', 'Sortq Gamma', w.agencyB.uuid]] as const) {
        const res = await w.sysops.client.post('/api/admin/branches', { name, agency_uuid: agency });
        expect(res.statusCode, res.body).toBe(201);
        made[res.json().data.uuid] = key;
      }
      const keys = async (qs: string) => {
        const res = await w.sysops.client.get(`/api/admin/branches?q=sortq&${qs}`);
        expect(res.statusCode, qs).toBe(200);
        return res.json().data.map((b: { uuid: string }) => made[b.uuid]) as string[];
      };
      expect(await keys('')).toEqual(['aa', 'ab', 'ba', 'bg']);
      expect(await keys('sort=agency&order=asc')).toEqual(['aa', 'ab', 'ba', 'bg']);
      expect(await keys('sort=agency&order=desc')).toEqual(['bg', 'ba', 'ab', 'aa']);
      // Two branches named Sortq Alpha (one per agency): the id breaks the tie, in the list's direction.
      expect(await keys('sort=name&order=asc')).toEqual(['aa', 'ba', 'ab', 'bg']);
      expect(await keys('sort=name&order=desc')).toEqual(['bg', 'ab', 'ba', 'aa']);
      const paged = [];
      for (const offset of [0, 1, 2, 3]) paged.push(...(await keys(`sort=name&order=desc&limit=1&offset=${offset}`)));
      expect(paged).toEqual(['bg', 'ab', 'ba', 'aa']);
      for (const qs of ['sort=closed_at', 'order=newest']) {
        const res = await w.adminA.client.get(`/api/admin/branches?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${qs.split('=')[0]}` });
      }
    });
  });
});
