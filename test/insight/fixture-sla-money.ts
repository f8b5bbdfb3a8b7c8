/**
 * SLA clocks and invoices on top of the insight fixture (fixture.ts), stored as the SLA engine and
 * the money module would leave them, so that the dashboard, search and report figures can be
 * counted by hand. Rules: R1 (branch A1), R2 (A1, a second transition), R3 and R4 (A2), RB (B1).
 *
 * Clocks (state as stored):                      the job's most urgent state, open?
 *   job (A1, c1, scheduled)  R1 breached                 breached, open
 *   j1  (A1, -, reported)    R1 at_risk, R2 running      at_risk, open
 *   j2  (A1, c1, scheduled)  R1 at_risk, R2 breached     breached, open (counted once)
 *   j3  (A1, c1, scheduled)  R1 running                  running
 *   j4  (A1, c2, assigned)   R1 at_risk                  at_risk, open
 *   j5  (A2, c1, completed)  R3 met, R4 at_risk          at_risk, open
 *   j6  (A2, c2, closed)     R3 breached                 breached, closed: not on the dashboard
 *   j7  (A1, -, cancelled)   R1 not_applicable           -
 *   jobB (B1, scheduled)     RB breached                 breached, open (agency B)
 *
 * Invoices (agency A unless said; outstanding = gross - paid - credited):
 *   INV-000001 job c1 issued     12,000        outstanding 12,000  ref FP-7731
 *   INV-000002 j5  c1 part_paid  24,000 paid 10,000      14,000
 *   INV-000003 j6  c2 overdue     6,000 credited 1,000    5,000    ref OT-55
 *   INV-000004 j5  c1 overdue     3,000 paid 500          2,500
 *   draft      j5  c1 draft       9,999                   (not owed yet)
 *   INV-000005 j6  c2 paid        5,000 paid 5,000        0
 *   INV-000006 j5  c1 void        7,000                   0
 *   CN-000001  j6  c2 credit note 1,000 against INV-000003 (not an invoice)
 *   B: INV-000001 jobB, contractor "Fletcher Plumbing" of agency B, issued 50,000, ref FP-7731
 */
import type { Db } from '../../src/db/database.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { insertContractor } from '../helpers/factories.ts';
import type { insightWorld } from './fixture.ts';

type World = Awaited<ReturnType<typeof insightWorld>>;
const T = new Date('2026-11-24T09:00:00Z');

async function rule(db: Db, agencyId: number, branchId: number, from: number, to: number) {
  return (await db.insertInto('branch_sla_rules').values({
    uuid: newUuid(), agency_id: agencyId, branch_id: branchId, job_status_from_id: from, job_status_to_id: to, job_type_id: null,
    job_priority: null, date_field_to_track: 'assigned_at', date_field_to_compare: 'created_at', minimum_response_days: 1,
    created_by_user_id: null, created_at: T, updated_at: T, deleted_at: null,
  }).returning('id').executeTakeFirstOrThrow()).id;
}

async function clock(db: Db, job: { id: number }, agencyId: number, branchId: number, ruleId: number, state: string) {
  await db.insertInto('sla_clocks').values({
    agency_id: agencyId, branch_id: branchId, job_id: job.id, rule_id: ruleId, state,
    started_at: new Date('2026-11-20T09:00:00Z'), due_at: new Date('2026-11-21T09:00:00Z'), at_risk_at: new Date('2026-11-21T03:00:00Z'),
    stopped_at: state === 'met' ? new Date('2026-11-20T12:00:00Z') : null, breached_at: state === 'breached' ? new Date('2026-11-21T09:00:00Z') : null,
    at_risk_flagged_at: null, created_at: T, updated_at: T,
  }).execute();
}

interface InvoiceSpec {
  agencyId: number;
  jobId: number;
  contractorId: number;
  status: string;
  number: number | null;
  gross: number;
  paid?: number;
  credited?: number;
  kind?: 'invoice' | 'credit_note';
  creditedInvoiceId?: number;
  reference?: string;
}

async function invoice(db: Db, s: InvoiceSpec) {
  const issued = s.status !== 'draft';
  return db.insertInto('invoices').values({
    uuid: newUuid(), agency_id: s.agencyId, job_id: s.jobId, contractor_id: s.contractorId, kind: s.kind ?? 'invoice',
    credited_invoice_id: s.creditedInvoiceId ?? null, number: s.number, status: s.status, contractor_reference: s.reference ?? null,
    vat_registered: false, contractor_vat_number: null, payment_terms_days: 30,
    issue_date: issued ? '2026-10-01' : null, due_date: issued ? '2026-10-31' : null,
    net_pence: s.gross, vat_pence: 0, gross_pence: s.gross, paid_pence: s.paid ?? 0, credited_pence: s.credited ?? 0, notes: null,
    created_by_user_id: null, issued_at: issued ? T : null, paid_at: null, overdue_at: null, voided_at: null, void_reason: null,
    created_at: T, updated_at: T,
  }).returning(['id', 'uuid']).executeTakeFirstOrThrow();
}

/** Adds the clocks and invoices of the file comment; returns the invoices by name. */
export async function addSlaAndMoney(db: Db, w: World) {
  const A = w.agencyA.id;
  const B = w.agencyB.id;
  const r1 = await rule(db, A, w.a1.id, 1, 4);
  const r2 = await rule(db, A, w.a1.id, 4, 5);
  const r3 = await rule(db, A, w.a2.id, 1, 4);
  const r4 = await rule(db, A, w.a2.id, 4, 5);
  const rb = await rule(db, B, w.b1.id, 1, 4);
  const a1 = (job: { id: number }, r: number, s: string) => clock(db, job, A, w.a1.id, r, s);
  const a2 = (job: { id: number }, r: number, s: string) => clock(db, job, A, w.a2.id, r, s);
  await a1(w.job, r1, 'breached');
  await a1(w.j1, r1, 'at_risk');
  await a1(w.j1, r2, 'running');
  await a1(w.j2, r1, 'at_risk');
  await a1(w.j2, r2, 'breached');
  await a1(w.j3, r1, 'running');
  await a1(w.j4, r1, 'at_risk');
  await a2(w.j5, r3, 'met');
  await a2(w.j5, r4, 'at_risk');
  await a2(w.j6, r3, 'breached');
  await a1(w.j7, r1, 'not_applicable');
  await clock(db, w.jobB, B, w.b1.id, rb, 'breached');

  const c1 = w.contractorId;
  const c2 = w.c2Id;
  const cB = await insertContractor(db, B, 'Fletcher Plumbing', T);
  const inv1 = await invoice(db, { agencyId: A, jobId: w.job.id, contractorId: c1, status: 'issued', number: 1, gross: 12_000, reference: 'FP-7731' });
  const inv2 = await invoice(db, { agencyId: A, jobId: w.j5.id, contractorId: c1, status: 'part_paid', number: 2, gross: 24_000, paid: 10_000 });
  const inv3 = await invoice(db, { agencyId: A, jobId: w.j6.id, contractorId: c2, status: 'overdue', number: 3, gross: 6_000, credited: 1_000, reference: 'OT-55' });
  const inv4 = await invoice(db, { agencyId: A, jobId: w.j5.id, contractorId: c1, status: 'overdue', number: 4, gross: 3_000, paid: 500 });
  const draft = await invoice(db, { agencyId: A, jobId: w.j5.id, contractorId: c1, status: 'draft', number: null, gross: 9_999 });
  const inv5 = await invoice(db, { agencyId: A, jobId: w.j6.id, contractorId: c2, status: 'paid', number: 5, gross: 5_000, paid: 5_000 });
  const inv6 = await invoice(db, { agencyId: A, jobId: w.j5.id, contractorId: c1, status: 'void', number: 6, gross: 7_000 });
  const cn1 = await invoice(db, { agencyId: A, jobId: w.j6.id, contractorId: c2, status: 'issued', number: 1, gross: 1_000, kind: 'credit_note', creditedInvoiceId: inv3.id });
  const invB = await invoice(db, { agencyId: B, jobId: w.jobB.id, contractorId: cB.id, status: 'issued', number: 1, gross: 50_000, reference: 'FP-7731' });
  return { inv1, inv2, inv3, inv4, draft, inv5, inv6, cn1, invB, contractorB: cB };
}
