/**
 * What must be served on a tenancy's tenants, and by when (docs/compliance.md "Tenancies and
 * served documents"): pure date arithmetic on London dates (YYYY-MM-DD), no I/O. Each rule names
 * the regulation it implements.
 */
import { addDays } from '../../../lib/london-time.ts';

/** The documents served on a tenancy. */
export const SERVED_DOCUMENTS = ['gas_safety', 'eicr', 'epc', 'how_to_rent'] as const;
export type ServedDocumentKind = (typeof SERVED_DOCUMENTS)[number];
/** How a document was served. */
export const SERVICE_METHODS = ['hand', 'post', 'email'] as const;
export type ServiceMethod = (typeof SERVICE_METHODS)[number];
export type Nation = 'england' | 'wales' | 'scotland' | 'northern_ireland';

/** Days to give an existing tenant a copy of a new gas record (reg. 36(6)(a)) or EICR (ESSPRS 2020 reg. 3(1)(c)). */
export const COPY_DAYS = 28;

/** The regulation of each document, as cited on its row. */
export const RULES: Record<ServedDocumentKind, { name: string; rule: string }> = {
  gas_safety: {
    name: 'Gas safety record',
    rule: 'Gas Safety (Installation and Use) Regulations 1998, reg. 36(6): a copy of the last record to a new tenant before they occupy (36(6)(b)); of each new record to existing tenants within 28 days of the check (36(6)(a))',
  },
  eicr: {
    name: 'Electrical installation condition report',
    rule: 'Electrical Safety Standards in the Private Rented Sector (England) Regulations 2020, reg. 3(3)(b): a copy of the most recent report to a new tenant before they occupy; reg. 3(1)(c): of each new report to existing tenants within 28 days of the inspection',
  },
  epc: {
    name: 'Energy performance certificate',
    rule: 'Energy Performance of Buildings (England and Wales) Regulations 2012, reg. 6: a valid EPC given free of charge to the person who becomes the tenant (a new EPC during the tenancy need not be served)',
  },
  how_to_rent: {
    name: 'How to Rent guide',
    rule: 'Assured Shorthold Tenancy Notices and Prescribed Requirements (England) Regulations 2015, reg. 3: the version in force when an assured shorthold tenancy begins, given to the tenant (England only; a later version need not be served during the tenancy)',
  },
};

/** A certificate of the property (a version of the document), oldest first. */
export interface CertificateVersion {
  id: number;
  uuid: string;
  issued_on: string;
}

/** A service recorded on the tenancy. */
export interface ServiceRecord {
  document: ServedDocumentKind;
  certificate_id: number | null;
  guide_edition: string | null;
  served_on: string;
}

/** One thing owed to the tenancy's tenants and where it stands. */
export interface Obligation {
  document: ServedDocumentKind;
  name: string;
  rule: string;
  /** The certificate to serve (null: the guide, or no certificate recorded). */
  certificate_uuid: string | null;
  certificate_issued_on: string | null;
  /** The last day it may be served on time; null when not required. */
  due_by: string | null;
  /** served, served_late (after due_by), owed (not served, due_by not passed), overdue (not served, due_by passed), not_required */
  status: 'served' | 'served_late' | 'owed' | 'overdue' | 'not_required';
  served_on: string | null;
  reason: string;
}

/** The tenancy and property facts the rules read. */
export interface TenancyFacts {
  starts_on: string;
  ends_on: string | null;
  kind: 'assured_shorthold' | 'other';
  /** The property's stated nation, else from its postcode; null: England assumed. */
  nation: Nation | null;
  /** null: not recorded (a gas record is then required). */
  gas_supply: boolean | null;
}

/** Whether the document applies to the tenancy, and if not why. */
export function applies(doc: ServedDocumentKind, t: TenancyFacts): { required: boolean; reason: string } {
  const nation = t.nation ?? 'england';
  if (doc === 'gas_safety') {
    if (t.gas_supply === false) return { required: false, reason: 'The property has no gas supply' };
    if (nation === 'northern_ireland') return { required: false, reason: 'The 1998 Regulations cover Great Britain (Northern Ireland has its own, not applied here)' };
    return { required: true, reason: '' };
  }
  if (doc === 'eicr') return nation === 'england' ? { required: true, reason: '' } : { required: false, reason: 'The 2020 Regulations apply in England only' };
  if (doc === 'epc') return nation === 'england' || nation === 'wales' ? { required: true, reason: '' } : { required: false, reason: 'The 2012 Regulations apply in England and Wales' };
  if (nation !== 'england') return { required: false, reason: 'The How to Rent guide is required in England only' };
  if (t.kind !== 'assured_shorthold') return { required: false, reason: 'The How to Rent guide is required for assured shorthold tenancies only' };
  return { required: true, reason: '' };
}

function statusOf(dueBy: string, servedOn: string | null, today: string): Obligation['status'] {
  if (servedOn !== null) return servedOn <= dueBy ? 'served' : 'served_late';
  return dueBy < today ? 'overdue' : 'owed';
}

/**
 * What the tenancy's tenants are owed of one document and its status on `today`.
 * Served before the tenancy starts means on or before its first day (before the tenant occupies).
 * @param certs the property's certificates of the document's type, oldest first (ignored for the guide)
 * @param services the services recorded on the tenancy (any document)
 * @example a tenancy from 2026-03-01 with a gas record of 2026-02-10 served on 2026-03-05:
 *   status served_late, due_by 2026-03-01
 */
export function obligations(doc: ServedDocumentKind, t: TenancyFacts, certs: CertificateVersion[], services: ServiceRecord[], today: string): Obligation[] {
  const { name, rule } = RULES[doc];
  const base = { document: doc, name, rule };
  const a = applies(doc, t);
  if (!a.required) return [{ ...base, certificate_uuid: null, certificate_issued_on: null, due_by: null, status: 'not_required', served_on: null, reason: a.reason }];
  const mine = services.filter((s) => s.document === doc).sort((x, y) => x.served_on.localeCompare(y.served_on));
  if (doc === 'how_to_rent') {
    // Only an edition dated on or before the first day can be the version in force when it began.
    const s = mine.find((x) => x.guide_edition !== null && x.guide_edition <= t.starts_on) ?? null;
    const wrong = mine.find((x) => x.guide_edition !== null && x.guide_edition > t.starts_on);
    const status = statusOf(t.starts_on, s?.served_on ?? null, today);
    const reason = s ? `Edition of ${s.guide_edition} served` : wrong ? `The edition served (${wrong.guide_edition}) is later than the start: serve the version in force on ${t.starts_on}` : 'Not served';
    return [{ ...base, certificate_uuid: null, certificate_issued_on: null, due_by: t.starts_on, status, served_on: s?.served_on ?? null, reason }];
  }
  const servedOf = (c: CertificateVersion) => mine.find((s) => s.certificate_id === c.id)?.served_on ?? null;
  const atStart = [...certs].reverse().find((c) => c.issued_on <= t.starts_on) ?? null;
  const out: Obligation[] = [];
  if (atStart === null) {
    const first = certs.find((c) => c.issued_on > t.starts_on && (t.ends_on === null || c.issued_on <= t.ends_on));
    if (!first || doc === 'epc') {
      const c = doc === 'epc' ? first ?? null : null;
      const servedOn = c ? servedOf(c) : null;
      out.push({
        ...base, certificate_uuid: c?.uuid ?? null, certificate_issued_on: c?.issued_on ?? null, due_by: t.starts_on, status: statusOf(t.starts_on, servedOn, today), served_on: servedOn,
        reason: c ? 'No certificate was in force when the tenancy began; the first one made after is owed' : 'No certificate recorded on or before the start',
      });
    }
  } else {
    const servedOn = servedOf(atStart);
    const older = mine.find((s) => s.certificate_id !== null && s.certificate_id !== atStart.id && certs.some((c) => c.id === s.certificate_id && c.issued_on < atStart.issued_on));
    out.push({
      ...base, certificate_uuid: atStart.uuid, certificate_issued_on: atStart.issued_on, due_by: t.starts_on, status: statusOf(t.starts_on, servedOn, today), served_on: servedOn,
      reason: servedOn !== null ? 'The certificate in force when the tenancy began'
        : older ? `A superseded certificate was served; the one issued ${atStart.issued_on} is owed` : 'The certificate in force when the tenancy began, not served',
    });
  }
  if (doc === 'epc') return out;
  // Each new record or report during the tenancy: to the existing tenants within 28 days.
  for (const c of certs) {
    if (c.issued_on <= t.starts_on || (t.ends_on !== null && c.issued_on > t.ends_on)) continue;
    const due = addDays(c.issued_on, COPY_DAYS);
    const servedOn = servedOf(c);
    out.push({
      ...base, certificate_uuid: c.uuid, certificate_issued_on: c.issued_on, due_by: due, status: statusOf(due, servedOn, today), served_on: servedOn,
      reason: `Made during the tenancy: a copy within ${COPY_DAYS} days`,
    });
  }
  return out;
}

/** Every obligation of the tenancy, in document order. */
export function allObligations(t: TenancyFacts, certs: Record<'gas_safety' | 'eicr' | 'epc', CertificateVersion[]>, services: ServiceRecord[], today: string): Obligation[] {
  return SERVED_DOCUMENTS.flatMap((d) => obligations(d, t, d === 'how_to_rent' ? [] : certs[d], services, today));
}

/** Whether an obligation is still owed (not served yet). */
export const isOwed = (o: Obligation) => o.status === 'owed' || o.status === 'overdue';
