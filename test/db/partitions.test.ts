/**
 * History partitions and retention (docs/operations.md "History partitions and retention"): the
 * history tables are partitioned by month; a row of a month without a partition lands in DEFAULT
 * and the `history.partitions` task moves it into its own month; months are created ahead; a month
 * past every agency's retention is detached, archived to the file store as gzip JSON lines and
 * dropped, while the activity log and job history endpoints still find every row within retention;
 * a month holding an undelivered event is kept; an archive restores into a plain table.
 */
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, Client, login, standardWorld, type TestApp } from '../helpers/app.ts';
import { maintainHistory, restoreArchive } from '../../src/modules/platform/gdpr/index.ts';
import { STATUS } from '../../src/modules/jobs/jobs/lifecycle.ts';
import { dispatchPendingEvents } from '../../src/events/index.ts';
import { backgroundHandlers } from '../../src/main/background.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof standardWorld>>;
let jobUuid: string;

/** The partition holding each activity entry of `action`. */
async function homes(action: string): Promise<string[]> {
  const r = await sql<{ home: string }>`select tableoid::regclass::text as home from activity_log where action = ${action} order by id`.execute(t.db);
  return r.rows.map((x) => x.home);
}

/** A fresh sign-in of a world user at the clock's time (a jump of months outlives a session). */
async function as(u: { user: { email: string } }): Promise<Client> {
  return new Client(t.app, await login(t.app, u.user.email));
}

async function partitions(table: string): Promise<string[]> {
  const r = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass order by 1`.execute(t.db);
  return r.rows.map((x) => x.name);
}

beforeAll(async () => {
  t = await buildTestApp();
  w = await standardWorld(t);
  // A month far from the migration's months (it made the real current month and three ahead).
  t.clock.set(new Date('2031-05-10T10:00:00Z'));
  const created = await (await as(w.agentA1)).post('/api/jobs/manage', { title: 'May job', priority: 3 });
  expect(created.statusCode).toBe(201);
  jobUuid = created.json().data.uuid;
});
afterAll(async () => t?.close());

describe('history partitions', () => {
  it('a row of a month without a partition lands in DEFAULT; the task creates the month, moves it, and creates months ahead', async () => {
    expect(await homes('job.create')).toEqual(['activity_log_default']);
    const run = await maintainHistory(t.deps);
    expect(run.created).toEqual(expect.arrayContaining([
      'activity_log_p2031_05', 'activity_log_p2031_06', 'activity_log_p2031_07', 'activity_log_p2031_08',
      'job_status_history_p2031_05', 'outbox_p2031_08', 'message_deliveries_p2031_08', 'webhook_deliveries_p2031_08',
    ]));
    expect(run.moved).toBeGreaterThan(0);
    expect(await homes('job.create')).toEqual(['activity_log_p2031_05']);
    expect(Number((await sql<{ n: string }>`select count(*) as n from activity_log_default`.execute(t.db)).rows[0]!.n)).toBe(0);
    // Safe to run again: nothing new to create or move.
    const again = await maintainHistory(t.deps);
    expect(again.created).toEqual([]);
    expect(again.moved).toBe(0);
  });

  it('a month created ahead is filled by the writes of that month; the endpoints read across months', async () => {
    t.clock.set(new Date('2031-06-03T09:00:00Z'));
    const moved = await (await as(w.agentA1)).post(`/api/jobs/${jobUuid}/transitions`, { to_status_id: STATUS.approved, note: 'June' });
    expect(moved.statusCode).toBe(200);
    expect(await homes('job.transition')).toEqual(['activity_log_p2031_06']);
    const hist = (await sql<{ home: string }>`select h.tableoid::regclass::text as home from job_status_history h join jobs j on j.id = h.job_id where j.uuid = ${jobUuid} order by h.id`.execute(t.db)).rows;
    expect(hist.map((h) => h.home)).toEqual(['job_status_history_p2031_05', 'job_status_history_p2031_06']);
    const log = (await (await as(w.adminA)).get('/api/admin/activity-log?action=job.create')).json();
    expect(log.data.map((e: { created_at: string }) => e.created_at)).toContain('2031-05-10T10:00:00.000Z');
    const history = (await (await as(w.agentA1)).get(`/api/jobs/${jobUuid}/history`)).json();
    expect(history.count).toBe(2);
  });

  it('a month past every agency\'s retention is archived to the file store and dropped; rows within retention are still found', async () => {
    for (const admin of [w.adminA, w.adminB]) {
      const set = await (await as(admin)).put('/api/gdpr/retention', { periods: [{ record_kind: 'activity_log', months: 1 }] });
      expect(set.statusCode).toBe(200);
    }
    // July 2031, period 1 month: May ended before June 1st, so May goes; June stays.
    t.clock.set(new Date('2031-07-15T09:00:00Z'));
    const mayIds = (await sql<{ id: number }>`select id from activity_log_p2031_05 order by id`.execute(t.db)).rows.map((r) => r.id);
    expect(mayIds.length).toBeGreaterThan(0);
    const run = await maintainHistory(t.deps);
    expect(run.dropped).toContain('activity_log_p2031_05');
    expect(run.dropped).not.toContain('activity_log_p2031_06');
    // Job history keeps its own (default 72-month) period.
    expect(run.dropped.filter((n) => n.startsWith('job_status_history'))).toEqual([]);
    expect(await partitions('activity_log')).not.toContain('activity_log_p2031_05');
    expect(await partitions('activity_log')).toEqual(expect.arrayContaining(['activity_log_p2031_06', 'activity_log_p2031_10', 'activity_log_default']));

    const archive = await t.db.selectFrom('history_archives').selectAll().where('partition_name', '=', 'activity_log_p2031_05').executeTakeFirstOrThrow();
    expect(archive).toMatchObject({ table_name: 'activity_log', format: 'jsonl.gz' });
    expect(Number(archive.row_count)).toBe(mayIds.length);
    expect(new Date(archive.range_from!).toISOString()).toBe('2031-05-01T00:00:00.000Z');
    expect(new Date(archive.range_to).toISOString()).toBe('2031-06-01T00:00:00.000Z');
    const lines = gunzipSync(await t.deps.files.get(archive.storage_key)).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: number; action: string });
    expect(lines.map((l) => l.id)).toEqual(mayIds);
    expect(lines.map((l) => l.action)).toContain('job.create');

    // Within retention: June's entries still found by the activity log; May's are gone from it.
    const log = (await (await as(w.adminA)).get('/api/admin/activity-log')).json();
    const times: string[] = log.data.map((e: { created_at: string }) => e.created_at);
    expect(times.some((x) => x.startsWith('2031-06'))).toBe(true);
    expect(times.some((x) => x.startsWith('2031-05'))).toBe(false);
    expect((await (await as(w.agentA1)).get(`/api/jobs/${jobUuid}/history`)).json().count).toBe(2);
  });

  it('an archived month restores into a plain table with every row', async () => {
    const restored = await restoreArchive(t.deps, 'activity_log_p2031_05');
    expect(restored.table).toBe('activity_log_p2031_05_restored');
    const rows = (await sql<{ id: number; action: string; created_at: Date }>`select id, action, created_at from activity_log_p2031_05_restored order by id`.execute(t.db)).rows;
    expect(rows.length).toBe(restored.rows);
    expect(rows.map((r) => r.action)).toContain('job.create');
    expect(rows.every((r) => new Date(r.created_at).toISOString().startsWith('2031-05'))).toBe(true);
    await expect(restoreArchive(t.deps, 'activity_log_p1999_01')).rejects.toThrow(/No archive/);
  });

  it('a month past retention that holds an undelivered event is kept until it is delivered', async () => {
    // event_log keeps 3 months: at mid-September, May is past it (June ends after June 1st).
    t.clock.set(new Date('2031-09-20T09:00:00Z'));
    const pending = await sql<{ n: string }>`select count(*) as n from outbox_p2031_05 where published_at is null`.execute(t.db);
    expect(Number(pending.rows[0]!.n)).toBeGreaterThan(0);
    const run = await maintainHistory(t.deps);
    expect(run.kept).toContain('outbox_p2031_05');
    expect(await partitions('outbox')).toContain('outbox_p2031_05');
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const later = await maintainHistory(t.deps);
    expect(later.dropped).toContain('outbox_p2031_05');
    expect(later.dropped).not.toContain('outbox_p2031_06');
    expect(await partitions('outbox')).not.toContain('outbox_p2031_05');
  });
});
