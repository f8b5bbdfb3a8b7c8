/**
 * The migrated embedded database prepared at install (src/main/prepared-database.ts, docs/onboarding.md
 * "First start"): the copy holds every migration and the queue's schema with every queue, a data
 * folder loaded from it needs none and opens as a cleanly stopped server's (no recovery), and a
 * copy made by another PGlite version or holding a migration this build does not know is not used.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { migrationStatus } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { prepareDatabase, preparedDatabase, unpackPreparedDatabase } from '../../src/main/prepared-database.ts';
import { loadConfig } from '../../src/config/config.ts';
import { backgroundHandlers, periodicTasks } from '../../src/main/background.ts';
import { createBoss, DEAD_LETTER_QUEUE, handlerQueue, taskQueue } from '../../src/events/queue.ts';

describe('the embedded database prepared at install', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('holds every migration and queue; a first start loads it and has nothing to migrate; a stale copy is not used', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-prepared-'));
    const dataDir = await mkdtemp(path.join(tmpdir(), 'caretaker-data-'));
    dirs.push(dir, dataDir);
    const made = await prepareDatabase(dir);
    expect(made.migrations).toBe(Object.keys(migrations).length);
    const copy = preparedDatabase(dir);
    expect(copy?.migrations).toBe(Object.keys(migrations).length);

    const handle = createDatabase({ dataDir, loadDataDir: copy!.blob });
    try {
      const status = await migrationStatus(handle.db);
      expect(status.pending).toEqual([]);
      expect((await handle.db.selectFrom('agencies').select('id').execute())).toEqual([]);
      // The queue's tables and every queue are there already (the worker only checks them).
      const boss = await createBoss(loadConfig({}), { db: handle.db, engine: 'pglite', pglite: handle.pglite });
      await boss.start();
      const names = (await boss.getQueues()).map((q) => q.name);
      await boss.stop({ graceful: false, close: false });
      expect(names.sort()).toEqual(
        [DEAD_LETTER_QUEUE, ...backgroundHandlers().map((h) => handlerQueue(h.name)), ...periodicTasks().map((t) => taskQueue(t.name))].sort(),
      );
    } finally {
      await handle.close();
    }

    // What a first start does: the copy unpacked into the data folder, opened as an existing database.
    const unpackedDir = await mkdtemp(path.join(tmpdir(), 'caretaker-unpacked-'));
    dirs.push(unpackedDir);
    await unpackPreparedDatabase(copy!.file, path.join(unpackedDir, 'pglite'));
    // Packed after a clean shutdown: pg_control's state (the 32-bit value after the system
    // identifier and the two version numbers) is DB_SHUTDOWNED (1), not DB_IN_PRODUCTION (6), so
    // opening the copy replays no write-ahead log.
    const control = await readFile(path.join(unpackedDir, 'pglite', 'global', 'pg_control'));
    expect(control.readUInt32LE(16)).toBe(1);
    const unpacked = createDatabase({ dataDir: unpackedDir });
    try {
      expect((await migrationStatus(unpacked.db)).pending).toEqual([]);
      expect((await unpacked.db.selectFrom('agencies').select('id').execute())).toEqual([]);
    } finally {
      await unpacked.close();
    }

    const manifestFile = path.join(dir, 'pglite-migrated.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, pglite: '0.0.1' }));
    expect(preparedDatabase(dir)).toBeUndefined();
    await writeFile(manifestFile, JSON.stringify({ ...manifest, migrations: [...manifest.migrations, '2099_01_01_0000_from_a_newer_release'] }));
    expect(preparedDatabase(dir)).toBeUndefined();
    // A copy made before a migration that sorts among its own (two branches merged in turn): refused, not half-used.
    await writeFile(manifestFile, JSON.stringify({ ...manifest, migrations: manifest.migrations.filter((_: string, i: number) => i !== 3) }));
    expect(preparedDatabase(dir)).toBeUndefined();
    // A copy that lacks only the newest migrations: used, the newest apply after it.
    await writeFile(manifestFile, JSON.stringify({ ...manifest, migrations: manifest.migrations.slice(0, -1) }));
    expect(preparedDatabase(dir)?.migrations).toBe(manifest.migrations.length - 1);
    expect(preparedDatabase(path.join(dir, 'missing'))).toBeUndefined();
  }, 240_000);
});
