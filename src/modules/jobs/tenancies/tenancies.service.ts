/**
 * Tenancies with their dates and tenants, and the documents served on them (docs/compliance.md
 * "Tenancies and served documents"): the gas safety record, EICR, EPC and How to Rent guide each
 * recorded as served (date, method, proof: a note or an uploaded file) against the certificate
 * version served, and what is still owed per tenancy, by the rules of served-rules.ts.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { checkFile, fileCheckError, type AcceptedFileType, type CheckedFileSource } from '../../../http/file-checks.ts';
import type { SpooledFile } from '../../../http/upload-spool.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { isoOrNull } from '../../../lib/fields.ts';
import { londonDate } from '../../../lib/london-time.ts';
import { sniffFile } from '../../../lib/sniff.ts';
import { nationOfPostcode } from '../hazards/index.ts';
import * as repo from './tenancies.repository.ts';
import type { CreateTenancyInput, ServeInput } from './tenancies.schemas.ts';
import { allObligations, isOwed, type CertificateVersion, type Nation, type Obligation, type ServedDocumentKind } from './served-rules.ts';

type Property = NonNullable<Awaited<ReturnType<typeof repo.findProperty>>>;

/** A served document as the API shows it. */
export interface ServedDto {
  uuid: string;
  document: ServedDocumentKind;
  certificate_uuid: string | null;
  certificate_issued_on: string | null;
  guide_edition: string | null;
  served_on: string;
  method: string;
  proof_note: string | null;
  proof_file: { mime: string; size: number; sha256: string } | null;
  created_at: string;
}

/** A tenancy as the API shows it. */
export interface TenancyDto {
  uuid: string;
  property_uuid: string;
  kind: string;
  starts_on: string;
  ends_on: string | null;
  nation: string;
  tenants: Array<{ uuid: string; name: string }>;
  documents: Obligation[];
  owed: number;
  served: ServedDto[];
  created_at: string;
}

const toServedDto = (s: repo.ServedRow): ServedDto => ({
  uuid: s.uuid, document: s.document, certificate_uuid: s.certificate_uuid, certificate_issued_on: s.certificate_issued_on, guide_edition: s.guide_edition,
  served_on: s.served_on, method: s.method, proof_note: s.proof_note,
  proof_file: s.proof_file_key && s.proof_file_mime ? { mime: s.proof_file_mime, size: s.proof_file_size ?? 0, sha256: (s.proof_file_sha256 ?? '').trim() } : null,
  created_at: isoOrNull(s.created_at)!,
});

const nationOf = (p: Property): Nation => ((p.nation as Nation | null) ?? nationOfPostcode(p.postcode ?? '') ?? 'england');

async function propertyOf(deps: AppDeps, auth: AuthContext, uuid: string): Promise<Property> {
  const p = await repo.findProperty(deps.db, readAgency(auth), uuid);
  if (!p) throw notFound('Property');
  return p;
}

async function tenancyOf(deps: AppDeps, p: Property, uuid: string): Promise<repo.TenancyRow> {
  const t = await repo.findTenancy(deps.db, p.id, uuid);
  if (!t) throw notFound('Tenancy');
  return t;
}

/** The tenancies with tenants, served documents and obligations on today's London date. */
async function toDtos(deps: AppDeps, p: Property, rows: repo.TenancyRow[]): Promise<TenancyDto[]> {
  const ids = rows.map((r) => r.id);
  const [tenants, served, certs] = await Promise.all([repo.tenantsOf(deps.db, ids), repo.servedOf(deps.db, ids), repo.certificatesOf(deps.db, p.id)]);
  const byType: Record<'gas_safety' | 'eicr' | 'epc', CertificateVersion[]> = { gas_safety: [], eicr: [], epc: [] };
  for (const c of certs) byType[c.code as keyof typeof byType].push({ id: c.id, uuid: c.uuid, issued_on: c.issued_on });
  const today = londonDate(deps.clock.now());
  const nation = nationOf(p);
  return rows.map((t) => {
    const mine = served.filter((s) => s.tenancy_id === t.id);
    const documents = allObligations({ starts_on: t.starts_on, ends_on: t.ends_on, kind: t.kind, nation, gas_supply: p.gas_supply }, byType, mine, today);
    return {
      uuid: t.uuid, property_uuid: p.uuid, kind: t.kind, starts_on: t.starts_on, ends_on: t.ends_on, nation,
      tenants: tenants.filter((n) => n.tenancy_id === t.id).map((n) => ({ uuid: n.uuid, name: n.name })),
      documents, owed: documents.filter(isOwed).length, served: mine.map(toServedDto), created_at: isoOrNull(t.created_at)!,
    };
  });
}

/**
 * GET /api/properties/{uuid}/tenancies: the property's tenancies, latest start first.
 * @returns { rows, total }
 * @throws 404 'Property not found' (also another agency's)
 */
export async function listTenancies(deps: AppDeps, auth: AuthContext, propertyUuid: string, page: { limit: number; offset: number }) {
  const p = await propertyOf(deps, auth, propertyUuid);
  const { rows, total } = await repo.tenanciesOf(deps.db, p.id, page);
  return { rows: await toDtos(deps, p, rows), total };
}

/**
 * GET /api/properties/{uuid}/tenancies/{tenancy_uuid}: one tenancy.
 * @throws 404 property or tenancy
 */
export async function getTenancy(deps: AppDeps, auth: AuthContext, propertyUuid: string, tenancyUuid: string): Promise<TenancyDto> {
  const p = await propertyOf(deps, auth, propertyUuid);
  return (await toDtos(deps, p, [await tenancyOf(deps, p, tenancyUuid)]))[0]!;
}

/**
 * POST /api/properties/{uuid}/tenancies: a tenancy from starts_on (to ends_on) with its tenants.
 * @throws 400 ends_on before starts_on, or a tenant not of the agency (tenant_uuids); 404 property
 */
export async function createTenancy(deps: AppDeps, auth: AuthContext, actor: Actor, propertyUuid: string, input: CreateTenancyInput): Promise<TenancyDto> {
  const agencyId = writeAgency(auth);
  const p = await propertyOf(deps, auth, propertyUuid);
  if (input.ends_on && input.ends_on < input.starts_on) throw invalidParam('ends_on');
  const tenants = await repo.tenantsByUuid(deps.db, agencyId, input.tenant_uuids);
  if (tenants.length !== input.tenant_uuids.length) throw invalidParam('tenant_uuids');
  const now = deps.clock.now();
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertTenancy(trx, {
      uuid, agency_id: agencyId, address_id: p.id, kind: input.kind ?? 'assured_shorthold', starts_on: input.starts_on, ends_on: input.ends_on ?? null,
      created_by_user_id: actor.auth?.userId ?? null, now,
    }, tenants.map((t) => t.id));
    await recordActivity(trx, actor, now, { action: 'tenancy.create', resourceType: 'tenancy', resourceId: id, agencyId, details: { address_id: p.id, starts_on: input.starts_on, tenants: tenants.length } });
  });
  return getTenancy(deps, auth, propertyUuid, uuid);
}

/**
 * POST /api/properties/{uuid}/tenancies/{tenancy_uuid}/served-documents: records that a document
 * was served on the tenants: the certificate version (gas_safety, eicr, epc: one of the
 * property's certificates of that type) or the guide's edition (how_to_rent), the day, the method
 * and a proof note (a file may follow at .../proof).
 * @returns the tenancy with what is still owed
 * @throws 400 certificate_uuid missing or not the property's of that type, guide_edition missing,
 *   served_on in the future; 404 property or tenancy
 */
export async function recordService(deps: AppDeps, auth: AuthContext, actor: Actor, propertyUuid: string, tenancyUuid: string, input: ServeInput): Promise<TenancyDto> {
  const agencyId = writeAgency(auth);
  const p = await propertyOf(deps, auth, propertyUuid);
  const t = await tenancyOf(deps, p, tenancyUuid);
  const now = deps.clock.now();
  if (input.served_on > londonDate(now)) throw invalidParam('served_on');
  let certificateId: number | null = null;
  if (input.document === 'how_to_rent') {
    if (!input.guide_edition) throw invalidParam('guide_edition');
    if (input.certificate_uuid !== undefined) throw invalidParam('certificate_uuid');
  } else {
    if (input.guide_edition !== undefined) throw invalidParam('guide_edition');
    const cert = (await repo.certificatesOf(deps.db, p.id)).find((c) => c.uuid === input.certificate_uuid && c.code === input.document);
    if (!cert) throw invalidParam('certificate_uuid');
    certificateId = cert.id;
  }
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertServed(trx, {
      uuid: newUuid(), agency_id: agencyId, tenancy_id: t.id, document: input.document, certificate_id: certificateId, guide_edition: input.guide_edition ?? null,
      served_on: input.served_on, method: input.method, proof_note: input.proof_note?.trim() || null, created_by_user_id: actor.auth?.userId ?? null, created_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: 'tenancy.serve', resourceType: 'tenancy', resourceId: t.id, agencyId, details: { served_id: id, document: input.document, served_on: input.served_on, method: input.method },
    });
  });
  return (await toDtos(deps, p, [t]))[0]!;
}

const PROOF_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);

async function acceptProof(file: CheckedFileSource): Promise<AcceptedFileType | undefined> {
  const type = await sniffFile(file.path);
  return type && PROOF_TYPES.has(type.mime) ? type : undefined;
}

/**
 * POST .../served-documents/{served_uuid}/proof: stores the proof of service (a PDF, JPEG or PNG:
 * a signed receipt, a proof of posting, the e-mail sent), replacing an earlier file.
 * @throws 400 not a PDF, JPEG or PNG; 404 property, tenancy or served document
 */
export async function attachProof(deps: AppDeps, auth: AuthContext, actor: Actor, propertyUuid: string, tenancyUuid: string, servedUuid: string, file: SpooledFile): Promise<ServedDto> {
  const agencyId = writeAgency(auth);
  const p = await propertyOf(deps, auth, propertyUuid);
  const t = await tenancyOf(deps, p, tenancyUuid);
  const served = await repo.findServed(deps.db, t.id, servedUuid);
  if (!served) throw notFound('Served document');
  const verdict = await checkFile(file, undefined, { maxBytes: Number.POSITIVE_INFINITY, fallbackName: 'proof', accept: acceptProof });
  const wrongType = 'The proof must be a PDF, JPEG or PNG file';
  if (!verdict.ok) throw fileCheckError(verdict, { empty: wrongType, unsupported_type: wrongType });
  const stored = await deps.files.putStream(file.open(), verdict.type.ext);
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await repo.setProofFile(trx, served.id, { key: stored.key, mime: verdict.type.mime, size: stored.size, sha256: stored.sha256 });
      await recordActivity(trx, actor, now, {
        action: 'tenancy.serve_proof', resourceType: 'tenancy', resourceId: t.id, agencyId, details: { served_id: served.id, mime: verdict.type.mime, size: stored.size, sha256: stored.sha256 },
      });
    });
  } catch (err) {
    await deps.files.delete(stored.key).catch(() => undefined);
    throw err;
  }
  if (served.proof_file_key) await deps.files.delete(served.proof_file_key).catch(() => undefined);
  return toServedDto((await repo.findServed(deps.db, t.id, servedUuid))!);
}

/**
 * GET .../served-documents/{served_uuid}/proof: the stored proof's key, SHA-256, type and download name.
 * @throws 404 when none
 */
export async function readProof(deps: AppDeps, auth: AuthContext, propertyUuid: string, tenancyUuid: string, servedUuid: string) {
  const p = await propertyOf(deps, auth, propertyUuid);
  const t = await tenancyOf(deps, p, tenancyUuid);
  const served = await repo.findServed(deps.db, t.id, servedUuid);
  if (!served?.proof_file_key || !served.proof_file_mime) throw notFound('Proof');
  const ext = served.proof_file_key.split('.').pop() ?? 'bin';
  return { key: served.proof_file_key, sha256: (served.proof_file_sha256 ?? '').trim(), mime: served.proof_file_mime, name: `proof-${served.document}-${served.served_on}.${ext}` };
}
