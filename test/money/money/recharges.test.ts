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

  it('the CSV parses back with the same lines and totals', async () => {
    const res = await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement.csv?from_date=2026-11-01&to_date=2026-11-30`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows: string[][] = parse(res.body);
    expect(rows[0]).toEqual([...STATEMENT_CSV_COLUMNS]);
    const lines = rows.slice(1).filter((r) => !r[0]!.startsWith('Total'));
    const total = rows.at(-1)!;
    expect(total[0]).toBe('Total');
    for (const col of [7, 8, 9, 10, 11]) {
      const sum = lines.reduce((s, r) => s + Math.round(Number(r[col]) * 100), 0);
      expect(Math.round(Number(total[col]) * 100), STATEMENT_CSV_COLUMNS[col]).toBe(sum);
    }
    expect(total[11]).toBe('54.43');
  });

  it('the PDF shows the landlord, the property, each line and the totals', async () => {
    const res = await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement.pdf?from_date=2026-11-01&to_date=2026-11-30`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const s of ['LANDLORD STATEMENT', 'Ada Lovelace', '12 Acacia Avenue', 'RCH-000001', 'RCC-000003', 'Sun 1 Nov 2026', 'Mon 30 Nov 2026', '£61.67', '-£7.24', '£54.43', 'Total for the period']) {
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
