/**
 * Spec 4.17, 5 and docs/api.md: the status endpoint behind authentication, the unauthenticated
 * liveness and readiness probes outside /api, and the OpenAPI
 * document with every endpoint's permission key and the interactive reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { brotliDecompressSync } from 'node:zlib';
import { createConnection } from 'node:net';
import { once } from 'node:events';
import { docsPageDocument, toOpenApi30 } from '../../../src/http/openapi-ui.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof standardWorld>>;
beforeAll(async () => {
  t = await buildTestApp();
  w = await standardWorld(t);
});
afterAll(async () => t?.close());

describe('GET /api/system/status', () => {
  it('requires authentication (spec 5)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/system/status' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: 'Authentication required. Please log in.' });
  });

  it('tells an authenticated caller status, version, uptime and checks', async () => {
    const res = await w.agentA1.client.get('/api/system/status');
    const data = res.json().data;
    expect(data.status).toBe('ok');
    expect(data.version).toBe('2.0.0');
    expect(data.uptime_s).toBeGreaterThanOrEqual(0);
    expect(data.checks.database).toBe('ok');
    expect(data.checks.database_engine).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(data.checks.cache).toBe(process.env.REDIS_URL ? 'ok' : 'not_configured');
    expect(data.checks.rate_limit_store).toBe(process.env.REDIS_URL ? 'redis' : 'memory');
  });

  it.skipIf(!process.env.REDIS_URL)('learns that Redis answers from the request\'s own rate-limit round trip, without a PING', async () => {
    // MONITOR shows every command the app's client sends. It is read off a plain socket: ioredis's
    // monitor() marks its connection as monitoring only a microtask after MONITOR's "+OK", so a
    // command line that arrives in the same packet (Redis busy with the other test workers) is
    // taken as an unasked reply and the connection fails with "Command queue state error".
    // MONITOR's lines are RESP simple strings: +<time> [<db> <client>] "<command>" "<arg>" ...
    const { hostname, port } = new URL(process.env.REDIS_URL!);
    const monitor = createConnection({ host: hostname, port: Number(port || 6379) });
    await once(monitor, 'connect');
    const appClient = `127.0.0.1:${(t.deps.redis as unknown as { stream: { localPort: number } }).stream.localPort}`;
    const sent: string[] = [];
    let pending = '';
    let monitoring = false;
    monitor.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\r\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line === '+OK') monitoring = true;
        const m = /^\+[\d.]+ \[\d+ ([^\]]+)\] "([^"]*)"/.exec(line);
        if (m && m[1] === appClient) sent.push(m[2]!.toLowerCase());
      }
    });
    monitor.write('MONITOR\r\n');
    await expect.poll(() => monitoring).toBe(true);
    try {
      await w.agentA1.client.get('/api/system/status');
      const res = await w.agentA1.client.get('/api/system/status');
      expect(res.json().data).toMatchObject({ status: 'ok', checks: { cache: 'ok' } });
      await expect.poll(() => sent.filter((c) => c === 'evalsha' || c === 'eval').length).toBeGreaterThanOrEqual(2);
      expect(sent).not.toContain('ping');
    } finally {
      monitor.destroy();
    }
  });
});

describe('health', () => {
  it('liveness and readiness answer 200 without authentication while the database is up', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).json()).toMatchObject({ success: true, data: { status: 'ok' } });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('API document', () => {
  it('is OpenAPI 3.1 with every route, its permission key and the spec endpoints', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.0.0');
    const ops: Array<{ path: string; method: string; op: Record<string, unknown> }> = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, op] of Object.entries(item)) ops.push({ path, method, op });
    }
    for (const { op } of ops) {
      expect(typeof op['x-permission']).toBe('string');
      expect(String(op.description)).toContain('**Access:**');
    }
    const find = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path);
    expect(find('post', '/api/auth/login')?.op['x-permission']).toBe('public');
    expect(find('get', '/api/admin/activity-log')?.op['x-permission']).toBe('api.admin.activity-log.manage');
    expect(find('post', '/api/jobs/manage')?.op['x-permission']).toBe('api.jobs.manage.manage');
    expect(find('delete', '/api/security/mobile-auth')?.op['x-permission']).toBe('bearer');
  });

  it('gives the docs page (/docs/json) the OpenAPI 3.0 equivalent of /api/openapi.json, compressed and ETag-cached', async () => {
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const api = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const page = await t.app.inject({ method: 'GET', url: '/docs/json', headers });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    const served = JSON.parse(brotliDecompressSync(page.rawPayload).toString('utf8')) as Record<string, unknown>;
    expect(served.openapi).toBe('3.0.3');
    expect(served).toEqual(docsPageDocument(api.json()));
    // Repeated schemas, parameters and responses are shared by $ref; resolving them gives back
    // the plain 3.0 conversion of every operation.
    // (The document's own shared parts, such as the X-RateLimit headers in components.headers,
    // are resolved on both sides.)
    const inlineIn = (root: unknown) => {
      const inline = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(inline);
        if (typeof node !== 'object' || node === null) return node;
        const ref = (node as { $ref?: string }).$ref;
        if (ref) return inline(ref.slice(2).split('/').reduce((at: any, key) => at[key], root));
        return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
      };
      return inline;
    };
    const plain = toOpenApi30(api.json());
    expect(inlineIn(served)(served.paths)).toEqual(inlineIn(plain)(plain.paths));
    expect(JSON.stringify(served).length).toBeLessThan(JSON.stringify(toOpenApi30(api.json())).length * 0.6);
    expect(JSON.stringify(served)).not.toContain('"type":"null"');
    const again = await t.app.inject({ method: 'GET', url: '/docs/json', headers: { ...headers, 'if-none-match': String(page.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
