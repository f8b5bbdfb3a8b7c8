/**
 * Rules of the compliance register (docs/compliance.md): the agency's item types (the UK ones
 * seeded on first use), the items a property needs, certificates with their expiry (default: the
 * type's legal interval), and the register with each item's status on today's London date.
 * Agency isolation: an agency account works on its own agency's properties; SysOps read every
 * agency and create nothing.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import { AppError, conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { addMonths, humanDate, londonDate } from '../../../lib/london-time.ts';
import { copyToTenantDue, findings, latestExpiry, remedialDeadline } from './regulations.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findBranch, findContractor } from '../jobs/index.ts';
import * as repo from './compliance.repository.ts';
import type { AddCertificateInput, BulkItemsInput, CreateItemInput, CreateTypeInput, ProfileInput, RegisterInput, UpdateCertificateInput, UpdateTypeInput } from './compliance.schemas.ts';

/** The date arrives as a string from both drivers; a Date (never, in practice) is read as UTC. */
const dateText = (d: string | Date | null): string | null => (d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/** Wire shape of a register row, its findings read on the London date `today`. */
export function toRegisterItem(r: repo.RegisterRow, today: string) {
  const expires = dateText(r.expires_on);
  return {
    uuid: r.uuid,
    status: r.status,
    address_uuid: r.address_uuid,
    address: `${r.line1}, ${r.town} ${r.postcode}`,
    branch_uuid: r.branch_uuid,
    branch_name: r.branch_name,
    type_code: r.type_code,
    type_name: r.type_name,
    interval_months: r.interval_months,
    required_document: r.required_document,
    certificate_uuid: r.certificate_uuid,
    issued_on: dateText(r.issued_on),
    expires_on: expires,
    expires_on_text: expires ? humanDate(expires) : null,
    contractor_uuid: r.contractor_uuid,
    contractor_name: r.contractor_name,
    file_uuid: r.file_uuid,
    regulation: r.regulation,
    derived: r.derived,
    epc_rating: r.epc_rating,
    exemption_until: r.exemption_until,
    outcome: r.outcome,
    remedial_due_on: r.remedial_due_on,
    tenant_copy_due_on: r.tenant_copy_due_on,
    tenant_copy_served_on: r.tenant_copy_served_on,
    findings: findings({
      type_code: r.type_code, today, has_certificate: r.certificate_uuid !== null, epc_rating: r.epc_rating, exemption_until: r.exemption_until,
      outcome: r.outcome, remedial_due_on: r.remedial_due_on, remedial_completed_on: r.remedial_completed_on, tenant_copy_due_on: r.tenant_copy_due_on,
      tenant_copy_served_on: r.tenant_copy_served_on, storeys: r.storeys, combustion_rooms: r.combustion_rooms ?? [], smoke_alarm_storeys: r.smoke_alarm_storeys,
      co_alarm_rooms: r.co_alarm_rooms,
    }),
  };
}

/**
 * Brings the register up to date with what the properties are: the UK types seeded, and every
 * property given an item of each type its profile requires (docs/compliance.md "What a property
 * needs"), so a property with nothing recorded lists every required item as missing.
 * @param agencyId the agency, or null for every agency (SysOps)
 */
async function deriveRegister(deps: AppDeps, agencyId: number | null): Promise<void> {
  if (agencyId !== null && agencyId >= 0) await ensureTypes(deps, agencyId);
  await repo.deriveItems(deps.db, agencyId, deps.clock.now());
}

/**
 * Seeds the UK types the agency lacks (idempotent). A read first: once every UK type is there the
 * seeding's insert (a sequence value per type, row locks, a transaction) is not run.
 */
async function ensureTypes(deps: AppDeps, agencyId: number): Promise<void> {
  if (await repo.typesSeeded(deps.db, agencyId)) return;
  await repo.seedTypes(deps.db, agencyId, deps.clock.now());
}

/** Wire shape of a type. */
function toType({ id: _id, retired_at, ...t }: repo.TypeRow) {
  return { ...t, retired_at: retired_at === null ? null : new Date(retired_at).toISOString() };
}

/**
 * GET /api/compliance/types: the agency's compliance item types (seeded with the UK ones), by name.
 * @param withRetired also the retired custom types
 * @returns ComplianceType[] (SysOps: none, as they belong to no agency)
 */
export async function listTypes(deps: AppDeps, auth: AuthContext, withRetired = false) {
  const agencyId = readAgency(auth);
  if (agencyId === null || agencyId < 0) return [];
  await ensureTypes(deps, agencyId);
  return (await repo.listTypes(deps.db, agencyId, withRetired)).map(toType);
}

/** A type of the caller's agency by uuid. @throws 404 "Compliance type not found" */
async function typeOf(deps: AppDeps, agencyId: number, uuid: string) {
  const t = await repo.findTypeByUuid(deps.db, agencyId, uuid);
  if (!t) throw notFound('Compliance type');
  return t;
}

/**
 * POST /api/compliance/types: a custom type of the agency (docs/compliance.md "Custom types"),
 * used by items and schedules like the seeded UK ones.
 * @returns ComplianceType (custom: true)
 * @throws 403 without an agency; 409 the code is taken (a seeded code included)
 */
export async function createType(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateTypeInput) {
  const agencyId = writeAgency(auth);
  await ensureTypes(deps, agencyId);
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertCustomType(trx, {
      agency_id: agencyId, code: input.code, name: input.name.trim() || input.name, interval_months: input.interval_months,
      at_tenancy_start: input.at_tenancy_start ?? false, hmo_only: input.hmo_only ?? false, required_document: input.required_document.trim() || input.required_document,
      due_soon_days: input.due_soon_days ?? 30,
    }, now);
    if (id === undefined) throw conflict(`The agency already has a compliance type ${input.code}`);
    await recordActivity(trx, actor, now, { action: 'compliance_type.create', resourceType: 'compliance_type', resourceId: id, agencyId, details: { code: input.code } });
    return id;
  });
  return toType((await repo.listTypes(deps.db, agencyId, true)).find((t) => t.id === id)!);
}

/**
 * PUT /api/compliance/types/{uuid}: changes the given fields of a live custom type. The new
 * interval applies to certificates recorded from now on; stored expiry dates stay.
 * @returns ComplianceType
 * @throws 400 empty body; 404 type; 409 a seeded UK type (set by law) or a retired type
 */
export async function updateType(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateTypeInput) {
  const agencyId = writeAgency(auth);
  const fields = input;
  const names = Object.keys(fields);
  if (names.length === 0) throw invalidParam('body');
  const t = await typeOf(deps, agencyId, uuid);
  if (!t.custom) throw conflict('The UK compliance types are set by law and cannot be changed; create a custom type instead');
  if (t.retired_at !== null) throw conflict('A retired compliance type cannot be changed');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateType(trx, t.id, {
      ...fields,
      ...(fields.name !== undefined ? { name: fields.name.trim() || fields.name } : {}),
      ...(fields.required_document !== undefined ? { required_document: fields.required_document.trim() || fields.required_document } : {}),
    }, now);
    await recordActivity(trx, actor, now, { action: 'compliance_type.update', resourceType: 'compliance_type', resourceId: t.id, agencyId, details: { fields: names } });
  });
  return toType((await repo.findTypeByUuid(deps.db, agencyId, uuid))!);
}

/**
 * DELETE /api/compliance/types/{uuid}: retires a custom type: no new items or schedules of it;
 * its items, certificates and reminders stay in the register. Retiring twice changes nothing.
 * @returns ComplianceType with retired_at
 * @throws 404 type; 409 a seeded UK type, or live schedules still use it (retire them first)
 */
export async function retireType(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string) {
  const agencyId = writeAgency(auth);
  const t = await typeOf(deps, agencyId, uuid);
  if (!t.custom) throw conflict('The UK compliance types are set by law and cannot be retired');
  if (t.retired_at === null) {
    const use = await repo.typeUse(deps.db, t.id);
    if (use.schedules > 0) throw conflict(`${use.schedules} live maintenance schedule(s) use the type ${t.code}; retire them first`);
    const now = deps.clock.now();
    await deps.db.transaction().execute(async (trx) => {
      await repo.updateType(trx, t.id, { retired_at: now }, now);
      await recordActivity(trx, actor, now, { action: 'compliance_type.retire', resourceType: 'compliance_type', resourceId: t.id, agencyId, details: { code: t.code, items: use.items } });
    });
  }
  return toType((await repo.findTypeByUuid(deps.db, agencyId, uuid))!);
}

/**
 * GET /api/compliance: one page of the register with totals per status, sorted by `sort`
 * (COMPLIANCE_SORTS, default status: by urgency) in `order` (default asc), the id breaking ties
 * (docs/api.md).
 * @param q status, branch_uuid, type (code), address_uuid, sort, order, limit, offset
 * @returns { rows, count, totals: { valid, due_soon, expired, missing } }
 * @throws 404 "Branch not found" / "Property not found" for a uuid outside the caller's agency
 */
export async function listRegister(deps: AppDeps, auth: AuthContext, q: RegisterInput & { item_uuid?: string }) {
  const agencyId = readAgency(auth);
  let branchId: number | undefined;
  let addressId: number | undefined;
  if (q.branch_uuid !== undefined) {
    const b = await findBranch(deps.db, q.branch_uuid, agencyId);
    if (!b) throw notFound('Branch');
    branchId = b.id;
  }
  if (q.address_uuid !== undefined) {
    const a = await repo.findAddress(deps.db, agencyId, q.address_uuid);
    if (!a) throw notFound('Property');
    addressId = a.id;
  }
  await deriveRegister(deps, agencyId);
  const today = londonDate(deps.clock.now());
  const { rows, count, totals } = await repo.register(deps.db, {
    agencyId, today, status: q.status, branchId, typeCode: q.type, addressId, itemUuid: q.item_uuid,
    sort: q.sort, order: q.order, limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map((r) => toRegisterItem(r, today)), count, totals };
}

/**
 * The totals per status of the caller's agency (dashboard tile), or undefined for callers without
 * an agency's register (SysOps see every agency's).
 */
export async function complianceTotals(deps: AppDeps, auth: AuthContext) {
  await deriveRegister(deps, readAgency(auth));
  return (await repo.register(deps.db, { agencyId: readAgency(auth), today: londonDate(deps.clock.now()), limit: 0, offset: 0 })).totals;
}

/**
 * GET /api/compliance/items/{uuid}: one item with its status and every certificate.
 * @throws 404 "Compliance item not found" (missing or another agency's)
 */
export async function getItem(deps: AppDeps, auth: AuthContext, uuid: string) {
  const item = await repo.findItem(deps.db, readAgency(auth), uuid);
  if (!item) throw notFound('Compliance item');
  const today = londonDate(deps.clock.now());
  const [{ rows }, certificates] = await Promise.all([
    repo.register(deps.db, { agencyId: item.agency_id, today, itemUuid: uuid, limit: 1, offset: 0 }),
    repo.certificatesOf(deps.db, item.id),
  ]);
  return {
    ...toRegisterItem(rows[0]!, today),
    certificates: certificates.map((c) => ({
      ...c,
      issued_on: dateText(c.issued_on)!,
      expires_on: dateText(c.expires_on),
      exemption_until: dateText(c.exemption_until),
      remedial_due_on: dateText(c.remedial_due_on),
      remedial_completed_on: dateText(c.remedial_completed_on),
      tenant_copy_due_on: dateText(c.tenant_copy_due_on),
      tenant_copy_served_on: dateText(c.tenant_copy_served_on),
      tenancy_start_on: dateText(c.tenancy_start_on),
      created_at: new Date(c.created_at).toISOString(),
    })),
  };
}

/**
 * POST /api/compliance/items: the property needs an item of this type (idempotent).
 * @returns { item: ItemDetail, created }
 * @throws 400 type (unknown code); 403 without an agency; 404 "Property not found"
 */
export async function createItem(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateItemInput) {
  const agencyId = writeAgency(auth);
  await ensureTypes(deps, agencyId);
  const address = await repo.findAddress(deps.db, agencyId, input.address_uuid);
  if (!address) throw notFound('Property');
  const type = await repo.findType(deps.db, agencyId, input.type);
  if (!type) throw invalidParam('type');
  if (type.retired_at !== null) throw conflict(`The compliance type ${type.code} is retired`);
  const now = deps.clock.now();
  const item = await deps.db.transaction().execute(async (trx) => {
    const it = await repo.insertItem(trx, { agency_id: agencyId, address_id: address.id, type_id: type.id }, now);
    if (it.created) {
      await recordActivity(trx, actor, now, { action: 'compliance_item.create', resourceType: 'compliance_item', resourceId: it.id, agencyId, details: { type: type.code } });
    }
    return it;
  });
  return { item: await getItem(deps, auth, item.uuid), created: item.created };
}

/**
 * POST /api/compliance/items/{uuid}/certificates: records a certificate of the item.
 * @returns ItemDetail with the new status
 * @throws 400 issued_on (in the future), expires_on (before issued_on); 404 "Compliance item not
 *   found", "Contractor not found", "File not found" (outside the caller's agency)
 */
export async function addCertificate(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: AddCertificateInput) {
  const agencyId = writeAgency(auth);
  const item = await repo.findItem(deps.db, agencyId, uuid);
  if (!item) throw notFound('Compliance item');
  const now = deps.clock.now();
  if (input.issued_on > londonDate(now)) throw invalidParam('issued_on');
  const rules = await certificateRules(deps, item, input);
  const expires = input.expires_on !== undefined ? input.expires_on : rules.latest ?? (item.interval_months ? addMonths(input.issued_on, item.interval_months) : null);
  if (expires !== null && expires < input.issued_on) throw invalidParam('expires_on');
  if (rules.latest !== null && (expires === null || expires > rules.latest)) {
    throw new AppError('unprocessable', `${rules.name} issued on ${humanDate(input.issued_on)} may expire on ${humanDate(rules.latest)} at the latest (${rules.cite})`);
  }
  let contractorId: number | null = null;
  if (input.contractor_uuid !== undefined) {
    const c = await findContractor(deps.db, input.contractor_uuid, agencyId);
    if (!c) throw notFound('Contractor');
    contractorId = c.id;
  }
  let file: { id: number; job_id: number } | undefined;
  if (input.job_file_uuid !== undefined) {
    file = await repo.findJobFile(deps.db, agencyId, input.job_file_uuid);
    if (!file) throw notFound('File');
  }
  await deps.db.transaction().execute(async (trx) => {
    const cert = await repo.insertCertificate(trx, {
      agency_id: agencyId, item_id: item.id, issued_on: input.issued_on, expires_on: expires, reference: (input.reference ?? '').trim(),
      contractor_id: contractorId, job_id: file?.job_id ?? null, job_file_id: file?.id ?? null, created_by_user_id: auth.userId,
      ...rules.fields,
    }, now);
    await recordActivity(trx, actor, now, {
      action: 'compliance_certificate.create', resourceType: 'compliance_item', resourceId: item.id, agencyId,
      details: { certificate_uuid: cert.uuid, issued_on: input.issued_on, expires_on: expires },
    });
  });
  return getItem(deps, auth, uuid);
}

/**
 * PUT /api/compliance/properties/{uuid}/hmo: marks a property as a house in multiple occupation
 * (or not). Set, the property gets an item of every HMO-only type of the agency (HMO fire risk
 * assessment, HMO licence), idempotently; cleared, its HMO items and their certificates are kept
 * (the history stays) but no new ones are added.
 * @returns { is_hmo, items: register rows of the property }
 * @throws 403 without an agency; 404 "Property not found"
 */
export async function setPropertyHmo(deps: AppDeps, auth: AuthContext, actor: Actor, addressUuid: string, hmo: boolean) {
  const agencyId = writeAgency(auth);
  await ensureTypes(deps, agencyId);
  const address = await repo.findAddress(deps.db, agencyId, addressUuid);
  if (!address) throw notFound('Property');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.setHmo(trx, address.id, hmo, now);
    const added: string[] = [];
    if (hmo) {
      for (const type of await repo.hmoTypes(trx, agencyId)) {
        const it = await repo.insertItem(trx, { agency_id: agencyId, address_id: address.id, type_id: type.id }, now);
        if (it.created) added.push(type.code);
      }
    }
    await recordActivity(trx, actor, now, { action: 'compliance_property.hmo', resourceType: 'address', resourceId: address.id, agencyId, details: { is_hmo: hmo, added } });
  });
  const { rows } = await listRegister(deps, auth, { address_uuid: addressUuid, limit: 200, offset: 0 });
  return { is_hmo: hmo, items: rows };
}

/** 422 with a rule's reason. */
const refuse = (message: string) => new AppError('unprocessable', message);

/**
 * What the regulations make of a certificate being recorded (docs/compliance.md "The rules"):
 * the latest expiry it may carry (gas: 12 months, or the kept anniversary under the 2-month rule;
 * EICR: 5 years; LOLER: 6 months), the date its copy must reach the tenant, an EICR's remedial
 * deadline, and the checks of the fields each type takes (a missing rating or outcome is a finding on the
 * register, not a refusal).
 * @returns { latest, name, cite, fields } fields: the rule columns to store
 * @throws 422 a field another type's (a rating on a gas record), a remedial deadline past 28 days, an alarm check not made on the
 *   day the tenancy began
 */
async function certificateRules(deps: AppDeps, item: { id: number; type_code: string; at_tenancy_start: boolean }, input: AddCertificateInput) {
  const code = item.type_code;
  const isEicr = code === 'eicr' || code === 'communal_eicr';
  const previous = await repo.latestCertificate(deps.db, item.id);
  const previousExpiry = previous && dateText(previous.expires_on);
  const renews = previous !== undefined && dateText(previous.issued_on)! < input.issued_on ? previousExpiry ?? null : null;
  const latest = latestExpiry(code, input.issued_on, renews);
  if ((input.epc_rating !== undefined || input.exemption_reference !== undefined || input.exemption_until !== undefined) && code !== 'epc') {
    throw refuse('An energy rating and MEES exemption belong to an EPC');
  }
  if ((input.exemption_reference === undefined) !== (input.exemption_until === undefined)) throw refuse('A MEES exemption needs both its PRS Exemptions Register reference and its end date');
  if ((input.outcome !== undefined || input.remedial_due_on !== undefined) && !isEicr) throw refuse('An outcome and remedial works belong to an EICR');
  let remedialDue: string | null = null;
  if (input.outcome === 'unsatisfactory') {
    const deadline = remedialDeadline(input.issued_on);
    remedialDue = input.remedial_due_on ?? deadline;
    if (remedialDue > deadline || remedialDue < input.issued_on) {
      throw refuse(`Remedial works of an EICR issued on ${humanDate(input.issued_on)} are due by ${humanDate(deadline)} at the latest, or sooner if the report says (ESSPRS 2020 reg. 3(4))`);
    }
  } else if (input.remedial_due_on !== undefined) throw refuse('Remedial works are due only on an unsatisfactory EICR');
  if ((input.smoke_alarm_storeys !== undefined || input.co_alarm_rooms !== undefined || input.tenancy_start_on !== undefined) && code !== 'smoke_co_alarms') {
    throw refuse('Alarms per storey and per room belong to a smoke and CO alarm check');
  }
  if (code === 'smoke_co_alarms' && input.tenancy_start_on !== undefined && input.tenancy_start_on !== input.issued_on) {
    throw refuse(`Alarms must be checked on the day the tenancy begins (${humanDate(input.tenancy_start_on)}), Smoke and Carbon Monoxide Alarm (England) Regulations 2015 reg. 4(1)(b)`);
  }
  const copyDue = copyToTenantDue(code, input.issued_on);
  return {
    latest,
    name: code === 'gas_safety' ? 'A gas safety record' : isEicr ? 'An EICR' : 'A LOLER examination',
    cite: code === 'gas_safety'
      ? 'Gas Safety (Installation and Use) Regulations 1998 reg. 36(3): at intervals of not more than 12 months'
      : isEicr ? 'ESSPRS 2020 reg. 3(1)(b): at intervals of at most 5 years' : 'LOLER 1998 reg. 9(3): every 6 months',
    fields: {
      epc_rating: input.epc_rating ?? null,
      exemption_reference: input.exemption_reference?.trim() ?? null,
      exemption_until: input.exemption_until ?? null,
      outcome: input.outcome ?? null,
      remedial_due_on: remedialDue,
      tenant_copy_due_on: copyDue,
      tenant_copy_served_on: input.tenant_copy_served_on ?? null,
      tenant_copy_method: input.tenant_copy_method ?? null,
      smoke_alarm_storeys: input.smoke_alarm_storeys ?? null,
      co_alarm_rooms: input.co_alarm_rooms ?? null,
      tenancy_start_on: input.tenancy_start_on ?? null,
    } satisfies repo.CertificateRuleFields,
  };
}

/**
 * PUT /api/compliance/items/{uuid}/certificates/{certificate_uuid}: records what happened after
 * the certificate (docs/compliance.md "The rules"): its document (a job file of the agency), the
 * copy served on the tenant (date, how), an EICR's remedial works completed, an EPC's MEES
 * exemption.
 * @returns ItemDetail with the new status and findings
 * @throws 400 an empty body; 404 item, certificate or file; 422 a date before the certificate's
 *   issue or in the future, remedial works on a satisfactory report, an exemption on another type
 */
export async function updateCertificate(deps: AppDeps, auth: AuthContext, actor: Actor, itemUuid: string, certUuid: string, input: UpdateCertificateInput) {
  const agencyId = writeAgency(auth);
  if (Object.keys(input).length === 0) throw invalidParam('body');
  const item = await repo.findItem(deps.db, agencyId, itemUuid);
  if (!item) throw notFound('Compliance item');
  const cert = await repo.findCertificate(deps.db, item.id, certUuid);
  if (!cert) throw notFound('Certificate');
  const now = deps.clock.now();
  const today = londonDate(now);
  const issued = dateText(cert.issued_on)!;
  for (const d of [input.tenant_copy_served_on, input.remedial_completed_on]) {
    if (d !== undefined && (d < issued || d > today)) throw refuse(`A date on this certificate must be from its issue (${humanDate(issued)}) to today`);
  }
  if (input.remedial_completed_on !== undefined && cert.outcome !== 'unsatisfactory') throw refuse('Remedial works are recorded only on an unsatisfactory EICR');
  if ((input.exemption_reference !== undefined || input.exemption_until !== undefined) && item.type_code !== 'epc') throw refuse('A MEES exemption belongs to an EPC');
  if ((input.exemption_reference === undefined) !== (input.exemption_until === undefined)) throw refuse('A MEES exemption needs both its PRS Exemptions Register reference and its end date');
  let file: { id: number; job_id: number } | undefined;
  if (input.job_file_uuid !== undefined) {
    file = await repo.findJobFile(deps.db, agencyId, input.job_file_uuid);
    if (!file) throw notFound('File');
  }
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateCertificate(trx, cert.id, {
      ...(input.tenant_copy_served_on !== undefined ? { tenant_copy_served_on: input.tenant_copy_served_on, tenant_copy_method: input.tenant_copy_method ?? null } : {}),
      ...(input.remedial_completed_on !== undefined ? { remedial_completed_on: input.remedial_completed_on } : {}),
      ...(input.exemption_reference !== undefined ? { exemption_reference: input.exemption_reference.trim(), exemption_until: input.exemption_until! } : {}),
      ...(file ? { job_id: file.job_id, job_file_id: file.id } : {}),
    });
    await recordActivity(trx, actor, now, {
      action: 'compliance_certificate.update', resourceType: 'compliance_item', resourceId: item.id, agencyId, details: { certificate_uuid: certUuid, fields: Object.keys(input) },
    });
  });
  return getItem(deps, auth, itemUuid);
}

/**
 * PUT /api/compliance/properties/{uuid}/profile: records what a property is (docs/compliance.md
 * "What a property needs"): whether it has a gas supply, its storeys with living accommodation and
 * the rooms with a fixed combustion appliance. The property is given the items it now needs; the
 * derived items it no longer needs and that hold no certificate are removed.
 * @returns { gas_supply, storeys, combustion_rooms, items: register rows }
 * @throws 400 an empty body; 404 "Property not found"
 */
export async function setPropertyProfile(deps: AppDeps, auth: AuthContext, actor: Actor, addressUuid: string, input: ProfileInput) {
  const agencyId = writeAgency(auth);
  if (Object.keys(input).length === 0) throw invalidParam('body');
  await ensureTypes(deps, agencyId);
  const address = await repo.findAddress(deps.db, agencyId, addressUuid);
  if (!address) throw notFound('Property');
  const now = deps.clock.now();
  const rooms = input.combustion_rooms === undefined ? undefined : [...new Set(input.combustion_rooms.map((r) => r.trim()).filter((r) => r !== ''))];
  await deps.db.transaction().execute(async (trx) => {
    await repo.setProfile(trx, address.id, { ...input, ...(rooms !== undefined ? { combustion_rooms: rooms } : {}) }, now);
    await repo.dropUnneededItems(trx, { addressId: address.id });
    await repo.deriveItems(trx, agencyId, now, address.id);
    await recordActivity(trx, actor, now, { action: 'compliance_property.profile', resourceType: 'address', resourceId: address.id, agencyId, details: { fields: Object.keys(input) } });
  });
  const p = await repo.propertyProfile(deps.db, address.id);
  const { rows } = await listRegister(deps, auth, { address_uuid: addressUuid, limit: 200, offset: 0 });
  return { gas_supply: p.gas_supply, storeys: p.storeys, combustion_rooms: p.combustion_rooms, items: rows };
}

/**
 * PUT /api/compliance/buildings/{uuid}/profile: records whether a building has a passenger lift;
 * its communal areas then need (or no longer need) the LOLER thorough examination.
 * @returns { has_lift }
 * @throws 404 "Building not found"
 */
export async function setBuildingProfile(deps: AppDeps, auth: AuthContext, actor: Actor, buildingUuid: string, hasLift: boolean) {
  const agencyId = writeAgency(auth);
  await ensureTypes(deps, agencyId);
  const b = await repo.findBuilding(deps.db, agencyId, buildingUuid);
  if (!b) throw notFound('Building');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.setBuildingLift(trx, b.id, hasLift, now);
    await repo.dropUnneededItems(trx, { buildingId: b.id });
    await repo.deriveItems(trx, agencyId, now);
    await recordActivity(trx, actor, now, { action: 'compliance_building.profile', resourceType: 'building', resourceId: b.id, agencyId, details: { has_lift: hasLift } });
  });
  return { has_lift: hasLift };
}

/**
 * POST /api/compliance/items/bulk: gives an item type to a selection of properties, every unit of
 * a building, or the whole portfolio (exactly one of address_uuids, building_uuid, all), each
 * property keeping the item it already has.
 * @returns { type, properties, created, existing }
 * @throws 400 not exactly one selector, an unknown type; 404 "Property not found" (any uuid
 *   outside the agency: nothing is added), "Building not found"; 409 a retired type
 */
export async function bulkAddItems(deps: AppDeps, auth: AuthContext, actor: Actor, input: BulkItemsInput) {
  const agencyId = writeAgency(auth);
  const selectors = [input.address_uuids !== undefined, input.building_uuid !== undefined, input.all === true].filter(Boolean).length;
  if (selectors !== 1) throw new AppError('bad_request', 'Give exactly one of address_uuids, building_uuid or all: true');
  await ensureTypes(deps, agencyId);
  const type = await repo.findType(deps.db, agencyId, input.type);
  if (!type) throw invalidParam('type');
  if (type.retired_at !== null) throw conflict(`The compliance type ${type.code} is retired`);
  let ids: Array<{ id: number }>;
  if (input.address_uuids !== undefined) {
    const uuids = [...new Set(input.address_uuids)];
    ids = await repo.addressIds(deps.db, agencyId, { uuids });
    if (ids.length !== uuids.length) throw notFound('Property');
  } else if (input.building_uuid !== undefined) {
    const b = await repo.findBuilding(deps.db, agencyId, input.building_uuid);
    if (!b) throw notFound('Building');
    ids = await repo.addressIds(deps.db, agencyId, { buildingId: b.id });
  } else {
    ids = await repo.addressIds(deps.db, agencyId, {});
  }
  const now = deps.clock.now();
  const created = await deps.db.transaction().execute(async (trx) => {
    const n = await repo.insertItems(trx, agencyId, ids.map((x) => x.id), type.id, now);
    await recordActivity(trx, actor, now, { action: 'compliance_item.bulk_create', resourceType: 'compliance_item_type', resourceId: type.id, agencyId, details: { type: type.code, properties: ids.length, created: n } });
    return n;
  });
  return { type: type.code, properties: ids.length, created, existing: ids.length - created };
}
