/** SQL gathering what is held about a tenant, for the subject-access report and erasure (docs/gdpr.md). */
import { sql } from 'kysely';
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

/**
 * Notes on the given jobs: every note (internal ones too) on `aboutIds` (jobs naming the person or
 * reported by them), the notes shared with tenants (visibility tenant or both) on `sharedIds` (jobs
 * only at their address, perhaps before their tenancy).
 */
export function notesOf(db: DbOrTrx, aboutIds: number[], sharedIds: number[]) {
  if (aboutIds.length === 0 && sharedIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('job_notes as n').innerJoin('jobs as j', 'j.id', 'n.job_id').leftJoin('users as u', 'u.id', 'n.author_user_id')
    .select(['n.uuid', 'j.uuid as job_uuid', 'j.reference as job_reference', 'n.body', 'n.visibility', 'u.name as author', 'n.created_at', 'n.edited_at'])
    .where((eb) => eb.or([
      ...(aboutIds.length ? [eb('n.job_id', 'in', aboutIds)] : []),
      ...(sharedIds.length ? [eb.and([eb('n.job_id', 'in', sharedIds), eb('n.visibility', 'in', ['tenant', 'both'])])] : []),
    ]))
    .orderBy('n.created_at').orderBy('n.id').execute();
}

/**
 * Photos and documents of the given jobs (not deleted), and every file the person's accounts
 * uploaded in the agency; the storage key is for the zip only.
 */
export function filesOf(db: DbOrTrx, agencyId: number, jobIds: number[], userIds: number[]) {
  if (jobIds.length === 0 && userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('job_files as f').innerJoin('jobs as j', 'j.id', 'f.job_id')
    .select(['f.id', 'f.uuid', 'j.uuid as job_uuid', 'j.reference as job_reference', 'f.kind', 'f.original_filename', 'f.description', 'f.mime',
      'f.size_bytes', 'f.sha256', 'f.internal', 'f.uploaded_by_user_id', 'f.storage_key', 'f.created_at'])
    .where('f.agency_id', '=', agencyId).where('f.deleted_at', 'is', null)
    .where((eb) => eb.or([
      ...(jobIds.length ? [eb('f.job_id', 'in', jobIds)] : []),
      ...(userIds.length ? [eb('f.uploaded_by_user_id', 'in', userIds)] : []),
    ]))
    .orderBy('f.created_at').orderBy('f.id').execute();
}

/** Every message written to the person in the agency on any channel (the delivery log under their key or accounts), oldest first. */
export function deliveriesTo(db: DbOrTrx, agencyId: number, recipientKey: string, userIds: number[]) {
  return db.selectFrom('message_deliveries')
    .select(['uuid', 'event_name', 'template_key', 'channel', 'recipient_address', 'status', 'reason', 'subject', 'attempts', 'created_at', 'sent_at'])
    .where('agency_id', '=', agencyId)
    .where((eb) => eb.or([eb('recipient_key', '=', recipientKey), ...(userIds.length ? [eb('recipient_user_id', 'in', userIds)] : [])]))
    .orderBy('created_at').orderBy('id').execute();
}

/** The hazards (Awaab's Law) of the given jobs with their statutory clocks. */
export async function hazardsOf(db: DbOrTrx, jobIds: number[]) {
  if (jobIds.length === 0) return { hazards: [], clocks: [] };
  const hazards = await db.selectFrom('job_hazards as h').innerJoin('jobs as j', 'j.id', 'h.job_id')
    .select(['h.id', 'h.uuid', 'j.uuid as job_uuid', 'j.reference as job_reference', 'h.category', 'h.severity', 'h.description', 'h.reported_at',
      'h.awareness_reason', 'h.scope', 'h.made_safe_at', 'h.investigated_at', 'h.works_started_at', 'h.works_completed_at', 'h.summary_findings',
      'h.summary_actions', 'h.summary_text', 'h.summary_sent_at', 'h.summary_delivered_at', 'h.summary_delivery_method', 'h.created_at'])
    .where('h.job_id', 'in', jobIds).orderBy('h.created_at').orderBy('h.id').execute();
  const clocks = hazards.length === 0 ? [] : await db.selectFrom('hazard_clocks').select(['hazard_id', 'kind', 'state', 'started_at', 'due_at', 'stopped_at', 'breached_at'])
    .where('hazard_id', 'in', hazards.map((h) => h.id)).orderBy('id').execute();
  return { hazards, clocks };
}

/** The visit windows offered, the visits booked and the booking links sent, of the given jobs. */
export async function visitsOf(db: DbOrTrx, tenantId: number, jobIds: number[]) {
  const windows = jobIds.length === 0 ? [] : await db.selectFrom('job_visit_windows as w').innerJoin('jobs as j', 'j.id', 'w.job_id')
    .select(['w.uuid', 'j.reference as job_reference', 'w.starts_at', 'w.ends_at', 'w.given_by', 'w.created_at'])
    .where('w.job_id', 'in', jobIds).orderBy('w.created_at').orderBy('w.id').execute();
  const visits = jobIds.length === 0 ? [] : await db.selectFrom('job_visits as v').innerJoin('jobs as j', 'j.id', 'v.job_id')
    .select(['v.uuid', 'j.reference as job_reference', 'v.starts_at', 'v.ends_at', 'v.booked_by', 'v.state', 'v.missed_by', 'v.missed_note', 'v.created_at'])
    .where('v.job_id', 'in', jobIds).orderBy('v.created_at').orderBy('v.id').execute();
  const links = await db.selectFrom('visit_links as l').innerJoin('jobs as j', 'j.id', 'l.job_id')
    .select(['l.uuid', 'j.reference as job_reference', 'l.expires_at', 'l.used_at', 'l.used_action', 'l.created_at'])
    .where('l.tenant_id', '=', tenantId).orderBy('l.created_at').orderBy('l.id').execute();
  return { windows, visits, links };
}

/** The tenancies the person is a tenant on (their property, dates and kind) and the documents served on them (what, when, how, the proof). */
export async function tenanciesOf(db: DbOrTrx, tenantId: number) {
  const tenancies = await db.selectFrom('tenancies as y').innerJoin('tenancy_tenants as tt', 'tt.tenancy_id', 'y.id').innerJoin('addresses as a', 'a.id', 'y.address_id')
    .select(['y.id', 'y.uuid', 'y.kind', 'y.starts_on', 'y.ends_on', 'y.created_at', 'a.line1', 'a.town', 'a.postcode'])
    .where('tt.tenant_id', '=', tenantId).orderBy('y.starts_on').orderBy('y.id').execute();
  const served = tenancies.length === 0 ? [] : await db.selectFrom('tenancy_served_documents as d')
    .select(['d.uuid', 'd.tenancy_id', 'd.document', 'd.guide_edition', 'd.served_on', 'd.method', 'd.proof_note', 'd.proof_file_mime', 'd.created_at'])
    .where('d.tenancy_id', 'in', tenancies.map((y) => y.id)).orderBy('d.served_on').orderBy('d.id').execute();
  return { tenancies, served };
}

/** The guided repair reports (answers and outcome) and satisfaction surveys of the person. */
export async function reportsAndSurveys(db: DbOrTrx, tenantId: number, userIds: number[]) {
  const reports = await db.selectFrom('tenant_reports as r').leftJoin('jobs as j', 'j.id', 'r.job_id')
    .select(['r.uuid', 'j.reference as job_reference', 'r.answers', 'r.outcome', 'r.description', 'r.created_at'])
    .where((eb) => eb.or([eb('r.tenant_id', '=', tenantId), ...(userIds.length ? [eb('r.reported_by_user_id', 'in', userIds)] : [])]))
    .orderBy('r.created_at').orderBy('r.id').execute();
  const surveys = await db.selectFrom('job_surveys as s').innerJoin('jobs as j', 'j.id', 's.job_id')
    .select(['s.uuid', 'j.reference as job_reference', 's.rating', 's.comment', 's.answered_at', 's.expires_at', 's.created_at'])
    .where('s.tenant_id', '=', tenantId).orderBy('s.created_at').orderBy('s.id').execute();
  return { reports, surveys };
}

/**
 * What the person's accounts hold: notification preferences, digest lines waiting or sent,
 * notices read, push devices (platform only), and every sign-in (session or token) with its
 * address and browser; the second factors (authenticator app, recovery codes, passkeys) and the
 * sign-in challenges of the accounts, when made and used; never a token, secret, hash or key.
 */
export async function accountRecords(db: DbOrTrx, userIds: number[]) {
  if (userIds.length === 0) return { preferences: [], digest: [], notices: [], devices: [], sessions: [], threadsRead: [], appearance: [], blocks: [], totp: [], recoveryCodes: [], passkeys: [], challenges: [] };
  const [preferences, digest, notices, devices, sessions, threadsRead, appearance, blocks, totp, recoveryCodes, passkeys, challenges] = await Promise.all([
    db.selectFrom('notification_preferences').select(['template_key', 'channel', 'enabled', 'mode', 'updated_at']).where('user_id', 'in', userIds)
      .orderBy('template_key').orderBy('channel').execute(),
    db.selectFrom('notification_digest_items').select(['template_key', 'line', 'created_at', 'sent_at']).where('user_id', 'in', userIds).orderBy('id').execute(),
    db.selectFrom('notice_reads as r').innerJoin('notices as n', 'n.id', 'r.notice_id').select(['n.uuid', 'n.title', 'r.read_at'])
      .where('r.user_id', 'in', userIds).orderBy('r.read_at').execute(),
    db.selectFrom('device_tokens').select(['platform', 'registered_at']).where('user_id', 'in', userIds).orderBy('id').execute(),
    db.selectFrom('auth_tokens').select(['kind', 'created_at', 'last_used_at', 'expires_at', 'revoked_at', 'revoked_reason', 'ip_address', 'user_agent'])
      .where('user_id', 'in', userIds).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('conversation_reads as r').innerJoin('jobs as j', 'j.id', 'r.job_id').select(['j.reference as job_reference', 'r.audience', 'r.read_at'])
      .where('r.user_id', 'in', userIds).orderBy('r.read_at').execute(),
    db.selectFrom('user_appearance').select(['dashboard_bg_custom', 'banner_mime', 'banner_size', 'banner_uploaded_at', 'updated_at']).where('user_id', 'in', userIds).execute(),
    db.selectFrom('security_blacklist').select(['uuid', 'reason', 'automatic', 'created_at', 'expires_at', 'removed_at']).where('user_id', 'in', userIds).orderBy('id').execute(),
    db.selectFrom('user_totp').select(['created_at', 'confirmed_at']).where('user_id', 'in', userIds).execute(),
    db.selectFrom('user_recovery_codes').select(['created_at', 'used_at']).where('user_id', 'in', userIds).orderBy('id').execute(),
    db.selectFrom('user_passkeys').select(['uuid', 'name', 'created_at', 'last_used_at']).where('user_id', 'in', userIds).orderBy('id').execute(),
    db.selectFrom('auth_challenges').select(['purpose', 'created_at', 'expires_at']).where('user_id', 'in', userIds).orderBy('id').execute(),
  ]);
  return { preferences, digest, notices, devices, sessions, threadsRead, appearance, blocks, totp, recoveryCodes, passkeys, challenges };
}

/** The status moves of the given jobs (who moved them, when, with which note), oldest first. */
export function statusHistoryOf(db: DbOrTrx, jobIds: number[]) {
  if (jobIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('job_status_history as h').innerJoin('jobs as j', 'j.id', 'h.job_id')
    .leftJoin('job_statuses as f', 'f.id', 'h.from_status_id').innerJoin('job_statuses as t', 't.id', 'h.to_status_id').leftJoin('users as u', 'u.id', 'h.by_user_id')
    .select(['h.id', 'h.job_id', 'j.reference as job_reference', 'f.name as from_status', 't.name as to_status', 'u.name as by', 'h.by_user_id', 'h.note', 'h.created_at'])
    .where('h.job_id', 'in', jobIds).orderBy('h.created_at').orderBy('h.id').execute();
}

/** The exemptions applied to the tenant's report, oldest first. */
export function exemptionsOf(db: DbOrTrx, tenantId: number) {
  return db.selectFrom('gdpr_exemptions as e').leftJoin('users as u', 'u.id', 'e.by_user_id')
    .select(['e.uuid', 'e.section', 'e.record_ref', 'e.ground', 'e.reason', 'u.name as applied_by', 'e.created_at'])
    .where('e.tenant_id', '=', tenantId).orderBy('e.created_at').orderBy('e.id').execute();
}

/** Records an exemption; false when the item already has one. */
export async function insertExemption(db: DbOrTrx, row: { uuid: string; agency_id: number; tenant_id: number; section: string; record_ref: string; ground: string; reason: string; by_user_id: number | null; created_at: Date }): Promise<boolean> {
  const r = await db.insertInto('gdpr_exemptions').values(row).onConflict((oc) => oc.columns(['tenant_id', 'section', 'record_ref']).doNothing()).returning('id').execute();
  return r.length > 0;
}

/** Removes an exemption of the tenant; false when there is none with that uuid. */
export async function deleteExemption(db: DbOrTrx, tenantId: number, uuid: string): Promise<boolean> {
  const r = await db.deleteFrom('gdpr_exemptions').where('tenant_id', '=', tenantId).where('uuid', '=', uuid).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The records an erasure kept for a stated retention, with their end. */
export function retainedOf(db: DbOrTrx, subjectType: 'tenant' | 'landlord', subjectId: number) {
  return db.selectFrom('gdpr_retained').select(['record_kind', 'table_name', 'record_id', sql<string>`retained_until::text`.as('retained_until'), 'released_at'])
    .where('subject_type', '=', subjectType).where('subject_id', '=', subjectId).orderBy('id').execute();
}

/**
 * Activity entries about the tenant (resource tenant/id), about the jobs naming them (`jobIds`),
 * or by their login users, oldest first.
 */
export function activityOfTenant(db: DbOrTrx, tenantId: number, userIds: number[], jobIds: number[] = []) {
  return db.selectFrom('activity_log')
    .select(['id', 'action', 'resource_type', 'resource_id', 'user_name', 'ip_address', 'details', 'created_at'])
    .where((eb) => eb.or([
      eb.and([eb('resource_type', '=', 'tenant'), eb('resource_id', '=', tenantId)]),
      ...(jobIds.length ? [eb.and([eb('resource_type', '=', 'job'), eb('resource_id', 'in', jobIds)])] : []),
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
 * thread: every thread of a job naming the tenant (internal and contractor threads too: they are about
 * the person; an exemption withholds an item, docs/gdpr.md "Exemptions"), the landlord thread of a job at a property
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
        ? eb('j.tenant_id', '=', who.tenantId)
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
