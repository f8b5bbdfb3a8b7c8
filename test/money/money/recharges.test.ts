/**
 * Landlord recharges and statements (docs/money.md "Recharges", "Statements"): an issued contractor
 * invoice is recharged to the property's landlords by share with the agency's fee and VAT on it,
 * following the domain events; a credit note makes negative recharges; a voided invoice cancels
 * them; a statement's totals equal the sum of its lines (JSON, CSV and PDF).
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { makeRecharges, rechargeAmounts, splitByShares } from '../../../src/modules/money/recharges/recharges.service.ts';
import { STATEMENT_CSV_COLUMNS } from '../../../src/modules/money/recharges/statement-render.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { pdfText } from './pdf-text.ts';
import { LINES, moneyWorld } from './world.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;
let jobUuid: string;
let ada: { uuid: string };
let bob: { uuid: string };
let invoiceUuid: string;

const AMOUNT_KEYS = ['cost_net_pence', 'cost_vat_pence', 'fee_net_pence', 'fee_vat_pence', 'total_pence'] as const;

async function issue(lines = LINES, own: { contractor_reference?: string; supplier_invoice_date?: string } = {}) {
  const inv = (await w.adminA.client.post('/api/invoices', { job_uuid: jobUuid, lines, ...own })).json().data;
  const res = await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
  expect(res.statusCode, res.body).toBe(200);
  await dispatchPendingEvents(t.deps, backgroundHandlers());
  return res.json().data;
}

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7, addressId: w.address.id, title: 'Leaking stopcock' });
  jobUuid = (await t.db.selectFrom('jobs').select('uuid').where('id', '=', job.id).executeTakeFirstOrThrow()).uuid;
  ada = (await w.adminA.client.post('/api/landlords', { name: 'Ada Lovelace', email: 'ada@example.test', address_line1: '1 Park Square', address_town: 'Leeds', address_postcode: 'LS1 2ND' })).json().data;
  bob = (await w.adminA.client.post('/api/landlords', { name: 'Bob Smith', email: 'bob@example.test' })).json().data;
  const addressUuid = (await t.db.selectFrom('addresses').select('uuid').where('id', '=', w.address.id).executeTakeFirstOrThrow()).uuid;
  expect((await w.adminA.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: addressUuid, share_bp: 6000 })).statusCode).toBe(201);
  expect((await w.adminA.client.post(`/api/landlords/${bob.uuid}/properties`, { address_uuid: addressUuid, share_bp: 4000 })).statusCode).toBe(201);
  const fee = await w.adminA.client.put('/api/recharges/settings', { fee_mode: 'percent', fee_percent_bp: 1200, fee_fixed_pence: 0 });
  expect(fee.statusCode, fee.body).toBe(200);
  invoiceUuid = (await issue()).uuid;
});
afterAll(async () => t.close());

describe('recharges follow the contractor invoice', () => {
  it('an issued invoice is recharged to each landlord by share, with the 12 % fee and 20 % VAT on it', async () => {
    const res = await w.adminA.client.get(`/api/recharges?job_uuid=${jobUuid}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    const byName = Object.fromEntries(rows.map((r) => [r.landlord_name, r]));
    // Recharge treatment (the default): the agency's own supply of the work, output VAT per rate on each share of the net.
    // 20 %: 6,750 split 4,050 / 2,700, VAT 810 / 540; 5 %: 1,010 split 606 / 404, VAT 30.3 -> 30 / 20.2 -> 20.
    expect(byName['Ada Lovelace']).toMatchObject({ kind: 'recharge', status: 'active', vat_treatment: 'recharge', share_bp: 6000, cost_net_pence: 4_656, cost_vat_pence: 840, fee_net_pence: 559, fee_vat_pence: 112, fee_vat_rate_bp: 2000, total_pence: 4_656 + 840 + 559 + 112 });
    expect(byName['Ada Lovelace']!.cost_lines).toEqual([
      { vat_rate: 'reduced', vat_rate_bp: 500, net_pence: 606, vat_pence: 30 },
      { vat_rate: 'standard', vat_rate_bp: 2000, net_pence: 4_050, vat_pence: 810 },
    ]);
    expect(byName['Bob Smith']).toMatchObject({ share_bp: 4000, cost_net_pence: 3_104, cost_vat_pence: 560, fee_net_pence: 372, fee_vat_pence: 74, total_pence: 3_104 + 560 + 372 + 74 });
    expect(rows.map((r) => r.number).sort()).toEqual(['RCH-000001', 'RCH-000002']);
    expect(byName['Ada Lovelace']!.invoice_number).toBe('INV-000001');
  });

  it('a second delivery of the event makes nothing more', async () => {
    const id = (await t.db.selectFrom('invoices').select('id').where('uuid', '=', invoiceUuid).executeTakeFirstOrThrow()).id;
    expect(await t.db.transaction().execute((trx) => makeRecharges(trx, id, new Date()))).toBe(0);
    expect((await w.adminA.client.get(`/api/recharges?job_uuid=${jobUuid}`)).json().count).toBe(2);
  });

  it('a credit note makes negative recharges for the same landlords', async () => {
    const cn = await w.adminA.client.post(`/api/invoices/${invoiceUuid}/credit-notes`, { lines: [LINES[1]], reason: 'Part not fitted' });
    expect(cn.statusCode, cn.body).toBe(201);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = (await w.adminA.client.get(`/api/recharges?landlord_uuid=${ada.uuid}`)).json().data as Record<string, unknown>[];
    const credit = rows.find((r) => r.kind === 'credit');
    // net 1,010 at 5 %, 60 %: 606 and output VAT 30.3 (30); fee 12 % of 606 = 72.72 (73), its VAT 14.6 (15)
    expect(credit).toMatchObject({ number: 'RCC-000003', cost_net_pence: -606, cost_vat_pence: -30, fee_net_pence: -73, fee_vat_pence: -15, credited_invoice_number: 'INV-000001' });
  });

  it('a voided invoice cancels its recharges, and the statement leaves them out', async () => {
    // The record of a contractor's own invoice (an issued self-billed invoice is never voided: docs/money.md).
    const inv = await issue([LINES[0]!], { contractor_reference: 'FP-0042', supplier_invoice_date: '2026-11-20' });
    expect((await w.adminA.client.get(`/api/recharges?job_uuid=${jobUuid}`)).json().count).toBe(6);
    expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/void`, { reason: 'duplicate' })).statusCode).toBe(200);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = (await w.adminA.client.get(`/api/recharges?job_uuid=${jobUuid}`)).json().data as Record<string, unknown>[];
    expect(rows.filter((r) => r.status === 'cancelled')).toHaveLength(2);
    const s = (await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`)).json().data;
    expect(s.properties[0].lines).toHaveLength(2);
  });
});

describe('landlord statement', () => {
  it("a statement's totals equal the sum of its lines, per property and overall", async () => {
    const res = await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    expect(s).toMatchObject({ landlord_name: 'Ada Lovelace', landlord_address: '1 Park Square, Leeds, LS1 2ND', from_date: '2026-11-01', to_date: '2026-11-30' });
    expect(s.properties).toHaveLength(1);
    const all: Record<string, number>[] = [];
    for (const p of s.properties) {
      for (const k of AMOUNT_KEYS) expect(p.totals[k], k).toBe(p.lines.reduce((sum: number, l: Record<string, number>) => sum + l[k]!, 0));
      for (const l of p.lines) expect(l.total_pence).toBe(l.cost_net_pence + l.cost_vat_pence + l.fee_net_pence + l.fee_vat_pence);
      all.push(...p.lines);
    }
    for (const k of AMOUNT_KEYS) expect(s.totals[k], k).toBe(all.reduce((sum, l) => sum + l[k]!, 0));
    expect(s.totals).toMatchObject({ jobs: 1, total_pence: 6_167 - 724 });
  });

  it('payments to and from the landlord: opening balance, charges, credits, payments and closing balance add up', async () => {
    const post = (body: Record<string, unknown>) => w.adminA.client.post(`/api/landlords/${ada.uuid}/ledger-entries`, body);
    expect((await post({ kind: 'payment_to_landlord', entry_date: '2026-10-15', amount_pence: 1_000, reference: 'Float returned' })).statusCode).toBe(201);
    expect((await post({ kind: 'payment_from_landlord', entry_date: '2026-11-20', amount_pence: 3_000, reference: 'BACS ADA-1' })).statusCode).toBe(201);
    expect((await post({ kind: 'payment_to_landlord', entry_date: '2026-11-21', amount_pence: 500, reference: 'Refund' })).statusCode).toBe(201);
    const bad = await post({ kind: 'payment_from_landlord', entry_date: '2099-01-01', amount_pence: 1 });
    expect(bad.statusCode).toBe(400);
    const s = (await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`)).json().data;
    // RCH-000001 6,167; RCC-000003 -724 (the voided invoice's recharge left out)
    expect(s).toMatchObject({
      agency_name: 'Agency A Ltd', agency_address: '14 Park Row, Leeds, LS1 5HD', agency_vat_number: 'GB987654321',
      opening_balance_pence: 1_000, charges_pence: 6_167, credits_pence: -724, payments_from_landlord_pence: 3_000, payments_to_landlord_pence: 500,
      closing_balance_pence: 1_000 + 6_167 - 724 - 3_000 + 500,
    });
    expect(s.payments.map((p: { reference: string }) => p.reference)).toEqual(['BACS ADA-1', 'Refund']);
  });

  it("the agency's VAT invoices: per rate the net excluding VAT and the VAT, and the total VAT (reg. 14(1)); a credit cites the invoice it corrects", async () => {
    const s = (await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`)).json().data;
    expect(s.vat_invoices).toHaveLength(2);
    const [inv, cn] = s.vat_invoices;
    // The work per rate (recharge treatment) and the fee at 20 %: 5 % 606 / 30; 20 % 4,050 + 559 = 4,609 / 810 + 112 = 922.
    expect(inv).toMatchObject({
      number: 'RCH-000001', kind: 'invoice', date: '2026-11-21', tax_point: '2026-11-21', vat_treatment: 'recharge', credits: null,
      rates: [
        { vat_rate: 'reduced', vat_rate_bp: 500, label: '5%', net_pence: 606, vat_pence: 30 },
        { vat_rate: 'standard', vat_rate_bp: 2000, label: '20%', net_pence: 4_609, vat_pence: 922 },
      ],
      net_pence: 5_215, vat_pence: 952, gross_pence: 6_167,
    });
    expect(cn).toMatchObject({
      number: 'RCC-000003', kind: 'credit_note', credits: 'RCH-000001',
      rates: [{ vat_rate: 'reduced', net_pence: -606, vat_pence: -30 }, { vat_rate: 'standard', net_pence: -73, vat_pence: -15 }],
      net_pence: -679, vat_pence: -45, gross_pence: -724,
    });
    for (const v of s.vat_invoices) {
      expect(v.net_pence).toBe(v.rates.reduce((a: number, r: { net_pence: number }) => a + r.net_pence, 0));
      expect(v.vat_pence).toBe(v.rates.reduce((a: number, r: { vat_pence: number }) => a + r.vat_pence, 0));
    }
    // Every charge of the period is one VAT invoice or credit note (recharge treatment, VAT-registered agency).
    expect(s.vat_invoices.reduce((a: number, v: { gross_pence: number }) => a + v.gross_pence, 0)).toBe(s.charges_pence + s.credits_pence);
  });

  it('the CSV carries the same figures as the JSON: letterhead, lines, totals, the balance and the VAT invoices per rate', async () => {
    const json = (await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`)).json().data;
    const res = await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement.csv?from_date=2026-11-01&to_date=2026-11-30`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const all: Record<string, string>[] = parse(res.body, { columns: true });
    expect(Object.keys(all[0]!)).toEqual([...STATEMENT_CSV_COLUMNS]);
    const of = (record: string) => all.filter((r) => r.Record === record);
    const p = (v: string | undefined) => Math.round(Number(v) * 100);
    expect(of('Agency')[0]!.Description).toBe('Agency A Ltd');
    expect(of('Agency address')[0]!.Description).toBe('14 Park Row, Leeds, LS1 5HD');
    expect(of('Agency VAT number')[0]!.Description).toBe('GB987654321');
    expect(of('Landlord')[0]!.Description).toBe('Ada Lovelace');
    const lines = of('Line');
    const total = of('Total')[0]!;
    for (const col of ['Cost net', 'Cost VAT', 'Fee net', 'Fee VAT', 'Total'] as const) {
      expect(p(total[col]), col).toBe(lines.reduce((s, r) => s + p(r[col]), 0));
    }
    expect(total.Total).toBe('54.43');
    // The balance: brought forward + charges + credits + payments (signed) = carried forward, as in the JSON.
    expect(p(of('Balance brought forward')[0]!.Total)).toBe(json.opening_balance_pence);
    expect(p(of('Charges')[0]!.Total)).toBe(json.charges_pence);
    expect(p(of('Credits')[0]!.Total)).toBe(json.credits_pence);
    expect(of('Payment from you').map((r) => [r.Date, r.Number, p(r.Total)])).toEqual([['2026-11-20', 'BACS ADA-1', -3_000]]);
    expect(of('Payment to you').map((r) => [r.Date, r.Number, p(r.Total)])).toEqual([['2026-11-21', 'Refund', 500]]);
    const closing = p(of('Balance carried forward')[0]!.Total);
    expect(closing).toBe(json.closing_balance_pence);
    const start = all.findIndex((r) => r.Record === 'Balance brought forward');
    const stop = all.findIndex((r) => r.Record === 'Balance carried forward');
    expect(all.slice(start, stop).reduce((s, r) => s + p(r.Total), 0)).toBe(closing);
    // The VAT invoices per rate, and their totals, as in the JSON.
    const rates = of('VAT invoice rate');
    expect(rates.map((r) => [r.Number, r['VAT rate'], p(r.Net), p(r.VAT)])).toEqual(
      json.vat_invoices.flatMap((v: { number: string; rates: { label: string; net_pence: number; vat_pence: number }[] }) => v.rates.map((r) => [v.number, r.label, r.net_pence, r.vat_pence])),
    );
    expect(of('VAT invoice total').map((r) => [r.Number, p(r.Net), p(r.VAT), p(r.Total)])).toEqual(
      json.vat_invoices.map((v: { number: string; net_pence: number; vat_pence: number; gross_pence: number }) => [v.number, v.net_pence, v.vat_pence, v.gross_pence]),
    );
  });

  it('the PDF shows the landlord, the property, each line and the totals', async () => {
    const res = await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement.pdf?from_date=2026-11-01&to_date=2026-11-30`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const s of ['LANDLORD STATEMENT', 'Ada Lovelace', '12 Acacia Avenue', 'RCH-000001', 'RCC-000003', 'Sun 1 Nov 2026', 'Mon 30 Nov 2026', '£61.67', '-£7.24', '£54.43', 'Total for the period']) {
      expect(text, s).toContain(s);
    }
    // The same balance as the JSON and the CSV: brought forward £10.00, carried forward £10.00 + £61.67 - £7.24 - £30.00 + £5.00 = £39.43.
    for (const s of ['14 Park Row, Leeds, LS1 5HD', 'VAT registration number: GB987654321', 'Balance brought forward', '£10.00', 'Payment received from you (BACS ADA-1)', '-£30.00', 'Payment to you (Refund)', '£5.00', 'Balance carried forward', '£39.43']) {
      expect(text, s).toContain(s);
    }
    // One page per VAT invoice, with the net and VAT per rate and the total VAT.
    for (const s of ['VAT INVOICE', 'VAT CREDIT NOTE', 'Credits VAT invoice: RCH-000001', 'Tax point (time of supply): Sat 21 Nov 2026', 'VAT rate', 'Net (excl. VAT)', '5%', '£6.06', '£0.30', '20%', '£46.09', '£9.22', 'Total VAT (GBP)', '£9.52']) {
      expect(text, s).toContain(s);
    }
  });

  it('bad periods are 400, another agency 404, contractors and tenants 403', async () => {
    expect((await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-30&to_date=2026-11-01`)).statusCode).toBe(400);
    expect((await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2025-01-01&to_date=2026-11-30`)).statusCode).toBe(400);
    expect((await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement`)).statusCode).toBe(400);
    expect((await w.adminB.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`)).statusCode).toBe(404);
    expect((await w.adminB.client.get('/api/recharges')).json().count).toBe(0);
    expect((await w.contractor.client.get(`/api/landlords/${ada.uuid}/statement.csv?from_date=2026-11-01&to_date=2026-11-30`)).statusCode).toBe(403);
    expect((await w.tenant.client.get('/api/recharges')).statusCode).toBe(403);
    expect((await w.agentA1.client.put('/api/recharges/settings', { fee_mode: 'none', fee_percent_bp: 0, fee_fixed_pence: 0 })).statusCode).toBe(403);
    expect((await w.adminA.client.put('/api/recharges/settings', { fee_mode: 'percent', fee_percent_bp: 0, fee_fixed_pence: 0 })).statusCode).toBe(400);
  });
});

describe('recharge arithmetic', () => {
  it('shares of 100 % split an amount exactly; the parts of a credit are the negatives', () => {
    fc.assert(fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 5 }), (amount, weights) => {
      const sum = weights.reduce((s, x) => s + x, 0);
      const shares = weights.map((x) => Math.floor((x * 10_000) / sum));
      shares[0]! += 10_000 - shares.reduce((s, x) => s + x, 0);
      if (shares.some((s) => s <= 0)) return;
      const parts = splitByShares(amount, shares);
      expect(parts.reduce((s, x) => s + x, 0)).toBe(amount);
      expect(splitByShares(-amount, shares)).toEqual(parts.map((p) => (p === 0 ? 0 : -p)));
    }));
  });

  it('a fixed fee is split by share and not credited back', () => {
    const fee = { fee_mode: 'fixed' as const, fee_percent_bp: 0, fee_fixed_pence: 2_500 };
    const r = rechargeAmounts({ net: 10_000, vat: 2_000 }, [5000, 5000], fee, 2000, false);
    expect(r.map((x) => x.fee_net_pence)).toEqual([1_250, 1_250]);
    expect(r[0]).toMatchObject({ fee_vat_pence: 250, total_pence: 5_000 + 1_000 + 1_250 + 250 });
    const c = rechargeAmounts({ net: -10_000, vat: -2_000 }, [5000, 5000], fee, 2000, true);
    expect(c.map((x) => x.fee_net_pence)).toEqual([0, 0]);
  });
});
