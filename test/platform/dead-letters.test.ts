/**
 * docs/operations.md "Dead-letter queue": a job that failed for good can be listed, retried (put
 * back on its queue, where it runs again) and purged, through the API (SysOps only) and the
 * `caretaker dead-letters` command; readiness names the queue while it holds jobs and stops once it
 * is emptied.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent, type DomainEvent, type EventHandler } from '../../src/events/index.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../../src/events/worker.ts';
import { changeDeadLettersCommand, listDeadLettersCommand } from '../../src/main/cli/dead-letters.ts';
import { buildTestApp, standardWorld, type TestApp } from '../helpers/app.ts';

const quiet = { info: () => {}, error: () => {} };
const QUEUE = 'handler.platform.needs-a-fix';
const LIST = '/api/system/dead-letters';

describe('the dead-letter queue', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let worker: BackgroundWorker | undefined;
  let broken = true;
  const effects: string[] = [];
  // Fails until "fixed": with no retries its job goes straight to the dead-letter queue.
  const handler: EventHandler = {
    name: 'platform.needs-a-fix',
    events: ['user.created'],
    async handle(event: DomainEvent) {
      if (broken) throw new Error('the mail relay refused the message');
      effects.push(event.id);
    },
  };
  const emit = (userId: number) => t.db.transaction().execute((trx) => emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: null, payload: { user_id: userId, role_code: 'agent' } }));
  const listed = async () => (await w.sysops.client.get(LIST)).json() as { count: number; data: Array<Record<string, unknown>> };

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_QUEUE_RETRY_LIMIT: '0', CARETAKER_RELAY_INTERVAL_MS: '100', CARETAKER_QUEUE_SUPERVISE_S: '5' });
    w = await standardWorld(t);
    worker = await startBackgroundWorker(t.deps, t.database, [handler], [], quiet);
  }, 600_000);
  afterAll(async () => {
    await worker?.stop(5_000);
    await t?.close();
  });

  it('lists a failed job with its queue, event and error; readiness names it; only SysOps may see or change it', async () => {
    const eventId = await emit(1);
    await expect.poll(async () => (await listed()).count, { timeout: 60_000, interval: 200 }).toBe(1);
    const { data } = await listed();
    expect(data[0]).toMatchObject({ queue: QUEUE, event_id: eventId, tries: 1, error: 'the mail relay refused the message' });
    expect(Date.parse(String(data[0]!.failed_at))).not.toBeNaN();

    const ready = (await t.app.inject({ method: 'GET', url: '/readyz' })).json() as { data: { warnings?: string[] } };
    expect(ready.data.warnings?.some((m) => m.startsWith('dead-letter: 1 job(s) failed for good') && m.includes('caretaker dead-letters list'))).toBe(true);

    expect((await w.adminA.client.get(LIST)).statusCode).toBe(403);
    expect((await w.adminA.client.post(`${LIST}/retry`, { all: true })).statusCode).toBe(403);
    expect((await w.adminA.client.post(`${LIST}/purge`, { all: true })).statusCode).toBe(403);
    expect((await listed()).count).toBe(1);
  });

  it('refuses a selection that names nothing, or all with something else, and changes nothing', async () => {
    for (const body of [{}, { all: true, queue: QUEUE }, { ids: [] }, { ids: ['not-a-uuid'] }, { all: false }, { queue: '' }]) {
      for (const action of ['retry', 'purge']) {
        const res = await w.sysops.client.post(`${LIST}/${action}`, body);
        expect(res.statusCode, `${action} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toMatchObject({ success: false });
      }
    }
    expect((await w.sysops.client.get(`${LIST}?limit=0`)).statusCode).toBe(400);
    expect((await listed()).count).toBe(1);
  });

  it('retries by id over the CLI: the job runs again on its queue and the dead-letter queue is empty', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    expect(address).toContain('127.0.0.1');
    const out: string[] = [];
    const err: string[] = [];
    const opts = { url, token: w.sysops.token };
    expect(await listDeadLettersCommand(opts, (l) => out.push(l), (l) => err.push(l))).toBe(0);
    const id = String((await listed()).data[0]!.ID);
    expect(out[0]).toContain(id);
    expect(out[0]).toContain(QUEUE);
    expect(out.at(-1)).toBe('1 dead letter(s).');

    // Without a token, or choosing nothing: refused with the fix, nothing changed.
    expect(await changeDeadLettersCommand('retry', { url, token: undefined, all: true }, (l) => out.push(l), (l) => err.push(l))).toBe(1);
    expect(err.at(-1)).toContain('set CARETAKER_TOKEN');
    expect(await changeDeadLettersCommand('purge', { url, token: w.sysops.token }, (l) => out.push(l), (l) => err.push(l))).toBe(2);
    expect((await listed()).count).toBe(1);

    broken = false;
    expect(await changeDeadLettersCommand('retry', { ...opts, ids: [id] }, (l) => out.push(l), (l) => err.push(l))).toBe(0);
    expect(out.at(-1)).toBe('1 dead letter(s) put back on their queues.');
    await expect.poll(() => effects.length, { timeout: 60_000, interval: 200 }).toBe(1);
    expect((await listed()).count).toBe(0);
    out.length = 0;
    expect(await listDeadLettersCommand(opts, (l) => out.push(l), (l) => err.push(l))).toBe(0);
    expect(out).toEqual(['The dead-letter queue is empty.']);
  });

  it('purges by queue; readiness stops warning once the queue is empty', async () => {
    broken = true;
    await emit(2);
    await emit(3);
    await expect.poll(async () => (await listed()).count, { timeout: 60_000, interval: 200 }).toBe(2);
    const other = await w.sysops.client.post(`${LIST}/purge`, { queue: 'handler.some-other' });
    expect(other.json()).toMatchObject({ success: true, data: { purged: 0 } });
    const res = await w.sysops.client.post(`${LIST}/purge`, { queue: QUEUE });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { purged: 2 } });
    expect((await listed()).count).toBe(0);
    // Readiness reads the figures at most every 10 s: it stops warning at its next reading.
    await expect
      .poll(async () => ((await t.app.inject({ method: 'GET', url: '/readyz' })).json() as { data: { warnings?: string[] } }).data.warnings ?? [], { timeout: 30_000, interval: 500 })
      .toEqual([]);
    expect(effects).toHaveLength(1);
  }, 60_000);
});
