import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoContext } from '../../../src/seed/demo/load.ts';
import { slaDevicesAppearanceStep } from '../../../src/seed/demo/sla-devices-appearance.ts';
import { buildTestApp, createAgency, createBranch, createUser, login, Client, type TestApp } from '../../helpers/app.ts';

describe('SLA rules, devices, appearance and time slots demo step: every endpoint has something to show', () => {
  let t: TestApp;
  let admin: Client;
  let agent: Client;

  beforeAll(async () => {
    t = await buildTestApp();
    const northwind = await createAgency(t.db, 'Northwind Lettings');
    const southbank = await createAgency(t.db, 'Southbank Estates');
    const leeds = await createBranch(t.db, northwind.id, 'Leeds');
    const york = await createBranch(t.db, northwind.id, 'York');
    const london = await createBranch(t.db, southbank.id, 'London');
    const adminUser = await createUser(t.db, { role: 'admin', agencyId: northwind.id, email: 'admin@northwind.test' });
    const agentUser = await createUser(t.db, { role: 'agent', agencyId: northwind.id, branchId: leeds.id, email: 'agent@northwind.test' });
    const southAdmin = await createUser(t.db, { role: 'admin', agencyId: southbank.id, branchId: london.id, email: 'admin@southbank.test' });
    await t.db.transaction().execute((trx) =>
      slaDevicesAppearanceStep(
        Object.assign(createDemoContext(trx, { seed: 20_261_121, now: t.clock.now(), passwordHash: '' }), {
          ids: {
            agencies: { northwind: northwind.id, southbank: southbank.id },
            branches: { leeds: leeds.id, york: york.id, london: london.id },
            users: { 'admin@northwind.test': adminUser.id, 'agent@northwind.test': agentUser.id, 'admin@southbank.test': southAdmin.id },
            addresses: [], tenants: [], contractors: [], jobs: [], trades: {}, demoTenantId: 0, demoContractorId: 0,
          },
        }),
      )
    );
    admin = new Client(t.app, await login(t.app, adminUser.email));
    agent = new Client(t.app, await login(t.app, agentUser.email));
  });
  afterAll(async () => t?.close());

  it('shows SLA rules, device tokens, appearance and the agency time slot', async () => {
    const rules = (await agent.get('/api/agents/branch-sla-response-times')).json();
    expect(rules.count).toBeGreaterThanOrEqual(4);
    expect(rules.data.map((r: { description: string }) => r.description)).toContain('Emergency jobs attended within 1 day');
    expect((await admin.get('/api/agents/branch-sla-response-times')).json().count).toBeGreaterThanOrEqual(8);
    expect((await agent.get('/api/system/device-tokens')).json().count).toBeGreaterThanOrEqual(1);
    expect((await admin.get('/api/users/appearance')).json()).toMatchObject({ dashboard_bg_custom: '#1f4e79' });
    const slots = (await agent.get('/api/jobs/time-ranges?action=list')).json().data.map((r: { range_label: string }) => r.range_label);
    expect(slots).toContain('Saturday morning 09:00-12:00');
  });
});
