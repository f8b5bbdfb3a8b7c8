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

/**
 * A deterministic UUID source: 16 bytes from a seeded Rng, formatted as a valid version-4 UUID
 * (version nibble 4, variant 10xx). Same seed, same sequence of UUIDs.
 */
export function createUuidSource(rng: Rng): () => string {
  return () => {
    const bytes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const word = Math.floor(rng.next() * 4_294_967_296);
      bytes.push((word >>> 24) & 0xff, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
    }
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** Picks one item with probability proportional to its weight (weights >= 0, not all 0). */
export function pickWeighted<T>(rng: Rng, items: readonly T[], weight: (item: T) => number): T {
  let total = 0;
  for (const item of items) total += weight(item);
  let r = rng.next() * total;
  for (const item of items) {
    r -= weight(item);
    if (r < 0) return item;
  }
  return items[items.length - 1]!;
}

export interface DemoIds {
  agencies: Record<'northwind' | 'southbank', number>;
  branches: Record<'leeds' | 'york' | 'london', number>;
  /** Demo accounts by e-mail -> user id. */
  users: Record<string, number>;
  /** Trade ids by code (plumbing, gas, ...). */
  trades: Record<string, number>;
  /** Ids in creation order; jobs are in reference (created_at) order. */
  addresses: number[];
  tenants: number[];
  contractors: number[];
  jobs: number[];
  /** The tenant linked to tenant@northwind.test (Emily Clarke, Leeds). */
  demoTenantId: number;
  /** The contractor linked to contractor@northwind.test (Fletcher Gas & Heating). */
  demoContractorId: number;
}

export interface DemoContext {
  trx: Transaction<Database>;
  rng: Rng;
  /**
   * A deterministic v4 UUID for a demo row (own seeded stream, so it does not shift ctx.rng).
   * Use it instead of newUuid() for every demo row.
   */
  uuid: () => string;
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
