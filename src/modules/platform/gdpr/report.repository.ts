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

/** Whose conversation messages and SMS: a tenant (their jobs' tenant threads) or a landlord (the landlord threads of jobs at their properties). */
export type Subject = { tenantId: number } | { landlordId: number };

/**
 * Conversation messages of one agency that the person wrote (from their login users, or by
 * e-mail or SMS under their `tenant:<id>` / `landlord:<id>` key) or that were written in their
 * thread: the tenant thread of a job naming the tenant, the landlord thread of a job at a property
 * the landlord owns. Oldest first; never the internal thread unless they wrote it.
 */
export function conversationMessagesOf(db: DbOrTrx, agencyId: number, who: Subject, userIds: number[]) {
  const authorKey = 'tenantId' in who ? `tenant:${who.tenantId}` : `landlord:${who.landlordId}`;
  return db.selectFrom('conversation_messages as m')
    .innerJoin('conversation_threads as t', 't.id', 'm.thread_id')
    .innerJoin('jobs as j', 'j.id', 'm.job_id')
    .select(['m.id', 'm.uuid', 'j.uuid as job_uuid', 'j.reference as job_reference', 't.audience', 'm.author_kind', 'm.author_name', 'm.author_user_id', 'm.author_key',
      'm.channel', 'm.body', 'm.urgent', 'm.created_at'])
    .where('m.agency_id', '=', agencyId)
    .where('t.agency_id', '=', agencyId)
    .where((eb) => eb.or([
      'tenantId' in who
        ? eb.and([eb('t.audience', '=', 'tenant'), eb('j.tenant_id', '=', who.tenantId)])
        : eb.and([eb('t.audience', '=', 'landlord'), eb('j.address_id', 'in', eb.selectFrom('landlord_properties as lp').select('lp.address_id').where('lp.landlord_id', '=', who.landlordId))]),
      ...(userIds.length ? [eb('m.author_user_id', 'in', userIds)] : []),
      eb('m.author_key', '=', authorKey),
    ]))
    .orderBy('m.created_at').orderBy('m.id').execute();
}

/** Names of the files attached to the given conversation messages. */
export function messageFileNames(db: DbOrTrx, messageIds: number[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('conversation_message_files as mf').innerJoin('job_files as f', 'f.id', 'mf.file_id')
    .select(['mf.message_id', 'f.original_filename']).where('mf.message_id', 'in', messageIds).orderBy('f.id').execute();
}

/**
 * The SMS written to the person in one agency (the delivery log's SMS rows under their recipient
 * key, with the provider's status, segments and price when it was handed over), oldest first.
 */
export function smsSentTo(db: DbOrTrx, agencyId: number, recipientKey: string) {
  return db.selectFrom('message_deliveries as d')
    .leftJoin('sms_messages as s', (j) => j.onRef('s.delivery_id', '=', 'd.id').on('s.direction', '=', 'outbound'))
    .select(['d.id', 'd.uuid', 'd.template_key', 'd.recipient_address', 'd.status as delivery_status', 'd.reason', 'd.content', 'd.created_at', 'd.sent_at',
      's.uuid as sms_uuid', 's.from_number', 's.status as provider_status', 's.error_code', 's.segments', 's.price_micros', 's.price_currency', 's.updated_at'])
    .where('d.agency_id', '=', agencyId).where('d.channel', '=', 'sms').where('d.recipient_key', '=', recipientKey)
    .orderBy('d.created_at').orderBy('d.id').execute();
}

/** The SMS received from the person's numbers (E.164) that were matched to the agency, oldest first. */
export function smsReceivedFrom(db: DbOrTrx, agencyId: number, phones: string[]) {
  if (phones.length === 0) return Promise.resolve([]);
  return db.selectFrom('sms_messages')
    .select(['id', 'uuid', 'from_number', 'to_number', 'body', 'status', 'created_at'])
    .where('agency_id', '=', agencyId).where('direction', '=', 'inbound').where('from_number', 'in', phones)
    .orderBy('created_at').orderBy('id').execute();
}

/** The opt-outs (STOP replies) of the given numbers. */
export function optOutsOf(db: DbOrTrx, phones: string[]) {
  if (phones.length === 0) return Promise.resolve([]);
  return db.selectFrom('sms_opt_outs').select(['phone', 'keyword', 'opted_out_at']).where('phone', 'in', phones).orderBy('phone').execute();
}
