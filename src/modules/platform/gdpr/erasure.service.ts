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
}

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
 * hazards (description, written summary and its kept copy); returns the counts (a hazard counts
 * with the jobs).
 */
export async function scrubJobTexts(trx: DbOrTrx, agencyId: number, terms: Term[]) {
  const texts = terms.map((t) => t.text);
  const jobs = await repo.jobsContaining(trx, agencyId, texts);
  for (const j of jobs) await repo.setJobText(trx, j.id, scrubText(j.title, terms), scrubText(j.description, terms));
  const hazards = await repo.hazardsContaining(trx, agencyId, texts);
  for (const h of hazards) {
    const scrub = (v: string | null) => (v === null ? null : scrubText(v, terms));
    await repo.setHazardTexts(trx, h.id, { description: scrubText(h.description, terms), summary_findings: scrub(h.summary_findings), summary_actions: scrub(h.summary_actions), summary_text: scrub(h.summary_text) });
  }
  const notes = await repo.notesContaining(trx, agencyId, texts);
  for (const n of notes) await repo.setNoteBody(trx, n.id, scrubText(n.body, terms));
  // Conversation messages count as notes (docs/conversations.md: the notes are shown in threads).
  const messages = await repo.messagesContaining(trx, agencyId, texts);
  for (const m of messages) await repo.setMessageBody(trx, m.id, scrubText(m.body, terms));
  return { jobs: jobs.length + hazards.length, notes: notes.length + messages.length };
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

  return changeIdentity(deps, async (trx) => {
    await repo.anonymiseTenant(trx, tenant.id, newName, now);
    await repo.unlinkAddresses(trx, tenant.id);
    await repo.withdrawConsents(trx, tenant.id, userIds, now);
    const userName = (id: number) => `Erased user ${users.find((u) => u.id === id)!.uuid.replace(/-/g, '').slice(0, 4)}`;
    for (const u of users) {
      await repo.anonymiseUser(
        trx,
        { id: u.id, name: userName(u.id), email: `erased-${u.uuid}@erased.invalid`, passwordHash: `!erased:${randomBytes(16).toString('hex')}`, disabledAt: u.disabled_at ?? now },
        now,
      );
    }
    const scrubbed = terms.length ? await scrubJobTexts(trx, tenant.agency_id, terms) : { jobs: 0, notes: 0 };
    // The tenant's own messages keep their words (scrubbed above) under the new name; the SMS log
    // forgets the texts and the number (docs/conversations.md "Erasure").
    await repo.renameMessageAuthor(trx, tenant.id, userIds, newName);
    const phones = [...new Set([tenant.phone, tenant.mobile].map((p) => normalisePhone(p)).filter((p): p is string => p !== null))];
    await repo.forgetSms(trx, tenant.agency_id, phones);
    const activity = await scrubActivity(trx, tenant.agency_id, userIds, terms, userName, tenant.email);
    const result: ErasureResult = {
      uuid: tenant.uuid, name: newName, erased_at: now.toISOString(), forced: force && open > 0, open_jobs: open,
      users_disabled: users.length, jobs_scrubbed: scrubbed.jobs, notes_scrubbed: scrubbed.notes, activity_scrubbed: activity,
    };
    const { uuid: _u, name: _n, erased_at: _e, ...facts } = result;
    await recordActivity(trx, actor, now, { action: 'tenant.erase', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: facts });
    await emitEvent(trx, now, { name: 'tenant.erased', agencyId: tenant.agency_id, payload: { tenant_id: tenant.id } });
    return result;
  });
}
