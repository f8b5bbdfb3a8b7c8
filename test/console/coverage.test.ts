/**
 * The console's reach over the API (docs/console.md "Operations the console calls"): every
 * operation of the OpenAPI document is either called from console/src through the typed client or
 * listed in docs/console.md with why (scripts/console-coverage.ts).
 */
import { describe, expect, it } from 'vitest';
import { calledOperations, coverageReport, listedReasons, NOT_FOR_STAFF } from '../../scripts/console-coverage.ts';

describe('console coverage', () => {
  it('finds typed-client calls with a literal path, not built paths or other methods', () => {
    const text = `api.GET('/api/a', {}); api.POST(\`/api/b\`); api.PUT(\`/api/\${x}\`); api.get('/api/c'); client.DELETE('/api/d/{uuid}', { params: {} });`;
    expect(calledOperations('x.tsx', text)).toEqual(['GET /api/a', 'POST /api/b', 'DELETE /api/d/{uuid}']);
  });

  it('reads the table rows between the markers with their reasons', () => {
    const doc = '| `GET /api/x` | not here |\n<!-- coverage:uncalled -->\n| operation | why |\n|---|---|\n| `GET /livez` | a probe for the orchestrator |\n| `POST /api/y` |  |\n<!-- /coverage:uncalled -->';
    const rows = listedReasons(doc);
    expect(rows.get('GET /livez')).toBe('a probe for the orchestrator');
    expect(rows.get('POST /api/y')).toBe('');
    expect(rows.has('GET /api/x')).toBe(false);
  });

  it('leaves out of the staff figure only the rows marked machine: or signed link:', () => {
    expect(NOT_FOR_STAFF.test('machine: the Prometheus scrape')).toBe(true);
    expect(NOT_FOR_STAFF.test("signed link: the landlord's approval page")).toBe(true);
    expect(NOT_FOR_STAFF.test('not yet: buildings')).toBe(false);
    expect(NOT_FOR_STAFF.test('called: sent through the offline outbox')).toBe(false);
    expect(NOT_FOR_STAFF.test('called as a link: the PDF')).toBe(false);
  });

  it('the console calls at least 80 % of the operations meant for agency staff (docs/console.md)', () => {
    const r = coverageReport();
    // A row can only name an operation the console does not call: nothing called is left out.
    expect(r.notForStaff.every((o) => r.uncalled.includes(o))).toBe(true);
    expect(r.staffTotal).toBe(r.total - r.notForStaff.length);
    expect(r.staffPercent).toBeGreaterThanOrEqual(80);
  });

  it('every operation not called by the console is listed in docs/console.md with why', () => {
    const r = coverageReport();
    console.log(`console coverage: ${r.called} of ${r.total} operations (${r.percent} %)`);
    expect(r.missing).toEqual([]);
    // Rows of operations now called are a warning (another branch may have added the calls).
    if (r.stale.length) console.warn(`rows to remove from docs/console.md: ${r.stale.join(', ')}`);
  });
});
