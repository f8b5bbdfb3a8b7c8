// Indexes for production load (docs/operations.md): list queries whose filters and order they match, so
// the page and its count stay fast as the tables grow (100,000 jobs, 1,000,000 activity entries).
// - jobs: partial indexes on live rows (deleted_at is null), so the list and its count(*) can be
//   answered from the index alone (index-only scans) for each visibility scope.
// - activity_log: an agency administrator filtering by user or by action (the common reads of the
//   log) gets an index that holds the agency too.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create index jobs_live_created on jobs (created_at desc, id desc) where deleted_at is null;
    create index jobs_live_agency_created on jobs (agency_id, created_at desc, id desc) where deleted_at is null;
    create index jobs_live_branch_created on jobs (branch_id, created_at desc, id desc) where deleted_at is null;
    create index activity_log_agency_user_created on activity_log (agency_id, user_id, created_at desc, id desc);
    create index activity_log_agency_action_created on activity_log (agency_id, action, created_at desc, id desc);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'jobs_live_created', 'jobs_live_agency_created', 'jobs_live_branch_created',
    'activity_log_agency_user_created', 'activity_log_agency_action_created',
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
