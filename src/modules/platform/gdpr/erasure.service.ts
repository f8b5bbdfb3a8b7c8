/**
 * GDPR erasure of a tenant (docs/gdpr.md): anonymises the person for good while jobs and the
 * activity log keep their shape. The tenant's name becomes "Erased tenant 4f2a", contact details
 * and notes are cleared, address links removed, consents in force withdrawn; their login
 * accounts are disabled, anonymised and their tokens revoked; their name, e-mail and phone
 * numbers are scrubbed from the agency's job titles, descriptions and notes and from activity
 * entries. Refused (409) while an open job needs them, unless an administrator sends force.
 * Logged as `tenant.erase` without the name.
 */
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { normalisePhone } from '../../messaging/sms/index.ts';
import { getTenantRow } from '../../people/tenants/index.ts';
import * as repo from './erasure.repository.ts';
import { emitEvent } from '../../../events/index.ts';
import { openJobCount, usersOfTenant } from './report.repository.ts';
import { insertRetained } from './retention.repository.ts';
import { retentionMonths } from './retention.service.ts';
import { retentionKind } from './retention.ts';
import { addMonths, londonDate } from '../../../lib/london-time.ts';

export interface ErasureResult {
  uuid: string;
  name: string;
  erased_at: string;
  forced: boolean;
  open_jobs: number;
  users_disabled: number;
  jobs_scrubbed: number;
  notes_scrubbed: number;
  activity_scrubbed: number;
  other_scrubbed: number;
  /** Records kept (restricted, not scrubbed) because a stated retention requires them. */
  retained: RetainedGroup[];
  copies: { mail_files_removed: number; files_removed: number; files_renamed: number; backups: string };
}

/** Records of one kind an erasure kept, and until when. */
export interface RetainedGroup {
  record_kind: string;
  table: string;
  records: number;
  retained_until: string;
  ground: string;
}

/** What an erasure says about copies in backups (docs/gdpr.md "Erasure": backups by expiry). */
export const BACKUP_NOTE = 'Backups taken before the erasure still hold the person until they expire (docs/gdpr.md "Backups"); a restore repeats the erasures logged since the backup.';

export interface Term {
  text: string;
  replacement: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces every case-insensitive occurrence of each term. */
export function scrubText(value: string, terms: Term[]): string {
  let out = value;
  for (const t of terms) out = out.replace(new RegExp(escapeRe(t.text), 'gi'), t.replacement);
  return out;
}

/** True when the caller may force an erasure: an administrator (Admin or SysOps). */
function isAdministrator(auth: AuthContext): boolean {
  return auth.roleCode === 'admin' || auth.roleCode === 'sysops';
}

/**
 * Scrubs the terms from the agency's job titles, descriptions and notes, and from the texts of job
 * hazards (description, written summary and its kept copy), the proof notes of documents served on
 * tenancies (the service itself stays: the landlord's evidence); returns the counts (a hazard counts
 * with the jobs).
 */
export async function scrubJobTexts(trx: DbOrTrx, agencyId: number, terms: Term[], keepSummaryOf: ReadonlySet<number> = new Set()) {
  const texts = terms.map((t) => t.text);
  const jobs = await repo.jobsContaining(trx, agencyId, texts);
  for (const j of jobs) await repo.setJobText(trx, j.id, scrubText(j.title, terms), scrubText(j.description, terms));
  const hazards = await repo.hazardsContaining(trx, agencyId, texts);
  for (const h of hazards) {
    const scrub = (v: string | null) => (v === null ? null : scrubText(v, terms));
    // A summary kept for its retention keeps its words (restricted: docs/gdpr.md "Erasure").
    const summaryText = keepSummaryOf.has(h.id) ? h.summary_text : scrub(h.summary_text);
    await repo.setHazardTexts(trx, h.id, { description: scrubText(h.description, terms), summary_findings: scrub(h.summary_findings), summary_actions: scrub(h.summary_actions), summary_text: summaryText });
  }
  const notes = await repo.notesContaining(trx, agencyId, texts);
  for (const n of notes) await repo.setNoteBody(trx, n.id, scrubText(n.body, terms));
  // Conversation messages count as notes (docs/conversations.md: the notes are shown in threads).
  const messages = await repo.messagesContaining(trx, agencyId, texts);
  for (const m of messages) await repo.setMessageBody(trx, m.id, scrubText(m.body, terms));
  const proofs = await repo.proofNotesContaining(trx, agencyId, texts);
  for (const p of proofs) await repo.setProofNote(trx, p.id, scrubText(p.proof_note ?? '', terms));
  return { jobs: jobs.length + hazards.length, notes: notes.length + messages.length };
}

/**
 * Scrubs the terms from the free-text columns of other areas (FREE_TEXT_COLUMNS: file names and
 * captions, message subjects, digest lines, guided reports, surveys, visit notes, status notes,
 * SMS bodies, imports kept on the server); returns the rows changed.
 */
export async function scrubFreeText(trx: DbOrTrx, agencyId: number, terms: Term[]): Promise<{ rows: number; filesRenamed: number }> {
  const jsonTerms = terms.map((t) => ({ text: JSON.stringify(t.text).slice(1, -1), replacement: JSON.stringify(t.replacement).slice(1, -1) }));
  let rows = 0;
  let filesRenamed = 0;
  for (const c of repo.FREE_TEXT_COLUMNS) {
    const use = c.json ? jsonTerms : terms;
    for (const r of await repo.rowsContaining(trx, c, agencyId, use.map((t) => t.text))) {
      const next = scrubText(r.value, use);
      if (next === r.value) continue;
      await repo.setFreeText(trx, c, r.key, next);
      rows += 1;
      if (c.table === 'job_files') filesRenamed += 1;
    }
  }
  return { rows, filesRenamed };
}

async function scrubActivity(trx: DbOrTrx, agencyId: number, userIds: number[], terms: Term[], userName: (id: number) => string, email: string | null) {
  let count = 0;
  for (const id of userIds) count += await repo.renameActivityUser(trx, id, userName(id));
  const emails = [email, ...terms.map((t) => t.text).filter((t) => t.includes('@'))].filter((e): e is string => !!e);
  for (const e of new Set(emails.map((x) => x.toLowerCase()))) count += await repo.renameActivityName(trx, e, '[erased]');
  const rows = await repo.activityDetailsContaining(trx, agencyId, userIds, terms.map((t) => JSON.stringify(t.text).slice(1, -1)));
  const jsonTerms = terms.map((t) => ({ text: JSON.stringify(t.text).slice(1, -1), replacement: JSON.stringify(t.replacement).slice(1, -1) }));
  for (const r of rows) await repo.setActivityDetails(trx, r.id, scrubText(r.details, jsonTerms));
  return count + rows.length;
}

/**
 * POST /api/tenants/{uuid}/erase.
 * @param force erase although open jobs need the tenant (administrators only)
 * @returns what was done (no personal data)
 * @throws 404 tenant, 409 already erased or open jobs without force, 403 force by a
 *   non-administrator
 */
export async function eraseTenant(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, force: boolean): Promise<ErasureResult> {
  const tenant = await getTenantRow(deps.db, auth, uuid);
  if (tenant.erased_at !== null) throw conflict('Tenant has already been erased');
  const users = await usersOfTenant(deps.db, tenant.id);
  const userIds = users.map((u) => u.id);
  const open = await openJobCount(deps.db, tenant.id, userIds);
  if (open > 0 && !force) {
    throw conflict(`Tenant has ${open} open job${open === 1 ? '' : 's'}; close ${open === 1 ? 'it' : 'them'} first, or an administrator may send force: true`);
  }
  if (force && open > 0 && !isAdministrator(auth)) throw forbidden('Only an administrator may force an erasure');

  const now = deps.clock.now();
  const tag = tenant.uuid.replace(/-/g, '').slice(0, 4);
  const newName = `Erased tenant ${tag}`;
  const terms: Term[] = [];
  const addTerm = (text: string | null | undefined, replacement: string) => {
    const v = text?.trim();
    if (v && v.length >= 3 && !terms.some((t) => t.text.toLowerCase() === v.toLowerCase())) terms.push({ text: v, replacement });
  };
  addTerm(tenant.name, newName);
  for (const u of users) addTerm(u.name, newName);
  addTerm(tenant.email, '[erased e-mail]');
  for (const u of users) addTerm(u.email, '[erased e-mail]');
  addTerm(tenant.phone, '[erased phone]');
  addTerm(tenant.mobile, '[erased phone]');
  terms.sort((a, b) => b.text.length - a.text.length);

  // A written summary of a hazard is the evidence that the statutory duty was met: it is kept,
  // restricted, for the agency's hazard_records period from its sending (docs/gdpr.md "Retention").
  const today = londonDate(now);
  const hazardMonths = await retentionMonths(deps.db, tenant.agency_id, 'hazard_records');
  const summaries = (await repo.hazardSummariesOf(deps.db, tenant.id, userIds))
    .map((h) => ({ id: h.id, until: addMonths(londonDate(h.summary_sent_at!), hazardMonths) }))
    .filter((h) => h.until > today);
  const uploaded = await repo.filesUploadedBy(deps.db, userIds);

  const erased = await changeIdentity(deps, async (trx) => {
    await repo.anonymiseTenant(trx, tenant.id, newName, now);
    await repo.unlinkAddresses(trx, tenant.id);
    await repo.withdrawConsents(trx, tenant.id, userIds, now);
    await repo.deleteExemptionsOf(trx, tenant.id);
    const userName = (id: number) => `Erased user ${users.find((u) => u.id === id)!.uuid.replace(/-/g, '').slice(0, 4)}`;
    for (const u of users) {
      await repo.anonymiseUser(
        trx,
        { id: u.id, name: userName(u.id), email: `erased-${u.uuid}@erased.invalid`, passwordHash: `!erased:${randomBytes(16).toString('hex')}`, disabledAt: u.disabled_at ?? now },
        now,
      );
    }
    const keep = new Set(summaries.map((h) => h.id));
    const scrubbed = terms.length ? await scrubJobTexts(trx, tenant.agency_id, terms, keep) : { jobs: 0, notes: 0 };
    // The tenant's own messages keep their words (scrubbed above) under the new name; the SMS log
    // forgets the texts and the number (docs/conversations.md "Erasure").
    await repo.renameMessageAuthor(trx, tenant.id, userIds, newName);
    const phones = [...new Set([tenant.phone, tenant.mobile].map((p) => normalisePhone(p)).filter((p): p is string => p !== null))];
    await repo.forgetSms(trx, tenant.agency_id, phones);
    const forgotten = await repo.forgetDeliveries(trx, tenant.agency_id, tenant.id, userIds);
    // The files they sent go, with their names and captions; the bytes after the commit.
    for (const f of uploaded) await repo.eraseFileRow(trx, f.id, f.ext, now);
    const other = terms.length ? await scrubFreeText(trx, tenant.agency_id, terms) : { rows: 0, filesRenamed: 0 };
    await insertRetained(trx, summaries.map((h) => ({
      agency_id: tenant.agency_id, subject_type: 'tenant' as const, subject_id: tenant.id, record_kind: 'hazard_records', table_name: 'job_hazards', record_id: h.id,
      retained_until: h.until, created_at: now,
    })));
    const activity = await scrubActivity(trx, tenant.agency_id, userIds, terms, userName, tenant.email);
    const hazardKind = retentionKind('hazard_records')!;
    const byUntil = new Map<string, number>();
    for (const h of summaries) byUntil.set(h.until, (byUntil.get(h.until) ?? 0) + 1);
    const result: ErasureResult = {
      uuid: tenant.uuid, name: newName, erased_at: now.toISOString(), forced: force && open > 0, open_jobs: open,
      users_disabled: users.length, jobs_scrubbed: scrubbed.jobs, notes_scrubbed: scrubbed.notes, activity_scrubbed: activity,
      other_scrubbed: other.rows + forgotten,
      retained: [...byUntil].sort(([a], [b]) => a.localeCompare(b)).map(([until, records]) => ({
        record_kind: 'hazard_records', table: 'job_hazards.summary_text', records, retained_until: until,
        ground: `the written summary of a hazard as given to the tenant (SI 2025/1042 reg. 9), kept restricted for ${hazardMonths} months: ${hazardKind.source}`,
      })),
      copies: { mail_files_removed: 0, files_removed: uploaded.length, files_renamed: other.filesRenamed, backups: BACKUP_NOTE },
    };
    const { uuid: _u, name: _n, erased_at: _e, retained: _r, copies: _c, ...facts } = result;
    await recordActivity(trx, actor, now, { action: 'tenant.erase', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: facts });
    await emitEvent(trx, now, { name: 'tenant.erased', agencyId: tenant.agency_id, payload: { tenant_id: tenant.id } });
    return result;
  });
  // Copies outside the database: the bytes of the files they sent, the e-mails in the mail folder.
  for (const f of uploaded) await deps.files.delete(f.storage_key);
  erased.copies.mail_files_removed = await deps.mailer.forget(terms.filter((t) => t.replacement !== '[erased phone]').map((t) => t.text));
  return erased;
}
