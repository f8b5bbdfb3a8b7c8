/**
 * Runs once before the suite: checks that the services named in the environment answer, so a CI
 * run with DATABASE_URL or REDIS_URL set fails loudly instead of skipping (ARCHITECTURE.md tests).
 */
import pg from 'pg';
import { Redis } from 'ioredis';

export default async function setup(): Promise<void> {
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
  process.stdout.write(
    `Node ${process.version}; test databases: ${databaseUrl ? 'PostgreSQL (a fresh database per test file)' : 'PGlite (in memory)'}; ` +
      `rate limits: ${redisUrl ? 'Redis' : 'memory'}\n`,
  );
}
