/**
 * Demo step of the money area (docs/money.md): Northwind's VAT number, payment terms and quote
 * approval limits; VAT registration of its contractors (Fletcher registered, every third other
 * contractor not); a price list with two Fletcher rates; quotes submitted, approved and rejected;
 * invoices in every state (draft, issued, part_paid, paid, overdue, void) with gapless numbers,
 * payments and a credit note. Amounts come from the same line arithmetic as the API.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { computeLines } from '../../modules/money/money/index.ts';
import { invoicesRepo as irepo, linesRepo as lrepo } from '../../modules/money/money/index.ts';
import type { LineInputDto } from '../../modules/money/money/index.ts';
import { addDays, isoDate } from '../../modules/money/money/index.ts';
import type { DemoContext } from './context.ts';
import { contractorIdsOf, contractorJobsIn, insertId, insertRows, updateById } from '../../db/seed.repository.ts';

const ITEMS: Array<[code: string, name: string, trade: string | null, unit: string, pence: number, vat: 'standard' | 'reduced' | 'zero']> = [
  ['CALL-OUT', 'Call-out (first hour)', null, 'each', 6_500, 'standard'],
  ['LABOUR-HR', 'Labour per hour', null, 'hour', 4_500, 'standard'],
  ['GAS-CP12', 'Landlord gas safety certificate (CP12)', 'gas', 'each', 7_500, 'standard'],
  ['BOILER-SVC', 'Boiler service', 'heating', 'each', 8_500, 'standard'],
  ['BOILER-CTRL', 'Boiler controls and thermostat (energy saving)', 'heating', 'each', 12_000, 'reduced'],
  ['PLB-TAP', 'Replace tap or washer', 'plumbing', 'each', 4_000, 'standard'],
  ['ELEC-EICR', 'Electrical installation condition report', 'electrical', 'each', 15_000, 'standard'],
  ['DECOR-M2', 'Redecorate walls', 'decorating', 'm2', 1_200, 'standard'],
  ['CLEAN-DAY', 'End of tenancy clean', 'cleaning', 'day', 18_000, 'standard'],
];

type Trx = Transaction<Database>;
const L = (description: string, quantity: number, unit_price_pence: number, vat_rate: LineInputDto['vat_rate'] = 'standard'): LineInputDto => ({ description, quantity, unit_price_pence, vat_rate });
const JOB_LINES: LineInputDto[][] = [
  [L('Boiler service', 1, 8_500), L('Labour per hour', 1.5, 4_500)],
  [L('Replace tap or washer', 2, 4_000), L('Call-out (first hour)', 1, 6_500)],
  [L('Boiler controls and thermostat (energy saving)', 1, 12_000, 'reduced'), L('Labour per hour', 2, 4_500)],
  [L('Landlord gas safety certificate (CP12)', 1, 7_500)],
  [L('Call-out (first hour)', 1, 6_500), L('Parts', 1, 2_399)],
  [L('Labour per hour', 3, 4_500), L('Radiator valve', 2, 1_850)],
  [L('Emergency call-out', 1, 9_500), L('Parts', 1, 1_275)],
];

/** Writes the money records of Northwind. */
export async function moneyStep(ctx: DemoContext): Promise<void> {
  const { trx, ids } = ctx;
  const agencyId = ids.agencies.northwind;
  const today = isoDate(ctx.now);
  await insertRows(trx, 'money_settings', [{ agency_id: agencyId, vat_number: 'GB294771306', payment_terms_days: 30, updated_at: ctx.now }]);
  await insertRows(trx, 'quote_approval_limits', [
    { agency_id: agencyId, job_type_id: 1, limit_pence: 50_000 }, { agency_id: agencyId, job_type_id: 2, limit_pence: 100_000 }, { agency_id: agencyId, job_type_id: 3, limit_pence: 250_000 },
  ]);
  const contractors = await contractorIdsOf(trx, agencyId);
  for (const [i, contractorId] of contractors.entries()) {
    const registered = contractorId === ids.demoContractorId || i % 3 !== 0;
    await lrepo.upsertContractorVat(trx, contractorId, registered, registered ? `GB${String(100_000_000 + contractorId * 7_919).slice(0, 9)}` : null, ctx.now);
  }
  const itemIds: Record<string, number> = {};
  for (const [code, name, trade, unit, pence, vat] of ITEMS) {
    itemIds[code] = await insertId(trx, 'price_items', {
      uuid: ctx.uuid(), agency_id: agencyId, code, name, trade_id: trade ? ids.trades[trade] ?? null : null, job_type_id: null, unit, unit_price_pence: pence,
      vat_rate_code: vat, active: true, created_at: ctx.now, updated_at: ctx.now,
    });
  }
  await insertRows(trx, 'contractor_rates', [
    { price_item_id: itemIds['BOILER-SVC']!, contractor_id: ids.demoContractorId, unit_price_pence: 7_900, updated_at: ctx.now },
    { price_item_id: itemIds['GAS-CP12']!, contractor_id: ids.demoContractorId, unit_price_pence: 6_900, updated_at: ctx.now },
  ]);

  const jobsOf = (statuses: number[]) => contractorJobsIn(trx, agencyId, ids.demoContractorId, statuses);
  const quoteJobs = await jobsOf([1, 2, 3, 4, 5]);
  const quoteStates = ['submitted', 'approved', 'rejected', 'submitted', 'approved'];
  for (const [i, job] of quoteJobs.slice(0, quoteStates.length).entries()) {
    const { lines, totals } = await computeLines(trx, agencyId, today, true, JOB_LINES[i % JOB_LINES.length]!);
    const status = quoteStates[i]!;
    const decided = status !== 'submitted';
    const quoteId = await insertId(trx, 'quotes', {
      uuid: ctx.uuid(), agency_id: agencyId, job_id: job.id, contractor_id: ids.demoContractorId, status, vat_registered: true, ...totals, notes: null,
      submitted_by_user_id: null, decided_by_user_id: null, decided_at: decided ? ctx.now : null, decision_reason: status === 'rejected' ? 'Please requote without the call-out charge' : null,
      created_at: ctx.now, updated_at: ctx.now,
    });
    await lrepo.replaceLines(trx, { quoteId }, lines);
    if (status === 'approved') await updateById(trx, 'jobs', job.id, { agreed_cost_pence: totals.gross_pence });
  }

  // Invoices: issued ones on Invoiced and Closed jobs (oldest first, so numbers follow dates), a draft on a Completed job.
  const billed = await jobsOf([8, 9]);
  const plan: Array<{ state: string; daysAgo: number }> = [
    { state: 'paid', daysAgo: 75 }, { state: 'overdue', daysAgo: 50 }, { state: 'void', daysAgo: 40 }, { state: 'paid_credit', daysAgo: 30 },
    { state: 'part_paid', daysAgo: 20 }, { state: 'paid', daysAgo: 12 }, { state: 'issued', daysAgo: 3 },
  ];
  for (const [i, step] of plan.entries()) {
    const job = billed[i];
    if (!job) break;
    await invoiceFor(ctx, trx, agencyId, job.id, JOB_LINES[i % JOB_LINES.length]!, step.state, addDays(today, -step.daysAgo), today);
  }
  const completed = (await jobsOf([7]))[0];
  if (completed) await invoiceFor(ctx, trx, agencyId, completed.id, JOB_LINES[0]!, 'draft', today, today);
  ctx.log('demo: price list, quotes, invoices in every state, payments and a credit note (Northwind)');
}

async function invoiceFor(ctx: DemoContext, trx: Trx, agencyId: number, jobId: number, input: LineInputDto[], state: string, issueDate: string, today: string) {
  const { lines, totals } = await computeLines(trx, agencyId, issueDate, true, input);
  const draft = state === 'draft';
  const number = draft ? null : await irepo.nextNumber(trx, agencyId, 'invoice_number');
  const due = addDays(issueDate, 30);
  const at = new Date(`${issueDate}T10:00:00Z`);
  const paid = state === 'paid' ? totals.gross_pence : state === 'part_paid' || state === 'overdue' ? Math.floor(totals.gross_pence / 2) : 0;
  const creditInput = state === 'paid_credit' ? [input[input.length - 1]!] : [];
  const credit = creditInput.length > 0 ? await computeLines(trx, agencyId, issueDate, true, creditInput) : null;
  const credited = credit?.totals.gross_pence ?? 0;
  const finalPaid = state === 'paid_credit' ? totals.gross_pence - credited : paid;
  const status = state === 'paid_credit' ? 'paid' : state;
  const id = await irepo.insertInvoice(trx, {
    uuid: ctx.uuid(), agency_id: agencyId, job_id: jobId, contractor_id: ctx.ids.demoContractorId, kind: 'invoice', credited_invoice_id: null, number,
    status, contractor_reference: `FGH-${4100 + (number ?? 99)}`, vat_registered: true, contractor_vat_number: null, payment_terms_days: 30,
    issue_date: draft ? null : issueDate, due_date: draft ? null : due, ...totals, paid_pence: finalPaid, credited_pence: credited, notes: null,
    created_by_user_id: null, issued_at: draft ? null : at, paid_at: status === 'paid' ? new Date(`${addDays(issueDate, 14)}T10:00:00Z`) : null,
    overdue_at: status === 'overdue' ? new Date(`${addDays(due, 1)}T06:00:00Z`) : null, voided_at: status === 'void' ? at : null,
    void_reason: status === 'void' ? 'Duplicate of the contractor\'s earlier invoice' : null, created_at: at, updated_at: at,
  });
  const vat = await lrepo.contractorVat(trx, ctx.ids.demoContractorId);
  await irepo.updateInvoice(trx, id, { contractor_vat_number: vat.vat_number });
  await lrepo.replaceLines(trx, { invoiceId: id }, lines);
  if (finalPaid > 0) {
    const first = status === 'paid' && state !== 'paid_credit' ? Math.floor(finalPaid / 2) : finalPaid;
    const payments = first === finalPaid ? [finalPaid] : [first, finalPaid - first];
    for (const [i, amount] of payments.entries()) {
      await irepo.insertPayment(trx, {
        uuid: ctx.uuid(), agency_id: agencyId, invoice_id: id, amount_pence: amount, paid_on: addDays(issueDate, 7 + i * 7) > today ? today : addDays(issueDate, 7 + i * 7),
        method: i === 0 ? 'bank_transfer' : 'card', reference: `BACS ${String(id).padStart(5, '0')}-${i + 1}`, recorded_by_user_id: ctx.ids.users['admin@northwind.test'] ?? null, created_at: at,
      });
    }
  }
  if (credit) {
    const cn = await irepo.insertInvoice(trx, {
      uuid: ctx.uuid(), agency_id: agencyId, job_id: jobId, contractor_id: ctx.ids.demoContractorId, kind: 'credit_note', credited_invoice_id: id,
      number: await irepo.nextNumber(trx, agencyId, 'credit_note_number'), status: 'issued', contractor_reference: null, vat_registered: true,
      contractor_vat_number: vat.vat_number, payment_terms_days: 0, issue_date: issueDate, due_date: issueDate, ...credit.totals, notes: 'Radiator valve not fitted',
      created_by_user_id: null, issued_at: at, paid_at: null, overdue_at: null, voided_at: null, void_reason: null, created_at: at, updated_at: at,
    });
    await lrepo.replaceLines(trx, { invoiceId: cn }, credit.lines);
  }
}
