/** SQL gathering what is held about a tenant, for the subject-access report and erasure (docs/gdpr.md). */
import type { DbOrTrx } from '../../../db/types.ts';

/** Login accounts linked to a tenant. */
export function usersOfTenant(db: DbOrTrx, tenantId: number) {
  return db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.uuid', 'u.name', 'u.email', 'u.status', 'r.name as role', 'u.created_at', 'u.last_login_at', 'u.disabled_at'])
    .where('u.tenant_id', '=', tenantId).orderBy('u.id').execute();
}

/**
 * Jobs about the tenant: theirs (tenant_id), reported by their login users, or at their linked
 * addresses; not deleted. No costs.
 */
export function jobsOfTenant(db: DbOrTrx, tenantId: number, userIds: number[]) {
  return db.selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .innerJoin('job_types as jt', 'jt.id', 'j.job_type_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .select([
      'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 's.name as status', 's.is_open', 'jt.name as job_type',
      'j.tenant_id', 'j.reported_by_user_id', 'a.line1', 'a.town', 'a.postcode', 'c.company_name as contractor',
      'j.created_at', 'j.scheduled_for', 'j.completed_at', 'j.closed_at', 'j.cancelled_at',
    ])
    .where('j.deleted_at', 'is', null)
    .where((eb) => eb.or([
      eb('j.tenant_id', '=', tenantId),
      ...(userIds.length ? [eb('j.reported_by_user_id', 'in', userIds)] : []),
      eb('j.address_id', 'in', eb.selectFrom('tenant_addresses as ta').select('ta.address_id').where('ta.tenant_id', '=', tenantId)),
    ]))
    .orderBy('j.created_at')
    .orderBy('j.id')
    .execute();
}

/** Notes shared with tenants (visibility tenant or both) on the given jobs. */
export function sharedNotes(db: DbOrTrx, jobIds: number[]) {
  if (jobIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('job_notes as n').innerJoin('jobs as j', 'j.id', 'n.job_id').leftJoin('users as u', 'u.id', 'n.author_user_id')
    .select(['n.uuid', 'j.uuid as job_uuid', 'j.reference as job_reference', 'n.body', 'n.visibility', 'u.name as author', 'n.created_at', 'n.edited_at'])
    .where('n.job_id', 'in', jobIds).where('n.visibility', 'in', ['tenant', 'both'])
    .orderBy('n.created_at').orderBy('n.id').execute();
}

/** Activity entries about the tenant (resource tenant/id) or by their login users, oldest first. */
export function activityOfTenant(db: DbOrTrx, tenantId: number, userIds: number[]) {
  return db.selectFrom('activity_log')
    .select(['id', 'action', 'resource_type', 'resource_id', 'user_name', 'ip_address', 'created_at'])
    .where((eb) => eb.or([
      eb.and([eb('resource_type', '=', 'tenant'), eb('resource_id', '=', tenantId)]),
      ...(userIds.length ? [eb('user_id', 'in', userIds)] : []),
    ]))
    .orderBy('created_at').orderBy('id').execute();
}

/** Open jobs (status is_open) that name the tenant or were reported by their users. */
export async function openJobCount(db: DbOrTrx, tenantId: number, userIds: number[]): Promise<number> {
  const rows = await db.selectFrom('jobs as j').innerJoin('job_statuses as s', 's.id', 'j.status_id').select('j.id')
    .where('j.deleted_at', 'is', null).where('s.is_open', '=', true)
    .where((eb) => eb.or([eb('j.tenant_id', '=', tenantId), ...(userIds.length ? [eb('j.reported_by_user_id', 'in', userIds)] : [])]))
    .execute();
  return rows.length;
}

/** The name of an agency (the controller named in a subject access report). */
export function agencyName(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirstOrThrow();
}
