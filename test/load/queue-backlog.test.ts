/**
 * Queue sizing (docs/operations.md "Queue sizing"): handler queues fetch in batches and settle each
 * job on its own; readiness stays 200 and names a queue over its backlog threshold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent, type DomainEvent, type EventHandler } from '../../src/events/index.ts';
import { handlerQueue } from '../../src/events/queue.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../../src/events/worker.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const quiet = { info: () => {}, error: () => {} };

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('queue batches and the backlog warning', () => {
  let t: TestApp;
  let worker: BackgroundWorker | undefined;
  const seen: string[] = [];
  const failedOnce = new Set<string>();
  let poison: string | undefined;
  const handler: EventHandler = {
    name: 'load.batch',
    events: ['user.created'],
    async handle(event: DomainEvent) {
      // The first event fails once: the others of its batch complete without waiting for its retry.
      if (event.id === poison && !failedOnce.has(event.id)) {
        failedOnce.add(event.id);
        throw new Error('transient');
      }
      seen.push(event.id);
    },
  };

  beforeAll(async () => {
    t = await buildTestApp({
      CARETAKER_QUEUE_RETRY_DELAY_S: '1',
      CARETAKER_RELAY_INTERVAL_MS: '100',
      CARETAKER_QUEUE_BATCH_SIZE: '10',
      CARETAKER_QUEUE_BACKLOG_WARN: '3',
    });
  }, 600_000);
  afterAll(async () => {
    await worker?.stop(5_000);
    await t.close();
  });

  it('handles a burst of events in batches, retrying only the one that failed', async () => {
    const ids: string[] = [];
    await t.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 25; i++) ids.push(await emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: null, payload: { user_id: i + 1, role_code: 'agent' } }));
    });
    poison = ids[0];
    worker = await startBackgroundWorker(t.deps, t.database, [handler], [], quiet);
    await until(() => seen.length === 25);
    expect(new Set(seen)).toEqual(new Set(ids));
    // A handler records its run inside its transaction, which commits after it returns: the last
    // run rows are there a moment after the last event was seen.
    const runs = t.db.selectFrom('event_handler_runs').select('event_id').where('handler', '=', 'load.batch');
    await until(async () => (await runs.execute()).length >= 25);
    expect(await runs.execute()).toHaveLength(25);
  });

  it('names a queue over the backlog threshold in the readiness answer, still 200', async () => {
    await worker!.boss.offWork(handlerQueue(handler.name));
    for (let i = 0; i < 5; i++) await worker!.boss.send(handlerQueue(handler.name), { event_id: `00000000-0000-4000-8000-00000000000${i}` });
    // The first readiness call of this app: the check reads the figures now (then caches them 10 s).
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { status: 'ready' } });
    expect(res.json().data.warnings).toEqual([expect.stringMatching(/^queue handler\.load\.batch: 5 jobs waiting, the oldest for \d+ s$/)]);
  });
});
