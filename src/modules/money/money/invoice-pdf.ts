/**
 * The invoice or credit note as an A4 PDF drawn with pdfkit (docs/money.md "Invoice PDF"), with
 * everything HMRC's rules ask of a full VAT invoice (VAT Notice 700, section 16.3): the supplier's
 * name, address and VAT registration number; the customer's name and address; a unique sequential
 * number; the invoice date; the time of supply (tax point) where it differs; a description of each
 * line with its quantity, unit price, net amount and VAT rate (zero-rated and exempt told apart);
 * the net and VAT per rate; the total VAT in sterling; and the gross. The supplier is the
 * contractor; the customer is the agency (its legal name and registered address, docs/onboarding.md)
 * under the recharge treatment, the property's landlords (care of the agency) under the
 * disbursement treatment (docs/money.md "VAT treatment of recharged costs").
 *
 * Self-billing (VAT Notice 700/62, section 4; 6.4: the VAT is the supplier's output tax): an invoice the agency numbers itself (no contractor reference)
 * is a self-billed invoice: headed so, and carrying the statement "The VAT shown is your output
 * tax due to HMRC". A credit note cites the invoice it corrects (number and date) and the reason
 * (VAT Notice 700, 18.2.6), and shows a refund owed when the invoice was already paid.
 * Dates print as London dates for people ("Sat 21 Nov 2026"), never ISO.
 */
import { humanDate } from '../../../lib/london-time.ts';
import type { InvoiceDto } from './invoices.schemas.ts';
import { formatPounds } from './vat.ts';

/** A postal address as printed (absent lines skipped). */
export interface PdfAddress {
  line1: string | null;
  line2: string | null;
  town: string | null;
  postcode: string | null;
}

/** What the PDF prints besides the invoice itself. */
export interface PdfParty {
  /** The agency's trading name. */
  agencyName: string;
  /** The agency's legal (registered) name, when it differs. */
  agencyLegalName: string | null;
  agencyAddress: PdfAddress | null;
  agencyVatNumber: string | null;
  /** The contractor's business address. */
  supplierAddress: PdfAddress | null;
  /** Disbursement treatment: the landlords of the property, the invoice's customers (the agency pays as their agent). */
  landlordCustomers?: { name: string; address: PdfAddress }[];
}

/** Statement a self-billed invoice carries (HMRC VAT Notice 700/62: self-billed invoices, section 4; the VAT is the supplier's output tax, 6.4). */
export const SELF_BILLING_STATEMENT = 'The VAT shown is your output tax due to HMRC.';

/** How a line's rate prints: 20% / 5% / 0% (zero-rated) / Exempt / No VAT (supplier not registered). */
export function rateLabel(code: string, rateBp: number, vatRegistered: boolean): string {
  if (!vatRegistered) return 'No VAT';
  if (code === 'exempt') return 'Exempt';
  if (code === 'zero') return '0% zero-rated';
  return `${rateBp / 100}%`;
}

/** Net and VAT (pence) per printed rate, in the order the rates first appear on the lines. */
export function vatSummary(inv: Pick<InvoiceDto, 'lines' | 'vat_registered'>): { rate: string; net_pence: number; vat_pence: number }[] {
  const out = new Map<string, { rate: string; net_pence: number; vat_pence: number }>();
  for (const l of inv.lines) {
    const rate = rateLabel(l.vat_rate, l.vat_rate_bp, inv.vat_registered);
    const row = out.get(rate) ?? { rate, net_pence: 0, vat_pence: 0 };
    row.net_pence += l.net_pence;
    row.vat_pence += l.vat_pence;
    out.set(rate, row);
  }
  return [...out.values()];
}

function addressLines(a: PdfAddress | null): string[] {
  if (!a) return ['(no address on file)'];
  return [a.line1, a.line2, a.town, a.postcode].filter((x): x is string => !!x);
}

function title(inv: InvoiceDto): string {
  const base = inv.kind === 'credit_note' ? 'CREDIT NOTE' : 'INVOICE';
  const kind = inv.self_billed && inv.vat_registered ? `SELF-BILLED ${base}` : base;
  return inv.status === 'draft' ? `DRAFT ${kind}` : kind;
}

/**
 * Renders the invoice or credit note.
 * @param at fixes the PDF's creation date (deterministic output for the same data)
 * @returns the PDF bytes
 */
export async function renderInvoicePdf(inv: InvoiceDto, party: PdfParty, at: Date): Promise<Buffer> {
  // Loaded when first used (docs/operations.md "Starting"): not on the start-up path.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${title(inv)} ${inv.invoice_number ?? ''}`.trim(), Author: party.agencyName, CreationDate: at } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const date = (iso: string | null) => (iso ? humanDate(iso) : '-');
  const credit = inv.kind === 'credit_note';

  doc.font('Helvetica-Bold').fontSize(18).text(title(inv), 50, 50, { width: 280 });
  if (inv.status === 'draft') doc.font('Helvetica').fontSize(9).text('Not yet issued: not a VAT invoice', 50, doc.y, { width: 280 });

  // Right-hand block: numbers and dates.
  const facts: [string, string][] = [];
  const ownNumber = inv.invoice_number ?? 'not issued';
  if (credit) {
    if (inv.contractor_reference) facts.push(["Supplier's credit note number", inv.contractor_reference], ['Our reference', ownNumber], ['Credit note date', date(inv.invoice_date)]);
    else facts.push(['Credit note number', ownNumber], ['Credit note date', date(inv.issue_date)]);
    facts.push(['Credits invoice', inv.credited_invoice_number ?? '-'], ['Invoice date', date(inv.credited_invoice_date)]);
  } else if (inv.self_billed) {
    facts.push(['Invoice number', inv.vat_invoice_number ?? ownNumber], ['Our reference', ownNumber], ['Invoice date', date(inv.invoice_date)]);
  } else {
    facts.push(["Supplier's invoice number", inv.contractor_reference ?? '-'], ['Our reference', ownNumber], ['Invoice date', date(inv.invoice_date)]);
  }
  if (!credit) {
    facts.push(['Tax point (time of supply)', date(inv.tax_point)]);
    if (inv.supply_date && inv.supply_date !== inv.tax_point) facts.push(['Work done on', date(inv.supply_date)]);
    facts.push(['Due date', date(inv.due_date)]);
  }
  facts.push(['Job', inv.job_reference]);
  let fy = 50;
  doc.fontSize(9);
  for (const [label, value] of facts) {
    doc.font('Helvetica').text(`${label}:`, 330, fy, { width: 110 });
    doc.font('Helvetica-Bold').text(value, 440, fy, { width: 105, align: 'right' });
    fy += 13;
  }

  // Parties.
  let y = Math.max(fy, doc.y) + 14;
  const party1 = [inv.contractor_name, ...addressLines(party.supplierAddress), inv.vat_registered ? `VAT registration number: ${inv.contractor_vat_number ?? '-'}` : 'Not registered for VAT'];
  const customerName = party.agencyLegalName && party.agencyLegalName !== party.agencyName ? `${party.agencyLegalName} (trading as ${party.agencyName})` : party.agencyName;
  const agent = `c/o ${customerName}, ${addressLines(party.agencyAddress).join(', ')}`;
  const party2 = inv.vat_treatment === 'disbursement' && party.landlordCustomers && party.landlordCustomers.length > 0
    ? [...party.landlordCustomers.flatMap((c) => [c.name, addressLines(c.address).join(', ')]), agent, '(paid by the agent as a disbursement)']
    : [customerName, ...addressLines(party.agencyAddress), ...(party.agencyVatNumber ? [`VAT registration number: ${party.agencyVatNumber}`] : [])];
  doc.font('Helvetica-Bold').fontSize(10).text('Supplier', 50, y).text('Customer', 320, y);
  y += 14;
  doc.font('Helvetica').fontSize(9);
  let ly = y;
  for (const l of party1) {
    doc.text(l, 50, ly, { width: 250 });
    ly = doc.y;
  }
  let ry = y;
  for (const l of party2) {
    doc.text(l, 320, ry, { width: 225 });
    ry = doc.y;
  }
  y = Math.max(ly, ry) + 12;
  if (credit && inv.notes) {
    doc.font('Helvetica-Bold').text('Reason for credit: ', 50, y, { continued: true }).font('Helvetica').text(inv.notes, { width: 495 });
    y = doc.y + 10;
  }

  // Lines.
  const cols = { desc: 50, qty: 270, unit: 310, rate: 375, net: 440, vat: 495 };
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text('Description', cols.desc, y).text('Qty', cols.qty, y).text('Unit price', cols.unit, y).text('VAT rate', cols.rate, y)
      .text('Net', cols.net, y, { width: 50, align: 'right' }).text('VAT', cols.vat, y, { width: 50, align: 'right' });
    y += 13;
    doc.moveTo(50, y).lineTo(545, y).stroke();
    y += 5;
    doc.font('Helvetica');
  };
  header();
  for (const l of inv.lines) {
    const h = doc.heightOfString(l.description, { width: 210 });
    if (y + h > 760) {
      doc.addPage();
      y = 50;
      header();
    }
    doc.text(l.description, cols.desc, y, { width: 210 });
    doc.text(String(l.quantity), cols.qty, y).text(formatPounds(l.unit_price_pence), cols.unit, y).text(rateLabel(l.vat_rate, l.vat_rate_bp, inv.vat_registered), cols.rate, y)
      .text(formatPounds(l.net_pence), cols.net, y, { width: 50, align: 'right' }).text(formatPounds(l.vat_pence), cols.vat, y, { width: 50, align: 'right' });
    y += Math.max(h, 11) + 5;
  }
  doc.moveTo(50, y).lineTo(545, y).stroke();
  y += 10;
  if (y > 620) {
    doc.addPage();
    y = 50;
  }

  // VAT summary per rate (left) and totals (right).
  const summaryTop = y;
  doc.font('Helvetica-Bold').fontSize(9).text('VAT summary', 50, y).text('Net', 150, y, { width: 60, align: 'right' }).text('VAT', 215, y, { width: 60, align: 'right' });
  y += 13;
  doc.font('Helvetica');
  for (const r of vatSummary(inv)) {
    doc.text(r.rate, 50, y).text(formatPounds(r.net_pence), 150, y, { width: 60, align: 'right' }).text(formatPounds(r.vat_pence), 215, y, { width: 60, align: 'right' });
    y += 12;
  }
  const summaryEnd = y;
  y = summaryTop;
  const total = (label: string, pence: number, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(label, 320, y, { width: 130 }).text(formatPounds(pence), 445, y, { width: 100, align: 'right' });
    y += 15;
  };
  total('Total net', inv.net_pence);
  total('Total VAT (GBP)', inv.vat_pence);
  total(credit ? 'Total credit' : 'Total (gross)', inv.gross_pence, true);
  if (!credit && inv.status !== 'draft') {
    total('Paid', inv.paid_pence);
    if (inv.credited_pence > 0) total('Credited', inv.credited_pence);
    total('Outstanding', inv.outstanding_pence, true);
  }
  if (inv.refund_due_pence > 0) total(credit ? 'Refund due to us' : 'Refund due', inv.refund_due_pence, true);
  y = Math.max(y, summaryEnd) + 16;

  // Footer statements.
  const notes: string[] = [];
  if (inv.self_billed && inv.vat_registered) {
    notes.push(`Self-billing: this ${credit ? 'credit note' : 'invoice'} is issued by ${customerName} on behalf of ${inv.contractor_name} under a self-billing agreement. ${SELF_BILLING_STATEMENT}`);
  }
  if (!inv.vat_registered) notes.push('The supplier is not registered for VAT: no VAT is charged.');
  notes.push('Amounts in pounds sterling (GBP). VAT is calculated per line and rounded half up to the penny.');
  if (!credit && inv.payment_terms_days > 0) notes.push(`Payment terms: ${inv.payment_terms_days} days.`);
  doc.font('Helvetica').fontSize(8);
  for (const n of notes) {
    doc.text(n, 50, y, { width: 495 });
    y = doc.y + 4;
  }
  doc.end();
  return finished;
}
