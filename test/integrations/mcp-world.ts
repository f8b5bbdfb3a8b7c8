/**
 * The world of the MCP tests (test/integrations/mcp-*.test.ts): the standard world, two tenants of
 * agency A at two addresses (a job at Emily's), a contractor login, and the app listening on a port.
 */
import { createUser, login, standardWorld, type TestApp } from '../helpers/app.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

/**
 * Builds the world and starts listening on 127.0.0.1.
 * @returns the tokens, Emily's job and home, and the base URL
 */
export async function mcpWorld(t: TestApp) {
  const world = await standardWorld(t);
  const a = world.agencyA.id;
  const home = await insertAddress(t.db, { agencyId: a, branchId: world.a1.id, line1: '1 Home Street', postcode: 'LS6 1AA' });
  const elsewhere = await insertAddress(t.db, { agencyId: a, branchId: world.a1.id, line1: '9 Other Road', postcode: 'LS6 2BB' });
  const emily = await insertTenant(t.db, a, [home.id], 'Emily');
  const oliver = await insertTenant(t.db, a, [elsewhere.id], 'Oliver');
  const emilysJob = await insertJob(t.db, { agency_id: a, branch_id: world.a1.id, tenant_id: emily.id, address_id: home.id, title: 'Leak under the sink' });
  const emilyToken = await login(t.app, (await createUser(t.db, { role: 'tenant', agencyId: a, tenantId: emily.id })).email);
  const oliverToken = await login(t.app, (await createUser(t.db, { role: 'tenant', agencyId: a, tenantId: oliver.id })).email);
  const firm = await insertContractor(t.db, a, 'Fletcher Gas');
  const contractorToken = await login(t.app, (await createUser(t.db, { role: 'contractor', agencyId: a, contractorId: firm.id })).email);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return { world, homeUuid: home.uuid, emilysJob, emilyToken, oliverToken, contractorToken, base: `http://127.0.0.1:${address.port}` };
}
