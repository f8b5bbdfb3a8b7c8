/**
 * Rules of the compliance register (docs/compliance.md): the agency's item types (the UK ones
 * seeded on first use), the items a property needs, certificates with their expiry (default: the
 * type's legal interval), and the register with each item's status on today's London date.
 * Agency isolation: an agency account works on its own agency's properties; SysOps read every
 * agency and create nothing.
 */
import type { AppDeps } from '../../app-deps.ts';
import { type Actor, type AuthContext } from '../../http/auth-context.ts';
import { readAgency, writeAgency } from '../../http/agency-scope.ts';
import { invalidParam, notFound } from '../../http/errors.ts';
import { addMonths, humanDate, londonDate } from '../../lib/london-time.ts';
import { recordActivity } from '../activity/index.ts';
import { findBranch, findContractor } from '../jobs/index.ts';
import * as repo from './compliance.repository.ts';
import type { AddCertificateInput, CreateItemInput, RegisterInput } from './compliance.schemas.ts';

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

/**
 * GET /api/compliance/types: the agency's compliance item types (seeded with the UK ones).
 * @returns ComplianceType[] by name (SysOps: none, as they belong to no agency)
 */
export async function listTypes(deps: AppDeps, auth: AuthContext) {
  const agencyId = readAgency(auth);
  if (agencyId === null || agencyId < 0) return [];
  await ensureTypes(deps, agencyId);
  return (await repo.listTypes(deps.db, agencyId)).map(({ id: _id, ...t }) => t);
}

/**
 * GET /api/compliance: one page of the register with totals per status.
 * @param q status, branch_uuid, type (code), address_uuid, limit, offset
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
    limit: q.limit, offset: q.offset,
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
