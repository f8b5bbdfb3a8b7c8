/**
 * The outbox and the queue (docs/events.md): events commit with their change and vanish with its
 * rollback; the relay hands committed rows to pg-boss; a failing handler is retried with backoff
 * and its effect happens once; a redelivered event does not run a completed handler again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent, type DomainEvent, type EventHandler } from '../../src/events/index.ts';
import { handlerQueue } from '../../src/events/queue.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../../src/events/worker.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const quiet = { info: () => {}, error: () => {} };

/** Polls `check` every 100 ms until it is true (real time: pg-boss schedules on the database clock). */
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const payload = { user_id: 1, role_code: 'agent' };

describe('outbox and queue', () => {
  let t: TestApp;
  let worker: BackgroundWorker | undefined;
  const calls: number[] = [];
  const effects: string[] = [];
  const flaky: EventHandler = {
    name: 'platform.flaky',
    events: ['user.created'],
    async handle(event: DomainEvent, ctx) {
      calls.push(ctx.attempt);
      if (calls.length <= 2) throw new Error(`transient failure ${calls.length}`);
      effects.push(event.id);
    },
  };

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_QUEUE_RETRY_DELAY_S: '1', CARETAKER_RELAY_INTERVAL_MS: '100', CARETAKER_QUEUE_SUPERVISE_S: '5' });
  }, 600_000);
  afterAll(async () => {
    await worker?.stop(5_000);
    await t.close();
  });

  it('writes the event row in the transaction of the change, and none when it rolls back', async () => {
    const committed = await t.db.transaction().execute((trx) => emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: null, payload }));
    await expect(
      t.db.transaction().execute(async (trx) => {
        await emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: null, payload: { user_id: 2, role_code: 'agent' } });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    const rows = await t.db.selectFrom('outbox').select(['event_id', 'payload']).execute();
    expect(rows.map((r) => r.event_id)).toEqual([committed]);
  });

  it('refuses a payload the catalogue does not describe, naming the field, and writes nothing', async () => {
    const before = await t.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const bad = { user_id: 'two', role_code: 'agent' } as unknown as typeof payload;
    await expect(t.db.transaction().execute((trx) => emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: null, payload: bad }))).rejects.toThrow(
      /Event user\.created: payload does not match the catalogue \(\/user_id /,
    );
    const after = await t.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('retries a handler that fails twice: three runs, one effect, and a redelivery changes nothing', async () => {
    worker = await startBackgroundWorker(t.deps, t.database, [flaky], [], quiet);
    await until(async () => effects.length === 1);
    // The effect is recorded inside the handler's transaction: its run row is there once that commits.
    const recorded = t.db.selectFrom('event_handler_runs').select('event_id').where('event_id', '=', effects[0]!);
    await until(async () => (await recorded.execute()).length > 0);
    expect(calls).toEqual([1, 2, 3]);
    const published = await t.db.selectFrom('outbox').select(['event_id', 'published_at']).execute();
    expect(published.every((r) => r.published_at !== null)).toBe(true);
    const eventId = effects[0]!;
    const runs = await t.db.selectFrom('event_handler_runs').selectAll().where('event_id', '=', eventId).execute();
    expect(runs.map((r) => r.handler)).toEqual(['platform.flaky']);

    // At-least-once delivery: the same event again (a relay repeat) must not repeat the effect.
    const jobId = await worker.boss.send(handlerQueue(flaky.name), { event_id: eventId });
    await until(async () => (await worker!.boss.findJobs(handlerQueue(flaky.name), { id: jobId! }))[0]?.state === 'completed');
    expect(calls).toEqual([1, 2, 3]);
    expect(effects).toEqual([eventId]);
  });
});
