/** Fixtures of the jobs tests: contractors, tenants, addresses and jobs written straight to the database. */
import type { NewJob } from '../../../src/db/schema.ts';
import { standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob as insertJobRow, insertTenant } from '../../helpers/factories.ts';

let seq = 0;

/** Creates a contractor of an agency. */
export async function createContractor(t: TestApp, agencyId: number, name?: string) {
  return insertContractor(t.db, agencyId, name);
}

/** Creates an address of an agency in a branch. */
export async function createAddress(t: TestApp, agencyId: number, branchId: number | null, postcode = 'LS1 1AA') {
  return insertAddress(t.db, { agencyId, branchId, line1: `${++seq} High Street`, postcode });
}

/** Creates a tenant of an agency, linked to the given addresses. */
export async function createTenant(t: TestApp, agencyId: number, addressIds: number[] = [], name?: string) {
  return insertTenant(t.db, agencyId, addressIds, name);
}

/** Inserts a job directly (any status), with a reference unique in the test. */
export async function insertJob(t: TestApp, job: Partial<NewJob> & { agency_id: number; branch_id: number }) {
  return insertJobRow(t.db, { reference: `FIX-${String(++seq).padStart(6, '0')}`, title: 'Fixture job', ...job }, t.clock.now());
}

/**
 * standardWorld plus: contractor C (agency A) with a login, a second contractor, an address in A1
 * with tenant T (login), a tenant of another address, an agent of A2 (sharing) and of agency B.
 */
export async function jobsWorld(t: TestApp) {
  const w = await standardWorld(t);
  const contractor = await createContractor(t, w.agencyA.id, 'Acme Plumbing');
  const contractor2 = await createContractor(t, w.agencyA.id, 'Bolt Electrics');
  const contractorB = await createContractor(t, w.agencyB.id, 'Southern Roofing');
  const address = await createAddress(t, w.agencyA.id, w.a1.id, 'LS1 1AA');
  const address2 = await createAddress(t, w.agencyA.id, w.a1.id, 'LS2 2BB');
  const addressB = await createAddress(t, w.agencyB.id, w.b1.id, 'SE1 1AA');
  const tenant = await createTenant(t, w.agencyA.id, [address.id], 'Emily Clarke');
  const tenant2 = await createTenant(t, w.agencyA.id, [address2.id], 'Noah Patel');
  const contractorUser = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: contractor.id });
  const contractor2User = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: contractor2.id });
  const tenantUser = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: tenant.id });
  const tenant2User = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: tenant2.id });
  const agentA2 = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a2.id });
  return { ...w, contractor, contractor2, contractorB, address, address2, addressB, tenant, tenant2, contractorUser, contractor2User, tenantUser, tenant2User, agentA2 };
}
export type JobsWorld = Awaited<ReturnType<typeof jobsWorld>>;
