/**
 * Runs once before the suite:
 * - checks that the services named in the environment answer, so a CI run with DATABASE_URL or
 *   REDIS_URL set fails loudly instead of skipping (docs/architecture.md "Tests");
 * - migrates one database that every test file clones (test/helpers/database.ts): a PGlite
 *   data-folder tarball in a temporary folder, or a PostgreSQL template database; both are removed
 *   in the teardown.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { createDatabase, openPglite, type Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/**
 * Applies every migration. The built-in roles are left to openRuntime, so that each file's roles
 * carry its own clock's time exactly as before.
 */
async function prepare(db: Db): Promise<void> {
  await migrateToLatest(db);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query('select 1');
    } catch (err) {
      throw new Error(`DATABASE_URL is set but PostgreSQL is unreachable: ${(err as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      await redis.ping();
    } catch (err) {
      throw new Error(`REDIS_URL is set but Redis is unreachable: ${(err as Error).message}`);
    } finally {
      redis.disconnect();
    }
  }

  let teardown: () => Promise<void>;
  if (databaseUrl) {
    const template = `caretaker_template_${randomBytes(6).toString('hex')}`;
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    await admin(`create database ${template}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${template}`;
    // The pool must be closed before the template is copied: PostgreSQL refuses a busy template.
    const handle = createDatabase({ databaseUrl: url.toString(), poolMax: 1 });
    try {
      await prepare(handle.db);
    } finally {
      await handle.close();
    }
    project.provide('postgresTemplate', template);
    project.provide('pgliteSnapshot', '');
    teardown = () => admin(`drop database if exists ${template} with (force)`);
  } else {
    const { Kysely } = await import('kysely');
    const { PGliteDialect } = await import('kysely-pglite-dialect');
    const pglite = openPglite('memory://', undefined);
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-pglite-'));
    const file = path.join(dir, 'migrated.tar');
    try {
      await prepare(db);
      await writeFile(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await db.destroy();
    }
    project.provide('pgliteSnapshot', file);
    project.provide('postgresTemplate', '');
    teardown = () => rm(dir, { recursive: true, force: true });
  }

  process.stdout.write(
    `Node ${process.version}; test databases: ${databaseUrl ? 'PostgreSQL (a database per test file, cloned from a migrated template)' : 'PGlite (in memory, started from a migrated snapshot)'}; ` +
      `rate limits: ${redisUrl ? 'Redis' : 'memory'}\n`,
  );
  return teardown;
}
