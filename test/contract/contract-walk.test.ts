/**
 * The contract walk (docs/api.md, "Contract walk"): every operation of the OpenAPI document
 * (clients/typescript/openapi.json, as the app serves it) is sent, on the demo data, a valid
 * request as a role that holds its permission, the same request with a required field left out
 * (when it has one) and the same request with an unknown field; every answer is checked against
 * the document (status, required headers, content type, JSON body against its schema) by Ajv's
 * JSON Schema 2020-12 validator (test/helpers/openapi-validator.ts). A field left out is 400; an
 * unknown query parameter is 400; an unknown body field is dropped and named in X-Ignored-Fields.
 * Every operation needs an entry in WALK_ENTRIES (test/contract/walk-entries.ts), so a new
 * operation fails this test until it is walked.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../../src/seed/demo/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { mintBearer, mintCsrf } from '../fuzz/tokens.ts';
import { OpenApiValidator, type Answer, type OpenApiDocument } from '../helpers/openapi-validator.ts';
import { loadPool, multipartBody, operationsOf, pathFor, PDF, PNG, sample, type Operation, type Pool } from './walk.ts';
import { WALK_ENTRIES, type Role } from './walk-entries.ts';
import { startFakeN8n, type FakeN8n } from '../jobs/workflow-engine/fake-n8n.ts';

const DEMO_USERS: Record<Role, string> = {
  sysops: 'sysops@caretaker.test',
  admin: 'admin@northwind.test',
  agent: 'agent@northwind.test',
  contractor: 'contractor@northwind.test',
  tenant: 'tenant@northwind.test',
  api: 'api@northwind.test',
};

type Variant = 'valid' | 'missing' | 'unknown';
const UNKNOWN = 'walk_unknown_field';

interface Sent {
  answer: Answer;
  url: string;
}

describe('contract walk over the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let ops: Operation[];
  let pool: Pool;
  let validator: OpenApiValidator;
  let baseUrl: string;
  let n8n: FakeN8n;
  const users = new Map<Role, number>();

  beforeAll(async () => {
    // The workflow engine is configured, against the local server that speaks n8n's API.
    n8n = await startFakeN8n();
    t = await buildTestApp({ CARETAKER_WORKFLOW_ENGINE_URL: n8n.url, CARETAKER_WORKFLOW_ENGINE_API_KEY: n8n.apiKey });
    await loadDemoIfEmpty(t.db, t.config, t.clock.now());
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenApiDocument;
    ops = operationsOf(doc);
    validator = new OpenApiValidator(doc);
    pool = await loadPool(t);
    // /api/agencies/{uuid} is SysOps' view of another agency: Southbank's, so Northwind stays open.
    const other = await t.db.selectFrom('agencies').select('uuid').where('name', '=', 'Southbank Estates').executeTakeFirst();
    if (other) pool.agency_uuid = other.uuid;
    for (const [role, email] of Object.entries(DEMO_USERS) as Array<[Role, string]>) {
      const row = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      users.set(role, row.id);
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await n8n?.close();
  });

  it('has a walk entry for every operation of the document, and none for an operation it lacks', () => {
    const keys = ops.map((op) => `${op.method} ${op.path}`);
    expect(keys.filter((k) => !(k in WALK_ENTRIES)), 'operations without a walk entry (add them to test/contract/walk-entries.ts)').toEqual([]);
    expect(Object.keys(WALK_ENTRIES).filter((k) => !keys.includes(k)), 'walk entries of operations the document no longer has').toEqual([]);
  });

  /** A fresh bearer token of the role (a walked request may log out or revoke the last one). */
  async function credentials(role: Role | null, write: boolean): Promise<Record<string, string>> {
    if (!role) return {};
    const userId = users.get(role)!;
    // A walked request may have disabled the account or signed it out; the walk goes on as it.
    await t.db.updateTable('users').set({ status: 'active' }).where('id', '=', userId).execute();
    const { token, tokenId } = await mintBearer(t, userId);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (write) headers['x-csrf-token'] = await mintCsrf(t, tokenId);
    return headers;
  }

  function uploadFile(op: Operation) {
    if (op.path === '/api/imports') return { name: 'tenants.csv', type: 'text/csv', bytes: Buffer.from('name,email\nWalk Tenant,walk.tenant@example.test\n') };
    if (/photos|banner|logo|image/.test(op.path)) return { name: 'walk.png', type: 'image/png', bytes: PNG };
    return { name: 'walk.pdf', type: 'application/pdf', bytes: PDF };
  }

  async function send(op: Operation, variant: Variant): Promise<Sent | null> {
    const entry = WALK_ENTRIES[`${op.method} ${op.path}`]!;
    const write = op.method !== 'GET';
    const headers = await credentials(entry.as, write && op.permission !== 'public');
    const query: Record<string, string> = {};
    for (const name of op.query.required) query[name] = String(sample(op.query.properties[name], name, pool));
    Object.assign(query, entry.query ?? {});
    let payload: string | Buffer | undefined;
    let dropped = false;
    if (op.multipart) {
      const schema = op.multipart as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      const fields: Record<string, string> = {};
      for (const name of schema.required ?? []) if (name !== 'file') fields[name] = String(sample(schema.properties?.[name], name, pool));
      Object.assign(fields, entry.fields ?? {});
      if (variant === 'unknown') fields[UNKNOWN] = 'x';
      const file = variant === 'missing' && (schema.required ?? []).includes('file') ? null : uploadFile(op);
      dropped = file === null;
      const body = multipartBody(fields, file);
      payload = body.payload;
      headers['content-type'] = body.type;
    } else if (op.body || entry.body) {
      const body = { ...((sample(op.body ?? {}, 'body', pool) as Record<string, unknown> | undefined) ?? {}), ...(entry.body ?? {}) };
      const required = ((op.body?.required ?? []) as string[]).filter((n) => n !== 'csrf_token');
      if (variant === 'missing' && required.length > 0) {
        delete body[required[0]!];
        dropped = true;
      }
      if (variant === 'unknown') body[UNKNOWN] = 'x';
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    if (variant === 'missing' && !dropped) {
      if (op.query.required.length === 0) return null;
      delete query[op.query.required[0]!];
    }
    if (variant === 'unknown' && !op.body && !op.multipart) query[UNKNOWN] = 'x';
    const qs = new URLSearchParams(query).toString();
    const url = `${pathFor(op, { ...pool, ...(entry.params ?? {}) })}${qs ? `?${qs}` : ''}`;
    if (op.path === '/api/events/stream') return streamAnswer(url, headers);
    const res = await t.app.inject({ method: op.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
    return { url, answer: { statusCode: res.statusCode, headers: res.headers, rawPayload: res.rawPayload } };
  }

  /** The live stream never ends: its status and headers, read from a real connection, then closed. */
  async function streamAnswer(url: string, headers: Record<string, string>): Promise<Sent> {
    const controller = new AbortController();
    const res = await fetch(`${baseUrl}${url}`, { headers, signal: controller.signal });
    const answer: Answer = { statusCode: res.status, headers: Object.fromEntries(res.headers), rawPayload: res.ok ? Buffer.alloc(0) : Buffer.from(await res.arrayBuffer()) };
    controller.abort();
    return { url, answer };
  }

  it('sends every operation a valid request, a missing field and an unknown field; every answer is as documented', async () => {
    const order = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
    const walk = [...ops].sort((a, b) => order(a.method) - order(b.method));
    const failures: string[] = [];
    const statuses: Record<Variant, Record<string, number>> = { valid: {}, missing: {}, unknown: {} };
    for (const op of walk) {
      const key = `${op.method} ${op.path}`;
      const entry = WALK_ENTRIES[key];
      if (!entry) continue;
      for (const variant of ['valid', 'missing', 'unknown'] as Variant[]) {
        const sent = await send(op, variant);
        if (!sent) continue;
        const { answer, url } = sent;
        const status = answer.statusCode;
        const body = answer.rawPayload.toString('latin1');
        statuses[variant][status] = (statuses[variant][status] ?? 0) + 1;
        const where = `${variant} ${op.method} ${url} as ${entry.as ?? 'anyone'} -> ${status}`;
        for (const problem of validator.checkResponse({ method: op.method, url }, answer, op.path)) failures.push(`${where}: ${problem}`);
        if (process.env.WALK_VERBOSE === '2' && variant === 'valid' && status >= 400) console.log(`${where} ${body.slice(0, 160)}`);
        if (status >= 500) failures.push(`${where}: ${body.slice(0, 200)}`);
        if (variant === 'valid' && entry.expect && !entry.expect.includes(status)) failures.push(`${where}: expected ${entry.expect.join(' or ')}: ${body.slice(0, 200)}`);
        if (variant === 'valid' && op.body && !op.bodyRequired && status === 400 && body.includes('parameter: body"')) failures.push(`${where}: an empty body is refused although the document calls it optional (add the operation to PARTIAL_UPDATES, src/http/openapi.ts)`);
        if (variant === 'missing' && status !== 400 && !entry.missingNotRefused) failures.push(`${where}: a required field left out is not refused with 400: ${body.slice(0, 200)}`);
        if (variant === 'unknown' && !op.body && !op.multipart && status !== 400 && status !== 401) failures.push(`${where}: an unknown query parameter is not refused with 400`);
        if (variant === 'unknown' && op.body && status < 300 && !String(answer.headers['x-ignored-fields'] ?? '').includes(UNKNOWN)) failures.push(`${where}: the unknown field is not named in X-Ignored-Fields`);
      }
    }
    if (process.env.WALK_VERBOSE || failures.length > 0) console.log(JSON.stringify({ operations: ops.length, statuses }, null, 1));
    expect(failures).toEqual([]);
  }, 300_000);
});
