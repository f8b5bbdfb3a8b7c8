/**
 * Loads the demo data set (API.md "demo data") in one transaction by running DEMO_STEPS in
 * order. Deterministic: the same seed and the same `now` give the same rows (ids, UUIDs, dates,
 * text), except the password hashes (argon2id salts are random).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { createRng, createUuidSource, type DemoContext } from './context.ts';
import { DEMO_STEPS } from './steps.ts';

export interface DemoOptions {
  seed: number;
  password: string;
  now: Date;
  log: (line: string) => void;
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
      uuid: createUuidSource(createRng(opts.seed ^ 0x5eed_1d5)),
      now: opts.now,
      passwordHash,
      ids: {
        agencies: { northwind: 0, southbank: 0 },
        branches: { leeds: 0, york: 0, london: 0 },
        users: {},
        trades: {},
        addresses: [],
        tenants: [],
        contractors: [],
        jobs: [],
        demoTenantId: 0,
        demoContractorId: 0,
      },
      log: opts.log,
    };
    for (const step of DEMO_STEPS) await step(ctx);
    return Object.keys(ctx.ids.users);
  });
}
