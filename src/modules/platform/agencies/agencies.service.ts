/**
 * Agencies (docs/onboarding.md): SysOps create, read, change, suspend and reactivate agencies; an
 * agency's administrators read and change their own profile. Creating an agency creates its first
 * branch and invites its first administrator by e-mail (the users module's invitation flow). A
 * suspended agency keeps every record; its accounts are refused with 403 on every request (the
 * check is in the token lookup, src/modules/people/auth) until it is reactivated.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, conflictOnUnique, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { normalisePostcode } from '../../people/addresses/index.ts';
import { moneySettings, saveMoneySettings } from '../../money/money/index.ts';
import { DEFAULT_OFFICE_HOURS, loadOfficeHours, officeHoursOf, recomputeOpenJobs, type OfficeHours } from '../../jobs/sla/index.ts';
import { findLandlordRef } from '../../money/landlords/index.ts';
import { createUser } from '../../people/users/index.ts';
import * as repo from './agencies.repository.ts';
import { WEEKDAYS, type AgencyDto, type CreateAgencyInput, type ListAgenciesQuery, type UpdateAgencyInput } from './agencies.schemas.ts';

type Caller = Actor & { auth: AuthContext };
type Hours = Record<string, { open: string; close: string } | null>;

type OfficeRow = { weekday: number; opens_minute: number; closes_minute: number };

const CLOSED_WEEK: Hours = Object.fromEntries(WEEKDAYS.map((d) => [d, null]));
const nameTaken = (name: string) => `An agency named ${name} already exists`;
const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The agency's office hours as the profile shows them, from agency_office_hours (the one place);
 * an agency that saved none has DEFAULT_OFFICE_HOURS (Monday to Friday 09:00-17:30), which is
 * what its SLA clocks count.
 */
async function officeWeek(db: DbOrTrx, agencyId: number): Promise<Hours> {
  const week: OfficeHours = officeHoursOf((await loadOfficeHours(db, [agencyId])).get(agencyId)) ?? DEFAULT_OFFICE_HOURS;
  return Object.fromEntries(WEEKDAYS.map((d, i) => [d, week[i] ? { open: hhmm(week[i]![0]), close: hhmm(week[i]![1]) } : null]));
}

/**
 * The office-hours rows to store when the input names days, merged into `base`.
 * @param base the week the named days change (closed for a new agency, the stored week otherwise)
 * @returns the rows (0 = Monday), or undefined when the input names no office hours
 * @throws 400 office_hours.<day> when a day closes before it opens, office_hours when every day is closed
 */
function officeRows(input: UpdateAgencyInput, base: Hours): OfficeRow[] | undefined {
  if (input.office_hours === undefined) return undefined;
  const hours: Hours = { ...base, ...input.office_hours };
  const rows: OfficeRow[] = [];
  WEEKDAYS.forEach((day, weekday) => {
    const h = hours[day];
    if (!h) return;
    if (h.close <= h.open) throw invalidParam(`office_hours.${day}`);
    rows.push({ weekday, opens_minute: minuteOf(h.open), closes_minute: minuteOf(h.close) });
  });
  if (rows.length === 0) throw invalidParam('office_hours');
  return rows;
}

/** Wire shape of an agency with its money settings (VAT number, invoice terms) and office hours. */
async function toAgencyDto(deps: AppDeps, row: repo.AgencyRow): Promise<AgencyDto> {
  const money = await moneySettings(deps.db, row.id);
  return {
    uuid: row.uuid,
    name: row.name,
    legal_name: row.legal_name,
    registered_address:
      row.registered_line1 === null
        ? null
        : { line1: row.registered_line1, line2: row.registered_line2, town: row.registered_town ?? '', postcode: row.registered_postcode ?? '' },
    company_number: row.company_number,
    vat_number: money.vat_number,
    contact_email: row.contact_email,
    contact_phone: row.contact_phone,
    bank_holiday_region: row.uk_region,
    office_hours: (await officeWeek(deps.db, row.id)) as AgencyDto['office_hours'],
    default_approval_limit_pence: row.default_approval_limit_pence,
    invoice_terms_days: money.payment_terms_days,
    postcode_lookup: row.postcode_lookup,
    status: row.suspended_at === null ? 'active' : 'suspended',
    suspended_at: toIsoOrNull(row.suspended_at),
    suspended_reason: row.suspended_reason,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/**
 * The agency columns a create or update writes, checked: trimmed names, a valid UK postcode in
 * the registered address. Office hours are written apart (officeRows).
 * @throws 400 naming the field
 */
function agencyFields(input: UpdateAgencyInput): repo.AgencyWrite {
  const out: repo.AgencyWrite = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw invalidParam('name');
    out.name = name;
  }
  if (input.legal_name !== undefined) out.legal_name = input.legal_name?.trim() || null;
  if (input.registered_address !== undefined) {
    const a = input.registered_address;
    if (a === null) Object.assign(out, { registered_line1: null, registered_line2: null, registered_town: null, registered_postcode: null });
    else {
      const postcode = normalisePostcode(a.postcode);
      if (!postcode) throw invalidParam('registered_address.postcode');
      if (!a.line1.trim()) throw invalidParam('registered_address.line1');
      if (!a.town.trim()) throw invalidParam('registered_address.town');
      Object.assign(out, { registered_line1: a.line1.trim(), registered_line2: a.line2?.trim() || null, registered_town: a.town.trim(), registered_postcode: postcode });
    }
  }
  if (input.company_number !== undefined) out.company_number = input.company_number;
  if (input.contact_email !== undefined) out.contact_email = input.contact_email?.toLowerCase() ?? null;
  if (input.contact_phone !== undefined) out.contact_phone = input.contact_phone;
  if (input.bank_holiday_region !== undefined) out.uk_region = input.bank_holiday_region;
  if (input.default_approval_limit_pence !== undefined) out.default_approval_limit_pence = input.default_approval_limit_pence;
  if (input.postcode_lookup !== undefined) out.postcode_lookup = input.postcode_lookup;
  return out;
}

/** Writes the VAT number and invoice terms when the input names either (the money settings). */
async function writeMoney(trx: Parameters<typeof saveMoneySettings>[0], agencyId: number, input: UpdateAgencyInput, now: Date) {
  if (input.vat_number === undefined && input.invoice_terms_days === undefined) return;
  const current = await moneySettings(trx, agencyId);
  await saveMoneySettings(
    trx,
    agencyId,
    { vat_number: input.vat_number !== undefined ? input.vat_number : current.vat_number, payment_terms_days: input.invoice_terms_days ?? current.payment_terms_days },
    undefined,
    now,
  );
}

/** An agency by uuid, or 404 "Agency not found". */
async function loadAgency(deps: AppDeps, uuid: string): Promise<repo.AgencyRow> {
  const row = await repo.findAgencyByUuid(deps.db, uuid);
  if (!row) throw notFound('Agency');
  return row;
}

/**
 * GET /api/agencies (SysOps): one page of agencies by trading name.
 * @returns { rows: AgencyDto[], total }
 */
export async function listAgencies(deps: AppDeps, q: ListAgenciesQuery) {
  const { rows, total } = await repo.listAgencies(deps.db, { q: q.q, status: q.status, limit: q.limit, offset: q.offset });
  return { rows: await Promise.all(rows.map((r) => toAgencyDto(deps, r))), total };
}

/** GET /api/agencies/{uuid} (SysOps). @throws 404 */
export async function getAgency(deps: AppDeps, uuid: string): Promise<AgencyDto> {
  return toAgencyDto(deps, await loadAgency(deps, uuid));
}

/** GET /api/agencies/current: the caller's own agency. @throws 403 for SysOps (no agency) */
export async function currentAgency(deps: AppDeps, auth: AuthContext): Promise<AgencyDto> {
  const row = await repo.findAgencyById(deps.db, writeAgency(auth));
  if (!row) throw notFound('Agency');
  return toAgencyDto(deps, row);
}

/**
 * POST /api/agencies (SysOps): creates an agency with its profile, its first branch (default
 * "Head office") and its first administrator, invited by e-mail (valid 7 days, docs/users.md).
 * The agency and branch commit together; the administrator is created after, through the users
 * module (its e-mail is checked first, so a taken address changes nothing).
 * @returns the agency, the branch, the administrator and whether the invitation e-mail was accepted
 * @throws 400 (a bad field), 409 (trading name or the administrator's e-mail taken)
 */
export async function createAgency(deps: AppDeps, caller: Caller, input: CreateAgencyInput) {
  const fields = agencyFields(input);
  const office = officeRows(input, CLOSED_WEEK);
  const name = fields.name!;
  const branchName = (input.branch_name ?? 'Head office').trim();
  if (!branchName) throw invalidParam('branch_name');
  if (await repo.agencyNameTaken(deps.db, name)) throw conflict(nameTaken(name));
  if (await repo.userEmailExists(deps.db, input.admin.email.toLowerCase())) {
    throw conflict('A user with this e-mail address already exists');
  }
  const now = deps.clock.now();
  const uuid = newUuid();
  const branchUuid = newUuid();
  const agencyId = await deps.db
    .transaction()
    .execute(async (trx) => {
      const id = await repo.insertAgency(trx, uuid, { ...fields, name }, now);
      if (office) await repo.replaceOfficeHours(trx, id, office, now);
      await writeMoney(trx, id, input, now);
      await repo.insertFirstBranch(trx, { uuid: branchUuid, agencyId: id, name: branchName }, now);
      await recordActivity(trx, caller, now, { action: 'agency.create', resourceType: 'agency', resourceId: id, agencyId: id, details: { name, branch: branchName } });
      return id;
    })
    .catch(conflictOnUnique(nameTaken(name)));
  const { user, invitationSent } = await createUser(deps, caller, {
    name: input.admin.name,
    email: input.admin.email,
    role: 'admin',
    agency_uuid: uuid,
    branch_uuid: branchUuid,
    invite: true,
  }, findLandlordRef);
  const row = (await repo.findAgencyById(deps.db, agencyId))!;
  return {
    agency: await toAgencyDto(deps, row),
    branch: { uuid: branchUuid, name: branchName },
    admin: { uuid: user.uuid, name: user.name, email: user.email, status: user.status },
    invitation_sent: invitationSent,
  };
}

/** Applies a profile change to one agency in a transaction with its activity entry. */
async function applyUpdate(deps: AppDeps, caller: Caller, row: repo.AgencyRow, input: UpdateAgencyInput): Promise<AgencyDto> {
  if (Object.keys(input).length === 0) throw invalidParam('body');
  const fields = agencyFields(input);
  const office = officeRows(input, await officeWeek(deps.db, row.id));
  if (fields.name !== undefined && (await repo.agencyNameTaken(deps.db, fields.name, row.id))) throw conflict(nameTaken(fields.name));
  const now = deps.clock.now();
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await repo.updateAgency(trx, row.id, fields, now);
      if (office) await repo.replaceOfficeHours(trx, row.id, office, now);
      await writeMoney(trx, row.id, input, now);
      await recordActivity(trx, caller, now, { action: 'agency.update', resourceType: 'agency', resourceId: row.id, agencyId: row.id, details: { fields: Object.keys(input) } });
    })
    .catch(conflictOnUnique(nameTaken(fields.name ?? row.name)));
  // New office hours move the due times of the open jobs' office-hours clocks (as POST /api/sla/settings does).
  if (office) await recomputeOpenJobs(deps, { agencyId: row.id });
  return toAgencyDto(deps, (await repo.findAgencyById(deps.db, row.id))!);
}

/** PUT /api/agencies/{uuid} (SysOps): changes any field of the profile. @throws 400, 404, 409 name taken */
export async function updateAgency(deps: AppDeps, caller: Caller, uuid: string, input: UpdateAgencyInput): Promise<AgencyDto> {
  return applyUpdate(deps, caller, await loadAgency(deps, uuid), input);
}

/** PUT /api/agencies/current: an administrator changes their own agency's profile. @throws 400, 403 SysOps, 409 */
export async function updateCurrentAgency(deps: AppDeps, caller: Caller, input: UpdateAgencyInput): Promise<AgencyDto> {
  const row = await repo.findAgencyById(deps.db, writeAgency(caller.auth));
  if (!row) throw notFound('Agency');
  return applyUpdate(deps, caller, row, input);
}

/**
 * POST /api/agencies/{uuid}/suspend and /reactivate (SysOps). Suspension keeps every record; the
 * agency's accounts are refused (403) from their next request on, on every instance (the write
 * runs through changeIdentity, src/core/auth-epoch.ts, which moves the auth epoch).
 * @param reason kept on the agency while it is suspended
 * @throws 404, 409 already in that state
 */
export async function setSuspended(deps: AppDeps, caller: Caller, uuid: string, suspend: boolean, reason?: string): Promise<AgencyDto> {
  const row = await loadAgency(deps, uuid);
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    await repo.lockAgency(trx, row.id);
    const current = (await repo.findAgencyById(trx, row.id))!;
    if (suspend && current.suspended_at !== null) throw conflict('Agency is already suspended');
    if (!suspend && current.suspended_at === null) throw conflict('Agency is not suspended');
    await repo.updateAgency(trx, row.id, { suspended_at: suspend ? now : null, suspended_reason: suspend ? (reason?.trim() || null) : null }, now);
    await recordActivity(trx, caller, now, {
      action: suspend ? 'agency.suspend' : 'agency.reactivate',
      resourceType: 'agency',
      resourceId: row.id,
      agencyId: row.id,
      ...(suspend ? { details: { reason: reason ?? null } } : {}),
    });
  });
  return toAgencyDto(deps, (await repo.findAgencyById(deps.db, row.id))!);
}
