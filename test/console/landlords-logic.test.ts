/**
 * The landlord pages' words and periods (console/src/logic/landlords.ts, docs/console.md
 * "Landlords"): shares in per cent both ways, approval states in words (never the code), which
 * approvals may be sent again, and the statement months offered, across a year's turn and a leap
 * February.
 */
import { describe, expect, it } from 'vitest';
import { APPROVAL_STATES, approvalWords, canResend, percentToBp, shareWords, statementPeriods } from '../../console/src/logic/landlords.ts';

describe('console: landlords', () => {
  it('writes shares as per cent and reads typed ones as basis points', () => {
    expect(shareWords(10000)).toBe('100 %');
    expect(shareWords(5000)).toBe('50 %');
    expect(shareWords(3333)).toBe('33.33 %');
    expect(shareWords(2550)).toBe('25.5 %');
    expect(percentToBp('50')).toBe(5000);
    expect(percentToBp('33.33 %')).toBe(3333);
    expect(percentToBp('100')).toBe(10000);
    expect(percentToBp('0.01')).toBe(1);
    expect(percentToBp('0')).toBeNull();
    expect(percentToBp('100.01')).toBeNull();
    expect(percentToBp('fifty')).toBeNull();
  });

  it("says an approval's state in words and offers a re-send only while it waits", () => {
    for (const [code, words] of Object.entries(APPROVAL_STATES)) {
      expect(approvalWords(code)).toBe(words);
      expect(words).not.toMatch(/_/);
    }
    expect(approvalWords('cancelled')).toBe('Withdrawn');
    expect(approvalWords('mystery')).toBe('Unknown');
    expect(['pending', 'question', 'approved', 'declined', 'expired', 'cancelled'].filter(canResend)).toEqual(['pending', 'question']);
  });

  it('offers this month so far and the whole months before it, over the turn of a year and a leap February', () => {
    expect(statementPeriods('2027-01-15', 3)).toEqual([
      { label: 'January 2027 so far', from: '2027-01-01', to: '2027-01-15' },
      { label: 'December 2026', from: '2026-12-01', to: '2026-12-31' },
      { label: 'November 2026', from: '2026-11-01', to: '2026-11-30' },
    ]);
    expect(statementPeriods('2028-03-01', 2)[1]).toEqual({ label: 'February 2028', from: '2028-02-01', to: '2028-02-29' });
  });
});
