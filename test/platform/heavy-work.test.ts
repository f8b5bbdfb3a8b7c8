/**
 * The heavy-work gate (docs/operations.md "Fairness between agencies", src/core/heavy-work.ts):
 * exports, report downloads and subject-access reports share each agency's
 * CARETAKER_AGENCY_HEAVY_MAX slots with import commits. An agency's heavy work holding its slots
 * does not hold back another agency's export; the same agency's next piece waits in its queue
 * (GET /api/agencies/current/heavy-work shows its position) and runs once a slot is free; a wait
 * that runs out answers 503 with its queue position; four claims at once for one slot give it to
 * exactly one; CARETAKER_HEAVY_DB_CONNECTIONS bounds the heavy work of one process, all agencies together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireHeavySlot, type HeavySlot } from '../../src/core/heavy-work.ts';
import { buildTestApp, createAgency, createBranch, userClient, type Client, type TestApp } from '../helpers/app.ts';

/** Polls `check` until it is true (no time limit of its own: the test's timeout is the limit). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

interface Piece { kind: string; status: string; queue_position: number | null; steps_done: number; steps_total: number | null }

/** The agency's heavy work as GET /api/agencies/current/heavy-work answers it. */
async function heavyWork(client: Client): Promise<Piece[]> {
  const res = await client.get('/api/agencies/current/heavy-work');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().success).toBe(true);
  return res.json().data as Piece[];
}

describe('heavy work: per-agency slots shared by exports, reports and imports, with a queue', () => {
  let t: TestApp;
  let busy: Client;
  let quiet: Client;
  let busyId: number;

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_AGENCY_HEAVY_MAX: '1', CARETAKER_HEAVY_WAIT_S: '600' });
    const a = await createAgency(t.db, 'Busy Lets');
    await createBranch(t.db, a.id, 'Leeds');
    const b = await createAgency(t.db, 'Quiet Lets');
    await createBranch(t.db, b.id, 'Leeds');
    busyId = a.id;
    busy = (await userClient(t, { role: 'admin', agencyId: a.id })).client;
    quiet = (await userClient(t, { role: 'admin', agencyId: b.id })).client;
  });
  afterAll(async () => t?.close());

  it('one agency holding its slot does not hold back another agency\'s export', async () => {
    const held = await acquireHeavySlot(t.deps, busyId, 'export');
    try {
      expect(await heavyWork(busy)).toMatchObject([{ kind: 'export', status: 'running', queue_position: null }]);
      expect(await heavyWork(quiet)).toEqual([]);
      const res = await quiet.get('/api/agencies/current/export');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    } finally {
      await held.release();
    }
  });

  it('the same agency\'s export waits in its queue with its position, then completes', async () => {
    const held = await acquireHeavySlot(t.deps, busyId, 'report');
    let release: Promise<void> | undefined;
    try {
      const pending = busy.get('/api/agencies/current/export');
      await until(async () => (await heavyWork(busy)).some((p) => p.status === 'waiting'));
      expect(await heavyWork(busy)).toMatchObject([
        { kind: 'report', status: 'running', queue_position: null },
        { kind: 'export', status: 'waiting', queue_position: 1, steps_done: 0 },
      ]);
      // A second piece of the same agency queues behind it.
      const report = busy.get('/api/reports/jobs-register?format=csv');
      await until(async () => (await heavyWork(busy)).filter((p) => p.status === 'waiting').length === 2);
      expect((await heavyWork(busy)).map((p) => [p.kind, p.queue_position])).toEqual([['report', null], ['export', 1], ['report', 2]]);
      // An import commit of the agency counts against the same slot: it is queued.
      const csv = 'external_ref,line1,town,postcode\nH-1,1 Heavy Road,Leeds,LS6 3AG\n';
      const { form } = await import('../helpers/upload-form.ts');
      const dry = await busy.post('/api/imports', form(Buffer.from(csv), 'h.csv', { entity: 'addresses' }));
      expect(dry.statusCode, dry.body).toBe(201);
      const commit = await busy.post(`/api/imports/${dry.json().data.uuid}/commit`);
      expect(commit.statusCode, commit.body).toBe(202);
      expect(commit.json().data).toMatchObject({ status: 'queued', queue_position: 1 });

      release = held.release();
      const res = await pending;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
      const csvRes = await report;
      expect(csvRes.statusCode, csvRes.body).toBe(200);
      expect(csvRes.headers['content-type']).toMatch(/^text\/csv/);
      // A download gives its slot back when its stream closes, which may come just after the
      // client has read the last byte: the queue empties then.
      await until(async () => (await heavyWork(busy)).length === 0);
      expect(await heavyWork(busy)).toEqual([]);
    } finally {
      await (release ?? held.release());
    }
  });

  it('four claims at once for the agency\'s one slot: exactly one gets it; the others give up with their position', async () => {
    const impatient = { ...t.deps, config: { ...t.config, heavyWaitS: 1 } };
    const results = await Promise.allSettled([0, 1, 2, 3].map(() => acquireHeavySlot(impatient, busyId, 'export')));
    const won = results.filter((r): r is PromiseFulfilledResult<HeavySlot> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ statusCode: 503, extra: { queue_position: expect.any(Number) } });
    }
    await won[0]!.value.release();
    expect(await heavyWork(busy)).toEqual([]);
  });
});

describe('heavy work: a wait that runs out, and the process\'s cap on heavy work (CARETAKER_HEAVY_DB_CONNECTIONS)', () => {
  let t: TestApp;
  let busy: Client;
  let quiet: Client;
  let busyId: number;

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_AGENCY_HEAVY_MAX: '2', CARETAKER_HEAVY_DB_CONNECTIONS: '1', CARETAKER_HEAVY_WAIT_S: '1' });
    const a = await createAgency(t.db, 'Busy Lets');
    const b = await createAgency(t.db, 'Quiet Lets');
    busyId = a.id;
    busy = (await userClient(t, { role: 'admin', agencyId: a.id })).client;
    quiet = (await userClient(t, { role: 'admin', agencyId: b.id })).client;
  });
  afterAll(async () => t?.close());

  it('with the process\'s one heavy connection taken, another agency\'s export waits, then answers 503 with its position', async () => {
    const held = await acquireHeavySlot(t.deps, busyId, 'export');
    try {
      // The agency itself has a slot left (2), but the process runs one piece of heavy work at a time.
      const res = await quiet.get('/api/agencies/current/export');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ success: false, queue_position: 1, retry_after: 1 });
      expect(res.json().error).toMatch(/position 1/);
      expect(res.headers['retry-after']).toBe('1');
      expect(await heavyWork(quiet)).toEqual([]);
    } finally {
      await held.release();
    }
    const res = await quiet.get('/api/agencies/current/export');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await busy.get('/api/agencies/current/heavy-work')).json().data).toEqual([]);
  });
});
