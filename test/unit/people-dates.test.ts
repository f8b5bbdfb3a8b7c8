/**
 * Dates for people (docs/messaging.md, "Dates"): every message writes times in London terms,
 * "Thu 26 Nov 2026, 18:07", GMT in winter and BST in summer, and no e-mail to a person names an
 * API path or an ISO timestamp.
 */
import { describe, expect, it } from 'vitest';
import { formatLondonDate, formatLondonDateTime } from '../../src/lib/london-time.ts';
import { invitationMail, passwordResetMail } from '../../src/modules/messaging/mail/templates.ts';

describe('dates for people', () => {
  it.each([
    ['2026-11-26T18:07:00Z', 'Thu 26 Nov 2026, 18:07'], // GMT
    ['2026-07-04T23:30:00Z', 'Sun 5 Jul 2026, 00:30'], // BST: the next London day
    ['2026-03-29T00:59:00Z', 'Sun 29 Mar 2026, 00:59'], // a minute before the spring change
    ['2026-03-29T01:00:00Z', 'Sun 29 Mar 2026, 02:00'], // clocks go forward
    ['2026-10-25T00:30:00Z', 'Sun 25 Oct 2026, 01:30'], // BST, first 01:30
    ['2026-10-25T01:30:00Z', 'Sun 25 Oct 2026, 01:30'], // GMT, second 01:30
    ['2026-12-31T23:59:00Z', 'Thu 31 Dec 2026, 23:59'],
  ])('%s reads %s', (iso, text) => {
    expect(formatLondonDateTime(new Date(iso))).toBe(text);
  });

  it('a date alone', () => {
    expect(formatLondonDate(new Date('2027-01-01T00:00:00Z'))).toBe('Fri 1 Jan 2027');
  });

  it('the invitation and the reset e-mails name no API path and no ISO time', () => {
    const expiresAt = new Date('2026-11-26T18:07:00Z');
    const mails = [
      invitationMail({ to: 't@example.test', name: 'Emily', agencyName: 'Northwind', inviterName: 'Tom', publicUrl: 'https://app.test', token: 'abc', expiresAt }),
      passwordResetMail({ to: 't@example.test', name: 'Emily', publicUrl: 'https://app.test', token: 'abc', expiresAt }),
    ];
    for (const m of mails) {
      for (const body of [m.text, m.html ?? '']) {
        expect(body).not.toMatch(/\/api\//);
        expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
        expect(body).toContain('Thu 26 Nov 2026, 18:07');
      }
    }
  });
});
