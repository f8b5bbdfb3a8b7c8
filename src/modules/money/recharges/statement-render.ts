/**
 * A landlord statement as PDF (pdfkit, A4 landscape) and as CSV (csv-stringify, every row through
 * src/lib/spreadsheet-safe.ts) (docs/money.md "Statements"): the agency's name, registered address
 * and VAT number; per property its lines (date, number, job, what, cost net and VAT, fee net and
 * VAT, total) and totals, then the statement's totals; the balance (brought forward, charges,
 * credits, payments to and from the landlord, carried forward); the agency's VAT invoices with the
 * net and VAT per rate. Both forms carry the same figures as the JSON.
 * Dates print as London dates for people; CSV amounts are decimal pounds, CSV dates ISO.
 */
import { stringify } from 'csv-stringify/sync';
import { humanDate } from '../../../lib/london-time.ts';
import { safeRow } from '../../../lib/spreadsheet-safe.ts';
import { decimalPounds, formatPounds } from '../money/index.ts';
import type { StatementDto, StatementTotals } from './recharges.schemas.ts';

/**
 * Columns of the statement CSV. `Record` says what a row is: `Agency`, `Agency address`, `Agency VAT
 * number`, `Landlord`, `Landlord address`, `Period` (the letterhead: the value in Description);
 * `Line`, `Property total`, `Total` (the recharges); `Balance brought forward`, `Charges`,
 * `Credits`, `Payment from you`, `Payment to you`, `Balance carried forward` (the balance: Total is
 * each one's effect on what the landlord owes, so the rows from brought forward to the last payment
 * add up to carried forward); `VAT invoice rate` and `VAT invoice total` (the agency's VAT invoices:
 * per rate Net and VAT, VAT Regulations 1995 reg. 14(1)).
 */
export const STATEMENT_CSV_COLUMNS = [
  'Record', 'Property', 'Date', 'Number', 'Job', 'Job title', 'Description', 'Share %', 'Cost net', 'Cost VAT', 'Fee net', 'Fee VAT', 'Total', 'VAT rate', 'Net', 'VAT',
] as const;

type Cell = string | number;

/** "1 job", "3 jobs". */
function jobs(n: number): string {
  return `${n} job${n === 1 ? '' : 's'}`;
}

/** A CSV row from its named cells (the others empty). */
function csvRow(cells: Partial<Record<(typeof STATEMENT_CSV_COLUMNS)[number], Cell>>): Cell[] {
  return safeRow(STATEMENT_CSV_COLUMNS.map((c) => cells[c] ?? ''));
}

function totalRow(record: string, label: string, t: StatementTotals): Cell[] {
  return csvRow({
    Record: record, Property: label, Job: jobs(t.jobs), 'Cost net': decimalPounds(t.cost_net_pence), 'Cost VAT': decimalPounds(t.cost_vat_pence),
    'Fee net': decimalPounds(t.fee_net_pence), 'Fee VAT': decimalPounds(t.fee_vat_pence), Total: decimalPounds(t.total_pence),
  });
}

/** The balance as (record, date, reference, label, signed effect on what the landlord owes) rows, as the PDF and CSV print it. */
export function balanceRows(s: StatementDto): { record: string; date: string | null; reference: string | null; amount_pence: number }[] {
  return [
    { record: 'Balance brought forward', date: s.from_date, reference: null, amount_pence: s.opening_balance_pence },
    { record: 'Charges', date: null, reference: null, amount_pence: s.charges_pence },
    { record: 'Credits', date: null, reference: null, amount_pence: s.credits_pence },
    ...s.payments.map((p) => ({
      record: p.kind === 'payment_from_landlord' ? 'Payment from you' : 'Payment to you', date: p.entry_date, reference: p.reference,
      amount_pence: p.kind === 'payment_from_landlord' ? -p.amount_pence : p.amount_pence,
    })),
    { record: 'Balance carried forward', date: s.to_date, reference: null, amount_pence: s.closing_balance_pence },
  ];
}

/**
 * The statement as CSV text, the same figures as the JSON and the PDF: the letterhead (agency name,
 * registered address and VAT number; landlord; period), one row per recharge line, a total row per
 * property and a grand total, the balance (brought forward, charges, credits, each payment, carried
 * forward), and the agency's VAT invoices per rate with their totals. ISO dates, decimal pounds.
 */
export function statementCsv(s: StatementDto): string {
  const rows: Cell[][] = [[...STATEMENT_CSV_COLUMNS]];
  rows.push(csvRow({ Record: 'Agency', Description: s.agency_name }));
  if (s.agency_address) rows.push(csvRow({ Record: 'Agency address', Description: s.agency_address }));
  if (s.agency_vat_number) rows.push(csvRow({ Record: 'Agency VAT number', Description: s.agency_vat_number }));
  rows.push(csvRow({ Record: 'Landlord', Description: s.landlord_name }));
  if (s.landlord_address) rows.push(csvRow({ Record: 'Landlord address', Description: s.landlord_address }));
  rows.push(csvRow({ Record: 'Period', Date: s.from_date, Description: `${s.from_date} to ${s.to_date}` }));
  for (const p of s.properties) {
    for (const l of p.lines) {
      rows.push(csvRow({
        Record: 'Line', Property: p.property, Date: l.date, Number: l.number, Job: l.job_reference, 'Job title': l.job_title, Description: l.description,
        'Share %': (l.share_bp / 100).toFixed(2), 'Cost net': decimalPounds(l.cost_net_pence), 'Cost VAT': decimalPounds(l.cost_vat_pence),
        'Fee net': decimalPounds(l.fee_net_pence), 'Fee VAT': decimalPounds(l.fee_vat_pence), Total: decimalPounds(l.total_pence),
      }));
    }
    rows.push(totalRow('Property total', `Total ${p.property}`, p.totals));
  }
  rows.push(totalRow('Total', 'Total', s.totals));
  for (const b of balanceRows(s)) rows.push(csvRow({ Record: b.record, Date: b.date ?? '', Number: b.reference ?? '', Total: decimalPounds(b.amount_pence) }));
  for (const v of s.vat_invoices) {
    for (const r of v.rates) {
      rows.push(csvRow({
        Record: 'VAT invoice rate', Property: v.property, Date: v.date, Number: v.number, Job: v.job_reference, Description: v.supply,
        'VAT rate': r.label, Net: decimalPounds(r.net_pence), VAT: decimalPounds(r.vat_pence), Total: decimalPounds(r.net_pence + r.vat_pence),
      }));
    }
    rows.push(csvRow({
      Record: 'VAT invoice total', Property: v.property, Date: v.date, Number: v.number, Job: v.job_reference,
      Description: v.kind === 'credit_note' ? `VAT credit note against ${v.credits ?? '-'}` : 'VAT invoice', Net: decimalPounds(v.net_pence), VAT: decimalPounds(v.vat_pence), Total: decimalPounds(v.gross_pence),
    }));
  }
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
  const label = (b: ReturnType<typeof balanceRows>[number]): string => {
    if (b.record === 'Balance carried forward') return 'Balance carried forward (owed by you; negative: owed to you)';
    if (!b.record.startsWith('Payment') || !b.date) return b.record;
    return `${humanDate(b.date)} ${b.record === 'Payment from you' ? 'Payment received from you' : 'Payment to you'}${b.reference ? ` (${b.reference})` : ''}`;
  };
  const balance: [string, number][] = balanceRows(s).map((b) => [label(b), b.amount_pence]);
  for (const [label, amount] of balance) {
    doc.font(label.startsWith('Balance') ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).text(label, 400, y, { width: 300 }).text(formatPounds(amount), 700, y, { width: 100, align: 'right' });
    y += 13;
  }
  // The agency's VAT invoices of the period, one page each (VAT Regulations 1995 reg. 14(1); VAT Notice 700, 16.3):
  // supplier, its VAT number, customer, number, date and tax point, the supply, per rate the net and the rate, the total VAT.
  for (const v of s.vat_invoices) {
    doc.addPage();
    const credit = v.kind === 'credit_note';
    doc.font('Helvetica-Bold').fontSize(16).text(credit ? 'VAT CREDIT NOTE' : 'VAT INVOICE', 40, 40);
    doc.font('Helvetica').fontSize(10);
    const lines = [
      `Supplier: ${s.agency_name}${s.agency_address ? `, ${s.agency_address}` : ''}`, `VAT registration number: ${s.agency_vat_number ?? '-'}`,
      `Customer: ${s.landlord_name}${s.landlord_address ? `, ${s.landlord_address}` : ''}`, `${credit ? 'Credit note' : 'Invoice'} number: ${v.number}`,
      ...(credit ? [`Credits VAT invoice: ${v.credits ?? '-'}`] : []),
      `Date of issue: ${humanDate(v.date)}`, `Tax point (time of supply): ${humanDate(v.tax_point)}`, `Supply: ${v.supply}`,
    ];
    let vy = 70;
    for (const l of lines) {
      doc.text(l, 40, vy, { width: 760 });
      vy = doc.y + 4;
    }
    vy += 8;
    const cell = (texts: string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
      doc.text(texts[0]!, 40, vy, { width: 160 }).text(texts[1]!, 200, vy, { width: 110, align: 'right' }).text(texts[2]!, 320, vy, { width: 110, align: 'right' }).text(texts[3]!, 440, vy, { width: 110, align: 'right' });
      vy += 16;
    };
    cell(['VAT rate', 'Net (excl. VAT)', 'VAT', 'Total'], true);
    for (const r of v.rates) cell([r.label, formatPounds(r.net_pence), formatPounds(r.vat_pence), formatPounds(r.net_pence + r.vat_pence)], false);
    doc.moveTo(40, vy - 2).lineTo(550, vy - 2).stroke();
    cell(['Total net', formatPounds(v.net_pence), '', ''], false);
    cell(['Total VAT (GBP)', '', formatPounds(v.vat_pence), ''], true);
    cell([credit ? 'Total credit' : 'Total', '', '', formatPounds(v.gross_pence)], true);
  }
  doc.end();
  return finished;
}
