/**
 * docs/operations.md "Restore": `caretaker restore` is all or nothing. A backup whose database
 * tarball cannot be opened (its manifest hash edited to match), or with one truncated file, is
 * refused before anything is touched, with a message saying what failed: the data there stays
 * intact and the server starts on it. A good restore ends every credential of the backup, so a
 * token revoked after the backup stays revoked. A start that finds the database marker but no
 * database refuses instead of creating an empty one.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.ts';
import { DATABASE_MARKER } from '../../src/db/data-marker.ts';
import { buildApp } from '../../src/main/app.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { StartupError } from '../../src/main/startup.ts';
import { backupCommand, restoreCommand } from '../../src/modules/platform/backups/index.ts';
import { pdfBytes } from '../../src/seed/demo/sample-files.ts';
import { createProcessWorld, type ProcessWorld } from '../helpers/process.ts';
import { form } from '../helpers/upload-form.ts';
import { skipWithout } from '../helpers/skip.ts';

/** Opens the app on the data folder, runs `fn`, closes it (the embedded database has one owner). */
async function withApp<T>(config: Readonly<Config>, fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(config);
  const app = await buildApp(runtime.deps, { logger: false });
  try {
    await app.ready();
    return await fn(app);
  } finally {
    await app.close();
    await runtime.close();
  }
}

describe.skipIf(skipWithout(!process.env.DATABASE_URL, 'caretaker restore is for the embedded database (PGlite pass)'))('caretaker restore, all or nothing', () => {
  let world: ProcessWorld;
  let config: Readonly<Config>;
  let backupDir = '';
  let token = '';
  const NO_SERVER = 'http://127.0.0.1:9';
  const lines = { out: [] as string[], err: [] as string[] };
  const print = { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) };
  const auth = () => ({ authorization: `Bearer ${token}` });
  const jobTitles = () => withApp(config, async (app) => {
    const res = await app.inject({ method: 'GET', url: '/api/jobs/manage?limit=50', headers: auth() });
    return res.statusCode === 200 ? (res.json().data as Array<{ title: string }>).map((j) => j.title).sort() : res.statusCode;
  });
  /** A copy of the good backup to tamper with. */
  const copyOfBackup = async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'caretaker-tampered-')), 'backup');
    await cp(backupDir, dir, { recursive: true });
    return dir;
  };
  const restore = async (from: string) => {
    lines.out.length = 0;
    lines.err.length = 0;
    return restoreCommand(config, { from, url: NO_SERVER }, print.out, print.err);
  };
  const leftovers = async () => (await readdir(world.dataDir)).filter((n) => n.includes('before-restore') || n.startsWith('restoring-'));
  /** Signs the admin in on `app` (again after a restore, which ends every credential of the backup) and keeps the new token. */
  const signIn = async (app: Awaited<ReturnType<typeof buildApp>>) => {
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: world.admin.email, password: world.admin.password } });
    token = login.json().token as string;
  };

  beforeAll(async () => {
    world = await createProcessWorld('pglite');
    config = loadConfig({ CARETAKER_DATA_DIR: world.dataDir, LOG_LEVEL: 'silent', CARETAKER_COOKIE_SECURE: 'true' });
    // Before the backup: a job with its document, and a token.
    await withApp(config, async (app) => {
      await signIn(app);
      const csrf = async () => (await app.inject({ method: 'GET', url: '/api/security/csrf-token', headers: auth() })).json().data.token as string;
      const job = await app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(), 'x-csrf-token': await csrf() }, payload: { title: 'Before the backup', priority: 2 } });
      expect(job.statusCode, job.body).toBe(201);
      const up = await app.inject({ method: 'POST', url: `/api/jobs/${job.json().data.uuid}/documents`, headers: { ...auth(), 'x-csrf-token': await csrf() }, payload: form(pdfBytes(), 'Gas safety certificate.pdf') });
      expect(up.statusCode, up.body).toBe(201);
    });
    backupDir = path.join(await mkdtemp(path.join(tmpdir(), 'caretaker-backup-')), 'backup');
    expect(await backupCommand(config, { out: backupDir, url: NO_SERVER, token: undefined, stopped: true }, print.out, print.err), lines.err.join('\n')).toBe(0);
    // After the backup: another job, and the token is revoked (logout).
    await withApp(config, async (app) => {
      const csrf = (await app.inject({ method: 'GET', url: '/api/security/csrf-token', headers: auth() })).json().data.token as string;
      const job = await app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { ...auth(), 'x-csrf-token': csrf }, payload: { title: 'After the backup', priority: 2 } });
      expect(job.statusCode, job.body).toBe(201);
    });
    expect(await jobTitles()).toEqual(['After the backup', 'Before the backup']);
  }, 600_000);
  afterAll(async () => {
    await world?.drop();
    if (backupDir) await rm(path.dirname(backupDir), { recursive: true, force: true });
  });

  it('refuses a tarball that cannot be opened, its hash edited to match: says so, and the data there is intact', async () => {
    const dir = await copyOfBackup();
    const tarball = path.join(dir, 'database.tar.gz');
    // A valid gzip of something that is not a data folder.
    const { gzipSync } = await import('node:zlib');
    await writeFile(tarball, gzipSync(Buffer.from('not a PostgreSQL data folder'.repeat(100))));
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { database: { sha256: string; bytes: number } };
    manifest.database.sha256 = createHash('sha256').update(await readFile(tarball)).digest('hex');
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));

    expect(await restore(dir)).toBe(1);
    const last = lines.err.at(-1)!;
    expect(last).toMatch(/^caretaker restore: the database copy database\.tar\.gz cannot be opened \(.+\); nothing was changed$/);
    expect(await leftovers()).toEqual([]);
    expect(await jobTitles()).toEqual(['After the backup', 'Before the backup']);
  }, 300_000);

  it('refuses a backup with one truncated file before touching anything, naming the file', async () => {
    const dir = await copyOfBackup();
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { files: Array<{ key: string }> };
    expect(manifest.files.length).toBeGreaterThan(0);
    const key = manifest.files[0]!.key;
    await truncate(path.join(dir, 'files', key), 100);

    expect(await restore(dir)).toBe(1);
    expect(lines.err).toContain(`  ${key}: hash differs`);
    expect(lines.err.at(-1)).toMatch(/^caretaker restore: 1 of the backup's 1 files in .* are missing or differ from the manifest \(above\); nothing was changed$/);
    expect(await leftovers()).toEqual([]);
    expect(await jobTitles()).toEqual(['After the backup', 'Before the backup']);
  }, 300_000);

  it('restores a good backup; the token revoked after the backup stays revoked; the previous data is kept aside', async () => {
    // Revoked after the backup.
    await withApp(config, async (app) => {
      const csrf = (await app.inject({ method: 'GET', url: '/api/security/csrf-token', headers: auth() })).json().data.token as string;
      const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...auth(), 'x-csrf-token': csrf } });
      expect(out.statusCode, out.body).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth() })).statusCode).toBe(401);
    });
    expect(await restore(backupDir), lines.err.join('\n')).toBe(0);
    expect(lines.out).toContain('Restore complete. Start the server.');
    expect(lines.out.some((l) => /^The previous database kept at .*pglite\.before-restore-/.test(l))).toBe(true);
    expect(lines.out.some((l) => /^Credentials of the backup ended: [1-9]\d* bearer token/.test(l))).toBe(true);
    expect((await leftovers()).sort().map((n) => n.replace(/-\d{4}-.*$/, ''))).toEqual(['files.before-restore', 'pglite.before-restore']);
    await withApp(config, async (app) => {
      expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth() })).statusCode).toBe(401);
      // The backup's data is back, and its owner signs in again.
      await signIn(app);
    });
    expect(await jobTitles()).toEqual(['Before the backup']);
  }, 300_000);

  it('refuses to start on a missing database where the marker expects one, naming the way out', async () => {
    expect(JSON.parse(await readFile(path.join(world.dataDir, DATABASE_MARKER), 'utf8'))).toMatchObject({ how: 'restored' });
    const emptied = path.join(world.dataDir, 'pglite');
    const moved = `${emptied}.moved-away`;
    await cp(emptied, moved, { recursive: true });
    await rm(emptied, { recursive: true, force: true });
    const { mkdir } = await import('node:fs/promises');
    await mkdir(emptied);
    const refused = await openRuntime(config).then(
      async (r) => {
        await r.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toMatch(/^caretaker: cannot start: CARETAKER_DATA_DIR=.*: .*pglite holds no database, but .*caretaker-database\.json says one lives there \(restored .*\); starting would create an empty one\. Fix: put the database back .*delete .*caretaker-database\.json$/);
    expect(await readdir(emptied)).toEqual([]);
    // Put back, it starts.
    await rm(emptied, { recursive: true, force: true });
    await cp(moved, emptied, { recursive: true });
    await rm(moved, { recursive: true, force: true });
    expect(await jobTitles()).toEqual(['Before the backup']);
  }, 300_000);

  it('restores a backup that holds no file (local storage): the files folder is in place, empty', async () => {
    const dir = await copyOfBackup();
    const manifestPath = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: unknown[] };
    manifest.files = [];
    await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
    await rm(path.join(dir, 'files'), { recursive: true, force: true });
    expect(await restore(dir), lines.err.join('\n')).toBe(0);
    expect(lines.out).toContain('Files: 0 restored to local storage, each hash verified.');
    expect(await readdir(path.join(world.dataDir, 'files'))).toEqual([]);
    // The backup's credentials ended: its owner signs in again and finds the backup's job.
    await withApp(config, signIn);
    expect(await jobTitles()).toEqual(['Before the backup']);
    await rm(path.dirname(dir), { recursive: true, force: true });
  }, 300_000);
});
