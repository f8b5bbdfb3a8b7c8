/**
 * Every migration, in the order applied (by name). Add a new file as
 * YYYY_MM_DD_NNNN_what.ts and list it here; a released migration is never edited.
 * (A static list rather than a folder scan, so tsx, vitest and the compiled build all load them.)
 */
import type { Migration } from 'kysely';
import * as m0001 from './2026_11_21_0001_foundation.ts';
import * as m0700 from './2026_11_21_0700_production_indexes.ts';

export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': m0001,
  '2026_11_21_0700_production_indexes': m0700,
};
