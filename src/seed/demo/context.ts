/**
 * What each demo-data step receives: the transaction, a seeded random source, the reference time
 * and the ids created by earlier steps. Steps run in the order of DEMO_STEPS (steps.ts); each area
 * appends its own step there and records what it created here for later steps.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FileStore } from '../../storage/file-store.ts';

/** A deterministic random source (same seed, same sequence). */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** Mulberry32: a small, fast, seedable PRNG (deterministic across platforms). */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

export interface DemoIds {
  agencies: Record<'northwind' | 'southbank', number>;
  branches: Record<'leeds' | 'york' | 'london', number>;
  /** Demo accounts by e-mail -> user id. */
  users: Record<string, number>;
  addresses: number[];
  tenants: number[];
  contractors: number[];
  jobs: number[];
}

export interface DemoContext {
  trx: Transaction<Database>;
  rng: Rng;
  /** Reference time: the data reads as if "now" were this instant. */
  now: Date;
  /** The argon2id hash of the demo password, shared by every demo account. */
  passwordHash: string;
  ids: DemoIds;
  log: (line: string) => void;
  /** Where demo uploads (photos, documents) are stored; steps skip files when absent. */
  files?: FileStore;
}

/** One step of the demo data set; runs inside the loader's transaction. */
export type DemoStep = (ctx: DemoContext) => Promise<void>;
