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
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { addMonths, humanDate, londonDate } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findBranch, findContractor } from '../jobs/index.ts';
import * as repo from './compliance.repository.ts';
import type { AddCertificateInput, CreateItemInput, CreateTypeInput, RegisterInput, UpdateTypeInput } from './compliance.schemas.ts';

/** The date arrives as a string from both drivers; a Date (never, in practice) is read as UTC. */
const dateText = (d: string | Date | null): string | null => (d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/** Wire shape of a register row. */
export function toRegisterItem(r: repo.RegisterRow) {
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
  };
}

/** Seeds the UK types for the agency when it has none of them yet (idempotent). */
async function ensureTypes(deps: AppDeps, agencyId: number): Promise<void> {
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
  const { rows, count, totals } = await repo.register(deps.db, {
    agencyId, today: londonDate(deps.clock.now()), status: q.status, branchId, typeCode: q.type, addressId, itemUuid: q.item_uuid,
    sort: q.sort, order: q.order, limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map(toRegisterItem), count, totals };
}

/**
 * The totals per status of the caller's agency (dashboard tile), or undefined for callers without
 * an agency's register (SysOps see every agency's).
 */
export async function complianceTotals(deps: AppDeps, auth: AuthContext) {
  return (await repo.register(deps.db, { agencyId: readAgency(auth), today: londonDate(deps.clock.now()), limit: 0, offset: 0 })).totals;
}

/**
 * GET /api/compliance/items/{uuid}: one item with its status and every certificate.
 * @throws 404 "Compliance item not found" (missing or another agency's)
 */
export async function getItem(deps: AppDeps, auth: AuthContext, uuid: string) {
  const item = await repo.findItem(deps.db, readAgency(auth), uuid);
  if (!item) throw notFound('Compliance item');
  const [{ rows }, certificates] = await Promise.all([
    repo.register(deps.db, { agencyId: item.agency_id, today: londonDate(deps.clock.now()), itemUuid: uuid, limit: 1, offset: 0 }),
    repo.certificatesOf(deps.db, item.id),
  ]);
  return {
    ...toRegisterItem(rows[0]!),
    certificates: certificates.map((c) => ({
      ...c,
      issued_on: dateText(c.issued_on)!,
      expires_on: dateText(c.expires_on),
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
  const expires = input.expires_on !== undefined ? input.expires_on : item.interval_months ? addMonths(input.issued_on, item.interval_months) : null;
  if (expires !== null && expires < input.issued_on) throw invalidParam('expires_on');
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
