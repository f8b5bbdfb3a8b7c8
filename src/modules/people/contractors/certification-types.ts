/**
 * Certificate types and the ONE map of certificates a trade requires (docs/contractors.md), with the
 * pure verdict both the assignment check (eligibility.ts) and the matching (match.service.ts)
 * use. Dates are ISO dates (YYYY-MM-DD); a certificate is valid through its expiry day.
 */

/** Certificate types: code -> display name. */
export const CERT_TYPES = {
  gas_safe: 'Gas Safe',
  niceic: 'NICEIC',
  napit: 'NAPIT',
  oftec: 'OFTEC',
  fensa: 'FENSA',
  chas: 'CHAS',
  public_liability: 'Public liability insurance',
  employers_liability: "Employer's liability insurance",
} as const;
export type CertType = keyof typeof CERT_TYPES;
export const CERT_TYPE_CODES = Object.keys(CERT_TYPES) as CertType[];

/**
 * Trade code -> the certificate types of which the contractor must hold at least one valid
 * certificate to work in that trade. Trades not listed need none.
 */
export const REQUIRED_CERTIFICATES: Readonly<Record<string, readonly CertType[]>> = {
  gas: ['gas_safe'],
  heating: ['gas_safe', 'oftec'],
  oil_heating: ['oftec'],
  electrical: ['niceic', 'napit'],
  glazing: ['fensa'],
};

/** Display name of a certificate type ("Gas Safe"); the code itself when unknown. */
export function certName(type: string): string {
  return (CERT_TYPES as Record<string, string>)[type] ?? type;
}

/** The required types of a trade joined for a message: "NICEIC or NAPIT". */
export function requiredText(types: readonly string[]): string {
  return types.map(certName).join(' or ');
}

export interface CertFact {
  cert_type: string;
  /** ISO date or null. */
  issued_on: string | null;
  /** ISO date. */
  expires_on: string;
}

export type Verdict =
  | { ok: true; required: false }
  | { ok: true; required: true; cert: CertFact }
  | { ok: false; required: true; reason: string; expired?: CertFact };

/** UTC ISO date of an instant: 2026-11-21T09:00Z -> "2026-11-21". */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Whether a contractor's certificates allow work in a trade on a day.
 * @param certs the contractor's (not deleted) certificates
 * @param tradeCode the trade's code; null means no requirement
 * @param day ISO date of the work
 * @returns ok with the certificate used (the one valid longest), or not ok with the reason: the
 *   latest expired required certificate ("Contractor's Gas Safe certificate expired on
 *   2026-10-31"), one not valid yet, or none held
 */
export function certificateVerdict(certs: readonly CertFact[], tradeCode: string | null, day: string): Verdict {
  const required = tradeCode ? REQUIRED_CERTIFICATES[tradeCode] : undefined;
  if (!required || required.length === 0) return { ok: true, required: false };
  const relevant = certs.filter((c) => (required as readonly string[]).includes(c.cert_type));
  const valid = relevant
    .filter((c) => c.expires_on >= day && (c.issued_on === null || c.issued_on <= day))
    .sort((a, b) => b.expires_on.localeCompare(a.expires_on));
  if (valid[0]) return { ok: true, required: true, cert: valid[0] };
  const expired = relevant.filter((c) => c.expires_on < day).sort((a, b) => b.expires_on.localeCompare(a.expires_on))[0];
  if (expired) {
    return { ok: false, required: true, expired, reason: `Contractor's ${certName(expired.cert_type)} certificate expired on ${expired.expires_on}` };
  }
  const future = relevant.sort((a, b) => (a.issued_on ?? '').localeCompare(b.issued_on ?? ''))[0];
  if (future) {
    return { ok: false, required: true, reason: `Contractor's ${certName(future.cert_type)} certificate is not valid until ${future.issued_on}` };
  }
  return { ok: false, required: true, reason: `Contractor has no ${requiredText(required)} certificate` };
}

/**
 * The insurance every firm sent to a property is checked for, whatever the trade (docs/contractors.md
 * "Insurance"): public liability, and employer's liability (compulsory for a firm with employees,
 * Employers' Liability (Compulsory Insurance) Act 1969, s. 1; a sole trader needs none).
 */
export const INSURANCE_TYPES = ['public_liability', 'employers_liability'] as const;

/** What a firm's insurance means for an offer. */
export interface InsuranceVerdict {
  /** false: a recorded policy lapsed before the day with no valid one after it: not offered */
  ok: boolean;
  /** every insurance type held valid on the day (the firm is offered before the others) */
  insured: boolean;
  /** sentences for people, one per insurance type */
  reasons: string[];
}

/**
 * Whether a firm's insurance allows it to be offered for work on a day: a policy type recorded but
 * expired (all its certificates before the day) makes it not eligible with the reason ("Public
 * liability insurance expired on 2026-11-30"); one never recorded is a reason and ranks the firm
 * after the insured ones.
 * @param certs the contractor's (not deleted) certificates
 * @param day ISO date of the work
 */
export function insuranceVerdict(certs: readonly CertFact[], day: string): InsuranceVerdict {
  let ok = true;
  let insured = true;
  const reasons: string[] = [];
  for (const type of INSURANCE_TYPES) {
    const held = certs.filter((c) => c.cert_type === type);
    const valid = held.filter((c) => c.expires_on >= day && (c.issued_on === null || c.issued_on <= day)).sort((a, b) => b.expires_on.localeCompare(a.expires_on))[0];
    if (valid) {
      reasons.push(`${certName(type)} valid until ${valid.expires_on}`);
      continue;
    }
    insured = false;
    const expired = held.filter((c) => c.expires_on < day).sort((a, b) => b.expires_on.localeCompare(a.expires_on))[0];
    if (expired) {
      ok = false;
      reasons.push(`${certName(type)} expired on ${expired.expires_on}: not offered`);
    } else if (held.length > 0) {
      reasons.push(`${certName(type)} not valid until ${held[0]!.issued_on}`);
    } else {
      reasons.push(`No ${certName(type).charAt(0).toLowerCase()}${certName(type).slice(1)} on file`);
    }
  }
  return { ok, insured, reasons };
}
