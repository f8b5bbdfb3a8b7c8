/**
 * Where a new job goes (docs/jobs.md, "Creating a job"; src/modules/jobs/jobs/job-placement.ts): the
 * branch chosen for each kind of caller, and every reference of the body resolved inside the job's
 * agency, so another agency's branch, address, tenant or trade answers like a missing one and
 * writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createBranch, userClient, type TestApp } from '../../helpers/app.ts';
import { createAddress, createTenant, jobsWorld, type JobsWorld } from './fixtures.ts';

describe('job placement: the branch chosen and the references resolved inside the agency', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  const countJobs = async () => Number((await t.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const refused = async (client: JobsWorld['adminA']['client'], body: Record<string, unknown>, status: number, error: string) => {
    const before = await countJobs();
    const res = await client.post('/api/jobs/manage', { title: 'Leak', priority: 3, ...body });
    expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
    expect(res.json().error).toBe(error);
    expect(await countJobs()).toBe(before);
  };

  it('an agency admin without branch_uuid: the property\'s open branch, else the only open branch, else 400', async () => {
    // Agency A has two open branches (A1, A2): the property decides.
    const atA2 = await createAddress(t, w.agencyA.id, w.a2.id, 'LS9 9ZZ');
    const res = await w.adminA.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, address_uuid: atA2.uuid });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ branch_uuid: w.a2.uuid, address_uuid: atA2.uuid });
    // No property, or one without a branch: two open branches leave the choice to the caller.
    await refused(w.adminA.client, {}, 400, 'Invalid or missing required parameter: branch_uuid');
    const noBranch = await createAddress(t, w.agencyA.id, null, 'LS8 8YY');
    await refused(w.adminA.client, { address_uuid: noBranch.uuid }, 400, 'Invalid or missing required parameter: branch_uuid');
    // Agency B has one open branch: it is chosen.
    const only = await w.adminB.client.post('/api/jobs/manage', { title: 'Leak', priority: 3 });
    expect(only.statusCode, only.body).toBe(201);
    expect(only.json().data.branch_uuid).toBe(w.b1.uuid);
  });

  it('a property in a closed branch falls back to the only open branch', async () => {
    const agency = w.agencyB;
    const closed = await createBranch(t.db, agency.id, 'B-closed');
    await t.db.updateTable('branches').set({ closed_at: new Date() }).where('id', '=', closed.id).execute();
    const address = await createAddress(t, agency.id, closed.id, 'SE9 9AA');
    const res = await w.adminB.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, address_uuid: address.uuid });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.branch_uuid).toBe(w.b1.uuid);
    // Named, a closed branch is not found.
    await refused(w.adminB.client, { branch_uuid: closed.uuid }, 404, 'Branch not found');
  });

  it('an agent: its own branch without branch_uuid; another branch of its agency or another agency\'s is 404', async () => {
    const res = await w.agentA1.client.post('/api/jobs/manage', { title: 'Leak', priority: 3 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.branch_uuid).toBe(w.a1.uuid);
    await refused(w.agentA1.client, { branch_uuid: w.a2.uuid }, 404, 'Branch not found');
    await refused(w.agentA1.client, { branch_uuid: w.b1.uuid }, 404, 'Branch not found');
  });

  it('SysOps names a branch of any agency; the address, tenant and trade are then resolved in that agency', async () => {
    await refused(w.sysops.client, {}, 400, 'Invalid or missing required parameter: branch_uuid');
    await refused(w.sysops.client, { branch_uuid: '00000000-0000-4000-8000-000000000000' }, 404, 'Branch not found');
    await refused(w.sysops.client, { branch_uuid: w.b1.uuid, address_uuid: w.address.uuid }, 404, 'Address not found');
    await refused(w.sysops.client, { branch_uuid: w.b1.uuid, tenant_uuid: w.tenant.uuid }, 404, 'Tenant not found');
    const res = await w.sysops.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, branch_uuid: w.b1.uuid, address_uuid: w.addressB.uuid });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ branch_uuid: w.b1.uuid, address_uuid: w.addressB.uuid });
    const row = await t.db.selectFrom('jobs').select('agency_id').where('uuid', '=', res.json().data.uuid).executeTakeFirstOrThrow();
    expect(row.agency_id).toBe(w.agencyB.id);
  });

  it('a trade is one of the platform\'s or the job\'s agency\'s own; another agency\'s is 400', async () => {
    const own = await t.db.insertInto('trades').values({ code: 'placement-a', name: 'Thatching', agency_id: w.agencyA.id }).returning('id').executeTakeFirstOrThrow();
    const ok = await w.agentA1.client.post('/api/jobs/manage', { title: 'Roof', priority: 3, trade_id: own.id });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.trade_id).toBe(own.id);
    await refused(w.adminB.client, { trade_id: own.id }, 400, 'Invalid or missing required parameter: trade_id');
    await refused(w.agentA1.client, { trade_id: 2147483647 }, 400, 'Invalid or missing required parameter: trade_id');
    await refused(w.agentA1.client, { job_type_id: 2147483647 }, 400, 'Invalid or missing required parameter: job_type_id');
  });

  it('a tenant: its only address without address_uuid; with two it must name one of its own', async () => {
    const second = await createAddress(t, w.agencyA.id, w.a2.id, 'LS7 7XX');
    const tenant = await createTenant(t, w.agencyA.id, [w.address2.id, second.id], 'Ava Shah');
    const user = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: tenant.id });
    await refused(user.client, {}, 400, 'Invalid or missing required parameter: address_uuid');
    await refused(user.client, { address_uuid: w.address.uuid }, 404, 'Address not found');
    await refused(user.client, { address_uuid: w.addressB.uuid }, 404, 'Address not found');
    await refused(user.client, { address_uuid: second.uuid, branch_uuid: w.a2.uuid }, 400, 'Invalid or missing required parameter: branch_uuid');
    const res = await user.client.post('/api/jobs/manage', { title: 'Damp', priority: 4, address_uuid: second.uuid });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ address_uuid: second.uuid, branch_uuid: w.a2.uuid, tenant_uuid: tenant.uuid });
    // One address: chosen without being named.
    const single = await w.tenantUser.client.post('/api/jobs/manage', { title: 'Damp', priority: 4 });
    expect(single.statusCode, single.body).toBe(201);
    expect(single.json().data).toMatchObject({ address_uuid: w.address.uuid, branch_uuid: w.a1.uuid });
  });

  it('a tenant at a property without a branch: the agency\'s first open branch', async () => {
    const address = await createAddress(t, w.agencyB.id, null, 'SE5 5BB');
    const tenant = await createTenant(t, w.agencyB.id, [address.id], 'Leo Brown');
    const user = await userClient(t, { role: 'tenant', agencyId: w.agencyB.id, tenantId: tenant.id });
    const res = await user.client.post('/api/jobs/manage', { title: 'Damp', priority: 4 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ address_uuid: address.uuid, branch_uuid: w.b1.uuid });
  });
});
