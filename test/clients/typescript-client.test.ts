/**
 * The typed client of clients/typescript (docs/api.md, "Typed client") against the real app over
 * HTTP: login, a job created and listed, CSRF fetched by itself (DELETE of a mobile token
 * included), the error envelope as typed error classes with headers and request id, 429 as
 * RateLimitedError, retries of 429/503 honouring Retry-After with the same Idempotency-Key and a
 * fresh CSRF token, the paginated list as an async iterator, the live stream as an async iterator
 * of events, an answer that is not JSON read as a Blob, and uploads from bytes and streams read back
 * as a Blob and as a stream.
 */
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaretakerError, createCaretakerClient, NotFoundError, RateLimitedError } from '../../clients/typescript/src/index.ts';
import { pngBytes } from '../../src/seed/demo/sample-files.ts';
import { buildTestApp, createAgency, createBranch, createUser, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';

describe('typed TypeScript client', () => {
  let t: TestApp;
  let baseUrl: string;
  let email: string;

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '100000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const agency = await createAgency(t.db, 'Client Agency');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    email = (await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id })).email;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logs in, creates a job (CSRF fetched by itself) and lists it', async () => {
    const api = createCaretakerClient({ baseUrl });
    await api.login(email, TEST_PASSWORD);
    const created = await api.POST('/api/jobs/manage', { body: { title: 'Leaking tap in the kitchen', priority: 3 } });
    expect(created.response.status).toBe(201);
    const job = created.data.data;
    const { data } = await api.GET('/api/jobs/manage', { params: { query: { limit: 10 } } });
    expect(data.data.map((j) => j.uuid)).toContain(job.uuid);
    const one = await api.GET('/api/jobs/{uuid}', { params: { path: { uuid: job.uuid } } });
    expect(one.data.data.title).toBe('Leaking tap in the kitchen');
  });

  it('sends an Idempotency-Key on every write; the same key given again replays the first answer', async () => {
    const sent: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'POST') sent.push(request.headers.get('idempotency-key') ?? '');
      return fetch(request);
    };
    const api = createCaretakerClient({ baseUrl, fetch: recording });
    await api.login(email, TEST_PASSWORD);
    await api.POST('/api/jobs/manage', { body: { title: 'Boiler pressure low', priority: 3 } });
    expect(sent.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
    const params = { header: { 'idempotency-key': 'client-retry-1' } };
    const first = await api.POST('/api/jobs/manage', { params, body: { title: 'Gutter blocked', priority: 4 } });
    const again = await api.POST('/api/jobs/manage', { params, body: { title: 'Gutter blocked', priority: 4 } });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data.data.uuid).toBe(first.data.data.uuid);
  });

  it('throws the error envelope as a typed error', async () => {
    const api = createCaretakerClient({ baseUrl });
    const wrong = api.login(email, 'wrong password');
    await expect(wrong).rejects.toBeInstanceOf(CaretakerError);
    await expect(wrong).rejects.toMatchObject({ name: 'AuthenticationError', status: 401, message: 'Invalid email or password' });
    await api.login(email, TEST_PASSWORD);
    const missing = api.GET('/api/jobs/{uuid}', { params: { path: { uuid: '00000000-0000-4000-8000-000000000000' } } });
    await expect(missing).rejects.toBeInstanceOf(CaretakerError);
    await expect(missing).rejects.toMatchObject({ status: 404, message: 'Job not found' });
    const err = (await missing.catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.requestId).toBe(err.headers.get('x-request-id'));
    expect(err.requestId).toBeTruthy();
    expect(err.body).toEqual({ success: false, error: 'Job not found' });
  });

  it('revokes a mobile token with DELETE /api/security/mobile-auth (a CSRF token fetched for it)', async () => {
    const anonymous = createCaretakerClient({ baseUrl });
    const { data } = await anonymous.POST('/api/security/mobile-auth', { body: { email, password: TEST_PASSWORD } });
    const mobile = createCaretakerClient({ baseUrl, token: data.data.token });
    const revoked = await mobile.DELETE('/api/security/mobile-auth', {});
    expect(revoked.response.status).toBe(200);
    await expect(mobile.GET('/api/jobs/manage', {})).rejects.toMatchObject({ status: 401 });
  });

  it('retries a 503 after its Retry-After with the same Idempotency-Key and a fresh CSRF token', async () => {
    const writes: Array<{ key: string | null; csrf: string | null }> = [];
    let refused = 0;
    const flaky: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/jobs/manage') {
        writes.push({ key: request.headers.get('idempotency-key'), csrf: request.headers.get('x-csrf-token') });
        if (refused++ === 0) return new Response(JSON.stringify({ success: false, error: 'Service unavailable' }), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } });
      }
      return fetch(request);
    };
    const api = createCaretakerClient({ baseUrl, fetch: flaky });
    await api.login(email, TEST_PASSWORD);
    const created = await api.POST('/api/jobs/manage', { body: { title: 'Retried after a 503', priority: 3 } });
    expect(created.response.status).toBe(201);
    expect(writes).toHaveLength(2);
    expect(writes[1]!.key).toBe(writes[0]!.key);
    expect(writes[1]!.csrf).not.toBe(writes[0]!.csrf);
    const off = createCaretakerClient({ baseUrl, fetch: flaky, maxRetries: 0 });
    refused = 0;
    await off.login(email, TEST_PASSWORD);
    await expect(off.POST('/api/jobs/manage', { body: { title: 'Not retried', priority: 3 } })).rejects.toMatchObject({ status: 503 });
  });

  it('walks a paginated list with an async iterator, page by page', async () => {
    const api = createCaretakerClient({ baseUrl });
    await api.login(email, TEST_PASSWORD);
    const { data } = await api.GET('/api/jobs/manage', { params: { query: { limit: 1 } } });
    const uuids: string[] = [];
    for await (const job of api.paginate('/api/jobs/manage', { pageSize: 2 })) uuids.push(job.uuid);
    expect(uuids.length).toBe(data.count);
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  it('reads the live stream as an async iterator of events; a plain GET of it is not a download', async () => {
    const api = createCaretakerClient({ baseUrl });
    await api.login(email, TEST_PASSWORD);
    const controller = new AbortController();
    const seen: unknown[] = [];
    for await (const event of api.events({ signal: controller.signal })) {
      seen.push(event.data);
      controller.abort();
    }
    expect(seen).toEqual([{ type: 'ready' }]);
    const { BINARY_GETS } = await import('../../clients/typescript/src/binary.ts');
    expect(BINARY_GETS as readonly string[]).not.toContain('/api/events/stream');
  });

  it('reads an answer that is not JSON as a Blob, even of an operation it does not list as a file', async () => {
    const zip: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (new URL(request.url).pathname.endsWith('/evidence-pack')) return new Response(new Uint8Array([0x50, 0x4b, 3, 4]), { status: 200, headers: { 'content-type': 'application/zip' } });
      return fetch(request);
    };
    const api = createCaretakerClient({ baseUrl, fetch: zip });
    await api.login(email, TEST_PASSWORD);
    const { data } = await api.GET('/api/jobs/{uuid}/evidence-pack' as never, { params: { path: { uuid: '00000000-0000-4000-8000-000000000000' } } } as never);
    expect(data).toBeInstanceOf(Blob);
    expect((data as unknown as Blob).type).toBe('application/zip');
    expect((data as unknown as Blob).size).toBe(4);
  });

  it('uploads a file from a Buffer, a Node stream and a web stream under its filename, and reads it back as a Blob and as a stream', async () => {
    const api = createCaretakerClient({ baseUrl });
    await api.login(email, TEST_PASSWORD);
    const { data: created } = await api.POST('/api/jobs/manage', { body: { title: 'Stain on the kitchen ceiling', priority: 3 } });
    const path = { uuid: created.data.uuid };
    const png = pngBytes(3, 3);
    const { data: photo } = await api.POST('/api/jobs/{uuid}/photos', { params: { path }, body: { file: png, filename: 'kitchen.png', description: 'Water stain' } });
    expect(photo.data).toMatchObject({ filename: 'kitchen.png', mime: 'image/png', size_bytes: png.length, description: 'Water stain' });
    const notes = 'Key safe code is with the agent.\nCall before visiting.\n';
    const { data: fromNode } = await api.POST('/api/jobs/{uuid}/documents', { params: { path }, body: { file: Readable.from([Buffer.from(notes.slice(0, 10)), Buffer.from(notes.slice(10))]), filename: 'access.txt' } });
    expect(fromNode.data).toMatchObject({ filename: 'access.txt', size_bytes: Buffer.byteLength(notes) });
    const { data: fromWeb } = await api.POST('/api/jobs/{uuid}/documents', { params: { path }, body: { file: new Blob([notes]).stream(), filename: 'access-2.txt', internal: true } });
    expect(fromWeb.data).toMatchObject({ filename: 'access-2.txt', internal: true, size_bytes: Buffer.byteLength(notes) });

    const { data: blob } = await api.download('/api/jobs/{uuid}/photos/{file_uuid}', { params: { path: { ...path, file_uuid: photo.data.uuid } } });
    expect(blob.type).toBe('image/png');
    expect(Buffer.from(await blob.arrayBuffer()).equals(png)).toBe(true);
    const { data: stream } = await api.downloadStream('/api/jobs/{uuid}/documents/{file_uuid}', { params: { path: { ...path, file_uuid: fromNode.data.uuid } } });
    const chunks: Buffer[] = [];
    for await (const chunk of Readable.fromWeb(stream)) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(notes);
  });

  it('surfaces 429 with its Retry-After as RateLimitedError', async () => {
    const limited = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '2' });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const api = createCaretakerClient({ baseUrl: `http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}`, maxRetries: 0 });
      let caught: unknown;
      for (let i = 0; i < 4 && !caught; i++) {
        await api.GET('/livez').catch((err: unknown) => {
          caught = err;
        });
      }
      expect(caught).toBeInstanceOf(RateLimitedError);
      expect((caught as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
