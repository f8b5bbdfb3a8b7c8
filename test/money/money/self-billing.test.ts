/**
 * Self-billing as HMRC allows it (docs/money.md "Self-billing"; VAT Regulations 1995 reg. 13(3A);
 * HMRC VAT Notice 700/62 paragraph 1.1, section 3 "Self-billing agreements" with 3.1 "Contents of
 * agreements", paragraph 4.1): an agreement with start, expiry and review dates, of 12 months at
 * most; no self-billed invoice outside it or past its review (a 400 naming why, changing nothing);
 * the supplier's VAT registration checked on or before the invoice date; one number series per
 * supplier, apart from the contractors' own numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfBillingLastDay } from '../../../src/modules/money/money/pricing.service.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { LINES, moneyWorld } from './world.ts';

describe('the 12-month cap (selfBillingLastDay)', () => {
  it('is the day before the first anniversary, leap days included', () => {
    expect(selfBillingLastDay('2026-01-01')).toBe('2026-12-31');
    expect(selfBillingLastDay('2026-11-21')).toBe('2027-11-20');
    expect(selfBillingLastDay('2027-03-01')).toBe('2028-02-29');
    expect(selfBillingLastDay('2028-02-29')).toBe('2029-02-28');
    expect(selfBillingLastDay('2026-03-31')).toBe('2027-03-30');
  });
});

describe('self-billing agreements through the API', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof moneyWorld>>;
  let otherUuid: string;
  const url = () => `/api/pricing/contractors/${w.contractorUuid}/self-billing`;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await moneyWorld(t);
    const other = await t.db.selectFrom('contractors').select(['id', 'uuid']).where('company_name', '=', 'Other Trades').executeTakeFirstOrThrow();
    otherUuid = other.uuid;
    await w.adminA.client.put(`/api/pricing/contractors/${otherUuid}/vat`, { registered: true, vat_number: 'GB555666777' });
    await t.db.updateTable('contractors').set({ address_line1: '8 Kirkstall Road', address_town: 'Leeds', address_postcode: 'LS3 1LH' }).where('id', '=', other.id).execute();
  });
  afterAll(async () => t.close());

  async function draft(contractorId: number, extra: Record<string, unknown> = {}): Promise<string> {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId, statusId: 7, title: 'Self-billed work' });
    const uuid = (await t.db.selectFrom('jobs').select('uuid').where('id', '=', job.id).executeTakeFirstOrThrow()).uuid;
    const d = await w.adminA.client.post('/api/invoices', { job_uuid: uuid, lines: LINES, ...extra });
    expect(d.statusCode, d.body).toBe(201);
    return d.json().data.uuid;
  }

  it('an agreement longer than 12 months is a 400 naming its last possible day, and the recorded one stays', async () => {
    const before = (await w.adminA.client.get(url())).json().data;
    const long = await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2027-01-01', review_on: '2026-06-30', vat_number_checked_on: '2026-01-02' });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain('ends_on');
    expect(long.json().error).toContain('12 months');
    expect(long.json().error).toContain('2026-12-31');
    expect((await w.adminA.client.get(url())).json().data).toEqual(before);
    // Twelve months to the day is accepted.
    const year = await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-01-02' });
    expect(year.statusCode, year.body).toBe(200);
    expect(year.json().data).toMatchObject({ ends_on: '2026-12-31', in_force_today: true });
    // The review date lies within the agreement; a check date is not in the future.
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2027-01-15' })).statusCode).toBe(400);
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-11-22' })).statusCode).toBe(400);
  });

  it('after the agreement expired a self-billed invoice is a 400 saying so, and nothing changes (no number taken)', async () => {
    const inv = await draft(w.contractorId);
    // 2027-01-04 09:00 London: the agreement ended on 2026-12-31.
    const back = (new Date('2027-01-04T09:00:00Z').getTime() - t.clock.now().getTime()) / 1000;
    t.clock.advance(back);
    try {
      const res = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('the agreement expired on 2026-12-31');
      expect((await w.adminA.client.get(`/api/invoices/${inv}`)).json().data).toMatchObject({ status: 'draft', invoice_number: null, vat_invoice_number: null });
      expect((await w.adminA.client.get(url())).json().data.in_force_today).toBe(false);
      // A contractor's own invoice needs no agreement.
      const own = await draft(w.contractorId, { contractor_reference: 'FP-1001', supplier_invoice_date: '2027-01-03' });
      const ok = await w.adminA.client.post(`/api/invoices/${own}/issue`);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ self_billed: false, vat_invoice_number: 'FP-1001' });
    } finally {
      t.clock.advance(-back);
    }
    // Back inside the agreement the same draft is issued, first of its supplier's series.
    const issued = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().data).toMatchObject({ self_billed: true, vat_invoice_number: 'SB-FLETCHER-000001' });
  });

  it("the VAT registration check must be on or before the invoice date", async () => {
    // Recorded today (21 Nov 2026) as checked today; an invoice issued on 20 Nov (clock back) predates the check.
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-11-21' })).statusCode).toBe(200);
    const inv = await draft(w.contractorId);
    const back = -24 * 3600;
    t.clock.advance(back);
    try {
      const res = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain("a check of the contractor's VAT registration on or before the invoice date 2026-11-20 (it was checked on 2026-11-21)");
    } finally {
      t.clock.advance(-back);
    }
    const ok = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ invoice_date: '2026-11-21', vat_invoice_number: 'SB-FLETCHER-000002' });
  });

  it('without a check, or past the review date, self-billing is refused', async () => {
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: null })).statusCode).toBe(200);
    const inv = await draft(w.contractorId);
    const res = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('vat_number_checked_on');
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-11-20', vat_number_checked_on: '2026-01-02' })).statusCode).toBe(200);
    const review = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(review.statusCode).toBe(400);
    expect(review.json().error).toContain('the review of the self-billing agreement due 2026-11-20');
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-01-02' })).statusCode).toBe(200);
    expect((await w.adminA.client.post(`/api/invoices/${inv}/issue`)).json().data.vat_invoice_number).toBe('SB-FLETCHER-000003');
  });

  it('an agreement of earlier releases running beyond 12 months no longer lets the agency self-bill', async () => {
    await t.db.updateTable('self_billing_agreements').set({ ends_on: '2027-12-31' }).where('contractor_id', '=', w.contractorId).execute();
    const inv = await draft(w.contractorId);
    const res = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('a self-billing agreement of 12 months at most');
    await t.db.updateTable('self_billing_agreements').set({ ends_on: '2026-12-31' }).where('contractor_id', '=', w.contractorId).execute();
    expect((await w.adminA.client.post(`/api/invoices/${inv}/issue`)).statusCode).toBe(200);
  });

  it("a change of the contractor's VAT registration clears the check: no self-billing until it is checked again", async () => {
    const vat = `/api/pricing/contractors/${w.contractorUuid}/vat`;
    // The same number again changes nothing.
    expect((await w.adminA.client.put(vat, { registered: true, vat_number: 'GB123456789' })).statusCode).toBe(200);
    expect((await w.adminA.client.get(url())).json().data.vat_number_checked_on).toBe('2026-01-02');
    expect((await w.adminA.client.put(vat, { registered: true, vat_number: 'GB999888777' })).statusCode).toBe(200);
    expect((await w.adminA.client.get(url())).json().data).toMatchObject({ vat_number_checked_on: null, in_force_today: false });
    const inv = await draft(w.contractorId);
    const res = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain("a check of the contractor's VAT registration");
    expect((await w.adminA.client.put(url(), { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-11-21' })).statusCode).toBe(200);
    const ok = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ contractor_vat_number: 'GB999888777', vat_invoice_number: 'SB-FLETCHER-000005' });
  });

  it('each supplier has its own series of self-billed numbers; the register numbers run on across them', async () => {
    const otherId = (await t.db.selectFrom('contractors').select('id').where('uuid', '=', otherUuid).executeTakeFirstOrThrow()).id;
    const inv = await draft(otherId);
    const refused = await w.adminA.client.post(`/api/invoices/${inv}/issue`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('a self-billing agreement with the contractor');
    expect((await w.adminA.client.put(`/api/pricing/contractors/${otherUuid}/self-billing`, { starts_on: '2026-11-01', ends_on: '2027-10-31', review_on: '2027-05-01', vat_number_checked_on: '2026-11-01' })).statusCode).toBe(200);
    const a = (await w.adminA.client.post(`/api/invoices/${inv}/issue`)).json().data;
    const b = (await w.adminA.client.post(`/api/invoices/${await draft(otherId)}/issue`)).json().data;
    const c = (await w.adminA.client.post(`/api/invoices/${await draft(w.contractorId)}/issue`)).json().data;
    expect([a.vat_invoice_number, b.vat_invoice_number, c.vat_invoice_number]).toEqual(['SB-OTHERTRA-000001', 'SB-OTHERTRA-000002', 'SB-FLETCHER-000006']);
    const register = [a, b, c].map((x) => Number(String(x.invoice_number).slice(4)));
    expect(register[1]! - register[0]!).toBe(1);
    expect(register[2]! - register[1]!).toBe(1);
  });
});
