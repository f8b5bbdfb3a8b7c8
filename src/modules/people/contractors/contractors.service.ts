/**
 * Contractor rules (docs/contractors.md): companies of the caller's agency with contacts, trades
 * (visible, not retired) and coverage districts (valid outward codes, stored upper case).
 * Another agency's contractor is 404. Writes log in their transaction.
 */
import { compareDistricts } from '../addresses/index.ts';
import { cleanText as clean } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency, sameAgency, writeAgency } from '../../../core/agency-scope.ts';
import { normaliseDistrict, normalisePostcode } from '../addresses/index.ts';
import { toCertificationDto } from './certification-dto.ts';
import * as repo from './contractors.repository.ts';
import type {
  ContactInput, ContractorDetailDto, ContractorDto, CreateContractorInput, ListContractorsQuery, UpdateContractorInput,
} from './contractors.schemas.ts';
import { checkTradeIds } from './trades.service.ts';


/** Wire shapes of contractor rows, with trades, coverage, contacts and login flag loaded in batches. */
export async function toContractorDtos(db: DbOrTrx, rows: repo.ContractorRow[]): Promise<ContractorDto[]> {
  const ids = rows.map((r) => r.id);
  const [trades, coverage, contacts, logins] = await Promise.all([
    repo.tradesOf(db, ids), repo.coverageOf(db, ids), repo.contactsOf(db, ids), repo.withLogin(db, ids),
  ]);
  return rows.map((r) => ({
    uuid: r.uuid,
    company_name: r.company_name,
    contact_name: r.contact_name,
    email: r.email,
    phone: r.phone,
    notes: r.notes,
    address: r.address_line1 === null ? null : { line1: r.address_line1, line2: r.address_line2, town: r.address_town, postcode: r.address_postcode },
    active: r.active,
    trades: trades.filter((t) => t.contractor_id === r.id).map((t) => ({ ID: t.id, code: t.code, name: t.name })),
    coverage: coverage.filter((c) => c.contractor_id === r.id).map((c) => c.district).sort(compareDistricts),
    contacts: contacts.filter((c) => c.contractor_id === r.id).map(({ contractor_id: _, ...c }) => c),
    has_login: logins.has(r.id),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  }));
}

/** A contractor the caller may see, by uuid. @throws 404 'Contractor not found' */
export async function getContractorRow(db: DbOrTrx, auth: AuthContext, uuid: string): Promise<repo.ContractorRow> {
  const row = await repo.findByUuid(db, uuid);
  if (!row || !sameAgency(auth, row.agency_id)) throw notFound('Contractor');
  return row;
}

/**
 * GET /api/contractors: one page sorted by `sort` (CONTRACTOR_SORTS, default company_name) in
 * `order` (default asc), the id breaking ties (docs/api.md). @returns { rows: ContractorDto[], total }
 * @throws 400 for a district that is no outward code
 */
export async function listContractors(deps: AppDeps, auth: AuthContext, q: ListContractorsQuery) {
  let district: string | undefined;
  if (q.district !== undefined) {
    district = normaliseDistrict(q.district) ?? undefined;
    if (!district) throw invalidParam('district');
  }
  const { rows, total } = await repo.listContractors(deps.db, {
    agencyId: readAgency(auth), q: q.q?.trim() || undefined, tradeCode: q.trade, district, active: q.active,
    sort: q.sort ?? 'company_name', order: q.order ?? 'asc', limit: q.limit, offset: q.offset,
  });
  return { rows: await toContractorDtos(deps.db, rows), total };
}

/** GET /api/contractors/{uuid}: the contractor with its certificates. @throws 404 */
export async function getContractor(deps: AppDeps, auth: AuthContext, uuid: string): Promise<ContractorDetailDto> {
  return detail(deps, await getContractorRow(deps.db, auth, uuid));
}

async function detail(deps: AppDeps, row: repo.ContractorRow): Promise<ContractorDetailDto> {
  const [dto] = await toContractorDtos(deps.db, [row]);
  const certs = await repo.certificationsOf(deps.db, [row.id]);
  const today = deps.clock.now();
  return { ...dto!, certifications: certs.map((c) => toCertificationDto(c, today)) };
}

/**
 * Normalises coverage districts ("ls6" -> "LS6"), dropping repeats.
 * @throws 400 naming `param` for an invalid outward code
 */
export function checkDistricts(values: string[], param: string): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const d = normaliseDistrict(v);
    if (!d) throw invalidParam(param);
    out.add(d);
  }
  return [...out].sort();
}

function contactRows(contacts: ContactInput[]) {
  return contacts.map((c) => ({
    uuid: newUuid(),
    name: c.name.trim(),
    role: clean(c.role) ?? null,
    email: clean(c.email)?.toLowerCase() ?? null,
    phone: clean(c.phone) ?? null,
    is_primary: c.is_primary === true,
  }));
}

/**
 * The address columns sent (trimmed; empty is null; the postcode normalised).
 * @throws 400 'address_postcode' for a string that is no UK postcode
 */
function addressFields(input: Pick<CreateContractorInput, 'address_line1' | 'address_line2' | 'address_town' | 'address_postcode'>) {
  const out: { address_line1?: string | null; address_line2?: string | null; address_town?: string | null; address_postcode?: string | null } = {};
  if (input.address_line1 !== undefined) out.address_line1 = clean(input.address_line1) ?? null;
  if (input.address_line2 !== undefined) out.address_line2 = clean(input.address_line2) ?? null;
  if (input.address_town !== undefined) out.address_town = clean(input.address_town) ?? null;
  if (input.address_postcode !== undefined) {
    const raw = clean(input.address_postcode);
    if (raw) {
      const pc = normalisePostcode(raw);
      if (!pc) throw invalidParam('address_postcode');
      out.address_postcode = pc;
    } else out.address_postcode = null;
  }
  return out;
}

/**
 * POST /api/contractors: creates a contractor with optional trades, coverage and contacts.
 * @throws 400 company_name/trade_ids/coverage/contacts, 403 without an agency
 */
export async function createContractor(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateContractorInput): Promise<ContractorDetailDto> {
  const agencyId = writeAgency(auth);
  const company = input.company_name.trim();
  if (!company) throw invalidParam('company_name');
  const tradeIds = input.trade_ids ?? [];
  await checkTradeIds(deps.db, agencyId, tradeIds);
  const districts = checkDistricts(input.coverage ?? [], 'coverage');
  if ((input.contacts ?? []).some((c) => !c.name.trim())) throw invalidParam('contacts');
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertContractor(trx, {
      uuid: newUuid(),
      agency_id: agencyId,
      company_name: company,
      contact_name: clean(input.contact_name) ?? null,
      email: clean(input.email)?.toLowerCase() ?? null,
      phone: clean(input.phone) ?? null,
      notes: clean(input.notes) ?? null,
      ...addressFields(input),
      active: input.active ?? true,
      created_at: now,
      updated_at: now,
    });
    await repo.replaceTrades(trx, id, tradeIds);
    await repo.replaceCoverage(trx, id, districts);
    await repo.replaceContacts(trx, id, contactRows(input.contacts ?? []), now);
    await recordActivity(trx, actor, now, { action: 'contractor.create', resourceType: 'contractor', resourceId: id, agencyId });
    return id;
  });
  return detail(deps, (await repo.findById(deps.db, id))!);
}

/**
 * PUT /api/contractors/{uuid}: changes the fields sent (contacts replaced when sent).
 * @throws 400 bad field, 404 contractor
 */
export async function updateContractor(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateContractorInput): Promise<ContractorDetailDto> {
  const row = await getContractorRow(deps.db, auth, uuid);
  if (input.company_name !== undefined && !input.company_name.trim()) throw invalidParam('company_name');
  if ((input.contacts ?? []).some((c) => !c.name.trim())) throw invalidParam('contacts');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateContractor(trx, row.id, {
      ...(input.company_name !== undefined ? { company_name: input.company_name.trim() } : {}),
      ...(input.contact_name !== undefined ? { contact_name: clean(input.contact_name) } : {}),
      ...(input.email !== undefined ? { email: clean(input.email)?.toLowerCase() ?? null } : {}),
      ...(input.phone !== undefined ? { phone: clean(input.phone) } : {}),
      ...(input.notes !== undefined ? { notes: clean(input.notes) } : {}),
      ...addressFields(input),
      ...(input.active !== undefined ? { active: input.active } : {}),
      updated_at: now,
    });
    if (input.contacts !== undefined) await repo.replaceContacts(trx, row.id, contactRows(input.contacts), now);
    await recordActivity(trx, actor, now, {
      action: 'contractor.update', resourceType: 'contractor', resourceId: row.id, agencyId: row.agency_id,
      details: { fields: Object.keys(input) },
    });
  });
  return detail(deps, (await repo.findById(deps.db, row.id))!);
}

/**
 * PUT /api/contractors/{uuid}/trades: replaces the contractor's trades.
 * @throws 400 trade_ids (unknown, retired or another agency's trade), 404 contractor
 */
export async function setTrades(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, tradeIds: number[]): Promise<ContractorDetailDto> {
  const row = await getContractorRow(deps.db, auth, uuid);
  await checkTradeIds(deps.db, row.agency_id, tradeIds);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.replaceTrades(trx, row.id, tradeIds);
    await repo.updateContractor(trx, row.id, { updated_at: now });
    await recordActivity(trx, actor, now, {
      action: 'contractor.set_trades', resourceType: 'contractor', resourceId: row.id, agencyId: row.agency_id, details: { trade_ids: tradeIds },
    });
  });
  return detail(deps, (await repo.findById(deps.db, row.id))!);
}

/**
 * PUT /api/contractors/{uuid}/coverage: replaces the covered postcode districts.
 * @throws 400 districts (not an outward code such as LS6), 404 contractor
 */
export async function setCoverage(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, values: string[]): Promise<ContractorDetailDto> {
  const row = await getContractorRow(deps.db, auth, uuid);
  const districts = checkDistricts(values, 'districts');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.replaceCoverage(trx, row.id, districts);
    await repo.updateContractor(trx, row.id, { updated_at: now });
    await recordActivity(trx, actor, now, {
      action: 'contractor.set_coverage', resourceType: 'contractor', resourceId: row.id, agencyId: row.agency_id, details: { districts },
    });
  });
  return detail(deps, (await repo.findById(deps.db, row.id))!);
}
