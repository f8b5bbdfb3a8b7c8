import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { attachedRecordsWorld } from '../../helpers/attached-records-world.ts';

describe('case notes: GET/POST /api/jobs/{uuid}/notes, PUT /api/jobs/{uuid}/notes/{note_uuid}', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  let url: string;
  const notes: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    w = await attachedRecordsWorld(t);
    url = `/api/jobs/${w.job.uuid}/notes`;
    for (const visibility of ['internal', 'tenant', 'contractor', 'both'] as const) {
      const res = await w.agentA1.client.post(url, { body: `Agent note (${visibility})`, visibility });
      expect(res.statusCode).toBe(201);
      notes[visibility] = res.json().data.uuid;
    }
  });
  afterAll(async () => t?.close());

  const bodies = (res: { json(): { data: Array<{ body: string }> } }) => res.json().data.map((n) => n.body).sort();

  it('staff see every note of the jobs they can see', async () => {
    for (const c of [w.agentA1, w.adminA, w.sysops]) {
      const res = await c.client.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.json().count).toBe(4);
      expect(res.json().data[0]).toMatchObject({ job_uuid: w.job.uuid, author_role: 'agent', edited_at: null });
    }
  });

  it('a tenant sees tenant and both notes; a contractor contractor and both', async () => {
    const tenant = await w.tenant.client.get(url);
    expect(tenant.statusCode).toBe(200);
    expect(bodies(tenant)).toEqual(['Agent note (both)', 'Agent note (tenant)']);
    const contractor = await w.contractor.client.get(url);
    expect(bodies(contractor)).toEqual(['Agent note (both)', 'Agent note (contractor)']);
    // asking for a visibility one may not read gives nothing
    const internal = await w.tenant.client.get(`${url}?visibility=internal`);
    expect(internal.json()).toMatchObject({ count: 0, data: [] });
  });

  it('someone who cannot see the job gets 404 Job not found', async () => {
    for (const c of [w.adminB, w.otherTenant, w.otherContractor, w.agentA2]) {
      const res = await c.client.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: 'Job not found' });
      const post = await c.client.post(url, { body: 'hello' });
      expect(post.statusCode).toBe(404);
    }
    const missing = await w.adminA.client.get('/api/jobs/00000000-0000-4000-8000-000000000000/notes');
    expect(missing.statusCode).toBe(404);
    const bad = await w.adminA.client.get('/api/jobs/not-a-uuid/notes');
    expect(bad.statusCode).toBe(400);
  });

  it('paginates, newest first', async () => {
    const page = await w.adminA.client.get(`${url}?limit=2&offset=1`);
    expect(page.statusCode).toBe(200);
    expect(page.json().count).toBe(4);
    expect(page.json().data).toHaveLength(2);
    expect((await w.adminA.client.get(`${url}?limit=0`)).statusCode).toBe(400);
    expect((await w.adminA.client.get(`${url}?limit=201`)).statusCode).toBe(400);
    expect((await w.adminA.client.get(`${url}?colour=red`)).statusCode).toBe(400);
  });

  it('a tenant writes tenant notes, shared with staff; other visibilities are 400', async () => {
    const res = await w.tenant.client.post(url, { body: 'Tenant reports water coming through the light fitting' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ visibility: 'tenant', author_name: 'Emily Clarke', author_role: 'tenant' });
    const staff = await w.agentA1.client.get(url);
    expect(bodies(staff)).toContain('Tenant reports water coming through the light fitting');
    const contractor = await w.contractor.client.get(url);
    expect(bodies(contractor)).not.toContain('Tenant reports water coming through the light fitting');
    const bad = await w.tenant.client.post(url, { body: 'secret', visibility: 'internal' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Invalid or missing required parameter: visibility');
  });

  it('a contractor writes contractor notes', async () => {
    const res = await w.contractor.client.post(url, { body: 'Contractor attended, replaced the diverter valve' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.visibility).toBe('contractor');
    expect((await w.contractor.client.post(url, { body: 'x', visibility: 'both' })).statusCode).toBe(400);
  });

  it('bad input writes nothing: empty or blank body, unknown field, missing body', async () => {
    const before = await t.db.selectFrom('job_notes').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const payload of [{ body: '' }, { body: '   ' }, { visibility: 'internal' }, { body: 'x', visibility: 'public' }, { body: 'x'.repeat(10_001) }]) {
      const res = await w.agentA1.client.post(url, payload);
      expect(res.statusCode).toBe(400);
    }
    const after = await t.db.selectFrom('job_notes').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('writes need a CSRF token and the permission', async () => {
    const res = await w.agentA1.client.post(url, { body: 'no csrf' }, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Invalid or missing CSRF token');
    const role = await t.db.selectFrom('roles').select('id').where('code', '=', 'agent').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_permissions').where('role_id', '=', role.id).where('permission_key', '=', 'api.jobs.notes.manage').execute();
    // A write behind the services' back: move the auth epoch on as changeIdentity does (docs/security.md "Token lookup cache").
    await t.deps.authEpoch.bump();
    try {
      expect((await w.agentA1.client.get(url)).statusCode).toBe(403);
      expect((await w.agentA1.client.post(url, { body: 'x' })).statusCode).toBe(403);
      expect((await w.agentA1.client.put(`${url}/${notes.internal}`, { body: 'x' })).statusCode).toBe(403);
    } finally {
      await t.db.insertInto('role_permissions').values({ role_id: role.id, permission_key: 'api.jobs.notes.manage' }).execute();
      await t.deps.authEpoch.bump();
    }
  });

  it('each write has its activity entry', async () => {
    const rows = await t.db.selectFrom('activity_log').select(['action', 'resource_type']).where('action', 'like', 'job_note.%').execute();
    expect(rows.filter((r) => r.action === 'job_note.create').length).toBeGreaterThanOrEqual(6);
  });

  it('the author edits within 15 minutes; others get 403; after the window 409', async () => {
    const created = await w.agentA1.client.post(url, { body: 'Boiler pressure at 0.5 bar', visibility: 'internal' });
    const note = created.json().data;
    expect(note.editable_until).toBe(new Date(t.clock.now().getTime() + 15 * 60_000).toISOString());
    t.clock.advance(60);
    const edited = await w.agentA1.client.put(`${url}/${note.uuid}`, { body: 'Boiler pressure at 0.4 bar', visibility: 'both' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ body: 'Boiler pressure at 0.4 bar', visibility: 'both', edited_at: t.clock.now().toISOString() });
    // another staff member: 403; a tenant who can read it (both): 403; someone who cannot see it: 404
    expect((await w.adminA.client.put(`${url}/${note.uuid}`, { body: 'x' })).statusCode).toBe(403);
    expect((await w.tenant.client.put(`${url}/${note.uuid}`, { body: 'x' })).statusCode).toBe(403);
    expect((await w.tenant.client.put(`${url}/${notes.internal}`, { body: 'x' })).json()).toEqual({ success: false, error: 'Note not found' });
    expect((await w.adminB.client.put(`${url}/${note.uuid}`, { body: 'x' })).statusCode).toBe(404);
    expect((await w.agentA1.client.put(`${url}/00000000-0000-4000-8000-000000000000`, { body: 'x' })).statusCode).toBe(404);
    // no CSRF
    expect((await w.agentA1.client.put(`${url}/${note.uuid}`, { body: 'x' }, { csrf: false })).statusCode).toBe(403);
    // a tenant edits their own note but cannot widen its audience
    const own = (await w.tenant.client.post(url, { body: 'Still dripping' })).json().data;
    expect((await w.tenant.client.put(`${url}/${own.uuid}`, { body: 'x', visibility: 'both' })).statusCode).toBe(400);
    expect((await w.tenant.client.put(`${url}/${own.uuid}`, { body: 'Still dripping, worse at night' })).statusCode).toBe(200);

    t.clock.advance(15 * 60);
    const late = await w.agentA1.client.put(`${url}/${note.uuid}`, { body: 'too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ success: false, error: 'A note can only be edited within 15 minutes of its creation' });
    const stored = await t.db.selectFrom('job_notes').select('body').where('uuid', '=', note.uuid).executeTakeFirstOrThrow();
    expect(stored.body).toBe('Boiler pressure at 0.4 bar');
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'job_note.update').execute();
    expect(log).toHaveLength(2);
  });

  it('notes cannot be deleted: there is no DELETE route', async () => {
    const res = await w.sysops.client.delete(`${url}/${notes.internal}`);
    // The path exists under PUT only: 405 with Allow, decided before authentication (docs/api.md)
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).not.toMatch(/DELETE/);
    expect(res.json()).toMatchObject({ success: false });
    const still = await t.db.selectFrom('job_notes').select('id').where('uuid', '=', notes.internal!).executeTakeFirst();
    expect(still).toBeDefined();
  });
});
