/**
 * The invoice and credit-note PDFs parsed back (pdfjs-dist) and checked, field by field, against
 * the list of what a full VAT invoice must show in HMRC's guide "VAT Notice 700: the VAT guide",
 * section 16.3 "Full VAT invoices"; the self-billing statement from "VAT Notice 700/62:
 * self-billing"; and what a credit note must show from VAT Notice 700 section 18.2.6 ("Credit
 * and debit notes"). Also: the tax point rule (VATA 1994 s. 6(3) to 6(5)) and credit notes against
 * paid invoices (a refund owed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELF_BILLING_STATEMENT } from '../../../src/modules/money/money/invoice-pdf.ts';
import { taxPoint } from '../../../src/modules/money/money/vat.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { pdfText } from './pdf-text.ts';
import { moneyWorld } from './world.ts';

/** Four lines, one of each VAT treatment: 20 %, 5 %, zero-rated, exempt. */
const LINES = [
  { description: 'Labour per hour', quantity: 2, unit_price_pence: 4_500, vat_rate: 'standard' },
  { description: 'Energy-saving boiler controls', quantity: 1, unit_price_pence: 12_000, vat_rate: 'reduced' },
  { description: 'Grab rails for a disabled tenant', quantity: 2, unit_price_pence: 2_500, vat_rate: 'zero' },
  { description: 'Insurance excess passed on', quantity: 1, unit_price_pence: 10_000, vat_rate: 'exempt' },
];
// net 9,000 + 12,000 + 5,000 + 10,000 = 36,000; VAT 1,800 + 600 + 0 + 0 = 2,400; gross 38,400

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;
let selfBilled: { uuid: string; invoice_number: string; vat_invoice_number: string; issue_date: string };
let text: string;

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const profile = await w.adminA.client.put('/api/agencies/current', {
    legal_name: 'Agency A Lettings Ltd', registered_address: { line1: '4 Quay Street', town: 'Bristol', postcode: 'bs1 4dj' },
  });
  expect(profile.statusCode, profile.body).toBe(200);
  const contractor = await w.adminA.client.put(`/api/contractors/${w.contractorUuid}`, {
    address_line1: '12 Mill Lane', address_town: 'Leeds', address_postcode: 'ls6 2ab',
  });
  expect(contractor.statusCode, contractor.body).toBe(200);
  expect(contractor.json().data.address).toEqual({ line1: '12 Mill Lane', line2: null, town: 'Leeds', postcode: 'LS6 2AB' });
  // The work was done on 2 Nov; the invoice is issued on 21 Nov (the test clock): more than 14
  // days later, so the tax point is the date of supply and must be printed.
  const draft = await w.adminA.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES, supply_date: '2026-11-02' });
  expect(draft.statusCode, draft.body).toBe(201);
  const issued = await w.adminA.client.post(`/api/invoices/${draft.json().data.uuid}/issue`);
  expect(issued.statusCode, issued.body).toBe(200);
  selfBilled = issued.json().data;
  expect(issued.json().data).toMatchObject({ self_billed: true, supply_date: '2026-11-02', tax_point: '2026-11-02', gross_pence: 38_400 });
  const res = await w.adminA.client.get(`/api/invoices/${selfBilled.uuid}/pdf`);
  expect(res.statusCode).toBe(200);
  text = await pdfText(res.rawPayload);
});
afterAll(async () => t.close());

/**
 * HMRC VAT Notice 700, section 16.3 "Full VAT invoices": what the invoice must show, each with
 * the text the PDF carries for this invoice.
 */
const HMRC_FULL_VAT_INVOICE: { requirement: string; expect: () => string[] }[] = [
  { requirement: 'a unique sequential number based on one or more series which uniquely identifies the document', expect: () => ['Invoice number:', selfBilled.invoice_number] },
  { requirement: 'the time of supply (tax point), where different from the invoice date', expect: () => ['Tax point (time of supply):', 'Mon 2 Nov 2026'] },
  { requirement: 'the date of issue of the document', expect: () => ['Invoice date:', 'Sat 21 Nov 2026'] },
  { requirement: "the supplier's name", expect: () => ['Supplier', 'Fletcher Plumbing'] },
  { requirement: "the supplier's address", expect: () => ['12 Mill Lane', 'Leeds', 'LS6 2AB'] },
  { requirement: "the supplier's VAT registration number", expect: () => ['VAT registration number: GB123456789'] },
  { requirement: "the customer's name", expect: () => ['Customer', 'Agency A Lettings Ltd'] },
  { requirement: "the customer's address", expect: () => ['4 Quay Street', 'Bristol', 'BS1 4DJ'] },
  { requirement: 'a description sufficient to identify the goods or services supplied', expect: () => LINES.map((l) => l.description) },
  { requirement: 'for each description, the quantity of the goods or the extent of the services', expect: () => ['Qty'] },
  { requirement: 'for each description, the unit price', expect: () => ['Unit price', '£45.00', '£120.00', '£25.00', '£100.00'] },
  { requirement: 'for each description, the rate of VAT (zero-rated and exempt supplies shown apart)', expect: () => ['VAT rate', '20%', '5%', '0% zero-rated', 'Exempt'] },
  { requirement: 'for each description, the amount payable excluding VAT', expect: () => ['£90.00', '£120.00', '£50.00', '£100.00'] },
  { requirement: 'the total amount payable excluding VAT', expect: () => ['Total net', '£360.00'] },
  { requirement: 'the rate of any cash discount offered', expect: () => [] }, // none offered: nothing to show
  { requirement: 'the total amount of VAT charged, shown in sterling', expect: () => ['Total VAT (GBP)', '£24.00'] },
  { requirement: 'the net amount and VAT per rate (VAT summary)', expect: () => ['VAT summary', '£18.00', '£6.00'] },
  { requirement: 'the total amount payable including VAT', expect: () => ['Total (gross)', '£384.00'] },
];

describe('invoice PDF: HMRC VAT Notice 700 section 16.3, full VAT invoice', () => {
  for (const item of HMRC_FULL_VAT_INVOICE) {
    it(item.requirement, () => {
      for (const s of item.expect()) expect(text, s).toContain(s);
    });
  }

  it('self-billing (VAT Notice 700/62): the agency numbers the invoice, so it is headed self-billed and carries the output tax statement', () => {
    expect(text).toContain('SELF-BILLED INVOICE');
    expect(text).toContain('self-billing agreement');
    expect(text).toContain(SELF_BILLING_STATEMENT);
    expect(SELF_BILLING_STATEMENT).toBe('The VAT shown is your output tax due to HMRC.');
  });

  it("an invoice carrying the contractor's own number is not self-billed: that number is the invoice number", async () => {
    const job = (await t.db.selectFrom('jobs').select('uuid').where('id', '=', w.completed.id).executeTakeFirstOrThrow()).uuid;
    const inv = (await w.contractor.client.post('/api/invoices', { job_uuid: job, lines: [LINES[0]], contractor_reference: 'FP-2231' })).json().data;
    await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`);
    const own = await pdfText((await w.adminA.client.get(`/api/invoices/${inv.uuid}/pdf`)).rawPayload);
    expect(own).not.toContain('SELF-BILLED');
    expect(own).not.toContain(SELF_BILLING_STATEMENT);
    expect(own).toContain("Supplier's invoice number: FP-2231");
    expect(own).toContain('Our reference:');
  });
});

describe('credit note PDF: HMRC VAT Notice 700 section 18.2.6', () => {
  it('cites the original invoice number and date and the reason; against a paid invoice it shows the refund owed', async () => {
    await w.adminA.client.post(`/api/invoices/${selfBilled.uuid}/payments`, { amount_pence: 38_400, paid_on: '2026-11-21', method: 'bank_transfer' });
    const cn = await w.adminA.client.post(`/api/invoices/${selfBilled.uuid}/credit-notes`, { lines: [LINES[0]], reason: 'Labour charged twice' });
    expect(cn.statusCode, cn.body).toBe(201);
    const note = cn.json().data;
    expect(note).toMatchObject({ kind: 'credit_note', credited_invoice_number: selfBilled.vat_invoice_number, credited_invoice_date: '2026-11-21', gross_pence: 10_800, refund_due_pence: 10_800 });
    const after = (await w.adminA.client.get(`/api/invoices/${selfBilled.uuid}`)).json().data;
    expect(after).toMatchObject({ status: 'paid', outstanding_pence: 0, refund_due_pence: 10_800, credited_pence: 10_800 });
    const cnText = await pdfText((await w.adminA.client.get(`/api/invoices/${note.uuid}/pdf`)).rawPayload);
    for (const s of ['SELF-BILLED CREDIT NOTE', `Credit note number: ${note.invoice_number}`, `Credits invoice: ${selfBilled.vat_invoice_number}`, 'Invoice date: Sat 21 Nov 2026',
      'Reason for credit:', 'Labour charged twice', 'Fletcher Plumbing', 'GB123456789', 'Agency A Lettings Ltd', 'Total VAT (GBP)', '£18.00', 'Refund due to us', '£108.00']) {
      expect(cnText, s).toContain(s);
    }
  });

  it('a credit note needs a reason and cannot credit more than was invoiced', async () => {
    const noReason = await w.adminA.client.post(`/api/invoices/${selfBilled.uuid}/credit-notes`, { lines: [LINES[0]] });
    expect(noReason.statusCode).toBe(400);
    const blank = await w.adminA.client.post(`/api/invoices/${selfBilled.uuid}/credit-notes`, { lines: [LINES[0]], reason: '   ' });
    expect(blank.statusCode).toBe(400);
    const tooMuch = await w.adminA.client.post(`/api/invoices/${selfBilled.uuid}/credit-notes`, { lines: [{ ...LINES[3], quantity: 3 }], reason: 'All of it' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error).toContain('left to credit');
  });

  it('a supply date in the future is refused', async () => {
    const bad = await w.adminA.client.post('/api/invoices', { job_uuid: w.completed.uuid, lines: LINES, supply_date: '2027-01-01' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('tax point (VATA 1994 s. 6(3) to 6(5))', () => {
  it('is the invoice date within 14 days of the work, else the date of the work', () => {
    expect(taxPoint(null, '2026-11-01')).toBeNull();
    expect(taxPoint('2026-11-21', null)).toBe('2026-11-21');
    expect(taxPoint('2026-11-21', '2026-11-07')).toBe('2026-11-21'); // 14 days: invoice date
    expect(taxPoint('2026-11-21', '2026-11-06')).toBe('2026-11-06'); // 15 days: date of supply
    expect(taxPoint('2026-11-21', '2026-11-25')).toBe('2026-11-21'); // invoiced before the work
  });
});
