/**
 * A landlord statement as PDF (pdfkit, A4 landscape) and as CSV (csv-stringify, every row through
 * src/lib/spreadsheet-safe.ts) (docs/money.md "Statements"): per property its lines (date, number,
 * job, what, cost net and VAT, fee net and VAT, total) and totals, then the statement's totals.
 * Dates print as London dates for people; CSV amounts are decimal pounds, CSV dates ISO.
 */
import { stringify } from 'csv-stringify/sync';
import { humanDate } from '../../../lib/london-time.ts';
import { safeRow } from '../../../lib/spreadsheet-safe.ts';
import { decimalPounds, formatPounds } from '../money/index.ts';
import type { StatementDto, StatementTotals } from './recharges.schemas.ts';

/** Columns of the statement CSV. */
export const STATEMENT_CSV_COLUMNS = [
  'Property', 'Date', 'Number', 'Job', 'Job title', 'Description', 'Share %', 'Cost net', 'Cost VAT', 'Fee net', 'Fee VAT', 'Total',
] as const;

/** "1 job", "3 jobs". */
function jobs(n: number): string {
  return `${n} job${n === 1 ? '' : 's'}`;
}

function totalRow(label: string, t: StatementTotals): (string | number)[] {
  return [label, '', '', jobs(t.jobs), '', '', '', decimalPounds(t.cost_net_pence), decimalPounds(t.cost_vat_pence), decimalPounds(t.fee_net_pence), decimalPounds(t.fee_vat_pence), decimalPounds(t.total_pence)];
}

/** The statement as CSV text: one row per line, a total row per property and a grand total row. */
export function statementCsv(s: StatementDto): string {
  const rows: (string | number)[][] = [[...STATEMENT_CSV_COLUMNS]];
  for (const p of s.properties) {
    for (const l of p.lines) {
      rows.push(safeRow([
        p.property, l.date, l.number, l.job_reference, l.job_title, l.description, (l.share_bp / 100).toFixed(2), decimalPounds(l.cost_net_pence),
        decimalPounds(l.cost_vat_pence), decimalPounds(l.fee_net_pence), decimalPounds(l.fee_vat_pence), decimalPounds(l.total_pence),
      ]));
    }
    rows.push(safeRow(totalRow(`Total ${p.property}`, p.totals)));
  }
  rows.push(safeRow(totalRow('Total', s.totals)));
  return stringify(rows);
}

/**
 * The statement as PDF.
 * @param at fixes the PDF's creation date (deterministic output)
 */
export async function statementPdf(s: StatementDto, at: Date): Promise<Buffer> {
  // Loaded when first used (docs/operations.md "Starting"): not on the start-up path.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 40, info: { Title: `Statement ${s.landlord_name} ${humanDate(s.from_date)} to ${humanDate(s.to_date)}`, Author: s.agency_name, CreationDate: at } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text('LANDLORD STATEMENT', 40, 40);
  doc.font('Helvetica').fontSize(10).text(s.agency_name, 40, 64);
  doc.fontSize(8.5).text([s.agency_address, s.agency_vat_number ? `VAT registration number: ${s.agency_vat_number}` : null].filter(Boolean).join('  |  '), 40, 78, { width: 440 });
  doc.text(`Period: ${humanDate(s.from_date)} to ${humanDate(s.to_date)}`, 500, 40, { width: 300, align: 'right' });
  doc.font('Helvetica-Bold').text(s.landlord_name, 500, 56, { width: 300, align: 'right' });
  doc.font('Helvetica').text(s.landlord_address ?? '', 500, 70, { width: 300, align: 'right' });

  const cols = [
    { key: 'date', x: 40, w: 80 }, { key: 'number', x: 122, w: 65 }, { key: 'job', x: 189, w: 70 }, { key: 'desc', x: 261, w: 220 },
    { key: 'cnet', x: 483, w: 60 }, { key: 'cvat', x: 545, w: 55 }, { key: 'fnet', x: 602, w: 55 }, { key: 'fvat', x: 659, w: 50 }, { key: 'total', x: 711, w: 90 },
  ];
  const right = new Set(['cnet', 'cvat', 'fnet', 'fvat', 'total']);
  const row = (cells: string[], bold: boolean, y: number): number => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    let h = 10;
    cells.forEach((c, i) => {
      const col = cols[i]!;
      doc.text(c, col.x, y, { width: col.w, align: right.has(col.key) ? 'right' : 'left' });
      h = Math.max(h, doc.heightOfString(c, { width: col.w }));
    });
    return y + h + 4;
  };
  const money = (t: { cost_net_pence: number; cost_vat_pence: number; fee_net_pence: number; fee_vat_pence: number; total_pence: number }) =>
    [formatPounds(t.cost_net_pence), formatPounds(t.cost_vat_pence), formatPounds(t.fee_net_pence), formatPounds(t.fee_vat_pence), formatPounds(t.total_pence)];
  let y = 100;
  const header = () => {
    y = row(['Date', 'Number', 'Job', 'Description', 'Cost net', 'Cost VAT', 'Fee net', 'Fee VAT', 'Total'], true, y);
    doc.moveTo(40, y - 2).lineTo(801, y - 2).stroke();
  };
  if (s.properties.length === 0) doc.font('Helvetica').fontSize(10).text('No recharges in this period.', 40, y);
  for (const p of s.properties) {
    if (y > 480) {
      doc.addPage();
      y = 40;
    }
    doc.font('Helvetica-Bold').fontSize(10).text(p.property, 40, y);
    y += 16;
    header();
    for (const l of p.lines) {
      if (y > 540) {
        doc.addPage();
        y = 40;
        header();
      }
      y = row([humanDate(l.date), l.number, l.job_reference, `${l.job_title}: ${l.description} (share ${(l.share_bp / 100).toFixed(2)} %)`, ...money(l)], false, y);
    }
    doc.moveTo(40, y - 2).lineTo(801, y - 2).stroke();
    y = row(['', '', jobs(p.totals.jobs), `Total ${p.property}`, ...money(p.totals)], true, y) + 10;
  }
  if (y > 520) {
    doc.addPage();
    y = 40;
  }
  y = row(['', '', jobs(s.totals.jobs), 'Total for the period', ...money(s.totals)], true, y + 4);
  doc.font('Helvetica').fontSize(8).text(
    "Costs are the contractors' charges (net and VAT) in proportion to your ownership share; the fee is the agency's management fee with VAT. Amounts in pounds sterling (GBP).",
    40, y + 10, { width: 760 },
  );
  // The balance: brought forward, the period's charges, credits and payments, carried forward.
  y = doc.y + 14;
  if (y > 470) {
    doc.addPage();
    y = 40;
  }
  const balance: [string, number][] = [
    ['Balance brought forward', s.opening_balance_pence], ['Charges', s.charges_pence], ['Credits', s.credits_pence],
    ...s.payments.map((p): [string, number] => [`${humanDate(p.entry_date)} ${p.kind === 'payment_from_landlord' ? 'Payment received from you' : 'Payment to you'}${p.reference ? ` (${p.reference})` : ''}`, p.kind === 'payment_from_landlord' ? -p.amount_pence : p.amount_pence]),
    ['Balance carried forward (owed by you; negative: owed to you)', s.closing_balance_pence],
  ];
  for (const [label, amount] of balance) {
    doc.font(label.startsWith('Balance') ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).text(label, 400, y, { width: 300 }).text(formatPounds(amount), 700, y, { width: 100, align: 'right' });
    y += 13;
  }
  // The agency's VAT invoices of the period, one page each (VAT Regulations 1995 reg. 14; VAT Notice 700, 16.3).
  for (const v of s.vat_invoices) {
    doc.addPage();
    doc.font('Helvetica-Bold').fontSize(16).text(v.net_pence < 0 ? 'VAT CREDIT NOTE' : 'VAT INVOICE', 40, 40);
    doc.font('Helvetica').fontSize(10);
    const lines = [
      `Supplier: ${s.agency_name}${s.agency_address ? `, ${s.agency_address}` : ''}`, `VAT registration number: ${s.agency_vat_number ?? '-'}`,
      `Customer: ${s.landlord_name}${s.landlord_address ? `, ${s.landlord_address}` : ''}`, `Number: ${v.number}`, `Date and tax point: ${humanDate(v.date)}`,
      'Supply: management of repairs (the fee) and, where the work is recharged, the work itself, as itemised on the statement',
      `Net: ${formatPounds(v.net_pence)}`, `VAT: ${formatPounds(v.vat_pence)}`, `Total: ${formatPounds(v.net_pence + v.vat_pence)}`,
    ];
    let vy = 70;
    for (const l of lines) {
      doc.text(l, 40, vy, { width: 760 });
      vy += 16;
    }
  }
  doc.end();
  return finished;
}
