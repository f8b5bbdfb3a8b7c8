/**
 * Spec 5.3 and docs/security.md promise 6: single-use, session-scoped CSRF tokens on every POST, PUT
 * and DELETE except the two token-issuing endpoints; sent in the JSON body, a form body or the
 * X-CSRF-Token header, never the query string.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { dropCsrfField, withCsrfField } from '../../src/http/csrf.ts';
import { buildTestApp, csrf, login, standardWorld, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof standardWorld>>;
beforeAll(async () => {
  t = await buildTestApp();
  w = await standardWorld(t);
});
afterAll(async () => t?.close());

const jobCount = async () => Number((await t.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('CSRF tokens', () => {
  it('GET /api/security/csrf-token needs authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/security/csrf-token' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: 'Authentication required. Please log in.' });
  });

  it('returns success, data.token and message; the store (Redis, else the database) keeps only its SHA-256', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/security/csrf-token', headers: auth(w.agentA1.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(typeof body.message).toBe('string');
    expect(body.data.token).toMatch(/^[0-9a-f]{64}$/);
    const hash = sha256(body.data.token);
    const rows = await t.db.selectFrom('csrf_tokens').select('token_hash').execute();
    expect(JSON.stringify(rows)).not.toContain(body.data.token);
    if (t.deps.redis) {
      // One key per token, named by the session and the hash; nothing in the table.
      const session = await t.db.selectFrom('auth_tokens').select('id').where('token_hash', '=', sha256(w.agentA1.token)).executeTakeFirstOrThrow();
      expect(await t.deps.redis.keys(`*csrf:*${body.data.token}*`)).toEqual([]);
      expect(await t.deps.redis.keys(`*csrf:${session.id}:${hash}`)).toHaveLength(1);
      expect(rows.map((r) => r.token_hash)).not.toContain(hash);
    } else {
      expect(rows.map((r) => r.token_hash)).toContain(hash);
    }
  });

  it('a write without a token is 403 and writes nothing', async () => {
    const before = await jobCount();
    const res = await t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: auth(w.agentA1.token), payload: { title: 'Leaking tap', priority: 3 } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: 'Invalid or missing CSRF token' });
    expect(await jobCount()).toBe(before);
  });

  it('is accepted from the X-CSRF-Token header, the JSON body and a form body', async () => {
    const header = await t.app.inject({
      method: 'POST', url: '/api/jobs/manage',
      headers: { ...auth(w.agentA1.token), 'x-csrf-token': await csrf(t.app, w.agentA1.token) },
      payload: { title: 'Header token', priority: 3 },
    });
    expect(header.statusCode).toBe(201);
    const body = await t.app.inject({
      method: 'POST', url: '/api/jobs/manage', headers: auth(w.agentA1.token),
      payload: { title: 'Body token', priority: 3, csrf_token: await csrf(t.app, w.agentA1.token) },
    });
    expect(body.statusCode).toBe(201);
    const token = await login(t.app, (await t.db.selectFrom('users').select('email').where('id', '=', w.adminB.user.id).executeTakeFirstOrThrow()).email);
    const form = await t.app.inject({
      method: 'POST', url: '/api/auth/logout',
      headers: { ...auth(token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf_token=${await csrf(t.app, token)}`,
    });
    expect(form.statusCode).toBe(200);
  });

  it('is never read from the query string', async () => {
    const token = await csrf(t.app, w.agentA1.token);
    const res = await t.app.inject({ method: 'POST', url: `/api/jobs/manage?csrf_token=${token}`, headers: auth(w.agentA1.token), payload: { title: 'Query token', priority: 3 } });
    expect(res.statusCode).toBe(403);
  });

  it('works once', async () => {
    const token = await csrf(t.app, w.agentA1.token);
    const send = () => t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(w.agentA1.token), 'x-csrf-token': token }, payload: { title: 'Once', priority: 4 } });
    expect((await send()).statusCode).toBe(201);
    const again = await send();
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toBe('Invalid or missing CSRF token');
  });

  it('two concurrent requests with one token: exactly one succeeds', async () => {
    const token = await csrf(t.app, w.agentA1.token);
    const before = await jobCount();
    const send = () => t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(w.agentA1.token), 'x-csrf-token': token }, payload: { title: 'Race', priority: 4 } });
    const results = await Promise.all([send(), send(), send(), send()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403, 403, 403]);
    expect(await jobCount()).toBe(before + 1);
  });

  it('works only for the session it was issued to', async () => {
    const token = await csrf(t.app, w.adminA.token);
    const other = await t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(w.agentA1.token), 'x-csrf-token': token }, payload: { title: 'Stolen', priority: 4 } });
    expect(other.statusCode).toBe(403);
    // Same account, another session (a mobile token): still refused.
    const email = (await t.db.selectFrom('users').select('email').where('id', '=', w.adminA.user.id).executeTakeFirstOrThrow()).email;
    const mobile = (await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email, password: TEST_PASSWORD } })).json().data.token;
    const sameUser = await t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(mobile), 'x-csrf-token': token }, payload: { title: 'Other session', priority: 4, branch_uuid: w.a1.uuid } });
    expect(sameUser.statusCode).toBe(403);
  });

  it('expires after two hours unused', async () => {
    const token = await csrf(t.app, w.agentA1.token);
    t.clock.advance(2 * 3600 + 1);
    const res = await t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(w.agentA1.token), 'x-csrf-token': token }, payload: { title: 'Late', priority: 4 } });
    expect(res.statusCode).toBe(403);
  });

  it('is not needed by login and mobile-auth', async () => {
    const email = (await t.db.selectFrom('users').select('email').where('id', '=', w.sysops.user.id).executeTakeFirstOrThrow()).email;
    expect((await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email, password: TEST_PASSWORD } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } })).statusCode).toBe(200);
  });

  it('belongs to the pipeline: documented on every checked write body, removed before the handler', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.parameters?.some((p) => p.in === 'header' && p.name === 'x-csrf-token')) continue;
        const json = op.requestBody?.content['application/json']?.schema;
        if (!json?.properties) continue;
        expect(json.properties, `${method} ${path}`).toHaveProperty('csrf_token');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);

    const created = await t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(w.agentA1.token), 'x-csrf-token': await csrf(t.app, w.agentA1.token) }, payload: { title: 'Pipeline field', priority: 3 } });
    const uuid = created.json().data.uuid as string;
    // The token alone is no change: the service sees an empty body.
    const empty = await t.app.inject({ method: 'PUT', url: `/api/jobs/${uuid}`, headers: auth(w.agentA1.token), payload: { csrf_token: await csrf(t.app, w.agentA1.token) } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Invalid or missing required parameter: body');
    const renamed = await t.app.inject({ method: 'PUT', url: `/api/jobs/${uuid}`, headers: auth(w.agentA1.token), payload: { title: 'Renamed', csrf_token: await csrf(t.app, w.agentA1.token) } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers['x-ignored-fields']).toBeUndefined();
  });

  it('adds the field to object and union body schemas, keeping one a schema still declares', () => {
    const plain = withCsrfField(Type.Object({ title: Type.String() }, { additionalProperties: false })) as { properties: Record<string, { description?: string }>; required: string[] };
    expect(Object.keys(plain.properties)).toEqual(['title', 'csrf_token']);
    expect(plain.required).toEqual(['title']);
    const own = Type.Object({ csrf_token: Type.Optional(Type.String({ description: 'own' })) });
    expect(withCsrfField(own)).toBe(own);
    const union = withCsrfField(Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })])) as { anyOf: Array<{ properties: object }> };
    for (const branch of union.anyOf) expect(branch.properties).toHaveProperty('csrf_token');
    const body: Record<string, unknown> = { title: 'x', csrf_token: 'y' };
    dropCsrfField(body);
    expect(body).toEqual({ title: 'x' });
  });
});
