/**
 * A small fixed data set for the insight tests, on top of attachedRecordsWorld (agency A: branches A1, A2
 * sharing; agency B: B1). Clock: Tuesday 2026-11-24 10:00 UTC (London = UTC in November).
 * Every figure the tests expect is counted by hand from the rows below.
 */
import type { Db } from '../../src/db/database.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import type { TestApp } from '../helpers/app.ts';
import { attachedRecordsWorld } from '../helpers/attached-records-world.ts';

export const NOW = new Date('2026-11-24T10:00:00Z');

let n = 0;

/** A job with every column the insight figures read. */
export interface FixtureJob {
  agencyId: number;
  branchId: number;
  statusId: number;
  priority: number;
  jobTypeId?: number;
  title?: string;
  description?: string;
  addressId?: number | null;
  tenantId?: number | null;
  contractorId?: number | null;
  tradeId?: number | null;
  createdAt: string;
  assignedAt?: string | null;
  scheduledFor?: string | null;
  attendedAt?: string | null;
  completedAt?: string | null;
  cancelledAt?: string | null;
  agreedCostPence?: number | null;
}

/** Inserts one fixture job; returns id, uuid and reference. */
export async function addJob(db: Db, j: FixtureJob) {
  n += 1;
  const d = (v: string | null | undefined) => (v ? new Date(v) : null);
  return db
    .insertInto('jobs')
    .values({
      uuid: newUuid(),
      agency_id: j.agencyId,
      branch_id: j.branchId,
      reference: `INS-${String(n).padStart(5, '0')}`,
      title: j.title ?? 'Dripping kitchen tap',
      description: j.description ?? '',
      priority: j.priority,
      status_id: j.statusId,
      job_type_id: j.jobTypeId ?? 1,
      address_id: j.addressId ?? null,
      tenant_id: j.tenantId ?? null,
      contractor_id: j.contractorId ?? null,
      trade_id: j.tradeId ?? null,
      created_at: new Date(j.createdAt),
      updated_at: new Date(j.createdAt),
      assigned_at: d(j.assignedAt),
      scheduled_for: d(j.scheduledFor),
      attended_at: d(j.attendedAt),
      completed_at: d(j.completedAt),
      cancelled_at: d(j.cancelledAt),
      agreed_cost_pence: j.agreedCostPence ?? null,
    })
    .returning(['id', 'uuid', 'reference'])
    .executeTakeFirstOrThrow();
}

/** A certificate of a contractor expiring on `expires` (ISO date). */
export async function addCertificate(db: Db, agencyId: number, contractorId: number, expires: string) {
  const now = new Date();
  await db
    .insertInto('contractor_certifications')
    .values({ uuid: newUuid(), agency_id: agencyId, contractor_id: contractorId, cert_type: 'gas_safe', reference: `GS-${expires}`, expires_on: expires, created_at: now, updated_at: now })
    .execute();
}

/**
 * The fixed data set. Besides attachedRecordsWorld's two jobs (A1 scheduled P2 for contractor c1, created
 * 2026-11-20, scheduled 2026-11-25; B1 scheduled P2), it adds in agency A:
 *  j1 A1 reported P1 tenant t1, created today (24th) 08:00
 *  j2 A1 scheduled P3 c1, created Tue 17th, scheduled Fri 20th (overdue), not attended
 *  j3 A1 scheduled P3 c1, created Mon 23rd 09:00, scheduled today 14:00
 *  j4 A1 assigned P2 c2, created Sun 22nd, scheduled tomorrow (25th) 09:00
 *  j5 A2 completed P2 c1, created 2nd; assigned +2h, attended +26h, completed +50h; agreed 20000
 *  j6 A2 closed P4 c2, created 9th; assigned +4h, attended +28h, completed +76h; agreed 10000
 *  j7 A1 cancelled P5, created 16th, cancelled 17th
 * and certificates of c1 expiring 2026-12-01 (in window), 2027-02-01 (out), of c2 2026-12-20 (in).
 */
export async function insightWorld(t: TestApp) {
  t.clock.set(NOW);
  const w = await attachedRecordsWorld(t);
  const db = t.db;
  const c2 = await db.selectFrom('contractors').select('id').where('company_name', '=', 'Other Trades').executeTakeFirstOrThrow();
  const A = w.agencyA.id;
  const base = { agencyId: A, addressId: w.address.id };
  const j1 = await addJob(db, { ...base, branchId: w.a1.id, statusId: 1, priority: 1, createdAt: '2026-11-24T08:00:00Z', title: 'Boiler not firing', description: 'No hot water since Sunday', tenantId: w.tenantId });
  const j2 = await addJob(db, { ...base, branchId: w.a1.id, statusId: 5, priority: 3, contractorId: w.contractorId, createdAt: '2026-11-17T10:00:00Z', scheduledFor: '2026-11-20T09:00:00Z' });
  const j3 = await addJob(db, { ...base, branchId: w.a1.id, statusId: 5, priority: 3, contractorId: w.contractorId, createdAt: '2026-11-23T09:00:00Z', scheduledFor: '2026-11-24T14:00:00Z' });
  const j4 = await addJob(db, { ...base, branchId: w.a1.id, statusId: 4, priority: 2, contractorId: c2.id, createdAt: '2026-11-22T12:00:00Z', scheduledFor: '2026-11-25T09:00:00Z' });
  const j5 = await addJob(db, { agencyId: A, branchId: w.a2.id, statusId: 7, priority: 2, contractorId: w.contractorId, tradeId: 1, createdAt: '2026-11-02T08:00:00Z', assignedAt: '2026-11-02T10:00:00Z', attendedAt: '2026-11-03T10:00:00Z', completedAt: '2026-11-04T10:00:00Z', agreedCostPence: 20_000 });
  const j6 = await addJob(db, { agencyId: A, branchId: w.a2.id, statusId: 9, priority: 4, contractorId: c2.id, tradeId: 1, createdAt: '2026-11-09T08:00:00Z', assignedAt: '2026-11-09T12:00:00Z', attendedAt: '2026-11-10T12:00:00Z', completedAt: '2026-11-12T12:00:00Z', agreedCostPence: 10_000 });
  const j7 = await addJob(db, { agencyId: A, branchId: w.a1.id, statusId: 10, priority: 5, createdAt: '2026-11-16T08:00:00Z', cancelledAt: '2026-11-17T08:00:00Z' });
  await addCertificate(db, A, w.contractorId, '2026-12-01');
  await addCertificate(db, A, w.contractorId, '2027-02-01');
  await addCertificate(db, A, c2.id, '2026-12-20');
  return { ...w, c2Id: c2.id, j1, j2, j3, j4, j5, j6, j7 };
}
