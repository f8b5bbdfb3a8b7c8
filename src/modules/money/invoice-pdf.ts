/**
 * The invoice (or credit note) as a one-page A4 PDF, drawn with pdfkit (docs/money.md "PDF"):
 * agency name and VAT number, contractor name and VAT number, number, dates, job, lines and the
 * net, VAT and gross totals, amount paid and outstanding.
 */
import PDFDocument from 'pdfkit';
import type { InvoiceDto } from './invoices.schemas.ts';
import { formatPounds } from './vat.ts';

/** What the PDF prints besides the invoice itself. */
export interface PdfParty {
  agencyName: string;
  agencyVatNumber: string | null;
}

/**
 * Renders the invoice.
 * @param at fixes the PDF's creation date (deterministic output for the same data)
 * @returns the PDF bytes
 */
export function renderInvoicePdf(inv: InvoiceDto, party: PdfParty, at: Date): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: inv.invoice_number ?? 'Draft invoice', Author: party.agencyName, CreationDate: at } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const title = inv.kind === 'credit_note' ? 'CREDIT NOTE' : inv.status === 'draft' ? 'DRAFT INVOICE' : 'INVOICE';
  doc.font('Helvetica-Bold').fontSize(20).text(title, 50, 50);
  doc.font('Helvetica').fontSize(10);
  doc.text(`Number: ${inv.invoice_number ?? 'not issued'}`, 350, 50, { width: 195, align: 'right' });
  doc.text(`Issue date: ${inv.issue_date ?? '-'}`, { width: 195, align: 'right' });
  doc.text(`Due date: ${inv.due_date ?? '-'}`, { width: 195, align: 'right' });
  doc.text(`Status: ${inv.status}`, { width: 195, align: 'right' });

  doc.font('Helvetica-Bold').text('From (contractor)', 50, 120);
  doc.font('Helvetica').text(inv.contractor_name);
  doc.text(inv.vat_registered ? `VAT number: ${inv.contractor_vat_number ?? '-'}` : 'Not registered for VAT: no VAT charged');
  if (inv.contractor_reference) doc.text(`Contractor ref: ${inv.contractor_reference}`);
  doc.font('Helvetica-Bold').text('To (agency)', 320, 120);
  doc.font('Helvetica').text(party.agencyName, 320);
  doc.text(`VAT number: ${party.agencyVatNumber ?? '-'}`, 320);
  doc.text(`Job: ${inv.job_reference}`, 320);

  const cols = { desc: 50, qty: 280, unit: 330, rate: 400, net: 445, vat: 500 };
  let y = 210;
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text('Description', cols.desc, y).text('Qty', cols.qty, y).text('Unit price', cols.unit, y).text('VAT', cols.rate, y)
    .text('Net', cols.net, y, { width: 50, align: 'right' }).text('VAT amt', cols.vat, y, { width: 45, align: 'right' });
  y += 14;
  doc.moveTo(50, y).lineTo(545, y).stroke();
  y += 6;
  doc.font('Helvetica');
  for (const l of inv.lines) {
    const h = doc.heightOfString(l.description, { width: 220 });
    doc.text(l.description, cols.desc, y, { width: 220 });
    doc.text(String(l.quantity), cols.qty, y).text(formatPounds(l.unit_price_pence), cols.unit, y).text(`${l.vat_rate_bp / 100}%`, cols.rate, y)
      .text(formatPounds(l.net_pence), cols.net, y, { width: 50, align: 'right' }).text(formatPounds(l.vat_pence), cols.vat, y, { width: 45, align: 'right' });
    y += Math.max(h, 12) + 6;
  }
  doc.moveTo(50, y).lineTo(545, y).stroke();
  y += 10;
  const total = (label: string, pence: number, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(label, 330, y, { width: 110 }).text(formatPounds(pence), 445, y, { width: 100, align: 'right' });
    y += 16;
  };
  total('Net total', inv.net_pence);
  total('VAT total', inv.vat_pence);
  total('Gross total', inv.gross_pence, true);
  if (inv.kind === 'invoice') {
    total('Paid', inv.paid_pence);
    if (inv.credited_pence > 0) total('Credited', inv.credited_pence);
    total('Outstanding', inv.outstanding_pence, true);
  }
  doc.font('Helvetica').fontSize(8).text(`VAT is calculated per line and rounded half up to the penny. Payment terms: ${inv.payment_terms_days} days.`, 50, 780, { width: 495 });
  doc.end();
  return finished;
}
