/**
 * The UK compliance rules by the letter of each regulation (docs/compliance.md "The rules"): pure
 * date arithmetic on London dates (YYYY-MM-DD), no I/O. Each function names the regulation and
 * paragraph it implements; the service applies them when a certificate is recorded and the
 * register reads their outcome.
 */
import { addDays, addMonths, humanDate } from '../../../lib/london-time.ts';

/** Gas Safety (Installation and Use) Regulations 1998, reg. 36(3): at most 12 months between checks. */
export const GAS_INTERVAL_MONTHS = 12;
/** reg. 36(3) as amended in 2018: a check in the 2 months before the deadline date keeps it. */
export const GAS_EARLY_WINDOW_MONTHS = 2;
/** Days to give a tenant a copy of a gas record (reg. 36(6)(b)) or an EICR (ESSPRS 2020 reg. 3(1)(c)). */
export const TENANT_COPY_DAYS = 28;
/** Electrical Safety Standards in the Private Rented Sector (England) Regulations 2020, reg. 3(1)(b): at most 5 years. */
export const EICR_INTERVAL_MONTHS = 60;
/** ESSPRS 2020 reg. 3(4)(a): remedial works within 28 days of the report, or less if it says so. */
export const EICR_REMEDIAL_DAYS = 28;
/** MEES (Energy Efficiency (Private Rented Property) (England and Wales) Regulations 2015): the lowest rating that may be let. */
export const MEES_MINIMUM = 'E';
const EPC_RATINGS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type EpcRating = (typeof EPC_RATINGS)[number];

/**
 * The expiry of a gas safety record (reg. 36(3)): 12 months after the check, except that a check
 * made in the 2 months before the previous record's deadline date keeps that deadline's
 * anniversary (the deadline date plus 12 months).
 * @param issuedOn the date of the check
 * @param previousDeadline the expiry of the record it renews, or null for a first check
 * @returns the new deadline date, e.g. ('2026-11-20', '2027-01-15') -> '2028-01-15',
 *   ('2026-11-14', '2027-01-15') -> '2027-11-14'
 */
export function gasDeadline(issuedOn: string, previousDeadline: string | null): string {
  if (previousDeadline !== null && issuedOn <= previousDeadline && issuedOn >= addMonths(previousDeadline, -GAS_EARLY_WINDOW_MONTHS)) {
    return addMonths(previousDeadline, GAS_INTERVAL_MONTHS);
  }
  return addMonths(issuedOn, GAS_INTERVAL_MONTHS);
}

/** The latest expiry a certificate of the type may carry, or null when the law sets none. */
export function latestExpiry(typeCode: string, issuedOn: string, previousExpiry: string | null): string | null {
  if (typeCode === 'gas_safety') return gasDeadline(issuedOn, previousExpiry);
  if (typeCode === 'eicr' || typeCode === 'communal_eicr') return addMonths(issuedOn, EICR_INTERVAL_MONTHS);
  if (typeCode === 'loler') return addMonths(issuedOn, 6);
  return null;
}

/** Whether the type's certificate must reach the tenant within 28 days (gas record, EICR). */
export function copyToTenantDue(typeCode: string, issuedOn: string): string | null {
  return typeCode === 'gas_safety' || typeCode === 'eicr' ? addDays(issuedOn, TENANT_COPY_DAYS) : null;
}

/** The latest date remedial works of an unsatisfactory EICR may be done (ESSPRS 2020 reg. 3(4)). */
export function remedialDeadline(issuedOn: string): string {
  return addDays(issuedOn, EICR_REMEDIAL_DAYS);
}

/** Whether an EPC rating is below the MEES minimum E (may not be let without an exemption). */
export function belowMees(rating: string | null): boolean {
  return rating !== null && EPC_RATINGS.indexOf(rating as EpcRating) > EPC_RATINGS.indexOf(MEES_MINIMUM);
}

/** What the register needs to read a row's findings. */
export interface FindingInput {
  type_code: string;
  today: string;
  has_certificate: boolean;
  epc_rating: string | null;
  exemption_until: string | null;
  outcome: string | null;
  remedial_due_on: string | null;
  remedial_completed_on: string | null;
  tenant_copy_due_on: string | null;
  tenant_copy_served_on: string | null;
  storeys: number | null;
  combustion_rooms: string[];
  smoke_alarm_storeys: number | null;
  co_alarm_rooms: string[] | null;
}

/**
 * What the latest certificate of an item still owes, in words for people (dates as "Thu 26 Nov
 * 2026"): an EPC below E without a live exemption, a missing rating, an unsatisfactory EICR's
 * remedial works, the tenant's copy, storeys or combustion rooms without a working alarm.
 * @returns sentences, empty when nothing is owed
 */
export function findings(r: FindingInput): string[] {
  const out: string[] = [];
  if (!r.has_certificate) return out;
  if (r.type_code === 'epc') {
    if (r.epc_rating === null) out.push('Energy rating not recorded');
    else if (belowMees(r.epc_rating)) {
      if (r.exemption_until !== null && r.exemption_until >= r.today) out.push(`Rated ${r.epc_rating}, below E: exempt until ${humanDate(r.exemption_until)} (PRS Exemptions Register)`);
      else out.push(`Rated ${r.epc_rating}, below E: may not be let (MEES) without a registered exemption`);
    }
  }
  if ((r.type_code === 'eicr' || r.type_code === 'communal_eicr') && r.outcome === null) out.push('Outcome (satisfactory or unsatisfactory) not recorded');
  if (r.outcome === 'unsatisfactory' && r.remedial_completed_on === null && r.remedial_due_on !== null) {
    out.push(`${r.remedial_due_on < r.today ? 'Remedial works overdue since' : 'Remedial works due by'} ${humanDate(r.remedial_due_on)}`);
  }
  if (r.tenant_copy_due_on !== null && r.tenant_copy_served_on === null) {
    out.push(`${r.tenant_copy_due_on < r.today ? 'Copy to the tenant overdue since' : 'Copy to the tenant due by'} ${humanDate(r.tenant_copy_due_on)}`);
  }
  if (r.type_code === 'smoke_co_alarms') {
    const storeys = r.storeys ?? 1;
    if (r.smoke_alarm_storeys === null) out.push('Alarms per storey and per room not recorded on this check');
    else if (r.smoke_alarm_storeys < storeys) out.push(`Smoke alarm working on ${r.smoke_alarm_storeys ?? 0} of ${storeys} storeys`);
    const without = r.combustion_rooms.filter((room) => !(r.co_alarm_rooms ?? []).includes(room));
    if (r.smoke_alarm_storeys !== null && without.length > 0) out.push(`No working CO alarm recorded in: ${without.join(', ')}`);
  }
  return out;
}
