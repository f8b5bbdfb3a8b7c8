import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import KnownDurationsSequencer from './test/helpers/sequencer.ts';

/** Browser tests that run on the embedded database only (about 95 s of the PostgreSQL run on 2 cores). */
const BROWSER_ONCE = [
  'test/browser/compliance.test.ts',
  'test/browser/console-table-url.test.ts',
  'test/browser/console-tables-charts.test.ts',
  'test/browser/conversations.test.ts',
  'test/browser/docs-page.test.ts',
  'test/browser/offline-app.test.ts',
  'test/browser/onboarding.test.ts',
  'test/browser/people-edit.test.ts',
  'test/browser/settings-pages.test.ts',
  'test/browser/tenant-reporting.test.ts',
  'test/browser/visit-booking.test.ts',
  'test/browser/visual-snapshots.test.ts',
];

export default defineConfig({
  resolve: {
    // n8n's workflow package (the n8n node's tests, test/integrations/n8n-node*.test.ts): its ESM
    // build imports without file extensions, which Node cannot load, so Vite would transform all of
    // it (about 40 s); its CommonJS build is what n8n itself loads.
    alias: { 'n8n-workflow': fileURLToPath(new URL('./node_modules/n8n-workflow/dist/cjs/index.js', import.meta.url)) },
  },
  // Vitest starts the files that took longest last time first, from the durations it keeps in
  // its cache folder (Vitest docs, "sequence.sequencer" and "cache"). The two databases keep one
  // history each: a file skipped on PGlite (the two-instance cluster test, about 90 s on
  // PostgreSQL) would otherwise be scheduled last on PostgreSQL and end the run alone.
  cacheDir: process.env.DATABASE_URL ? 'node_modules/.vite-postgres' : 'node_modules/.vite',
  test: {
    include: ['test/**/*.test.ts'],
    // The console's browser walks run once, on the embedded database: they test the pages, and the
    // API paths they call are tested on both databases by the HTTP tests. On PostgreSQL the main
    // console walk (one per role) and the two-instance live updates still run (docs/architecture.md, "Tests").
    exclude: process.env.DATABASE_URL ? [...configDefaults.exclude, ...BROWSER_ONCE] : configDefaults.exclude,
    pool: 'forks',
    isolate: false,
    // Three workers on two cores: a worker often waits (on a child process, the browser, PostgreSQL's
    // commit, or the cluster test's minute ticks), and a third keeps both cores busy
    // (docs/architecture.md, "Tests": PGlite 151 s -> 135 s, PostgreSQL 217 s -> 173 s).
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll's own default is 1 s: the browser walks poll for what a request brings (a photo
    // uploaded and listed, a thumbnail drawn), which a loaded CI machine takes longer than that to
    // show. 15 s, as the walks' other waits (their browser contexts' default timeout).
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default'],
    // Longest files first, also on a clean clone without Vitest's history (test/helpers/sequencer.ts).
    sequence: { sequencer: KnownDurationsSequencer },
  },
});
