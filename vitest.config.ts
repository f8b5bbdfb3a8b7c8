import { defineConfig } from 'vitest/config';
import KnownDurationsSequencer from './test/helpers/sequencer.ts';

export default defineConfig({
  // Vitest starts the files that took longest last time first, from the durations it keeps in
  // its cache folder (Vitest docs, "sequence.sequencer" and "cache"). The two databases keep one
  // history each: a file skipped on PGlite (the two-instance cluster test, about 90 s on
  // PostgreSQL) would otherwise be scheduled last on PostgreSQL and end the run alone.
  cacheDir: process.env.DATABASE_URL ? 'node_modules/.vite-postgres' : 'node_modules/.vite',
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    isolate: false,
    // Three workers on two cores: a worker often waits (on a child process, the browser, PostgreSQL's
    // commit, or the cluster test's minute ticks), and a third keeps both cores busy
    // (docs/architecture.md, "Tests": PGlite 151 s -> 135 s, PostgreSQL 217 s -> 173 s).
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default'],
    // Longest files first, also on a clean clone without Vitest's history (test/helpers/sequencer.ts).
    sequence: { sequencer: KnownDurationsSequencer },
  },
});
