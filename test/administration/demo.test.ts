import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/seed/demo/load.ts';
import { buildTestApp, Client, login, type TestApp } from '../helpers/app.ts';

describe('demo data of the administration and agents areas', () => {
  let t: TestApp;
  const password = 'demo password 2026';

  beforeAll(async () => {
    t = await buildTestApp();
    await loadDemoData(t.db, { seed: 42, password, now: t.clock.now(), log: () => {} });
  });
  afterAll(async () => t?.close());

  it('York shares, each agency has a Senior agent role, York has a senior agent and an agent', async () => {
    const senior = new Client(t.app, await login(t.app, 'senior@northwind.test', password));
    const sharing = await senior.get('/api/agents/branch-sharing');
    expect(sharing.json().data).toMatchObject({ branch_name: 'York', enabled: true });
    const perms = (await senior.get('/api/users/permissions')).json().data;
    expect(perms).toMatchObject({ role: 'Senior agent', level: 60 });
    expect(perms.permissions).toContain('api.admin.activity-log.manage');

    const admin = new Client(t.app, await login(t.app, 'admin@northwind.test', password));
    const roles = (await admin.get('/api/admin/roles?q=senior')).json();
    expect(roles.data).toEqual([expect.objectContaining({ name: 'Senior agent', level: 60, is_builtin: false, users_count: 1 })]);
    const agents = (await admin.get('/api/agents')).json().data.map((a: { email: string }) => a.email);
    expect(agents).toEqual(expect.arrayContaining(['agent@northwind.test', 'agent.york@northwind.test', 'senior@northwind.test']));
    const southbank = new Client(t.app, await login(t.app, 'admin@southbank.test', password));
    expect((await southbank.get('/api/admin/roles?q=senior')).json().count).toBe(1);
  });
});
