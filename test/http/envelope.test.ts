/**
 * Spec 2.1, 2.2, 7 and docs/security.md promises 15 and 23: every failure in the error envelope with
 * the spec's messages, pagination bounds, security headers, and a 500 that shows no internals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.ts';
import { buildTestApp, standardWorld, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof standardWorld>>;
beforeAll(async () => {
  t = await buildTestApp({ CARETAKER_BODY_LIMIT_BYTES: '4096' });
  w = await standardWorld(t);
});
afterAll(async () => t?.close());

const jobCount = async () => Number((await t.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

async function rawPost(payload: string, contentType = 'application/json') {
  const csrfToken = (await w.agentA1.client.get('/api/security/csrf-token')).json().data.token;
  return t.app.inject({
    method: 'POST', url: '/api/jobs/manage',
    headers: { authorization: `Bearer ${w.agentA1.token}`, 'content-type': contentType, 'x-csrf-token': csrfToken },
    payload,
  });
}

describe('error envelope', () => {
  it('unknown routes: 404 in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: 'Route GET /api/nothing-here not found' });
    // A write to a route that does not exist is a 404 too, signed in and without a CSRF token:
    // the writes' checks belong to the write routes (src/http/pipeline.ts).
    const write = await t.app.inject({ method: 'POST', url: '/api/nothing-here', headers: { authorization: `Bearer ${w.agentA1.token}` }, payload: { a: 1 } });
    expect(write.statusCode).toBe(404);
    expect(write.json()).toEqual({ success: false, error: 'Route POST /api/nothing-here not found' });
  });

  it.each([
    ['a missing field', { priority: 3 }, 'title'],
    ['a wrong type', { title: 'Tap', priority: 'high' }, 'priority'],
    ['a value out of range', { title: 'Tap', priority: 9 }, 'priority'],
    ['an empty title', { title: '', priority: 3 }, 'title'],
    ['a too long title', { title: 'x'.repeat(201), priority: 3 }, 'title'],
    ['a string where a number is due', { title: 'Tap', priority: '3' }, 'priority'],
  ])('%s: 400 naming the parameter, nothing written', async (_label, payload, name) => {
    const before = await jobCount();
    const res = await w.agentA1.client.post('/api/jobs/manage', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${name}` });
    expect(await jobCount()).toBe(before);
  });

  it('malformed JSON: 400, nothing written', async () => {
    const before = await jobCount();
    const res = await rawPost('{"title": "Tap", ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Malformed JSON in request body' });
    expect(await jobCount()).toBe(before);
  });

  it('__proto__ and constructor keys: 400', async () => {
    for (const payload of ['{"title":"Tap","priority":3,"__proto__":{"admin":true}}', '{"title":"Tap","priority":3,"constructor":{"prototype":{"x":1}}}']) {
      const res = await rawPost(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('an oversized body: 413 in the envelope', async () => {
    const res = await rawPost(JSON.stringify({ title: 'Tap', priority: 3, description: 'x'.repeat(5000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, error: 'Request body is too large' });
  });

  it('an unsupported content type: 415 in the envelope, nothing written', async () => {
    const before = await jobCount();
    for (const type of ['application/xml', 'text/plain']) {
      const res = await rawPost('<job/>', type);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ success: false, error: `Unsupported Content-Type: ${type} (this operation takes application/json, application/x-www-form-urlencoded)` });
    }
    // multipart only where an upload takes it
    const multipart = await rawPost('--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nTap\r\n--x--\r\n', 'multipart/form-data; boundary=x');
    expect(multipart.statusCode).toBe(415);
    expect(await jobCount()).toBe(before);
  });

  it('a wrong method: 405 with Allow in the envelope; 405 and 415 come before authentication and CSRF', async () => {
    const job = (await w.agentA1.client.post('/api/jobs/manage', { title: 'Tap', priority: 3 })).json().data;
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/jobs/${job.uuid}`, headers: { authorization: `Bearer ${w.agentA1.token}` } });
    expect(patch.statusCode).toBe(405);
    expect(patch.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect(patch.json()).toEqual({ success: false, error: 'Method PATCH is not allowed here' });
    // no credentials, no CSRF token: still 405 / 415, not 401 or 403
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/security/csrf-token' });
    expect(anonymous.statusCode).toBe(405);
    expect(anonymous.headers.allow).toBe('GET, HEAD');
    const xml = await t.app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { 'content-type': 'application/xml' }, payload: '<job/>' });
    expect(xml.statusCode).toBe(415);
    // an unknown path stays 404
    expect((await t.app.inject({ method: 'PATCH', url: '/api/nothing-here' })).statusCode).toBe(404);
  });

  it('an unexpected error: 500 with the spec text and no internals', async () => {
    const app = await buildApp(t.deps, { logger: false });
    app.get('/api/explode', { config: { permission: 'public' } }, async () => {
      throw new Error('relation "secret_table" does not exist at /srv/caretaker/src/x.ts:12');
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/explode' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, error: 'An error occurred. Please try again.' });
    expect(res.body).not.toMatch(/secret|srv|stack/);
    await app.close();
  });
});

describe('pagination (spec 2.2)', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['offset=-1', 'offset'],
    ['colour=blue', 'colour'],
  ])('%s: 400 naming %s', async (query, name) => {
    const res = await w.agentA1.client.get(`/api/jobs/manage?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${name}` });
  });

  it('defaults to 50 and reports the total count', async () => {
    for (let i = 0; i < 3; i++) await w.adminA.client.post('/api/jobs/manage', { title: `Paged ${i}`, priority: 5, branch_uuid: w.a2.uuid });
    const all = await w.adminA.client.get('/api/jobs/manage');
    const total = all.json().count as number;
    expect(all.json().data.length).toBe(Math.min(50, total));
    const page = await w.adminA.client.get('/api/jobs/manage?limit=2&offset=1');
    expect(page.json().count).toBe(total);
    expect(page.json().data).toHaveLength(2);
    expect(page.json().data[0].uuid).toBe(all.json().data[1].uuid);
    const max = await w.adminA.client.get('/api/jobs/manage?limit=200&offset=0');
    expect(max.statusCode).toBe(200);
  });
});

describe('security headers (promise 23)', () => {
  it('nosniff everywhere, no-store on authenticated responses, HSTS over HTTPS', async () => {
    const pub = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(pub.headers['x-content-type-options']).toBe('nosniff');
    expect(pub.headers['strict-transport-security']).toBeUndefined();
    const authed = await w.agentA1.client.get('/api/jobs/manage');
    expect(authed.headers['cache-control']).toBe('no-store');
    expect(authed.headers['x-content-type-options']).toBe('nosniff');
    const proxied = await buildTestApp({ CARETAKER_TRUST_PROXY: '127.0.0.1' });
    try {
      const res = await proxied.app.inject({ method: 'GET', url: '/livez', headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await proxied.close();
    }
  });
});
