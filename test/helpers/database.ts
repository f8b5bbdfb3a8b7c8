/**
 * A fresh, migrated database per test file: PGlite in memory by default, or a new PostgreSQL
 * database created from DATABASE_URL (dropped again on close), so files can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** Connection string for the fresh database, or undefined for PGlite. */
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

/** Creates the per-file database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) return { databaseUrl: undefined, dataDir: 'memory://', drop: async () => {} };
  const name = `caretaker_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
