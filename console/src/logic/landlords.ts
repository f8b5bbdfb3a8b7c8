/**
 * Landlords on the console (docs/console.md "Landlords", docs/landlords.md): ownership shares in
 * people's words, an approval's state as the agent reads it and whether it may be sent again, the
 * spend limit that applies, and the statement periods offered (London calendar months).
 */

/** An approval's state (docs/landlords.md "Approvals") as the agent reads it. */
export const APPROVAL_STATES = {
  pending: 'Waiting for the landlord',
  question: 'The landlord asked a question',
  approved: 'Approved',
  declined: 'Declined',
  expired: 'Expired without an answer',
  cancelled: 'Withdrawn',
} as const;

/** "Approved" for a known state; "Unknown" (never the code) for one this console does not know. */
export function approvalWords(status: string): string {
  return Object.hasOwn(APPROVAL_STATES, status) ? APPROVAL_STATES[status as keyof typeof APPROVAL_STATES] : 'Unknown';
}

/** True when the API sends an approval again (POST /api/landlords/approvals/{uuid}/resend: pending or questioned). */
export function canResend(status: string): boolean {
  return status === 'pending' || status === 'question';
}

/** A share in basis points as a percentage: 10000 -> "100 %", 5000 -> "50 %", 3333 -> "33.33 %". */
export function shareWords(bp: number): string {
  const pct = bp / 100;
  return `${Number.isInteger(pct) ? pct : pct.toFixed(2).replace(/0$/, '')} %`;
}

/** "50" or "33.33" (a percentage typed in a form) as basis points; null unless above 0 and at most 100 with two decimals. */
export function percentToBp(text: string): number | null {
  const clean = text.trim().replace(/\s*%$/, '');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, frac = ''] = clean.split('.');
  const bp = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return bp >= 1 && bp <= 10000 ? bp : null;
}

/** Where a spend limit comes from (PropertyOwnership.limit_source) in words. */
export const LIMIT_SOURCES = {
  property: "the property's own limit",
  landlord: "the lowest of its landlords' limits",
  agency: "the agency's default limit",
  none: 'no limit: no approval is asked',
} as const;

/** A statement period: its label and its first and last London dates (YYYY-MM-DD). */
export interface StatementPeriod {
  label: string;
  from: string;
  to: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The statement periods offered: this month so far (to `today`), then the `count - 1` whole
 * calendar months before it, newest first.
 * @param today London date YYYY-MM-DD
 */
export function statementPeriods(today: string, count = 4): StatementPeriod[] {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const out: StatementPeriod[] = [];
  for (let i = 0; i < count; i += 1) {
    const first = new Date(Date.UTC(y, m - 1 - i, 1));
    const last = new Date(Date.UTC(y, m - i, 0));
    const from = first.toISOString().slice(0, 10);
    const to = i === 0 ? today : last.toISOString().slice(0, 10);
    out.push({ label: `${MONTHS[first.getUTCMonth()]} ${first.getUTCFullYear()}${i === 0 ? ' so far' : ''}`, from, to });
  }
  return out;
}
