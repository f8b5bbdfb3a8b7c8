/**
 * Entry point of the demo data set (issue "Foundation" item 4, docs/demo-data.md); the generator
 * lives beside this file (base.ts and the per-area steps in steps.ts). See docs/demo-data.md.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.ts';
import type { Database } from '../../db/schema.ts';
import { createFileStore } from '../../storage/index.ts';
import { loadDemoData } from './load.ts';
import { hasAnyAgency, hasAnyUser } from '../../db/seed.repository.ts';

export interface DemoResult {
  loaded: boolean;
  accounts?: string[];
}

/** The start of the UTC day of `at` (00:00:00.000Z). */
export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/**
 * Loads the demo data set (docs/demo-data.md) when the database holds no agency and no user.
 * `now` is truncated to the start of its UTC day, so every load on the same day (same
 * CARETAKER_DEMO_SEED) writes the same data; the data reads as of midnight UTC.
 * @param now the current time (the caller's clock)
 * @param log progress callback, one line per step
 * @returns loaded false when the database already held data (nothing written); otherwise the
 *   e-mail addresses of the demo accounts
 */
export async function loadDemoIfEmpty(
  db: Kysely<Database>,
  config: Readonly<Config>,
  now: Date,
  log: (line: string) => void = () => {},
): Promise<DemoResult> {
  if ((await hasAnyUser(db)) || (await hasAnyAgency(db))) return { loaded: false };
  const files = createFileStore(config);
  const accounts = await loadDemoData(db, { seed: config.demo.seed, password: config.demo.password, now: startOfUtcDay(now), log, files });
  return { loaded: true, accounts };
}
