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
