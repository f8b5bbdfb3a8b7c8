/** Fixtures shared by the administration and agents tests: jobs placed directly, log counts. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { newUuid } from '../../src/lib/crypto.ts';

/**
 * Inserts a job in a branch.
 * @param statusId job_statuses id (1 Reported ... 9 Closed, 10 Cancelled)
 */
export async function insertJob(db: Db, agencyId: number, branchId: number, statusId = 1, title = 'Leaking tap') {
  const now = new Date();
  return db
    .insertInto('jobs')
    .values({
      uuid: newUuid(),
      agency_id: agencyId,
      branch_id: branchId,
      reference: `T-${randomBytes(4).toString('hex')}`,
      title,
      priority: 3,
      status_id: statusId,
      job_type_id: 1,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'uuid', 'reference'])
    .executeTakeFirstOrThrow();
}

/** Activity-log entries with this action, oldest first. */
export function activity(db: Db, action: string) {
  return db.selectFrom('activity_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

/** A role id by code. */
export async function roleId(db: Db, code: string): Promise<number> {
  return (await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}
