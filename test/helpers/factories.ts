/**
 * One factory per entity for rows written straight to the database (docs/architecture.md, tests):
 * jobs, contractors, tenants and addresses. The area fixtures (attached-records-world.ts, jobs/fixtures.ts,
 * roles-branches.ts, contractors/helpers.ts) are thin adapters over these.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import type { NewJob } from '../../src/db/schema.ts';
import { newUuid } from '../../src/lib/crypto.ts';

/**
 * Inserts a job row (any status); columns not given take the defaults below: reference
 * `T-<random hex>`, title 'Test job', priority 3, status 1 (Reported), job type 1, created and
 * updated at `now`.
 * @returns id, uuid and reference
 */
export async function insertJob(db: Db, row: Partial<NewJob> & { agency_id: number; branch_id: number }, now: Date = new Date()) {
  return db
    .insertInto('jobs')
    .values({
      uuid: newUuid(),
      reference: `T-${randomBytes(4).toString('hex')}`,
      title: 'Test job',
      priority: 3,
      status_id: 1,
      job_type_id: 1,
      created_at: now,
      updated_at: now,
      ...row,
    })
    .returning(['id', 'uuid', 'reference'])
    .executeTakeFirstOrThrow();
}

/** Inserts a contractor company of an agency; returns id, uuid and company_name. */
export async function insertContractor(db: Db, agencyId: number, name = `Fixit ${randomBytes(2).toString('hex')}`, now: Date = new Date()) {
  return db
    .insertInto('contractors')
    .values({ uuid: newUuid(), agency_id: agencyId, company_name: name, created_at: now, updated_at: now })
    .returning(['id', 'uuid', 'company_name'])
    .executeTakeFirstOrThrow();
}

/** Inserts a tenant of an agency linked to the given addresses; returns id, uuid and name. */
export async function insertTenant(db: Db, agencyId: number, addressIds: number[] = [], name = `Tenant ${randomBytes(2).toString('hex')}`, now: Date = new Date()) {
  const tenant = await db
    .insertInto('tenants')
    .values({ uuid: newUuid(), agency_id: agencyId, name, created_at: now, updated_at: now })
    .returning(['id', 'uuid', 'name'])
    .executeTakeFirstOrThrow();
  for (const a of addressIds) await db.insertInto('tenant_addresses').values({ tenant_id: tenant.id, address_id: a, created_at: now }).execute();
  return tenant;
}

/** Inserts an address of an agency (in a branch, or none); returns id and uuid. */
export async function insertAddress(
  db: Db,
  a: { agencyId: number; branchId: number | null; line1: string; postcode: string; town?: string },
  now: Date = new Date(),
) {
  return db
    .insertInto('addresses')
    .values({ uuid: newUuid(), agency_id: a.agencyId, branch_id: a.branchId, line1: a.line1, town: a.town ?? 'Leeds', postcode: a.postcode, created_at: now, updated_at: now })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}
