/**
 * Tenant rules (docs/tenants.md; spec 4.9): tenant records of the caller's agency, unique e-mail
 * among the agency's live tenants, erased tenants read-only, and the tenant-address links.
 * A record of another agency is the same 404 as a missing one. Writes log in their transaction.
 */
import { isoOrNull as iso } from '../../../lib/fields.ts';
import { cleanText as clean } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency, sameAgency, writeAgency } from '../../../core/agency-scope.ts';
import { findAddressById, addressesOfTenant } from '../addresses/index.ts';
import { getAddressRow, toAddressDto } from '../addresses/index.ts';
import { postcodePrefix } from '../addresses/index.ts';
import * as repo from './tenants.repository.ts';
import type {
  AssignAddressInput, CreateTenantInput, ListTenantsQuery, TenantDetailDto, TenantDto, UpdateTenantInput,
} from './tenants.schemas.ts';


/** Wire shape of a tenant row. */
export function toTenantDto(r: repo.TenantRow): TenantDto {
  return {
    uuid: r.uuid,
    name: r.name,
    email: r.email,
    phone: r.phone,
    mobile: r.mobile,
    preferred_contact: r.preferred_contact,
    notes: r.notes,
    has_login: Boolean(r.has_login),
    address_count: Number(r.address_count ?? 0),
    erased_at: iso(r.erased_at),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** A tenant the caller may see, by uuid. @throws 404 'Tenant not found' */
export async function getTenantRow(db: DbOrTrx, auth: AuthContext, uuid: string): Promise<repo.TenantRow> {
  const row = await repo.findTenantByUuid(db, uuid);
  if (!row || !sameAgency(auth, row.agency_id)) throw notFound('Tenant');
  return row;
}

/**
 * GET /api/tenants: one page sorted by `sort` (TENANT_SORTS, default name) in `order` (default
 * asc), the id breaking ties (docs/api.md); with `address_uuid` only the property's tenants.
 * @returns { rows: TenantDto[], total }
 * @throws 404 'Address not found' for an address_uuid of another agency or none
 */
export async function listTenants(deps: AppDeps, auth: AuthContext, q: ListTenantsQuery) {
  const addressId = q.address_uuid ? (await getAddressRow(deps.db, auth, q.address_uuid)).id : undefined;
  const { rows, total } = await repo.listTenants(deps.db, {
    agencyId: readAgency(auth),
    ...(addressId !== undefined ? { addressId } : {}),
    q: q.q?.trim() || undefined,
    postcodePrefix: q.postcode ? postcodePrefix(q.postcode) || undefined : undefined,
    includeErased: q.include_erased === true,
    sort: q.sort ?? 'name',
    order: q.order ?? 'asc',
    limit: q.limit,
    offset: q.offset,
  });
  return { rows: rows.map(toTenantDto), total };
}

/** GET /api/tenants/{uuid}: the tenant with linked addresses and login account. @throws 404 */
export async function getTenant(deps: AppDeps, auth: AuthContext, uuid: string): Promise<TenantDetailDto> {
  const row = await getTenantRow(deps.db, auth, uuid);
  return detail(deps.db, row);
}

async function detail(db: DbOrTrx, row: repo.TenantRow): Promise<TenantDetailDto> {
  const [addresses, login] = await Promise.all([addressesOfTenant(db, row.id), repo.loginOf(db, row.id)]);
  return {
    ...toTenantDto(row),
    addresses: addresses.map(toAddressDto),
    login: login ? { user_uuid: login.uuid, email: login.email, status: login.status } : null,
  };
}


/**
 * POST /api/tenants: creates a tenant of the caller's agency.
 * @throws 400 name, 403 without an agency, 409 e-mail used by another tenant of the agency
 */
export async function createTenant(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateTenantInput): Promise<TenantDetailDto> {
  const agencyId = writeAgency(auth);
  const name = input.name.trim();
  if (!name) throw invalidParam('name');
  const email = clean(input.email)?.toLowerCase() ?? null;
  if (email && (await repo.findByEmail(deps.db, agencyId, email))) throw conflict('A tenant with this e-mail already exists');
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertTenant(trx, {
      uuid: newUuid(),
      agency_id: agencyId,
      name,
      email,
      phone: clean(input.phone) ?? null,
      mobile: clean(input.mobile) ?? null,
      preferred_contact: input.preferred_contact ?? null,
      notes: clean(input.notes) ?? null,
      created_at: now,
      updated_at: now,
      erased_at: null,
    });
    await recordActivity(trx, actor, now, { action: 'tenant.create', resourceType: 'tenant', resourceId: id, agencyId });
    return id;
  });
  return detail(deps.db, (await repo.findTenantById(deps.db, id))!);
}

/**
 * PUT /api/tenants/{uuid}: changes the fields sent.
 * @throws 400 name, 404 tenant, 409 erased tenant or e-mail in use
 */
export async function updateTenant(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateTenantInput): Promise<TenantDetailDto> {
  const row = await getTenantRow(deps.db, auth, uuid);
  if (row.erased_at !== null) throw conflict('Tenant has been erased');
  if (input.name !== undefined && !input.name.trim()) throw invalidParam('name');
  const email = input.email === undefined ? undefined : (clean(input.email)?.toLowerCase() ?? null);
  if (email && (await repo.findByEmail(deps.db, row.agency_id, email, row.id))) throw conflict('A tenant with this e-mail already exists');
  const now = deps.clock.now();
  const changed = Object.keys(input);
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateTenant(trx, row.id, {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(input.phone !== undefined ? { phone: clean(input.phone) } : {}),
      ...(input.mobile !== undefined ? { mobile: clean(input.mobile) } : {}),
      ...(input.preferred_contact !== undefined ? { preferred_contact: input.preferred_contact } : {}),
      ...(input.notes !== undefined ? { notes: clean(input.notes) } : {}),
      updated_at: now,
    });
    // Field names only: the values are personal data and the log outlives an erasure.
    await recordActivity(trx, actor, now, {
      action: 'tenant.update', resourceType: 'tenant', resourceId: row.id, agencyId: row.agency_id, details: { fields: changed },
    });
  });
  return detail(deps.db, (await repo.findTenantById(deps.db, row.id))!);
}

/**
 * POST /api/tenants/assign-address (spec 4.9): links the address (by integer ID) to the tenant.
 * Idempotent: an existing link is reported, not duplicated.
 * @returns { created } false when the link existed already
 * @throws 404 'Tenant not found' / 'Address not found' (missing or another agency's), 409 erased
 */
export async function assignAddress(deps: AppDeps, auth: AuthContext, actor: Actor, input: AssignAddressInput): Promise<{ created: boolean }> {
  const tenant = await getTenantRow(deps.db, auth, input.tenant_uuid);
  const address = await findAddressById(deps.db, input.address_id);
  if (!address || address.agency_id !== tenant.agency_id) throw notFound('Address');
  if (tenant.erased_at !== null) throw conflict('Tenant has been erased');
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const created = await repo.linkAddress(trx, tenant.id, address.id, now);
    if (created) {
      await recordActivity(trx, actor, now, {
        action: 'tenant.assign_address', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: { address_id: address.id },
      });
    }
    return { created };
  });
}

/**
 * DELETE /api/tenants/{uuid}/addresses/{address_uuid}: removes a link.
 * @throws 404 tenant, address, or no such link
 */
export async function unassignAddress(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, addressUuid: string): Promise<void> {
  const tenant = await getTenantRow(deps.db, auth, uuid);
  const address = await getAddressRow(deps.db, auth, addressUuid);
  if (address.agency_id !== tenant.agency_id) throw notFound('Address');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.unlinkAddress(trx, tenant.id, address.id))) throw notFound('Address');
    await recordActivity(trx, actor, now, {
      action: 'tenant.unassign_address', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: { address_id: address.id },
    });
  });
}
