/**
 * The typed client of clients/typescript (docs/api.md, "Typed client") against the real app over
 * HTTP: login, a job created and listed, CSRF fetched by itself, the error envelope and 429 as
 * typed errors.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaretakerError, createCaretakerClient, RateLimitedError } from '../../clients/typescript/src/index.ts';
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
    const job = created.data!.data;
    const { data } = await api.GET('/api/jobs/manage', { params: { query: { limit: 10 } } });
    expect(data!.data.map((j) => j.uuid)).toContain(job.uuid);
    const one = await api.GET('/api/jobs/{uuid}', { params: { path: { uuid: job.uuid } } });
    expect(one.data!.data.title).toBe('Leaking tap in the kitchen');
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
    expect(again.data!.data.uuid).toBe(first.data!.data.uuid);
  });

  it('throws the error envelope as a typed error', async () => {
    const api = createCaretakerClient({ baseUrl });
    await expect(api.login(email, 'wrong password')).rejects.toMatchObject({ name: 'CaretakerError', status: 401 });
    await api.login(email, TEST_PASSWORD);
    const missing = api.GET('/api/jobs/{uuid}', { params: { path: { uuid: '00000000-0000-4000-8000-000000000000' } } });
    await expect(missing).rejects.toBeInstanceOf(CaretakerError);
    await expect(missing).rejects.toMatchObject({ status: 404, message: 'Job not found' });
  });

  it('surfaces 429 with its Retry-After as RateLimitedError', async () => {
    const limited = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '2' });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const api = createCaretakerClient({ baseUrl: `http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}` });
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
