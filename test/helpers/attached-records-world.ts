/**
 * The world of the records attached to a job (notes, files, calendar), not to be confused with the
 * jobs area's own jobsWorld (test/jobs/jobs/fixtures.ts): on top of
 * standardWorld, an address of branch A1 with a tenant, a contractor, their user accounts, an agent
 * of branch A2, an unrelated tenant and contractor, and a job of each agency.
 */
import type { Db } from '../../src/db/database.ts';
import { standardWorld, userClient, type TestApp } from './app.ts';
import { insertAddress, insertContractor, insertJob as insertJobRow, insertTenant } from './factories.ts';

let counter = 0;

/** Inserts a job with the foundation columns (reference JOB-nnnnnn); returns id, uuid and reference. */
export async function insertJob(
  db: Db,
  j: {
    agencyId: number;
    branchId: number;
    title?: string;
    addressId?: number | null;
    tenantId?: number | null;
    contractorId?: number | null;
    statusId?: number;
    scheduledFor?: Date | null;
    timeRangeId?: number | null;
    estimatedCostPence?: number | null;
    description?: string;
  },
) {
  counter += 1;
  return insertJobRow(
    db,
    {
      agency_id: j.agencyId,
      branch_id: j.branchId,
      reference: `JOB-${String(counter).padStart(6, '0')}`,
      title: j.title ?? 'Boiler not firing',
      description: j.description ?? '',
      priority: 2,
      status_id: j.statusId ?? 5,
      address_id: j.addressId ?? null,
      tenant_id: j.tenantId ?? null,
      contractor_id: j.contractorId ?? null,
      time_range_id: j.timeRangeId ?? null,
      scheduled_for: j.scheduledFor ?? null,
      estimated_cost_pence: j.estimatedCostPence ?? null,
    },
    new Date('2026-11-20T09:00:00Z'),
  );
}

/** Builds the world; see the file comment. */
export async function attachedRecordsWorld(t: TestApp) {
  const w = await standardWorld(t);
  const db = t.db;
  const now = new Date();
  const address = await insertAddress(db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Acacia Avenue', postcode: 'LS6 2AB' }, now);
  const t1 = await insertTenant(db, w.agencyA.id, [address.id], 'Emily Clarke', now);
  const t2 = await insertTenant(db, w.agencyA.id, [], 'Other Tenant', now);
  const c1 = await insertContractor(db, w.agencyA.id, 'Fletcher Plumbing', now);
  const c2 = await insertContractor(db, w.agencyA.id, 'Other Trades', now);
  const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: t1.id, name: 'Emily Clarke' });
  const otherTenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: t2.id });
  const contractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: c1.id, name: 'Dave Fletcher' });
  const otherContractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: c2.id });
  const agentA2 = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a2.id });
  const job = await insertJob(db, {
    agencyId: w.agencyA.id,
    branchId: w.a1.id,
    addressId: address.id,
    tenantId: t1.id,
    contractorId: c1.id,
    scheduledFor: new Date('2026-11-25T00:00:00Z'),
    timeRangeId: 1,
    estimatedCostPence: 12_000,
  });
  const jobB = await insertJob(db, { agencyId: w.agencyB.id, branchId: w.b1.id, title: 'Leaking tap' });
  return { ...w, address, tenantId: t1.id, contractorId: c1.id, tenant, otherTenant, contractor, otherContractor, agentA2, job, jobB };
}
