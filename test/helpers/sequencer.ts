/**
 * The order in which Vitest starts test files (vitest.config.ts `sequence.sequencer`): longest
 * first, so the two workers finish together. Vitest's own order uses the durations of its last run
 * (kept in its cache folder, one per database); a clean clone (CI) has none and would start the
 * largest files first, which puts the PostgreSQL-only two-instance cluster test (about 60 s) last.
 * Without a full history this uses the durations checked in to test/file-durations.json for the
 * database in use; files not listed there (new ones) start first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

type Durations = Record<string, number>;

function knownDurations(database: 'pglite' | 'postgres'): Durations {
  const file = JSON.parse(readFileSync(new URL('../file-durations.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  return (file[database] ?? {}) as Durations;
}

/** Longest first: by Vitest's history when every file has one, else by test/file-durations.json. */
export default class KnownDurationsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec))) return super.sort(files);
    const known = knownDurations(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    const seconds = (spec: TestSpecification) => known[path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/')];
    return [...files].sort((a, b) => {
      const [sa, sb] = [seconds(a), seconds(b)];
      if (sa === undefined || sb === undefined) return sa === undefined ? (sb === undefined ? 0 : -1) : 1;
      return sb - sa;
    });
  }
}
