/**
 * A fresh, migrated database per test file, cloned from one migrated database that the global
 * setup makes once per run (test/helpers/global-setup.ts), so no file pays for initdb or migrations:
 * - PGlite (default): the worker's in-memory PGlite, started once from the migrated data-folder
 *   tarball and reset to it between files (test/helpers/pglite-reuse.ts); a second database in the
 *   same file is a new instance started from the tarball (`loadDataDir`). Either skips initdb and
 *   finds every migration applied;
 * - PostgreSQL (DATABASE_URL set): `CREATE DATABASE ... TEMPLATE <migrated template>`, dropped on close.
 * Files still get separate databases, so they can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { borrowWorkerPglite } from './pglite-reuse.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite data-folder tarball ('' on PostgreSQL). */
    pgliteSnapshot: string;
    /** Name of the migrated PostgreSQL template database ('' on PGlite). */
    postgresTemplate: string;
  }
}

export interface TestDatabase {
  /** Connection string for the fresh database, or undefined for PGlite. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** PGlite only: the migrated data folder to start from (undefined outside a Vitest run). */
  loadDataDir?: Blob;
  /** PGlite only: an open instance holding the migrated database, lent to this file (used instead of loadDataDir). */
  pglite?: PGlite;
  drop(): Promise<void>;
}

let snapshot: Promise<Blob | undefined> | undefined;

/**
 * A value the global setup provided, or '' outside a Vitest run (the benches in bench/ create
 * their databases with this helper too: they start from an empty database and migrate it).
 */
function provided(key: 'pgliteSnapshot' | 'postgresTemplate'): string {
  try {
    return inject(key);
  } catch {
    return '';
  }
}

/** The migrated PGlite tarball, read once per worker process (undefined outside a Vitest run). */
export function pgliteSnapshot(): Promise<Blob | undefined> {
  snapshot ??= (async () => {
    const file = provided('pgliteSnapshot');
    return file ? new Blob([await readFile(file)]) : undefined;
  })();
  return snapshot;
}

/** Creates the per-file database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const loadDataDir = await pgliteSnapshot();
    const loan = loadDataDir ? await borrowWorkerPglite(loadDataDir) : undefined;
    if (loan) return { databaseUrl: undefined, dataDir: 'memory://', pglite: loan.pglite, drop: async () => loan.release() };
    return { databaseUrl: undefined, dataDir: 'memory://', ...(loadDataDir ? { loadDataDir } : {}), drop: async () => {} };
  }
  const name = `caretaker_test_${randomBytes(6).toString('hex')}`;
  const template = provided('postgresTemplate');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir: 'memory://',
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
