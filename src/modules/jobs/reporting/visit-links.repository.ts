/** SQL of the tenant's visit links (docs/tenant-reporting.md "The tenant's link"). */
import type { DbOrTrx } from '../../../db/types.ts';

/** The facts of a job for the tenant's visit-link e-mail. */
export function visitLinkFacts(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .leftJoin('tenants as t', 't.id', 'j.tenant_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .select([
      'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.agency_id', 'j.tenant_id', 'j.status_id', 'j.deleted_at',
      't.uuid as tenant_uuid', 't.name as tenant_name', 't.email as tenant_email', 't.erased_at', 'a.line1', 'a.postcode', 'ag.name as agency_name', 'c.company_name',
    ])
    .where('j.id', '=', jobId)
    .executeTakeFirst();
}

/** Ends the job's unused links (a new link replaces them): used_action `replaced`. */
export async function replaceJobLinks(db: DbOrTrx, jobId: number, now: Date): Promise<void> {
  await db.updateTable('visit_links').set({ used_at: now, used_action: 'replaced' }).where('job_id', '=', jobId).where('used_at', 'is', null).execute();
}

/** Ends an erased tenant's unused links: used_action `erased`. */
export async function endTenantLinks(db: DbOrTrx, tenantId: number, now: Date): Promise<void> {
  await db.updateTable('visit_links').set({ used_at: now, used_action: 'erased' }).where('tenant_id', '=', tenantId).where('used_at', 'is', null).execute();
}

/** A new link row. */
export async function insertVisitLink(db: DbOrTrx, row: { uuid: string; agency_id: number; job_id: number; tenant_id: number; nonce: string; expires_at: Date; created_at: Date }): Promise<void> {
  await db.insertInto('visit_links').values(row).execute();
}

/** A link by its nonce, with the job, tenant and agency facts of the page. */
export function findVisitLinkByNonce(db: DbOrTrx, nonce: string) {
  return db
    .selectFrom('visit_links as l')
    .innerJoin('jobs as j', 'j.id', 'l.job_id')
    .innerJoin('tenants as t', 't.id', 'l.tenant_id')
    .innerJoin('agencies as ag', 'ag.id', 'l.agency_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .select([
      'l.id', 'l.uuid', 'l.agency_id', 'l.job_id', 'l.tenant_id', 'l.nonce', 'l.expires_at', 'l.used_at', 'l.used_action',
      'j.uuid as job_uuid', 'j.reference', 'j.title', 'j.status_id', 'j.contractor_id', 'j.agent_user_id', 'j.tenant_id as job_tenant_id', 'j.deleted_at',
      't.uuid as tenant_uuid', 't.name as tenant_name', 'ag.name as agency_name', 'a.line1', 'a.town', 'a.postcode', 'c.company_name',
    ])
    .where('l.nonce', '=', nonce)
    .executeTakeFirst();
}

/** Uses the link up (only while unused). @returns true when this call used it */
export async function useVisitLink(db: DbOrTrx, id: number, action: string, now: Date): Promise<boolean> {
  const r = await db.updateTable('visit_links').set({ used_at: now, used_action: action }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives a link back after its action failed (the tenant may try again). */
export async function releaseVisitLink(db: DbOrTrx, id: number, action: string): Promise<void> {
  await db.updateTable('visit_links').set({ used_at: null, used_action: null }).where('id', '=', id).where('used_action', '=', action).execute();
}

/**
 * The user an action by link is recorded under: the tenant's own active account, else the job's
 * agent, else the agency's first active admin.
 */
export async function visitLinkUser(db: DbOrTrx, agencyId: number, tenantId: number, agentUserId: number | null) {
  const own = await db.selectFrom('users').select(['id', 'uuid', 'email']).where('tenant_id', '=', tenantId).where('status', '=', 'active').orderBy('id').executeTakeFirst();
  if (own) return own;
  if (agentUserId !== null) {
    const agent = await db.selectFrom('users').select(['id', 'uuid', 'email']).where('id', '=', agentUserId).where('status', '=', 'active').executeTakeFirst();
    if (agent) return agent;
  }
  return db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').select(['u.id', 'u.uuid', 'u.email'])
    .where('u.agency_id', '=', agencyId).where('r.code', '=', 'admin').where('u.status', '=', 'active').orderBy('u.id').executeTakeFirst();
}
