import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backgroundHandlers, periodicTasks } from '../../../src/main/background.ts';
import { dispatchPendingEvents, emitEvent } from '../../../src/events/index.ts';
import { newUuid } from '../../../src/lib/crypto.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { startReceiver, verify } from './receiver.ts';

const ENDPOINTS = '/api/webhooks/endpoints';

describe('outbound webhooks: endpoints, Standard Webhooks signatures, retries and the delivery log', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  const task = () => periodicTasks().find((p) => p.name === 'webhooks.deliver')!;
  const tick = async () => task().run(t.deps);

  /** Emits job.created for an agency, as the jobs service does, and runs the handlers. */
  async function jobCreated(agencyId: number, branchId: number, reference: string) {
    await t.db.transaction().execute((trx) =>
      emitEvent(trx, t.clock.now(), {
        name: 'job.created',
        agencyId,
        payload: { job_id: 1, job_uuid: newUuid(), reference, branch_id: branchId, status_id: 1, priority: 3, tenant_id: null },
      }),
    );
    await dispatchPendingEvents(t.deps, backgroundHandlers());
  }

  async function createEndpoint(events: string[], path = '/hook') {
    const res = await w.adminA.client.post(ENDPOINTS, { url: `${rx.url}${path}`, events, description: 'CRM' });
    expect(res.statusCode).toBe(201);
    return res.json().data as { uuid: string; secret: string };
  }

  beforeAll(async () => {
    rx = await startReceiver();
    t = await buildTestApp({ CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true', CARETAKER_WEBHOOKS_TIMEOUT_MS: '5000' });
    w = await standardWorld(t);
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
  });

  it('creates an endpoint showing its secret once; lists it without the secret; other agencies get 404 and agents 403', async () => {
    const created = await createEndpoint(['job.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = await w.adminA.client.get(ENDPOINTS);
    expect(listed.json()).toMatchObject({ success: true, count: 1, message: 'Webhook endpoints retrieved' });
    expect(JSON.stringify(listed.json())).not.toContain(created.secret);
    expect(Object.keys(listed.json().data[0])).not.toContain('secret');
    expect((await w.adminB.client.get(`${ENDPOINTS}/${created.uuid}`)).json()).toEqual({ success: false, error: 'Webhook endpoint not found' });
    expect((await w.adminB.client.get(ENDPOINTS)).json().count).toBe(0);
    expect((await w.agentA1.client.get(ENDPOINTS)).statusCode).toBe(403);
    await w.adminA.client.delete(`${ENDPOINTS}/${created.uuid}`, {});
  });

  it('refuses private-network, non-http(s) and credentialed targets and unknown events with 400, storing nothing', async () => {
    const refused: Array<[string, string]> = [
      ['https://10.0.0.1/hook', 'resolves to a private address'], ['http://192.168.1.20/hook', 'resolves to a private address'],
      ['https://169.254.169.254/latest/meta-data', 'resolves to a private address'], ['https://[fd00::1]/x', 'resolves to a private address'],
      ['https://[::a00:1]/', 'resolves to a private address'], ['https://[2002:a00:1::1]/', 'resolves to a private address'],
      ['ftp://127.0.0.1/x', 'only https is allowed'], ['http://user:pw@127.0.0.1:1/x', 'credentials are not allowed in the URL'],
      ['https://8.8.8.8:22/', 'port 22 is not allowed (only 443 or 8443)'],
    ];
    for (const [url, why] of refused) {
      const res = await w.adminA.client.post(ENDPOINTS, { url, events: ['job.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: url (${why})` });
    }
    const unknown = await w.adminA.client.post(ENDPOINTS, { url: `${rx.url}/x`, events: ['job.exploded'] });
    expect(unknown.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: events' });
    expect((await w.adminA.client.get(ENDPOINTS)).json().count).toBe(0);
  });

  it('delivers a signed event once through two failures, retrying with backoff, and never another agency\'s events', async () => {
    const ep = await createEndpoint(['job.created'], '/retry');
    rx.answer([500, 502], 200);
    const before = rx.received.length;
    await jobCreated(w.agencyA.id, w.a1.id, 'JOB-000101');
    await jobCreated(w.agencyB.id, w.b1.id, 'JOB-000999');

    await tick();
    await tick(); // nothing due yet: the second attempt waits a minute
    expect(rx.received.length - before).toBe(1);
    t.clock.advance(60);
    await tick();
    t.clock.advance(300);
    await tick();
    const got = rx.received.slice(before);
    expect(got.map((r) => r.path)).toEqual(['/retry', '/retry', '/retry']);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const payload = verify(ep.secret, got[2]!, t.clock.now()) as { type: string; data: { reference: string } };
    expect(payload).toMatchObject({ type: 'job.created', data: { reference: 'JOB-000101', branch_id: w.a1.id } });
    expect(got.every((r) => !r.body.includes('JOB-000999'))).toBe(true);

    const log = await w.adminA.client.get(`/api/webhooks/deliveries?endpoint_uuid=${ep.uuid}`);
    expect(log.json().data).toEqual([
      expect.objectContaining({ event: 'job.created', status: 'succeeded', attempts: 3, last_response_code: 200, last_error: null, next_attempt_at: null, last_duration_ms: expect.any(Number) }),
    ]);
    await tick();
    expect(rx.received.length - before).toBe(3);
    await w.adminA.client.delete(`${ENDPOINTS}/${ep.uuid}`, {});
  });

  it('signs with both secrets during a rotation overlap and with the new one only after it', async () => {
    const ep = await createEndpoint(['job.created'], '/rotate');
    const rotated = await w.adminA.client.post(`${ENDPOINTS}/${ep.uuid}/rotate-secret`, { overlap_seconds: 3600 });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data.secret as string;
    expect(fresh).not.toBe(ep.secret);
    expect(rotated.json().data.previous_secret_expires_at).toBe(new Date(t.clock.now().getTime() + 3600_000).toISOString());

    expect((await w.adminA.client.post(`${ENDPOINTS}/${ep.uuid}/test`, {})).statusCode).toBe(202);
    await tick();
    const during = rx.received.at(-1)!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(fresh, during, t.clock.now())).toMatchObject({ type: 'webhook.test', data: { endpoint_uuid: ep.uuid } });
    expect(verify(ep.secret, during, t.clock.now())).toMatchObject({ type: 'webhook.test' });

    t.clock.advance(3601);
    await w.adminA.client.post(`${ENDPOINTS}/${ep.uuid}/test`, {});
    await tick();
    const after = rx.received.at(-1)!;
    expect(verify(fresh, after, t.clock.now())).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(ep.secret, after, t.clock.now())).toThrow();
    await w.adminA.client.delete(`${ENDPOINTS}/${ep.uuid}`, {});
  });

  it('gives up after 3 days of failures, disables the endpoint, e-mails the admins, and retries on request once re-enabled', async () => {
    const ep = await createEndpoint(['*'], '/down');
    rx.answer([], 503);
    const send = vi.spyOn(t.deps.mailer, 'send');
    await jobCreated(w.agencyA.id, w.a1.id, 'JOB-000202');
    for (let i = 0; i < 20; i += 1) {
      await tick();
      t.clock.advance(12 * 3600);
    }
    const log = (await w.adminA.client.get(`/api/webhooks/deliveries?endpoint_uuid=${ep.uuid}`)).json().data;
    expect(log).toEqual([expect.objectContaining({ status: 'failed', last_response_code: 503, last_error: 'HTTP 503', next_attempt_at: null })]);
    expect(log[0].attempts).toBeGreaterThanOrEqual(6);
    const endpoint = (await w.adminA.client.get(`${ENDPOINTS}/${ep.uuid}`)).json().data;
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'Deliveries failed for 3 days' });
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ to: w.adminA.user.email, subject: 'Caretaker webhook endpoint disabled' }));
    expect(send.mock.calls.some(([m]) => m.to === w.adminB.user.email)).toBe(false);
    send.mockRestore();

    const retry = `/api/webhooks/deliveries/${log[0].uuid}/retry`;
    expect((await w.adminA.client.post(retry, {})).json()).toEqual({ success: false, error: 'Webhook endpoint is disabled' });
    expect((await w.adminB.client.post(retry, {})).statusCode).toBe(404);
    await w.adminA.client.put(`${ENDPOINTS}/${ep.uuid}`, { enabled: true });
    rx.answer([], 200);
    expect((await w.adminA.client.post(retry, {})).json().data).toMatchObject({ status: 'pending' });
    await tick();
    expect((await w.adminA.client.get(`/api/webhooks/deliveries?endpoint_uuid=${ep.uuid}`)).json().data[0]).toMatchObject({ status: 'succeeded', last_response_code: 200 });
  });

  it('fails at once and disables the endpoint when its host stops existing (NXDOMAIN), instead of retrying every message for 3 days', async () => {
    const ep = await createEndpoint(['*'], '/gone');
    // The endpoint was checked when saved; later its domain lapsed (.invalid never resolves, RFC 2606).
    await t.db.updateTable('webhook_endpoints').set({ url: 'https://hooks.example.invalid/hook' }).where('uuid', '=', ep.uuid).execute();
    const send = vi.spyOn(t.deps.mailer, 'send');
    for (const reference of ['JOB-000301', 'JOB-000302', 'JOB-000303']) await jobCreated(w.agencyA.id, w.a1.id, reference);
    for (let i = 0; i < 5; i += 1) {
      await tick();
      t.clock.advance(3600);
    }
    const deliveries = async () => (await w.adminA.client.get(`/api/webhooks/deliveries?endpoint_uuid=${ep.uuid}`)).json().data as Array<{ status: string; attempts: number }>;
    // Each message claimed with the first is tried once (they go out together) and fails for good;
    // none is tried again, and nothing is tried while the endpoint stays disabled.
    const log = await deliveries();
    expect(log).toHaveLength(3);
    for (const d of log) expect(d.attempts).toBeLessThanOrEqual(1);
    expect(log.filter((d) => d.attempts === 1)).toEqual(log.filter((d) => d.status === 'failed'));
    expect(log.find((d) => d.status === 'failed')).toMatchObject({ next_attempt_at: null, last_error: expect.stringContaining('ENOTFOUND') });
    await jobCreated(w.agencyA.id, w.a1.id, 'JOB-000304');
    for (let i = 0; i < 5; i += 1) {
      await tick();
      t.clock.advance(12 * 3600);
    }
    // A disabled endpoint is given no new messages (fan-out) and its waiting ones are not tried.
    expect(await deliveries()).toEqual(log);
    const endpoint = (await w.adminA.client.get(`${ENDPOINTS}/${ep.uuid}`)).json().data;
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'The host hooks.example.invalid does not exist' });
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ to: w.adminA.user.email, subject: 'Caretaker webhook endpoint disabled' }));
    send.mockRestore();
    await w.adminA.client.delete(`${ENDPOINTS}/${ep.uuid}`, {});
  });

  it('counts the attempts of a delivery re-sent after a worker died between sending and recording', async () => {
    const ep = await createEndpoint(['job.created'], '/crash');
    rx.answer([], 200);
    const before = rx.received.length;
    await jobCreated(w.agencyA.id, w.a1.id, 'JOB-000404');
    // A worker that dies once its request has reached the receiver: every later write of a
    // delivery row fails, as if the process had been killed there.
    const crashes = () => rx.received.slice(before).filter((r) => r.path === '/crash');
    const db = new Proxy(t.db, {
      get(target, prop) {
        if (prop === 'updateTable') {
          return (table: string) => {
            if (table === 'webhook_deliveries' && crashes().length > 0) throw new Error('worker killed');
            return target.updateTable(table as 'webhook_deliveries');
          };
        }
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    await expect(task().run({ ...t.deps, db })).rejects.toThrow('worker killed');
    expect(crashes()).toHaveLength(1);
    t.clock.advance(120); // past the claim of the dead worker's attempt
    await tick();
    const got = crashes();
    expect(got).toHaveLength(2);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    const log = (await w.adminA.client.get(`/api/webhooks/deliveries?endpoint_uuid=${ep.uuid}`)).json().data;
    expect(log).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2, last_response_code: 200 })]);
    await w.adminA.client.delete(`${ENDPOINTS}/${ep.uuid}`, {});
  });

  it('sends nothing for a change whose transaction rolled back', async () => {
    const ep = await createEndpoint(['job.created'], '/rollback');
    const before = rx.received.length;
    await t.db
      .transaction()
      .execute(async (trx) => {
        await emitEvent(trx, t.clock.now(), {
          name: 'job.created',
          agencyId: w.agencyA.id,
          payload: { job_id: 2, job_uuid: newUuid(), reference: 'JOB-000303', branch_id: w.a1.id, status_id: 1, priority: 3, tenant_id: null },
        });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    await tick();
    expect(rx.received.length).toBe(before);
    expect((await w.adminA.client.get(`/api/webhooks/deliveries?endpoint_uuid=${ep.uuid}`)).json().count).toBe(0);
  });
});
