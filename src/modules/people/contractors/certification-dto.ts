/**
 * The wire shape of a contractor's certificate (spec: contractors, certifications), shared by the
 * contractor detail and the certification endpoints.
 */
import { DAY_MS } from '../../../lib/clock.ts';
import { certName, isoDay } from './certification-types.ts';
import type { CertRow } from './contractors.repository.ts';
import type { CertificationDto } from './contractors.schemas.ts';

/** Days within which a certificate counts as "expiring". */
export const EXPIRING_DAYS = 30;

/** Whole days from the UTC day of `today` to an ISO date (negative when past). */
export function daysUntil(day: string, today: Date): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${isoDay(today)}T00:00:00Z`)) / DAY_MS);
}

/** Wire shape of a certificate row, its status computed for `today`. */
export function toCertificationDto(c: CertRow, today: Date): CertificationDto {
  const daysLeft = daysUntil(c.expires_on, today);
  return {
    uuid: c.uuid,
    contractor_uuid: c.contractor_uuid,
    company_name: c.company_name,
    cert_type: c.cert_type,
    cert_name: certName(c.cert_type),
    reference: c.reference,
    issued_on: c.issued_on,
    expires_on: c.expires_on,
    status: daysLeft < 0 ? 'expired' : daysLeft <= EXPIRING_DAYS ? 'expiring' : 'valid',
    days_left: daysLeft,
    has_document: c.file_key !== null,
    document_mime: c.file_mime,
    created_at: new Date(c.created_at).toISOString(),
  };
}

