/**
 * The agency's VAT treatment of recharged costs, end to end (docs/money.md "VAT treatment of
 * recharged costs"): per treatment, a property with three owners taken from a contractor's invoice
 * to their statements and the Xero, QuickBooks Online and Sage 50 exports, checking that the VAT
 * the agency reclaims (bills) plus the VAT it charges (sales) is what HMRC expects:
 * - recharge: the agency reclaims the contractor's VAT and charges output VAT on its onward supply
 *   to each owner at each line's rate (VATA 1994 s. 47(3); VAT Notice 700, 17.5 rounding per line);
 * - disbursement: the invoice is the landlords', the agency reclaims nothing and passes the gross on
 *   outside the scope of VAT (VAT Notice 700, 25.1); only its fee carries VAT.
 * Also: invoices as HMRC reads them (mandatory particulars at issue, London dates, credit notes
 * within what the invoice charged per rate, a property-based test of it with fast-check).
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { moneyWorld } from './world.ts';

/** The contractor's invoice: 20 %, 5 % and zero-rated lines. net 24,730, VAT 3,600 + 121 = 3,721 (2,425 x 5 % = 121.25). */
const LINES = [
  { description: 'Replace boiler pump', quantity: 1, unit_price_pence: 18_000, vat_rate: 'standard' },
  { description: 'Energy-saving controls', quantity: 1, unit_price_pence: 2_425, vat_rate: 'reduced' },
  { description: 'Grab rail for a disabled tenant', quantity: 1, unit_price_pence: 4_305, vat_rate: 'zero' },
];
const OWNERS = [
  { name: 'Ada Lovelace', share_bp: 5000, address_line1: '1 Park Square', address_town: 'Leeds', address_postcode: 'LS1 2ND' },
  { name: 'Bob Smith', share_bp: 3000, address_line1: '9 Mill Hill', address_town: 'Leeds', address_postcode: 'LS1 5DQ' },
  { name: 'Cara Jones', share_bp: 2000, address_line1: '3 Kirkgate', address_town: 'Otley', address_postcode: 'LS21 3HW' },
];
const FEE_BP = 1000;
const RATE_BP: Record<string, number> = { standard: 2000, reduced: 500, zero: 0 };

/** Half up on the magnitude (the server's rounding). */
function halfUp(n: number, bp: number): number {
  return Math.floor((n * bp + 5000) / 10_000);
}

/** Largest-remainder split of a positive amount by shares making 10,000 (earlier share on a tie). */
function split(amount: number, shares: number[]): number[] {
  const parts = shares.map((s) => Math.floor((amount * s) / 10_000));
  let left = amount - parts.reduce((a, b) => a + b, 0);
  const order = shares.map((s, i) => ({ i, r: (amount * s) % 10_000 })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const o of order) if (left-- > 0) parts[o.i]! += 1;
  return parts;
}

interface World {
  t: TestApp;
  w: Awaited<ReturnType<typeof moneyWorld>>;
  jobUuid: string;
  owners: { uuid: string; name: string }[];
}

async function world(treatment: 'recharge' | 'disbursement'): Promise<World> {
  const t = await buildTestApp();
  const w = await moneyWorld(t);
  const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7, addressId: w.address.id, title: 'Boiler pump failed' });
  const jobUuid = (await t.db.selectFrom('jobs').select('uuid').where('id', '=', job.id).executeTakeFirstOrThrow()).uuid;
  const addressUuid = (await t.db.selectFrom('addresses').select('uuid').where('id', '=', w.address.id).executeTakeFirstOrThrow()).uuid;
  const owners = [];
  for (const o of OWNERS) {
    const { share_bp: share, ...body } = o;
    const l = (await w.adminA.client.post('/api/landlords', { ...body, email: `${o.name.split(' ')[0]!.toLowerCase()}@example.test` })).json().data;
    expect((await w.adminA.client.post(`/api/landlords/${l.uuid}/properties`, { address_uuid: addressUuid, share_bp: share })).statusCode).toBe(201);
    owners.push({ uuid: l.uuid as string, name: o.name });
  }
  expect((await w.adminA.client.put('/api/recharges/settings', { fee_mode: 'percent', fee_percent_bp: FEE_BP, fee_fixed_pence: 0 })).statusCode).toBe(200);
  const s = await w.adminA.client.put('/api/pricing/settings', { vat_treatment: treatment });
  expect(s.statusCode, s.body).toBe(200);
  expect(s.json().data.vat_treatment).toBe(treatment);
  return { t, w, jobUuid, owners };
}

async function csv(x: World, url: string): Promise<Record<string, string>[]> {
  const res = await x.w.adminA.client.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return parse(res.body, { columns: true });
}

const pence = (v: string | undefined) => Math.round(Number(v ?? '0') * 100);
const sum = (rows: Record<string, string>[], col: string) => rows.reduce((s, r) => s + pence(r[col]), 0);

/** The VAT columns of each export: bills (input tax) and sales (output tax). */
const VAT_COLUMNS = {
  xero: { bills: 'TaxAmount', sales: 'TaxAmount' },
  quickbooks: { bills: 'LineTaxAmount', sales: 'ItemTaxAmount' },
  sage: { bills: 'Tax Amount', sales: 'Tax Amount' },
} as const;

describe.each(['recharge', 'disbursement'] as const)('the %s treatment, from the contractor invoice to the exports', (treatment) => {
  let x: World;
  let invoice: Record<string, unknown>;

  beforeAll(async () => {
    x = await world(treatment);
    const body = treatment === 'disbursement'
      ? { job_uuid: x.jobUuid, lines: LINES, contractor_reference: 'FG-2291', supplier_invoice_date: '2026-11-19' }
      : { job_uuid: x.jobUuid, lines: LINES };
    const draft = await x.w.adminA.client.post('/api/invoices', body);
    expect(draft.statusCode, draft.body).toBe(201);
    const issued = await x.w.adminA.client.post(`/api/invoices/${draft.json().data.uuid}/issue`);
    expect(issued.statusCode, issued.body).toBe(200);
    invoice = issued.json().data;
    await dispatchPendingEvents(x.t.deps, backgroundHandlers());
  });
  afterAll(async () => x.t.close());

  it('the invoice carries the treatment, its own number and the contractor VAT', () => {
    expect(invoice).toMatchObject({ vat_treatment: treatment, net_pence: 24_730, vat_pence: 3_721, gross_pence: 28_451 });
    if (treatment === 'recharge') expect(invoice).toMatchObject({ self_billed: true, vat_invoice_number: 'SB-FLETCHER-000001', invoice_date: '2026-11-21' });
    else expect(invoice).toMatchObject({ self_billed: false, vat_invoice_number: 'FG-2291', invoice_date: '2026-11-19', tax_point: '2026-11-19' });
  });

  it('VAT reclaimed plus VAT charged is what HMRC expects, in every package; statements add up to the invoice', async () => {
    const shares = OWNERS.map((o) => o.share_bp);
    // Expected per owner: the net by rate split by share, output VAT per rate (recharge) or the contractor's VAT split (disbursement).
    const netByRate = LINES.map((l) => ({ code: l.vat_rate, parts: split(l.unit_price_pence, shares) }));
    // A recharge splits the net per rate (each rate is a line of the onward supply); a disbursement splits the invoice's net and VAT as they are.
    const ownerNet = treatment === 'recharge' ? shares.map((_, i) => netByRate.reduce((s, r) => s + r.parts[i]!, 0)) : split(24_730, shares);
    const ownerCostVat = treatment === 'recharge'
      ? shares.map((_, i) => netByRate.reduce((s, r) => s + halfUp(r.parts[i]!, RATE_BP[r.code]!), 0))
      : split(3_721, shares);
    const ownerFee = ownerNet.map((n) => halfUp(n, FEE_BP));
    const ownerFeeVat = ownerFee.map((f) => halfUp(f, 2000));
    const expectedReclaimed = treatment === 'recharge' ? 3_721 : 0;
    const expectedCharged = (treatment === 'recharge' ? ownerCostVat.reduce((a, b) => a + b, 0) : 0) + ownerFeeVat.reduce((a, b) => a + b, 0);
    expect(ownerNet.reduce((a, b) => a + b, 0)).toBe(24_730);

    for (const pkg of ['xero', 'quickbooks', 'sage'] as const) {
      const bills = await csv(x, `/api/invoices/export/${pkg}/bills?from_date=2026-11-01`);
      const sales = await csv(x, `/api/recharges/export/${pkg}`);
      expect(sum(bills, VAT_COLUMNS[pkg].bills), `${pkg} VAT reclaimed`).toBe(expectedReclaimed);
      expect(sum(sales, VAT_COLUMNS[pkg].sales), `${pkg} VAT charged`).toBe(expectedCharged);
      // What the agency spends equals what it recovers from the owners (no cost left with it, none gained).
      const billNet = pkg === 'xero' ? bills.reduce((s, r) => s + Math.round(Number(r['*Quantity']) * pence(r['*UnitAmount'])), 0) : sum(bills, pkg === 'quickbooks' ? '*LineAmount' : 'Net Amount');
      expect(billNet, `${pkg} bill net`).toBe(treatment === 'recharge' ? 24_730 : 28_451);
      const costCol = pkg === 'xero' ? '*UnitAmount' : pkg === 'quickbooks' ? '*ItemAmount' : 'Net Amount';
      const costRows = sales.filter((r) => !(r['*Description'] ?? r.ItemDescription ?? r.Details ?? '').startsWith('Management fee'));
      expect(sum(costRows, costCol), `${pkg} cost recovered`).toBe(treatment === 'recharge' ? 24_730 : 28_451);
      const taxCol = pkg === 'xero' ? '*TaxType' : pkg === 'quickbooks' ? '*ItemTaxCode' : 'Tax Code';
      const billTaxCol = pkg === 'xero' ? '*TaxType' : pkg === 'quickbooks' ? '*LineTaxCode' : 'Tax Code';
      const outside = { xero: 'No VAT', quickbooks: 'No VAT', sage: 'T9' }[pkg];
      if (treatment === 'disbursement') {
        expect(new Set(bills.map((r) => r[billTaxCol])), `${pkg} bills outside the scope`).toEqual(new Set([outside]));
        expect(new Set(costRows.map((r) => r[taxCol])), `${pkg} disbursement outside the scope`).toEqual(new Set([outside]));
      } else {
        expect(costRows.map((r) => r[taxCol]).includes(outside), `${pkg} no recharge line outside the scope`).toBe(false);
        expect(new Set(costRows.map((r) => r[taxCol])).size, `${pkg} one code per rate`).toBe(3);
      }
    }

    let statementsCost = 0;
    let vatInvoiced = 0;
    for (const [i, o] of x.owners.entries()) {
      const s = (await x.w.adminA.client.get(`/api/landlords/${o.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`)).json().data;
      expect(s.totals, o.name).toMatchObject({ cost_net_pence: ownerNet[i], cost_vat_pence: ownerCostVat[i], fee_net_pence: ownerFee[i], fee_vat_pence: ownerFeeVat[i] });
      expect(s.closing_balance_pence, o.name).toBe(s.opening_balance_pence + s.totals.total_pence);
      statementsCost += s.totals.cost_net_pence + (treatment === 'disbursement' ? s.totals.cost_vat_pence : 0);
      // The agency's VAT invoice to the owner: the fee (and, recharging, the work) per rate; its VAT is the output VAT the sales export carries.
      expect(s.vat_invoices, o.name).toHaveLength(1);
      const v = s.vat_invoices[0];
      const rates = (v.rates as { vat_rate: string; net_pence: number; vat_pence: number }[]).map((r) => r.vat_rate);
      if (treatment === 'recharge') {
        expect(rates, o.name).toEqual(['reduced', 'standard', 'zero']);
        expect(v, o.name).toMatchObject({ net_pence: ownerNet[i]! + ownerFee[i]!, vat_pence: ownerCostVat[i]! + ownerFeeVat[i]! });
      } else {
        expect(rates, o.name).toEqual(['standard']);
        expect(v, o.name).toMatchObject({ net_pence: ownerFee[i], vat_pence: ownerFeeVat[i] });
      }
      vatInvoiced += v.vat_pence;
    }
    expect(statementsCost).toBe(treatment === 'recharge' ? 24_730 : 28_451);
    expect(vatInvoiced, 'VAT on the VAT invoices = VAT charged in the sales exports').toBe(expectedCharged);
  });

  it.runIf(treatment === 'disbursement')("the disbursement's PDF names the landlords it was issued to, as its VAT records keep them, after one is erased and another takes the property", async () => {
    const { pdfText } = await import('./pdf-text.ts');
    const pdf = async () => pdfText((await x.w.adminA.client.get(`/api/invoices/${String(invoice.uuid)}/pdf`)).rawPayload);
    const before = await pdf();
    for (const o of OWNERS) expect(before).toContain(o.name);
    const erased = await x.w.adminA.client.post(`/api/landlords/${x.owners[0]!.uuid}/erase`, {});
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data.retained).toMatchObject([{ record_kind: 'vat_records' }]);
    // The property passes to a new owner after the supply: the invoice stays the former owners'.
    const addressUuid = (await x.t.db.selectFrom('addresses').select('uuid').where('id', '=', x.w.address.id).executeTakeFirstOrThrow()).uuid;
    const dan = (await x.w.adminA.client.post('/api/landlords', { name: 'Dan Evans', email: 'dan@example.test', address_line1: '4 Briggate', address_town: 'Leeds', address_postcode: 'LS1 6HD' })).json().data;
    expect((await x.w.adminA.client.post(`/api/landlords/${dan.uuid}/properties`, { address_uuid: addressUuid, share_bp: 5000 })).statusCode).toBe(201);
    const after = await pdf();
    expect(after).toContain('Ada Lovelace');
    expect(after).toContain('1 Park Square');
    for (const o of OWNERS.slice(1)) expect(after).toContain(o.name);
    expect(after).not.toContain('Dan Evans');
    expect(after).not.toMatch(/Erased landlord/);
  });
});

describe('invoices as HMRC reads them', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof moneyWorld>>;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await moneyWorld(t);
  });
  afterAll(async () => t.close());

  async function issued(lines: unknown[], extra: Record<string, unknown> = {}) {
    const d = await w.adminA.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines, ...extra });
    expect(d.statusCode, d.body).toBe(201);
    const res = await w.adminA.client.post(`/api/invoices/${d.json().data.uuid}/issue`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  it('an invoice without the supplier date, or self-billed without an agreement in force, is a 400 naming what is missing and changes nothing', async () => {
    const d = (await w.adminA.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES, contractor_reference: 'FG-9' })).json().data;
    const res = await w.adminA.client.post(`/api/invoices/${d.uuid}/issue`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('supplier_invoice_date');
    expect((await w.adminA.client.get(`/api/invoices/${d.uuid}`)).json().data).toMatchObject({ status: 'draft', invoice_number: null });
    await w.adminA.client.put(`/api/pricing/contractors/${w.contractorUuid}/self-billing`, { starts_on: '2025-11-01', ends_on: '2026-10-31', review_on: '2026-06-30', vat_number_checked_on: '2025-11-01' });
    const sb = (await w.adminA.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES })).json().data;
    const refused = await w.adminA.client.post(`/api/invoices/${sb.uuid}/issue`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('self-billing agreement in force');
    await w.adminA.client.put(`/api/pricing/contractors/${w.contractorUuid}/self-billing`, { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-01-02' });
    await t.db.updateTable('contractors').set({ address_line1: null }).where('id', '=', w.contractorId).execute();
    const noAddress = await w.adminA.client.post(`/api/invoices/${sb.uuid}/issue`);
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().error).toContain("the contractor's business address");
    await t.db.updateTable('contractors').set({ address_line1: '2 Mill Lane' }).where('id', '=', w.contractorId).execute();
    expect((await w.adminA.client.post(`/api/invoices/${sb.uuid}/issue`)).statusCode).toBe(200);
  });

  it('credit notes cite the original, credit only its rates and amounts; credited in full it is credited, not paid; an issued self-billed invoice cannot be voided', async () => {
    const inv = await issued([LINES[0]], { contractor_reference: 'FG-77', supplier_invoice_date: '2026-11-18' });
    const wrongRate = await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [{ ...LINES[0], vat_rate: 'reduced' }], reason: 'Wrong rate' });
    expect(wrongRate.statusCode).toBe(409);
    expect(wrongRate.json().error).toContain('charged nothing at the reduced rate');
    const cn = await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [LINES[0]], reason: 'Not done' });
    expect(cn.statusCode, cn.body).toBe(201);
    expect(cn.json().data).toMatchObject({ credited_invoice_number: 'FG-77', credited_invoice_date: '2026-11-18' });
    const after = (await w.adminA.client.get(`/api/invoices/${inv.uuid}`)).json().data;
    expect(after).toMatchObject({ status: 'credited', outstanding_pence: 0 });
    const sb = await issued([LINES[1]]);
    const v = await w.adminA.client.post(`/api/invoices/${sb.uuid}/void`, { reason: 'mistake' });
    expect(v.statusCode).toBe(409);
  });

  it("a credit note the contractor issued against its own invoice carries the contractor's number and date, and cites the invoice's own number and date", async () => {
    const inv = await issued([LINES[0], LINES[1]], { contractor_reference: 'FG-88', supplier_invoice_date: '2026-11-17' });
    const post = (body: Record<string, unknown>) => w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines: [LINES[1]], reason: 'Controls returned', ...body });
    const noDate = await post({ contractor_reference: 'FG-CN-12' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().error).toContain('supplier_invoice_date');
    expect((await post({ supplier_invoice_date: '2026-11-20' })).statusCode).toBe(400);
    const early = await post({ contractor_reference: 'FG-CN-12', supplier_invoice_date: '2026-11-16' });
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toContain("on or after the invoice's own date 2026-11-17");
    expect((await post({ contractor_reference: 'FG-CN-12', supplier_invoice_date: '2026-11-22' })).statusCode).toBe(400);
    expect((await w.adminA.client.get(`/api/invoices/${inv.uuid}`)).json().data.credited_pence).toBe(0);
    const cn = await post({ contractor_reference: 'FG-CN-12', supplier_invoice_date: '2026-11-20' });
    expect(cn.statusCode, cn.body).toBe(201);
    expect(cn.json().data).toMatchObject({
      kind: 'credit_note', vat_invoice_number: 'FG-CN-12', invoice_date: '2026-11-20', tax_point: '2026-11-20', issue_date: '2026-11-21',
      credited_invoice_number: 'FG-88', credited_invoice_date: '2026-11-17', self_billed: false,
    });
    expect(cn.json().data.invoice_number).toMatch(/^CN-\d{6}$/);
    const { pdfText } = await import('./pdf-text.ts');
    const text = await pdfText((await w.adminA.client.get(`/api/invoices/${cn.json().data.uuid}/pdf`)).rawPayload);
    expect(text).toContain("Supplier's credit note number: FG-CN-12");
    expect(text).toContain('Credits invoice: FG-88');
    const xero = parse((await w.adminA.client.get('/api/invoices/export/xero/bills')).body, { columns: true }) as Record<string, string>[];
    expect(xero.find((r) => r['*InvoiceNumber'] === cn.json().data.invoice_number)).toMatchObject({ '*InvoiceDate': '20/11/2026', Reference: 'FG-88' });
    // A self-billed invoice is credited by the agency's own credit note only.
    const sb = await issued([LINES[0]]);
    const refused = await w.adminA.client.post(`/api/invoices/${sb.uuid}/credit-notes`, { lines: [LINES[0]], reason: 'x', contractor_reference: 'FG-CN-13', supplier_invoice_date: '2026-11-21' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain("credited by the agency's own credit note");
  });

  it('GET /api/invoices?status=issued: the totals are the sums of the rows (a credit note owes nothing)', async () => {
    const res = (await w.adminA.client.get('/api/invoices?status=issued&limit=200')).json();
    const rows = res.data as { gross_pence: number; outstanding_pence: number; kind: string }[];
    expect(rows.some((r) => r.kind === 'credit_note')).toBe(true);
    expect(res.totals.issued.count).toBe(rows.length);
    expect(res.totals.issued.gross_pence).toBe(rows.reduce((s, r) => s + r.gross_pence, 0));
    expect(res.totals.issued.outstanding_pence).toBe(rows.reduce((s, r) => s + r.outstanding_pence, 0));
  });

  it('property: whatever credit notes are asked for, none credits more than the invoice charged at any rate', async () => {
    const line = fc.record({
      description: fc.constant('Credit'),
      quantity: fc.integer({ min: 1, max: 3 }),
      unit_price_pence: fc.integer({ min: 1, max: 20_000 }),
      vat_rate: fc.constantFrom('standard', 'reduced', 'zero', 'exempt'),
    });
    // The invoice itself is random too (one to three lines at any rates), so a credit at a rate it never charged is tried often.
    const invoiceLines = fc.array(line.map((l) => ({ ...l, description: 'Work' })), { minLength: 1, maxLength: 3 });
    await fc.assert(fc.asyncProperty(invoiceLines, fc.array(fc.array(line, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), async (invLines, attempts) => {
      const inv = await issued(invLines);
      const charged = new Set(invLines.map((l) => l.vat_rate));
      for (const lines of attempts) {
        const res = await w.adminA.client.post(`/api/invoices/${inv.uuid}/credit-notes`, { lines, reason: 'Property test' });
        expect([201, 409], res.body).toContain(res.statusCode);
        // A rate the invoice never charged is always refused.
        if (lines.some((l) => !charged.has(l.vat_rate))) expect(res.statusCode, res.body).toBe(409);
      }
      const id = (await t.db.selectFrom('invoices').select('id').where('uuid', '=', inv.uuid).executeTakeFirstOrThrow()).id;
      const rows = await t.db.selectFrom('money_lines as m').innerJoin('invoices as i', 'i.id', 'm.invoice_id').select(['i.kind', 'm.vat_rate_code', 'm.net_pence', 'm.vat_pence'])
        .where((eb) => eb.or([eb('i.id', '=', id), eb('i.credited_invoice_id', '=', id)])).execute();
      for (const code of ['standard', 'reduced', 'zero', 'exempt']) {
        const of = (kind: string, k: 'net_pence' | 'vat_pence') => rows.filter((r) => r.kind === kind && r.vat_rate_code === code).reduce((s, r) => s + r[k], 0);
        expect(of('credit_note', 'net_pence'), code).toBeLessThanOrEqual(of('invoice', 'net_pence'));
        expect(of('credit_note', 'vat_pence'), code).toBeLessThanOrEqual(of('invoice', 'vat_pence'));
      }
      const after = (await w.adminA.client.get(`/api/invoices/${inv.uuid}`)).json().data;
      expect(after.credited_pence).toBeLessThanOrEqual(after.gross_pence);
    }), { numRuns: 12, seed: 57 });
  });

  it('an invoice issued at 00:30 BST on 1 July is dated 1 July', async () => {
    const target = new Date('2026-06-30T23:30:00Z');
    const back = (target.getTime() - t.clock.now().getTime()) / 1000;
    t.clock.advance(back);
    try {
      const inv = await issued([LINES[0]]);
      expect(inv).toMatchObject({ issue_date: '2026-07-01', invoice_date: '2026-07-01', tax_point: '2026-07-01' });
    } finally {
      t.clock.advance(-back);
    }
  });
});
