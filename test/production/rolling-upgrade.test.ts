/**
 * A rolling upgrade on PostgreSQL (docs/operations.md "Upgrades"): the previous build (the commit
 * before migration 2026_11_26_0800 was added, extracted from git into a temporary folder and run
 * on this checkout's node_modules) migrates an empty database and serves; while it serves, this
 * build starts on the same database, applies its pending (expand) migration and serves too; the
 * balancer (this test's client) sends reads and writes to both, then stops sending to the old one,
 * which drains on SIGTERM. No request fails. The new build's worker then runs the backfill the
 * migration asked for, from the queue, on its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { addProcessAgency, httpCsrf, httpLogin, runCaretaker, startCaretaker, stopAllProcesses, WORLD_PASSWORD, type CaretakerProcess } from '../helpers/process.ts';
import { skipWithout } from '../helpers/skip.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MIGRATION = 'src/db/migrations/2026_11_26_0800_backfills.ts';

/** The commit before the one that added MIGRATION (the previous build), or '' without git history. */
function previousBuild(): string {
  try {
    const added = execFileSync('git', ['log', '-1', '--format=%H', '--diff-filter=A', '--', MIGRATION], { cwd: ROOT, encoding: 'utf8' }).trim();
    return added ? execFileSync('git', ['rev-parse', `${added}^`], { cwd: ROOT, encoding: 'utf8' }).trim() : '';
  } catch {
    return '';
  }
}

const OLD = process.env.DATABASE_URL ? previousBuild() : '';

describe.skipIf(
  skipWithout(
    process.env.DATABASE_URL && OLD,
    'a rolling upgrade needs PostgreSQL (set DATABASE_URL) and the git history (to extract the previous build): two builds serve one database',
  ),
)('a rolling upgrade from the previous build on PostgreSQL', () => {
  let oldRoot = '';
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await stopAllProcesses();
    await database?.drop();
    if (oldRoot) await rm(oldRoot, { recursive: true, force: true });
  });

  it('serves every request while the new build migrates and the old one drains', async () => {
    oldRoot = await mkdtemp(path.join(tmpdir(), 'caretaker-previous-'));
    execFileSync('sh', ['-c', `git archive ${OLD} bin src package.json | tar -x -C '${oldRoot}'`], { cwd: ROOT });
    await symlink(path.join(ROOT, 'node_modules'), path.join(oldRoot, 'node_modules'));
    await mkdir(path.join(oldRoot, 'console'));
    await symlink(path.join(ROOT, 'console/dist'), path.join(oldRoot, 'console/dist'));

    // An empty database, migrated by the previous build itself.
    database = await createTestDatabase();
    const handle = createDatabase({ databaseUrl: database.databaseUrl, poolMax: 2 });
    await handle.db.schema.dropSchema('public').cascade().execute();
    await handle.db.schema.createSchema('public').execute();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'caretaker-rolling-'));
    const env = { DATABASE_URL: database.databaseUrl!, CARETAKER_DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    const migrated = await runCaretaker(['migrate'], env, 120_000, oldRoot);
    expect(migrated.code, migrated.stderr).toBe(0);
    const email = 'admin@process.test';
    await addProcessAgency(handle.db, email);

    const old = await startCaretaker(env, [], oldRoot);
    await old.waitReady();
    const { token } = await httpLogin(old.url, email, WORLD_PASSWORD);

    // The balancer: a list of instances, taken in turn by one reader and one writer.
    const rotation: CaretakerProcess[] = [old];
    const failures: string[] = [];
    const served = new Map<number, number>();
    let turn = 0;
    let stop = false;
    const next = () => rotation[turn++ % rotation.length]!;
    const count = (p: CaretakerProcess) => served.set(p.port, (served.get(p.port) ?? 0) + 1);
    const reader = (async () => {
      while (!stop) {
        const p = next();
        const res = await fetch(`${p.url}/api/jobs/manage`, { headers: { authorization: `Bearer ${token}` } }).catch((e: Error) => e);
        if (res instanceof Error || res.status !== 200) failures.push(`GET on ${p.port}: ${res instanceof Error ? res.message : res.status}`);
        else count(p);
      }
    })();
    let created = 0;
    const writer = (async () => {
      while (!stop) {
        const p = next();
        try {
          const csrf = await httpCsrf(p.url, token);
          const res = await fetch(`${p.url}/api/jobs/manage`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-csrf-token': csrf },
            body: JSON.stringify({ title: `Dripping tap ${created}`, priority: 3 }),
          });
          if (res.status !== 201) failures.push(`POST on ${p.port}: ${res.status} ${await res.text()}`);
          else {
            created++;
            count(p);
          }
        } catch (e) {
          failures.push(`POST on ${p.port}: ${(e as Error).message}`);
        }
      }
    })();

    // The new build starts while the old one serves: it migrates (expand) and serves the same data.
    const fresh = await startCaretaker(env);
    await fresh.waitReady();
    expect(fresh.log).toContain('applied 2026_11_26_0800_backfills (expand)');
    rotation.push(fresh);
    const servedBy = (p: CaretakerProcess) => served.get(p.port) ?? 0;
    const target = servedBy(fresh) + 20;
    while (servedBy(fresh) < target && failures.length === 0) await new Promise((r) => setTimeout(r, 50));

    // The old one leaves the rotation, then drains.
    rotation.splice(rotation.indexOf(old), 1);
    await new Promise((r) => setTimeout(r, 300));
    old.signal('SIGTERM');
    expect((await old.waitExit()).code).toBe(0);
    const after = servedBy(fresh) + 10;
    while (servedBy(fresh) < after && failures.length === 0) await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await Promise.all([reader, writer]);

    // A failure message carries each instance's error lines, so a 500 explains itself.
    const errors = (p: CaretakerProcess) => p.log.split('\n').filter((l) => /"level":(50|60)/.test(l)).join('\n');
    expect(failures, `old:\n${errors(old)}\nnew:\n${errors(fresh)}`).toEqual([]);
    expect(servedBy(old)).toBeGreaterThan(0);
    expect(created).toBeGreaterThan(5);

    // The backfill the migration asked for ran on the new build's worker, with its progress logged.
    const deadline = Date.now() + 30_000;
    let finished = false;
    while (!finished && Date.now() < deadline) {
      const row = await handle.db.selectFrom('data_backfills').select(['finished_at', 'done']).where('name', '=', 'sla.clocks').executeTakeFirstOrThrow();
      finished = row.finished_at !== null;
      if (!finished) await new Promise((r) => setTimeout(r, 200));
    }
    expect(finished, fresh.log).toBe(true);
    // The progress line is written after the row's commit, through the process's buffered log
    // stream: wait for it as for the row.
    while (!/backfill sla\.clocks: done \(\d+ rows\)/.test(fresh.log) && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 200));
    expect(fresh.log).toMatch(/backfill sla\.clocks: done \(\d+ rows\)/);
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 240_000);
});
