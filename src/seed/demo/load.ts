/**
 * Loads the demo data set (API.md "demo data") in one transaction by running DEMO_STEPS in
 * order. Deterministic: the same seed and reference date give the same data.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { createRng, type DemoContext } from './context.ts';
import { DEMO_STEPS } from './steps.ts';

export interface DemoOptions {
  seed: number;
  password: string;
  now: Date;
  log: (line: string) => void;
  /** Store for demo photos and documents (optional). */
  files?: FileStore;
}

/**
 * Writes the demo data set.
 * @returns the e-mail addresses of the demo accounts
 */
export async function loadDemoData(db: Kysely<Database>, opts: DemoOptions): Promise<string[]> {
  const passwordHash = await hashPassword(opts.password);
  return db.transaction().execute(async (trx) => {
    const ctx: DemoContext = {
      trx,
      rng: createRng(opts.seed),
      now: opts.now,
      passwordHash,
      ids: {
        agencies: { northwind: 0, southbank: 0 },
        branches: { leeds: 0, york: 0, london: 0 },
        users: {},
        addresses: [],
        tenants: [],
        contractors: [],
        jobs: [],
      },
      log: opts.log,
      ...(opts.files ? { files: opts.files } : {}),
    };
    for (const step of DEMO_STEPS) await step(ctx);
    return Object.keys(ctx.ids.users);
  });
}
