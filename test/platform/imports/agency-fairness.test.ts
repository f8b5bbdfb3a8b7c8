/**
 * Fairness between agencies for heavy work (docs/operations.md "Fairness between agencies"): an
 * agency already running CARETAKER_AGENCY_HEAVY_MAX import commits has its next commit queued
 * (202) with its place in the agency's queue, shown again by GET /api/imports/{uuid}; another
 * agency's commit runs at once; the queue runs in order once the running commit ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeImports } from '../../../src/modules/platform/imports/index.ts';
import { buildTestApp, createAgency, createBranch, userClient, type Client, type TestApp } from '../../helpers/app.ts';
import { form } from '../../helpers/upload-form.ts';

describe('imports: per-agency limit on concurrent commits, with a queue position', () => {
  let t: TestApp;
  let busy: Client;
  let other: Client;

  /** Uploads a one-property CSV (dry run) and returns the import's uuid. */
  const dryRun = async (client: Client, ref: string) => {
    const csv = `external_ref,line1,town,postcode\n${ref},1 ${ref} Road,Leeds,LS6 3AG\n`;
    const res = await client.post('/api/imports', form(Buffer.from(csv), `${ref}.csv`, { entity: 'addresses' }));
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data as { uuid: string }).uuid;
  };

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_AGENCY_HEAVY_MAX: '1' });
    const a = await createAgency(t.db, 'Busy Lets');
    await createBranch(t.db, a.id, 'Leeds');
    const b = await createAgency(t.db, 'Quiet Lets');
    await createBranch(t.db, b.id, 'Leeds');
    busy = (await userClient(t, { role: 'admin', agencyId: a.id })).client;
    other = (await userClient(t, { role: 'admin', agencyId: b.id })).client;
  });
  afterAll(async () => t?.close());

  it('queues the commit of an agency at its limit with its position; another agency is unaffected', async () => {
    const running = await dryRun(busy, 'P-1');
    // A commit of this agency is running (on another instance: status committing, written just now).
    await t.db.updateTable('imports').set({ status: 'committing', updated_at: t.clock.now() }).where('uuid', '=', running).execute();

    const second = await dryRun(busy, 'P-2');
    const third = await dryRun(busy, 'P-3');
    const queued = await busy.post(`/api/imports/${second}/commit`);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json().data).toMatchObject({ status: 'queued', queue_position: 1, rows_done: 0, rows_total: 1 });
    const behind = await busy.post(`/api/imports/${third}/commit`);
    expect(behind.statusCode).toBe(202);
    expect(behind.json().data).toMatchObject({ status: 'queued', queue_position: 2 });
    expect((await busy.get(`/api/imports/${third}`)).json().data).toMatchObject({ status: 'queued', queue_position: 2 });

    const elsewhere = await other.post(`/api/imports/${await dryRun(other, 'Q-1')}/commit`);
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json().data).toMatchObject({ status: 'committed', queue_position: null });

    // While the running commit holds the agency's one place, the worker leaves the queue waiting.
    expect(await resumeImports(t.deps)).toBe(0);
    expect((await busy.get(`/api/imports/${second}`)).json().data).toMatchObject({ status: 'queued', queue_position: 1 });

    // Once it ends, the worker commits the queue in order.
    await t.db.updateTable('imports').set({ status: 'committed', committed_at: t.clock.now() }).where('uuid', '=', running).execute();
    expect(await resumeImports(t.deps)).toBe(2);
    for (const uuid of [second, third]) expect((await busy.get(`/api/imports/${uuid}`)).json().data).toMatchObject({ status: 'committed', queue_position: null, rows_done: 1 });
  });
});
