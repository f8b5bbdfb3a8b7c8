/**
 * Determinism of the demo data set: the same seed and the same day give identical rows (ids,
 * UUIDs, text, dates) in two fresh databases; the loader truncates "now" to the UTC day.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createRng, createUuidSource } from '../../src/seed/demo/context.ts';
import { loadDemoIfEmpty, startOfUtcDay } from '../../src/seed/demo/index.ts';
import { openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh migrated database with the demo data loaded at `now`; returns its runtime. */
async function loadedRuntime(now: Date, opened: Array<{ runtime: Runtime; database: TestDatabase }>): Promise<Runtime> {
  const database = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    CARETAKER_DEMO_SEED: '4242',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
  });
  const runtime = await openRuntime(config, {
    dataDir: database.dataDir,
    ...(database.loadDataDir ? { loadDataDir: database.loadDataDir } : {}),
    ...(database.pglite ? { pglite: database.pglite } : {}),
    redisPrefix: `caretaker-test:${randomBytes(6).toString('hex')}:`,
    filesDir: await mkdtemp(path.join(tmpdir(), 'caretaker-files-')),
  });
  opened.push({ runtime, database });
  expect((await loadDemoIfEmpty(runtime.deps.db, config, now)).loaded).toBe(true);
  return runtime;
}

/** Every row of the demo tables, ordered; users without the (randomly salted) password hash. */
async function snapshot(runtime: Runtime) {
  const db = runtime.deps.db;
  return {
    agencies: await db.selectFrom('agencies').selectAll().orderBy('id').execute(),
    branches: await db.selectFrom('branches').selectAll().orderBy('id').execute(),
    addresses: await db.selectFrom('addresses').selectAll().orderBy('id').execute(),
    tenants: await db.selectFrom('tenants').selectAll().orderBy('id').execute(),
    tenantAddresses: await db.selectFrom('tenant_addresses').selectAll().orderBy('tenant_id').orderBy('address_id').execute(),
    contractors: await db.selectFrom('contractors').selectAll().orderBy('id').execute(),
    contractorTrades: await db.selectFrom('contractor_trades').selectAll().orderBy('contractor_id').orderBy('trade_id').execute(),
    users: await db.selectFrom('users').select(['id', 'uuid', 'agency_id', 'branch_id', 'role_id', 'contractor_id', 'tenant_id', 'name', 'email', 'created_at']).orderBy('id').execute(),
    jobs: await db.selectFrom('jobs').selectAll().orderBy('id').execute(),
    visitWindows: await db.selectFrom('job_visit_windows').selectAll().orderBy('id').execute(),
    visits: await db.selectFrom('job_visits').selectAll().orderBy('id').execute(),
    counters: await db.selectFrom('agency_counters').selectAll().orderBy('agency_id').orderBy('name').execute(),
    activity: await db.selectFrom('activity_log').select(['id', 'agency_id', 'user_id', 'action', 'resource_id', 'details', 'created_at']).orderBy('id').execute(),
  };
}

describe('demo data determinism', () => {
  const opened: Array<{ runtime: Runtime; database: TestDatabase }> = [];
  let morning: Runtime;
  let evening: Runtime;
  // Two fresh migrated databases take a while on a busy machine (migrations, not the demo load).
  beforeAll(async () => {
    morning = await loadedRuntime(new Date('2026-11-21T08:05:00Z'), opened);
    evening = await loadedRuntime(new Date('2026-11-21T22:59:30Z'), opened);
  }, 300_000);
  afterAll(async () => {
    for (const o of opened) {
      await o.runtime.close();
      await o.database.drop();
    }
  });

  it('gives identical rows for the same seed on the same day', async () => {
    const a = await snapshot(morning);
    const b = await snapshot(evening);
    expect(a.jobs).toHaveLength(1000);
    expect(a.addresses.length).toBeGreaterThan(190);
    expect(a.tenants).toHaveLength(150);
    expect(b).toEqual(a);
    // Nothing generated later than the truncated reference time except upcoming visits.
    const dayStart = new Date('2026-11-21T00:00:00Z').getTime();
    expect(Math.max(...a.jobs.map((j) => j.updated_at.getTime()))).toBeLessThanOrEqual(dayStart);
  });

  it('derives UUIDs from the seed in v4 format', () => {
    const one = createUuidSource(createRng(7));
    const two = createUuidSource(createRng(7));
    const other = createUuidSource(createRng(8));
    const first = Array.from({ length: 50 }, () => one());
    expect(Array.from({ length: 50 }, () => two())).toEqual(first);
    expect(other()).not.toBe(first[0]);
    for (const u of first) expect(u).toMatch(UUID_V4);
    expect(new Set(first).size).toBe(50);
  });

  it('truncates the reference time to the start of the UTC day', () => {
    expect(startOfUtcDay(new Date('2026-03-29T23:59:59.999Z')).toISOString()).toBe('2026-03-29T00:00:00.000Z');
  });
});
