/**
 * Contractors' insurance in the offer (docs/contractors.md "Insurance"): a firm whose public
 * liability insurance expired on 30 November is not offered on 1 December (last, score 0, with the
 * reason); a firm with no insurance on file comes after the insured ones; employer's liability is a
 * certificate type like the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insuranceVerdict } from '../../../src/modules/people/contractors/certification-types.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertJob, tradeId } from './helpers.ts';

describe('insurance verdict', () => {
  it('reads valid, lapsed and missing policies on the day of the work', () => {
    const pl = (expires_on: string) => ({ cert_type: 'public_liability', issued_on: null, expires_on });
    const el = { cert_type: 'employers_liability', issued_on: null, expires_on: '2027-06-30' };
    expect(insuranceVerdict([pl('2026-11-30'), el], '2026-11-30')).toEqual({
      ok: true, insured: true, reasons: ['Public liability insurance valid until 2026-11-30', "Employer's liability insurance valid until 2027-06-30"],
    });
    expect(insuranceVerdict([pl('2026-11-30'), el], '2026-12-01')).toEqual({
      ok: false, insured: false, reasons: ['Public liability insurance expired on 2026-11-30: not offered', "Employer's liability insurance valid until 2027-06-30"],
    });
    expect(insuranceVerdict([pl('2026-11-30'), pl('2027-11-30')], '2026-12-01')).toMatchObject({ ok: true, insured: false });
    expect(insuranceVerdict([], '2026-12-01')).toEqual({
      ok: true, insured: false, reasons: ['No public liability insurance on file', "No employer's liability insurance on file"],
    });
  });
});

describe('insurance in the offer', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let job: { id: number; uuid: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(new Date('2026-12-01T09:00:00Z'));
    const plumbing = await tradeId(t.db, 'plumbing');
    const make = async (name: string, certs: Array<Record<string, unknown>>) => {
      const c = (await w.adminA.client.post('/api/contractors', { company_name: name, trade_ids: [plumbing], coverage: ['LS6'] })).json().data;
      for (const cert of certs) {
        const res = await w.adminA.client.post(`/api/contractors/${c.uuid}/certifications`, cert);
        expect(res.statusCode, res.body).toBe(201);
      }
    };
    await make('Insured Plumbing', [
      { cert_type: 'public_liability', reference: 'PL-1', expires_on: '2027-05-31' },
      { cert_type: 'employers_liability', reference: 'EL-1', expires_on: '2027-05-31' },
    ]);
    await make('Lapsed Plumbing', [
      { cert_type: 'public_liability', reference: 'PL-2', expires_on: '2026-11-30' },
      { cert_type: 'employers_liability', reference: 'EL-2', expires_on: '2027-05-31' },
    ]);
    await make('Bare Plumbing', []);
    const address = (await w.adminA.client.post('/api/addresses', { line1: '4 Victoria Road', town: 'Leeds', postcode: 'LS6 1DL' })).json().data;
    job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, addressId: address.ID, tradeCode: 'plumbing' });
  });
  afterAll(async () => t?.close());

  it('drops a firm whose public liability expired on 30 November, and ranks the uninsured after the insured', async () => {
    const res = await w.agentA1.client.get(`/api/contractors/match?job_uuid=${job.uuid}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Array<{ company_name: string; score: number; eligible: boolean; insured: boolean; reasons: string[]; insurance: string[] }>;
    expect(rows.map((r) => [r.company_name, r.score, r.eligible, r.insured])).toEqual([
      ['Insured Plumbing', 100, true, true],
      ['Bare Plumbing', 100, true, false],
      ['Lapsed Plumbing', 0, false, false],
    ]);
    expect(rows[2]!.reasons).toContain('Public liability insurance expired on 2026-11-30: not offered');
    expect(rows[1]!.insurance).toEqual(['No public liability insurance on file', "No employer's liability insurance on file"]);
  });
});
