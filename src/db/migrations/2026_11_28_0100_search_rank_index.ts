// Global search at size (docs/insight.md "Search"; bench/README.md "A million jobs"): a word found
// in most of an agency's jobs made the search read every matching job's row to rank it. With many
// agencies each page of `jobs` holds about one job of a given agency, so 20,000 jobs were 20,000
// pages (160 MB) per request, more than PostgreSQL's default 128 MB of shared buffers. This index
// holds what the ranking reads (search vector, reference, title, address) per (agency, branch), so
// the candidates are ranked by an index-only scan (about 450 pages for 20,000 jobs) and only the
// page's rows are read from `jobs`.
//
// Built in the migration's transaction (a plain CREATE INDEX: job writes wait for the build, about
// 10 s at 1,000,000 jobs and under 1 s at 100,000 here, as behind any migration). `if not exists`
// lets an operator with a far larger `jobs` build it first, without blocking writes, with
// `create index concurrently jobs_search_rank on jobs (agency_id, branch_id) include (id,
// search_vector, reference, title, address_id) where deleted_at is null` (docs/operations.md
// "The upgrade"). Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create index if not exists jobs_search_rank on jobs (agency_id, branch_id)
      include (id, search_vector, reference, title, address_id) where deleted_at is null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, 'drop index if exists jobs_search_rank;');
}
