/**
 * Loads the demo data set (docs/demo-data.md) in one transaction by running DEMO_STEPS in
 * order. Deterministic: the same seed and the same `now` give the same rows (ids, UUIDs, dates,
 * text), except the password hashes (argon2id salts are random).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { createRng, createUuidSource, type DemoContext } from './context.ts';
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
 * A fresh context for the demo steps: seeded random sources, empty id maps.
 * @param options.now the reference time the data is generated around
 */
export function createDemoContext(
  trx: Transaction<Database>,
  options: { seed: number; now: Date; passwordHash: string; log?: (line: string) => void; files?: FileStore | undefined },
): DemoContext {
  return {
    trx,
    rng: createRng(options.seed),
    uuid: createUuidSource(createRng(options.seed ^ 0x5eed_1d5)),
    now: options.now,
    passwordHash: options.passwordHash,
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
    log: options.log ?? (() => {}),
    ...(options.files ? { files: options.files } : {}),
  };
}

/**
 * Writes the demo data set.
 * @returns the e-mail addresses of the demo accounts
 */
export async function loadDemoData(db: Kysely<Database>, opts: DemoOptions): Promise<string[]> {
  const passwordHash = await hashPassword(opts.password);
  return db.transaction().execute(async (trx) => {
    const ctx = createDemoContext(trx, { seed: opts.seed, now: opts.now, passwordHash, log: opts.log, files: opts.files });
    for (const step of DEMO_STEPS) await step(ctx);
    return Object.keys(ctx.ids.users);
  });
}
