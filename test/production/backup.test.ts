/**
 * Backups (docs/operations.md "Backups", "Restore"):
 * - embedded database: `caretaker backup` while the server serves a stream of job creations and
 *   document uploads, then `caretaker restore` with the server stopped: every job answered before
 *   the backup started is there with its document (same SHA-256) and its activity entries; every
 *   job in the restore is whole (its creation entry committed with it); the restored server serves
 *   the document; `caretaker verify-backup --from` checks the folder;
 * - PostgreSQL: `pg_dump` under the same load, then `caretaker verify-backup --dump` restores it into
 *   a scratch database and checks counts and file hashes against the live one.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { hashPassword } from '../../src/lib/passwords.ts';
import { pdfBytes } from '../../src/seed/demo/sample-files.ts';
import { createProcessWorld, httpCsrf, httpLogin, runCaretaker, startCaretaker, stopAllProcesses, type ProcessWorld } from '../helpers/process.ts';
import { form } from '../helpers/upload-form.ts';
import { skipWithout } from '../helpers/skip.ts';

const SYSOPS = { email: 'sysops@process.test', password: 'backup test sysops password' };

/** Adds a SysOps account (the backup route is theirs). */
async function addSysOps(world: ProcessWorld): Promise<void> {
  const handle = world.open();
  try {
    const role = await handle.db.selectFrom('roles').select('id').where('code', '=', 'sysops').executeTakeFirstOrThrow();
    const now = new Date();
    await handle.db
      .insertInto('users')
      .values({ uuid: newUuid(), agency_id: null, branch_id: null, role_id: role.id, name: 'Platform operator', email: SYSOPS.email, password_hash: await hashPassword(SYSOPS.password), created_at: now, updated_at: now })
      .execute();
  } finally {
    await handle.close();
  }
}

interface Written {
  uuid: string;
  answeredAt: number;
  sha256: string;
}

/**
 * Creates jobs, each with one document, until `stop()`; every pair answered 2xx is recorded with
 * the time its upload was answered. Any other answer is a failure.
 */
function writeLoad(url: string, token: string) {
  const written: Written[] = [];
  const failures: string[] = [];
  let stopped = false;
  const pdf = pdfBytes();
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const loop = async () => {
    while (!stopped) {
      const csrf = await httpCsrf(url, token);
      const job = await fetch(`${url}/api/jobs/manage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ title: `Boiler service ${written.length}`, priority: 2 }),
      });
      if (job.status !== 201) {
        failures.push(`job ${job.status} ${await job.text()}`);
        continue;
      }
      const uuid = ((await job.json()) as { data: { uuid: string } }).data.uuid;
      const csrf2 = await httpCsrf(url, token);
      const up = await fetch(`${url}/api/jobs/${uuid}/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-csrf-token': csrf2 },
        body: form(pdf, 'Gas safety certificate.pdf'),
      });
      if (up.status !== 201) failures.push(`upload ${up.status} ${await up.text()}`);
      else written.push({ uuid, answeredAt: Date.now(), sha256 });
    }
  };
  const running = Promise.all([loop(), loop()]);
  return {
    written,
    failures,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

const sql = (world: ProcessWorld) => world.open();

afterAll(async () => {
  await stopAllProcesses();
});

describe.skipIf(skipWithout(!process.env.DATABASE_URL, 'the embedded-database backup runs in the PGlite pass (DATABASE_URL is set: this pass checks pg_dump and verify-backup)'))(
  'caretaker backup and restore of the embedded database',
  () => {
    let world: ProcessWorld;
    let out = '';
    afterAll(async () => {
      // The servers first: a PGlite server still running writes into the folder being removed.
      await stopAllProcesses();
      await world?.drop();
      if (out) await rm(out, { recursive: true, force: true });
    });

    it('backs up under write load, restores, and loses nothing', async () => {
      world = await createProcessWorld('pglite');
      await addSysOps(world);
      const env = world.env;
      const server = await startCaretaker(env);
      await server.waitReady();
      const { token } = await httpLogin(server.url, world.admin.email, world.admin.password);
      const sysops = (await httpLogin(server.url, SYSOPS.email, SYSOPS.password)).token;

      const load = writeLoad(server.url, token);
      while (load.written.length < 6 && load.failures.length === 0) await new Promise((r) => setTimeout(r, 50));
      out = path.join(await mkdtemp(path.join(tmpdir(), 'caretaker-backup-')), 'backup');
      const backupStarted = Date.now();
      const backup = await runCaretaker(['backup', '--out', out, '--url', server.url], { ...env, CARETAKER_TOKEN: sysops }, 120_000);
      const during = load.written.filter((w) => w.answeredAt > backupStarted).length;
      while (load.written.filter((w) => w.answeredAt > backupStarted).length < during + 2 && load.failures.length === 0) await new Promise((r) => setTimeout(r, 50));
      await load.stop();
      expect(load.failures).toEqual([]);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/^Database: .*database\.tar\.gz \(\d+ bytes, sha256 [0-9a-f]{16}\.\.\.\)$/m);
      expect(backup.stdout).toMatch(/^Files: \d+ copied from local storage, each hash verified\.$/m);
      expect(await readdir(out)).toEqual(['database.tar.gz', 'files', 'manifest.json']);

      // The server stops; the restore refuses while it still answers, then puts the backup in place.
      const refused = await runCaretaker(['restore', '--from', out, '--url', server.url], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`a server answers at ${server.url}: stop it first`);
      server.signal('SIGTERM');
      expect((await server.waitExit()).code).toBe(0);
      const restore = await runCaretaker(['restore', '--from', out, '--url', server.url], env, 120_000);
      expect(restore.code, restore.stderr).toBe(0);
      expect(restore.stdout).toContain('the database copy opens');
      expect(restore.stdout).toMatch(/The previous database kept at .*pglite\.before-restore-/);

      // Answered before the backup was started (in the same millisecond counts: the backup
      // process is spawned after that instant), so in the backup.
      const before = load.written.filter((w) => w.answeredAt <= backupStarted);
      expect(before.length).toBeGreaterThanOrEqual(6);
      const handle = sql(world);
      try {
        const jobs = await handle.db.selectFrom('jobs').select(['id', 'uuid']).where('deleted_at', 'is', null).execute();
        const byUuid = new Map(jobs.map((j) => [j.uuid, j.id]));
        for (const w of before) expect(byUuid.has(w.uuid), `job ${w.uuid} answered before the backup`).toBe(true);
        // Every job in the restore is whole: its creation entry and its document were committed with it.
        const ids = [...byUuid.values()];
        const created = await handle.db.selectFrom('activity_log').select('resource_id').where('action', '=', 'job.create').where('resource_id', 'in', ids).execute();
        expect(new Set(created.map((r) => r.resource_id)).size).toBe(ids.length);
        const files = await handle.db.selectFrom('job_files').select(['job_id', 'sha256', 'uuid']).where('job_id', 'in', ids).execute();
        const withFile = new Set(files.map((f) => f.job_id));
        for (const w of before) {
          expect(withFile.has(byUuid.get(w.uuid)!), `document of ${w.uuid}`).toBe(true);
        }
        for (const f of files) expect(f.sha256.trim()).toBe(before[0]!.sha256);
      } finally {
        await handle.close();
      }

      const verified = await runCaretaker(['verify-backup', '--from', out], env, 120_000);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain('Backup verified.');

      // The restored server serves the documents.
      const again = await startCaretaker(env);
      await again.waitReady();
      const t2 = (await httpLogin(again.url, world.admin.email, world.admin.password)).token;
      const list = await fetch(`${again.url}/api/jobs/${before[0]!.uuid}/documents`, { headers: { authorization: `Bearer ${t2}` } });
      const doc = ((await list.json()) as { data: Array<{ uuid: string }> }).data[0]!;
      const dl = await fetch(`${again.url}/api/jobs/${before[0]!.uuid}/documents/${doc.uuid}`, { headers: { authorization: `Bearer ${t2}` } });
      expect(dl.status).toBe(200);
      expect(createHash('sha256').update(Buffer.from(await dl.arrayBuffer())).digest('hex')).toBe(before[0]!.sha256);
    }, 240_000);
  },
);

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'pg_dump and verify-backup need PostgreSQL (set DATABASE_URL)'))('pg_dump and caretaker verify-backup on PostgreSQL', () => {
  let world: ProcessWorld;
  let dir = '';
  afterAll(async () => {
    await stopAllProcesses();
    await world?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a dump taken under write load restores into a scratch database with every file as recorded', async () => {
    world = await createProcessWorld('postgres');
    const server = await startCaretaker(world.env);
    await server.waitReady();
    const { token } = await httpLogin(server.url, world.admin.email, world.admin.password);
    const load = writeLoad(server.url, token);
    while (load.written.length < 4 && load.failures.length === 0) await new Promise((r) => setTimeout(r, 50));
    dir = await mkdtemp(path.join(tmpdir(), 'caretaker-dump-'));
    const dump = path.join(dir, 'caretaker.dump');
    const dumpStarted = Date.now();
    await promisify(execFile)('pg_dump', ['--format=custom', `--file=${dump}`, world.databaseUrl!]);
    await load.stop();
    expect(load.failures).toEqual([]);

    // The embedded-database route and command are not for PostgreSQL, and the route is SysOps-only.
    const route = await fetch(`${server.url}/api/system/backup/database`, { headers: { authorization: `Bearer ${token}` } });
    expect(route.status).toBe(403);
    const refused = await runCaretaker(['backup', '--out', path.join(dir, 'x')], world.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the database is PostgreSQL: back it up with pg_dump');

    const verified = await runCaretaker(['verify-backup', '--dump', dump], world.env, 120_000);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^Restoring .*caretaker\.dump into the scratch database caretaker_verify_[0-9a-f]{12}$/m);
    expect(verified.stdout).toMatch(/^Files: (\d+) of \1 present in the live file store with the recorded SHA-256\.$/m);
    expect(verified.stdout).toContain('Backup verified: it restores, and every file it refers to is in the file store as recorded.');
    expect(load.written.filter((w) => w.answeredAt <= dumpStarted).length).toBeGreaterThanOrEqual(4);

    // A file gone from the store makes it fail.
    const handle = world.open();
    const key = (await handle.db.selectFrom('job_files').select('storage_key').orderBy('id').executeTakeFirstOrThrow()).storage_key;
    await handle.close();
    await rm(path.join(world.dataDir, 'files', key));
    const broken = await runCaretaker(['verify-backup', '--dump', dump], world.env, 120_000);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`  ${key}: missing`);
  }, 240_000);
});
