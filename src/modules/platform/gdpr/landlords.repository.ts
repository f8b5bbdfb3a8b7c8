/** SQL of the GDPR report and erasure of a landlord (docs/gdpr.md "Landlords"); the rules are in landlords.service.ts. */
import type { DbOrTrx } from '../../../db/types.ts';

/** Activity entries about the landlord, oldest first. */
export function activityOfLandlord(db: DbOrTrx, landlordId: number) {
  return db.selectFrom('activity_log').select(['id', 'action', 'resource_type', 'user_name', 'created_at'])
    .where('resource_type', '=', 'landlord').where('resource_id', '=', landlordId).orderBy('created_at').orderBy('id').execute();
}

/** Ids of the landlord's login accounts in their agency. */
export async function landlordUserIds(db: DbOrTrx, agencyId: number, landlordId: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('landlord_id', '=', landlordId).where('agency_id', '=', agencyId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Removes the landlord's property links; returns how many. */
export async function unlinkProperties(db: DbOrTrx, landlordId: number): Promise<number> {
  const r = await db.deleteFrom('landlord_properties').where('landlord_id', '=', landlordId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Withdraws the landlord's waiting approvals and revokes their links; returns how many approvals. */
export async function withdrawApprovals(db: DbOrTrx, landlordId: number, now: Date): Promise<number> {
  const rows = await db.updateTable('approval_requests').set({ status: 'cancelled', updated_at: now })
    .where('landlord_id', '=', landlordId).where('status', 'in', ['pending', 'question']).returning('id').execute();
  await db.updateTable('approval_links').set({ revoked_at: now }).where('landlord_id', '=', landlordId)
    .where('used_at', 'is', null).where('revoked_at', 'is', null).execute();
  return rows.length;
}

/** The landlord's approval comments. */
export async function approvalComments(db: DbOrTrx, landlordId: number) {
  const rows = await db.selectFrom('approval_requests').select(['id', 'comment']).where('landlord_id', '=', landlordId).where('comment', 'is not', null).execute();
  return rows.map((r) => ({ id: r.id, comment: r.comment! }));
}

/** Sets an approval's comment. */
export async function setApprovalComment(db: DbOrTrx, id: number, comment: string): Promise<void> {
  await db.updateTable('approval_requests').set({ comment }).where('id', '=', id).execute();
}

/** The agency's name (the report's controller). */
export function agencyName(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirstOrThrow();
}
