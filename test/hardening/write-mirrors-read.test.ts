/**
 * Writes accept what reads show (a user's `role_id`), form-encoded bodies are coerced like query
 * strings, and unknown body fields are dropped but named in X-Ignored-Fields (docs/api.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, csrf, standardWorld, type TestApp } from '../helpers/app.ts';

describe('write fields mirror read fields; form bodies; ignored fields', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('creates and updates a user with role_id, the field a user reads back', async () => {
    const agentRole = await t.db.selectFrom('roles').select('id').where('code', '=', 'agent').executeTakeFirstOrThrow();
    const apiRole = await t.db.selectFrom('roles').select('id').where('code', '=', 'api').executeTakeFirstOrThrow();
    const res = await w.adminA.client.post('/api/users', { name: 'Role Id', email: 'roleid@example.test', role_id: agentRole.id, branch_uuid: w.a1.uuid, password: 'a-long-password-1' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.role_id).toBe(agentRole.id);
    const put = await w.adminA.client.put(`/api/users/${res.json().data.uuid}`, { role_id: apiRole.id });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.role_id).toBe(apiRole.id);
    const clash = await w.adminA.client.put(`/api/users/${res.json().data.uuid}`, { role: 'agent', role_id: apiRole.id });
    expect(clash.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: role_id' });
  });

  it('coerces a form-encoded body like a query string: priority=4 is the number 4', async () => {
    const token = await csrf(t.app, w.adminA.token);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/jobs/manage',
      headers: { authorization: `Bearer ${w.adminA.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ title: 'Form job', priority: '4', branch_uuid: w.a1.uuid, csrf_token: token }).toString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ title: 'Form job', priority: 4 });
  });

  it('JSON bodies stay strict: "priority": "4" is 400', async () => {
    const res = await w.adminA.client.post('/api/jobs/manage', { title: 'Json job', priority: '4', branch_uuid: w.a1.uuid });
    expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: priority' });
  });

  it('drops unknown body fields but names them in X-Ignored-Fields', async () => {
    const res = await w.adminA.client.post('/api/jobs/manage', { title: 'Extra', priority: 3, branch_uuid: w.a1.uuid, agency_id: w.agencyB.id, colour: 'red' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['x-ignored-fields']).toBe('agency_id, colour');
    expect(res.json().data.branch_uuid).toBe(w.a1.uuid);
    const clean = await w.adminA.client.post('/api/jobs/manage', { title: 'Clean', priority: 3, branch_uuid: w.a1.uuid });
    expect(clean.headers['x-ignored-fields']).toBeUndefined();
  });
});
