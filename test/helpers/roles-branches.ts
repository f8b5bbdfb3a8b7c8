/** Fixtures shared by the administration and agents tests: jobs placed directly, log counts. */
import type { Db } from '../../src/db/database.ts';
import { insertJob as insertJobRow } from './factories.ts';

/**
 * Inserts a job in a branch.
 * @param statusId job_statuses id (1 Reported ... 9 Closed, 10 Cancelled)
 */
export async function insertJob(db: Db, agencyId: number, branchId: number, statusId = 1, title = 'Leaking tap') {
  return insertJobRow(db, { agency_id: agencyId, branch_id: branchId, status_id: statusId, title });
}

/** Activity-log entries with this action, oldest first. */
export function activity(db: Db, action: string) {
  return db.selectFrom('activity_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

/** A role id by code. */
export async function roleId(db: Db, code: string): Promise<number> {
  return (await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}
