/** SQL of the recipients of a message and of the values its templates show (recipients.ts has the rules). */
import type { DbOrTrx } from '../../../db/types.ts';

/** Active users of the agency (join with roles as `r`), to be narrowed by the caller. */
function activeUsers(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.email', 'u.name', 'u.tenant_id'])
    .where('u.agency_id', '=', agencyId)
    .where('u.status', '=', 'active');
}

/** Active users of the agency linked to a tenant, a contractor, of a built-in role (in a branch), or one by id, oldest first. */
export function activeUsersOf(db: DbOrTrx, agencyId: number, of: { tenantId: number } | { contractorId: number } | { userId: number } | { role: 'agent' | 'admin'; branchId?: number }) {
  let q = activeUsers(db, agencyId);
  if ('userId' in of) q = q.where('u.id', '=', of.userId);
  else if ('tenantId' in of) q = q.where('u.tenant_id', '=', of.tenantId);
  else if ('contractorId' in of) q = q.where('u.contractor_id', '=', of.contractorId);
  else {
    q = q.where('r.code', '=', of.role);
    if (of.branchId !== undefined) q = q.where('u.branch_id', '=', of.branchId);
  }
  return q.orderBy('u.id').execute();
}

/**
 * Active users of the agency who asked for a kind by e-mail (a stored mode `immediate` or
 * `digest`) and see the job: agents of its branch and administrators (with their role code).
 */
export function optedInStaff(db: DbOrTrx, agencyId: number, branchId: number, key: string) {
  return activeUsers(db, agencyId)
    .innerJoin('notification_preferences as p', 'p.user_id', 'u.id')
    .select('r.code as role_code')
    .where('p.template_key', '=', key)
    .where('p.channel', '=', 'email')
    .where('p.mode', 'in', ['immediate', 'digest'])
    .where((eb) => eb.or([eb('r.code', '=', 'admin'), eb.and([eb('r.code', '=', 'agent'), eb('u.branch_id', '=', branchId)])]))
    .orderBy('u.id')
    .execute();
}

/** A tenant record of the agency: id, name, email, erased_at. */
export function findTenantRecord(db: DbOrTrx, agencyId: number, tenantId: number) {
  return db.selectFrom('tenants').select(['id', 'name', 'email', 'erased_at']).where('id', '=', tenantId).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** A contractor record of the agency: id, company_name, contact_name, email. */
export function findContractorRecord(db: DbOrTrx, agencyId: number, contractorId: number) {
  return db.selectFrom('contractors').select(['id', 'company_name', 'contact_name', 'email']).where('id', '=', contractorId).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** The job of the event in the event's agency (not deleted), with what the templates show. */
export function loadJob(db: DbOrTrx, agencyId: number, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .leftJoin('job_time_ranges as tr', 'tr.id', 'j.time_range_id')
    .select([
      'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.priority', 'j.branch_id', 'j.tenant_id', 'j.contractor_id', 'j.agent_user_id', 'j.scheduled_for', 'ag.name as agency_name',
      's.name as status', 'a.line1', 'a.town', 'a.postcode', 'c.company_name', 'tr.range_label',
    ])
    .where('j.id', '=', jobId)
    .where('j.agency_id', '=', agencyId)
    .where('j.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A live certification of the agency with its contractor and agency names. */
export function loadCertification(db: DbOrTrx, agencyId: number, certificationId: number) {
  return db
    .selectFrom('contractor_certifications as cc')
    .innerJoin('contractors as c', 'c.id', 'cc.contractor_id')
    .innerJoin('agencies as ag', 'ag.id', 'cc.agency_id')
    .select(['cc.cert_type', 'cc.reference', 'cc.expires_on', 'c.uuid', 'c.company_name', 'ag.name as agency_name'])
    .where('cc.id', '=', certificationId)
    .where('cc.agency_id', '=', agencyId)
    .where('cc.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The description of an SLA rule of the agency, by uuid. */
export function slaRuleDescription(db: DbOrTrx, agencyId: number, ruleUuid: string) {
  return db.selectFrom('branch_sla_rules').select('description').where('uuid', '=', ruleUuid).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** The hazard of a job of the agency, with what its messages show (docs/compliance.md "Hazards and statutory clocks"). */
export function loadHazard(db: DbOrTrx, agencyId: number, jobId: number) {
  return db
    .selectFrom('job_hazards as h')
    .leftJoin('hazard_clocks as ws', (j) => j.onRef('ws.hazard_id', '=', 'h.id').on('ws.kind', '=', 'works_start'))
    .leftJoin('hazard_clocks as fw', (j) => j.onRef('fw.hazard_id', '=', 'h.id').on('fw.kind', '=', 'further_works_start'))
    .select([
      'h.category', 'h.severity', 'h.investigated_at', 'h.summary_findings', 'h.summary_actions',
      'ws.due_at as works_start_due', 'fw.due_at as further_works_due',
    ])
    .where('h.job_id', '=', jobId)
    .where('h.agency_id', '=', agencyId)
    .executeTakeFirst();
}

/** A compliance item of the agency with its type name, property and branch (reminders before expiry). */
export function loadComplianceItem(db: DbOrTrx, agencyId: number, itemId: number) {
  return db
    .selectFrom('compliance_items as i')
    .innerJoin('compliance_item_types as t', 't.id', 'i.type_id')
    .innerJoin('addresses as a', 'a.id', 'i.address_id')
    .innerJoin('agencies as ag', 'ag.id', 'i.agency_id')
    .select(['i.uuid', 'i.address_id', 't.name as type_name', 'a.line1', 'a.town', 'a.postcode', 'a.branch_id', 'ag.name as agency_name'])
    .where('i.id', '=', itemId)
    .where('i.agency_id', '=', agencyId)
    .executeTakeFirst();
}

/** The landlords of a property of the agency (not erased), by id. */
export function landlordsOfAddress(db: DbOrTrx, agencyId: number, addressId: number) {
  return db
    .selectFrom('landlord_properties as lp')
    .innerJoin('landlords as l', 'l.id', 'lp.landlord_id')
    .select(['l.id', 'l.name', 'l.email'])
    .where('lp.address_id', '=', addressId)
    .where('l.agency_id', '=', agencyId)
    .where('l.erased_at', 'is', null)
    .orderBy('l.id')
    .execute();
}
