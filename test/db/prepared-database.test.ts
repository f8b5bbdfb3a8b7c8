/**
 * The migrated embedded database prepared at install (src/db/prepared-database.ts, docs/onboarding.md
 * "First start"): the copy holds every migration, a data folder loaded from it needs none, and a
 * copy made by another PGlite version or holding a migration this build does not know is not used.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { migrationStatus } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { prepareDatabase, preparedDatabase } from '../../src/db/prepared-database.ts';

describe('the embedded database prepared at install', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('holds every migration; a first start loads it and has nothing to migrate; a stale copy is not used', async () => {
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
    } finally {
      await handle.close();
    }

    const manifestFile = path.join(dir, 'pglite-migrated.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, pglite: '0.0.1' }));
    expect(preparedDatabase(dir)).toBeUndefined();
    await writeFile(manifestFile, JSON.stringify({ ...manifest, migrations: [...manifest.migrations, '2099_01_01_0000_from_a_newer_release'] }));
    expect(preparedDatabase(dir)).toBeUndefined();
    expect(preparedDatabase(path.join(dir, 'missing'))).toBeUndefined();
  }, 240_000);
});
