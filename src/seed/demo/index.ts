/** Placeholder wiring for the demo data set; the generator lives beside this file. */
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { LocalFileStore } from '../../storage/file-store.ts';
import { loadDemoData } from './load.ts';

export interface DemoResult {
  loaded: boolean;
  accounts?: string[];
}

/**
 * Loads the demo data set (API.md "demo data") when the database holds no agency and no user.
 * @param log progress callback, one line per step
 */
export async function loadDemoIfEmpty(
  db: Kysely<Database>,
  config: Readonly<Config>,
  now: Date,
  log: (line: string) => void = () => {},
): Promise<DemoResult> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const anyAgency = await db.selectFrom('agencies').select('id').limit(1).executeTakeFirst();
  if (anyUser || anyAgency) return { loaded: false };
  const files = new LocalFileStore(path.join(config.dataDir, 'files'));
  const accounts = await loadDemoData(db, { seed: config.demo.seed, password: config.demo.password, now, log, files });
  return { loaded: true, accounts };
}
