/**
 * Certificates of contractors (docs/contractors.md): Gas Safe, NICEIC, NAPIT, OFTEC, FENSA, CHAS, ...
 * with reference, issue and expiry dates and an optional document (PDF, JPEG or PNG, sniffed from
 * the content and stored in deps.files); the list of certificates expiring soon.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { SpooledFile } from '../../../http/upload-spool.ts';
import { checkFile, fileCheckError, type AcceptedFileType, type CheckedFileSource } from '../../../http/file-checks.ts';
import { sniffFile } from '../../../lib/sniff.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import { toCertificationDto } from './certification-dto.ts';
import { isoDay } from './certification-types.ts';
import { DAY_MS } from '../../../lib/clock.ts';
import * as repo from './contractors.repository.ts';
import type { CertificationDto, CreateCertificationInput } from './contractors.schemas.ts';
import { getContractorRow } from './contractors.service.ts';

/** Document types accepted for a certificate. */
export const DOCUMENT_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);


/** GET /api/contractors/{uuid}/certifications: live certificates by expiry. @throws 404 */
export async function listCertifications(deps: AppDeps, auth: AuthContext, uuid: string): Promise<CertificationDto[]> {
  const row = await getContractorRow(deps.db, auth, uuid);
  const today = deps.clock.now();
  return (await repo.certificationsOf(deps.db, [row.id])).map((c) => toCertificationDto(c, today));
}

/**
 * POST /api/contractors/{uuid}/certifications: records a certificate.
 * @throws 400 expires_on before issued_on, 404 contractor
 */
export async function createCertification(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: CreateCertificationInput): Promise<CertificationDto> {
  const row = await getContractorRow(deps.db, auth, uuid);
  const reference = input.reference.trim();
  if (!reference) throw invalidParam('reference');
  if (input.issued_on && input.issued_on > input.expires_on) throw invalidParam('expires_on');
  const now = deps.clock.now();
  const certUuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertCertification(trx, {
      uuid: certUuid,
      agency_id: row.agency_id,
      contractor_id: row.id,
      cert_type: input.cert_type,
      reference,
      issued_on: input.issued_on ?? null,
      expires_on: input.expires_on,
      file_key: null,
      file_mime: null,
      file_size: null,
      file_sha256: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    await recordActivity(trx, actor, now, {
      action: 'contractor.add_certification', resourceType: 'contractor', resourceId: row.id, agencyId: row.agency_id,
      details: { certification_id: id, cert_type: input.cert_type, expires_on: input.expires_on },
    });
  });
  return toCertificationDto((await repo.findCertification(deps.db, row.id, certUuid))!, now);
}

async function certOf(deps: AppDeps, auth: AuthContext, uuid: string, certUuid: string) {
  const row = await getContractorRow(deps.db, auth, uuid);
  const cert = await repo.findCertification(deps.db, row.id, certUuid);
  if (!cert) throw notFound('Certification');
  return { row, cert };
}

/** DELETE /api/contractors/{uuid}/certifications/{cert_uuid}: removes (soft) a certificate. @throws 404 */
export async function deleteCertification(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, certUuid: string): Promise<void> {
  const { row, cert } = await certOf(deps, auth, uuid, certUuid);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateCertification(trx, cert.id, { deleted_at: now, updated_at: now });
    await recordActivity(trx, actor, now, {
      action: 'contractor.remove_certification', resourceType: 'contractor', resourceId: row.id, agencyId: row.agency_id,
      details: { certification_id: cert.id, cert_type: cert.cert_type },
    });
  });
}

/** A certificate scan's type from its bytes: PDF, JPEG or PNG. */
async function acceptCertificate(file: CheckedFileSource): Promise<AcceptedFileType | undefined> {
  const type = await sniffFile(file.path);
  return type && DOCUMENT_TYPES.has(type.mime) ? type : undefined;
}

/**
 * POST /api/contractors/{uuid}/certifications/{cert_uuid}/document: stores the scanned
 * certificate, replacing an earlier one. The type is sniffed from the content.
 * @param file the spooled upload (streamed to the FileStore; the row only after it is stored)
 * @throws 400 not a PDF, JPEG or PNG (or empty), or an image above 50 megapixels; 404 contractor or certificate, 503 when the
 *   file store is down (nothing changed)
 */
export async function attachDocument(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, certUuid: string, file: SpooledFile): Promise<CertificationDto> {
  const { row, cert } = await certOf(deps, auth, uuid, certUuid);
  // The one check of every way in (src/http/file-checks.ts); the multipart reader limited the size.
  const verdict = await checkFile(file, undefined, { maxBytes: Number.POSITIVE_INFINITY, fallbackName: 'certificate', accept: acceptCertificate });
  const wrongType = 'The document must be a PDF, JPEG or PNG file';
  if (!verdict.ok) throw fileCheckError(verdict, { empty: wrongType, unsupported_type: wrongType });
  const { type } = verdict;
  const stored = await deps.files.putStream(file.open(), type.ext);
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await repo.updateCertification(trx, cert.id, { file_key: stored.key, file_mime: type.mime, file_size: stored.size, file_sha256: stored.sha256, updated_at: now });
      await recordActivity(trx, actor, now, {
        action: 'contractor.upload_certificate', resourceType: 'contractor', resourceId: row.id, agencyId: row.agency_id,
        details: { certification_id: cert.id, mime: type.mime, size: stored.size, sha256: stored.sha256 },
      });
    });
  } catch (err) {
    await deps.files.delete(stored.key).catch(() => undefined);
    throw err;
  }
  if (cert.file_key) await deps.files.delete(cert.file_key).catch(() => undefined);
  return toCertificationDto((await repo.findCertification(deps.db, row.id, certUuid))!, now);
}

/**
 * GET .../document: the stored document's key, SHA-256, type and download name (the route
 * streams it with sendStoredFile). @throws 404 when none
 */
export async function readDocument(deps: AppDeps, auth: AuthContext, uuid: string, certUuid: string): Promise<{ key: string; sha256: string; mime: string; name: string }> {
  const { cert } = await certOf(deps, auth, uuid, certUuid);
  if (!cert.file_key || !cert.file_mime) throw notFound('Document');
  const ext = cert.file_key.split('.').pop() ?? 'bin';
  return { key: cert.file_key, sha256: (cert.file_sha256 ?? '').trim(), mime: cert.file_mime, name: `${cert.cert_type}-${cert.reference.replace(/[^A-Za-z0-9-]/g, '_')}.${ext}` };
}

/**
 * GET /api/contractors/certifications/expiring: the agency's live certificates expiring from
 * today through today + `days`, soonest first.
 * @returns { rows: CertificationDto[], total }
 */
export async function listExpiring(deps: AppDeps, auth: AuthContext, q: { days: number; limit: number; offset: number }) {
  const today = deps.clock.now();
  const to = isoDay(new Date(today.getTime() + q.days * DAY_MS));
  const { rows, total } = await repo.expiring(deps.db, readAgency(auth), isoDay(today), to, q);
  return { rows: rows.map((c) => toCertificationDto(c, today)), total };
}
