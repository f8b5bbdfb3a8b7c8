/** SQL of the GDPR erasure of a tenant (docs/gdpr.md); the rules and the scrubbing are in erasure.service.ts. */
import { sql } from 'kysely';
import { likeEscape } from '../../../db/text-match.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** Jobs of the agency whose title or description contains one of `texts` (case-insensitive). */
export function jobsContaining(db: DbOrTrx, agencyId: number, texts: string[]) {
  const any = (col: 'j.title' | 'j.description') => (eb: any) => eb.or(texts.map((t) => eb(col, 'ilike', `%${likeEscape(t)}%`)));
  return db.selectFrom('jobs as j').select(['j.id', 'j.title', 'j.description']).where('j.agency_id', '=', agencyId)
    .where((eb) => eb.or([any('j.title')(eb), any('j.description')(eb)])).execute();
}

/** Sets a job's title and description. */
export async function setJobText(db: DbOrTrx, id: number, title: string, description: string): Promise<void> {
  await db.updateTable('jobs').set({ title, description }).where('id', '=', id).execute();
}

/** Hazards of the agency's jobs whose description, summary or kept copy contains one of `texts` (case-insensitive). */
export function hazardsContaining(db: DbOrTrx, agencyId: number, texts: string[]) {
  const cols = ['h.description', 'h.summary_findings', 'h.summary_actions', 'h.summary_text'] as const;
  return db.selectFrom('job_hazards as h').select(['h.id', 'h.description', 'h.summary_findings', 'h.summary_actions', 'h.summary_text'])
    .where('h.agency_id', '=', agencyId)
    .where((eb) => eb.or(cols.flatMap((c) => texts.map((t) => eb(c, 'ilike', `%${likeEscape(t)}%`))))).execute();
}

/** Sets the texts of a hazard. */
export async function setHazardTexts(db: DbOrTrx, id: number, set: { description: string; summary_findings: string | null; summary_actions: string | null; summary_text: string | null }): Promise<void> {
  await db.updateTable('job_hazards').set(set).where('id', '=', id).execute();
}

/** Notes on the agency's jobs whose body contains one of `texts` (case-insensitive). */
export function notesContaining(db: DbOrTrx, agencyId: number, texts: string[]) {
  return db.selectFrom('job_notes as n').innerJoin('jobs as j', 'j.id', 'n.job_id').select(['n.id', 'n.body'])
    .where('j.agency_id', '=', agencyId).where((eb) => eb.or(texts.map((t) => eb('n.body', 'ilike', `%${likeEscape(t)}%`)))).execute();
}

/** Sets a note's body. */
export async function setNoteBody(db: DbOrTrx, id: number, body: string): Promise<void> {
  await db.updateTable('job_notes').set({ body }).where('id', '=', id).execute();
}

/** Documents served on the agency's tenancies whose proof note contains one of `texts` (case-insensitive). */
export function proofNotesContaining(db: DbOrTrx, agencyId: number, texts: string[]) {
  return db.selectFrom('tenancy_served_documents').select(['id', 'proof_note'])
    .where('agency_id', '=', agencyId).where((eb) => eb.or(texts.map((t) => eb('proof_note', 'ilike', `%${likeEscape(t)}%`)))).execute();
}

/** Sets a served document's proof note (the service itself, its date and method stay: the landlord's evidence). */
export async function setProofNote(db: DbOrTrx, id: number, proofNote: string): Promise<void> {
  await db.updateTable('tenancy_served_documents').set({ proof_note: proofNote }).where('id', '=', id).execute();
}

/** Conversation messages on the agency's jobs whose body contains one of `texts` (case-insensitive). */
export function messagesContaining(db: DbOrTrx, agencyId: number, texts: string[]) {
  return db.selectFrom('conversation_messages').select(['id', 'body'])
    .where('agency_id', '=', agencyId).where((eb) => eb.or(texts.map((t) => eb('body', 'ilike', `%${likeEscape(t)}%`)))).execute();
}

/** Sets a conversation message's body. */
export async function setMessageBody(db: DbOrTrx, id: number, body: string): Promise<void> {
  await db.updateTable('conversation_messages').set({ body }).where('id', '=', id).execute();
}

/**
 * Renames the author of the tenant's own conversation messages (written signed in as one of
 * `userIds`, or by e-mail or SMS as `tenant:<id>`); returns the number of messages changed.
 */
export async function renameMessageAuthor(db: DbOrTrx, tenantId: number, userIds: number[], name: string): Promise<number> {
  const r = await db.updateTable('conversation_messages').set({ author_name: name })
    .where((eb) => eb.or([eb('author_key', '=', `tenant:${tenantId}`), ...(userIds.length ? [eb('author_user_id', 'in', userIds)] : [])]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Forgets the text and the number of the SMS sent to or received from `phones` (E.164) in the
 * agency (or with no agency, an inbound text not matched); the row stays for the agency's cost
 * counts. Returns the number of rows changed.
 */
export async function forgetSms(db: DbOrTrx, agencyId: number, phones: string[]): Promise<number> {
  if (phones.length === 0) return 0;
  const r = await db.updateTable('sms_messages').set({ body: null, to_number: '[erased]', from_number: null })
    .where((eb) => eb.or([eb('agency_id', '=', agencyId), eb('agency_id', 'is', null)]))
    .where((eb) => eb.or([eb('to_number', 'in', phones), eb('from_number', 'in', phones)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Renames the actor of a user's activity entries; returns the number of entries changed. */
export async function renameActivityUser(db: DbOrTrx, userId: number, userName: string): Promise<number> {
  const r = await db.updateTable('activity_log').set({ user_name: userName }).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Renames the actor of entries recorded under `lowerName` (a lower-cased e-mail); returns the count. */
export async function renameActivityName(db: DbOrTrx, lowerName: string, userName: string): Promise<number> {
  const r = await db.updateTable('activity_log').set({ user_name: userName }).where(sql`lower(user_name)`, '=', lowerName).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Entries of the agency or of the users whose details (as JSON text) contain one of `jsonTexts`. */
export function activityDetailsContaining(db: DbOrTrx, agencyId: number, userIds: number[], jsonTexts: string[]) {
  return db.selectFrom('activity_log').select(['id', sql<string>`details::text`.as('details')])
    .where('details', 'is not', null)
    .where((eb) => eb.or([eb('agency_id', '=', agencyId), ...(userIds.length ? [eb('user_id', 'in', userIds)] : [])]))
    .where((eb) => eb.or(jsonTexts.map((t) => eb(sql`details::text`, 'ilike', `%${likeEscape(t)}%`))))
    .execute();
}

/** Replaces an entry's details with `detailsJson` (JSON text). */
export async function setActivityDetails(db: DbOrTrx, id: number, detailsJson: string): Promise<void> {
  await db.updateTable('activity_log').set({ details: detailsJson }).where('id', '=', id).execute();
}

/** Anonymises the tenant record: the new name, contact details and notes cleared, erased_at set. */
export async function anonymiseTenant(db: DbOrTrx, id: number, name: string, now: Date): Promise<void> {
  await db.updateTable('tenants').set({
    name, email: null, phone: null, mobile: null, preferred_contact: null, notes: null, erased_at: now, updated_at: now,
  }).where('id', '=', id).execute();
}

/** Removes the tenant's address links. */
export async function unlinkAddresses(db: DbOrTrx, tenantId: number): Promise<void> {
  await db.deleteFrom('tenant_addresses').where('tenant_id', '=', tenantId).execute();
}

/** Withdraws (source 'erasure') the consents in force of the tenant and of its user accounts. */
export async function withdrawConsents(db: DbOrTrx, tenantId: number, userIds: number[], now: Date): Promise<void> {
  await db.updateTable('gdpr_consents').set({ withdrawn_at: now, withdrawn_source: 'erasure' })
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId), ...(userIds.length ? [eb('user_id', 'in', userIds)] : [])]))
    .where('withdrawn_at', 'is', null).execute();
}

/** Anonymises and disables a user account and revokes its tokens. */
export async function anonymiseUser(
  db: DbOrTrx,
  user: { id: number; name: string; email: string; passwordHash: string; disabledAt: Date },
  now: Date,
): Promise<void> {
  await db.updateTable('users').set({
    name: user.name, email: user.email, password_hash: user.passwordHash, status: 'disabled', disabled_at: user.disabledAt, updated_at: now,
  }).where('id', '=', user.id).execute();
  await db.updateTable('auth_tokens').set({ revoked_at: now, revoked_reason: 'erased' }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
}

/**
 * A free-text column an erasure scrubs (docs/gdpr.md "Erasure"): its table, how a row belongs to
 * an agency (its own agency_id, or its job's or import's), whether it is JSON, and its key.
 */
export interface FreeTextColumn {
  table: string;
  column: string;
  owner: 'agency' | 'job' | 'import';
  json?: boolean;
  /** The key column when it is not `id` (import rows: import_id and row_number). */
  key?: string;
}

/** The free-text columns of other areas that can hold a person's name, e-mail or number. */
export const FREE_TEXT_COLUMNS: readonly FreeTextColumn[] = [
  { table: 'job_files', column: 'original_filename', owner: 'agency' },
  { table: 'job_files', column: 'description', owner: 'agency' },
  { table: 'message_deliveries', column: 'subject', owner: 'agency' },
  { table: 'message_deliveries', column: 'content', owner: 'agency', json: true },
  { table: 'notification_digest_items', column: 'line', owner: 'agency' },
  { table: 'tenant_reports', column: 'description', owner: 'agency' },
  { table: 'tenant_reports', column: 'answers', owner: 'agency', json: true },
  { table: 'job_surveys', column: 'comment', owner: 'agency' },
  { table: 'job_visits', column: 'missed_note', owner: 'agency' },
  { table: 'job_merges', column: 'note', owner: 'agency' },
  { table: 'job_recalls', column: 'reason', owner: 'agency', key: 'job_id' },
  { table: 'sms_messages', column: 'body', owner: 'agency' },
  { table: 'security_blacklist', column: 'reason', owner: 'agency' },
  { table: 'job_status_history', column: 'note', owner: 'job' },
  { table: 'import_rows', column: 'data', owner: 'import', json: true },
];

function ownerFilter(c: FreeTextColumn, agencyId: number) {
  if (c.owner === 'job') return sql`job_id in (select id from jobs where agency_id = ${agencyId})`;
  if (c.owner === 'import') return sql`import_id in (select id from imports where agency_id = ${agencyId})`;
  return sql`agency_id = ${agencyId}`;
}

/** A row's key: import rows have (import_id, row_number), every other table an id. */
const keyOf = (c: FreeTextColumn) => (c.table === 'import_rows' ? sql`import_id::text || ':' || row_number::text` : sql`${sql.ref(c.key ?? 'id')}::text`);

/** Rows of the agency whose column (as text) contains one of `texts` (case-insensitive), with that text. */
export async function rowsContaining(db: DbOrTrx, c: FreeTextColumn, agencyId: number, texts: string[]) {
  if (texts.length === 0) return [];
  const any = sql.join(texts.map((t) => sql`${sql.ref(c.column)}::text ilike ${`%${likeEscape(t)}%`}`), sql` or `);
  const r = await sql<{ key: string; value: string }>`select ${keyOf(c)} as key, ${sql.ref(c.column)}::text as value from ${sql.table(c.table)}
    where ${ownerFilter(c, agencyId)} and (${any})`.execute(db);
  return r.rows;
}

/** Writes a scrubbed value (JSON text for a JSON column) into one row. */
export async function setFreeText(db: DbOrTrx, c: FreeTextColumn, key: string, value: string): Promise<void> {
  const v = c.json ? sql`${value}::jsonb` : sql`${value}`;
  if (c.table === 'import_rows') {
    const [importId, row] = key.split(':').map(Number);
    await sql`update import_rows set data = ${v} where import_id = ${importId} and row_number = ${row}`.execute(db);
  } else {
    await sql`update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${v} where ${sql.ref(c.key ?? 'id')} = ${Number(key)}`.execute(db);
  }
}

/** The delivery log forgets where and what it sent the person (address, subject, content); returns the rows changed. */
export async function forgetDeliveries(db: DbOrTrx, agencyId: number, tenantId: number, userIds: number[]): Promise<number> {
  const r = await db.updateTable('message_deliveries').set({ recipient_address: null, subject: null, content: null })
    .where('agency_id', '=', agencyId)
    .where((eb) => eb.or([eb('recipient_key', '=', `tenant:${tenantId}`), ...(userIds.length ? [eb('recipient_user_id', 'in', userIds)] : [])]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The files the person's accounts uploaded (not deleted yet). */
export function filesUploadedBy(db: DbOrTrx, userIds: number[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('job_files').select(['id', 'storage_key', 'ext']).where('uploaded_by_user_id', 'in', userIds).where('deleted_at', 'is', null).execute();
}

/** A file deleted by an erasure: its name and caption go with it. */
export async function eraseFileRow(db: DbOrTrx, id: number, ext: string, now: Date): Promise<void> {
  await db.updateTable('job_files').set({ original_filename: `erased.${ext}`, description: null, deleted_at: now, deleted_by_user_id: null, integrity: 'missing' }).where('id', '=', id).execute();
}

/** The hazards of jobs naming the person (or reported by their accounts) whose written summary was sent. */
export function hazardSummariesOf(db: DbOrTrx, tenantId: number, userIds: number[]) {
  return db.selectFrom('job_hazards as h').innerJoin('jobs as j', 'j.id', 'h.job_id').select(['h.id', 'h.summary_sent_at'])
    .where('h.summary_sent_at', 'is not', null).where('h.summary_text', 'is not', null)
    .where((eb) => eb.or([eb('j.tenant_id', '=', tenantId), ...(userIds.length ? [eb('j.reported_by_user_id', 'in', userIds)] : [])]))
    .orderBy('h.id').execute();
}

/** Removes the exemptions of the person's report (their reasons may name them). */
export async function deleteExemptionsOf(db: DbOrTrx, tenantId: number): Promise<void> {
  await db.deleteFrom('gdpr_exemptions').where('tenant_id', '=', tenantId).execute();
}
