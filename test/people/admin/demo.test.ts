import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../../src/seed/demo/load.ts';
import { buildTestApp, Client, login, type TestApp } from '../../helpers/app.ts';

describe('demo data of the administration and agents areas', () => {
  let t: TestApp;
  const password = 'demo password 2026';

  beforeAll(async () => {
    t = await buildTestApp();
    await loadDemoData(t.db, { seed: 42, password, now: t.clock.now(), log: () => {} });
  });
  afterAll(async () => t?.close());

  it('York shares its jobs, Leeds does not', async () => {
    const admin = new Client(t.app, await login(t.app, 'admin@northwind.test', password));
    const branches = (await admin.get('/api/admin/branches')).json().data;
    expect(branches.map((b: { name: string; sharing_enabled: boolean }) => [b.name, b.sharing_enabled])).toEqual([['Leeds', false], ['York', true]]);
    const agent = new Client(t.app, await login(t.app, 'agent@northwind.test', password));
    expect((await agent.get('/api/agents/branch-sharing')).json().data).toMatchObject({ branch_name: 'Leeds', enabled: false });
  });

  it('each agency has its own Senior agent role with the Agent keys and two more', async () => {
    const admin = new Client(t.app, await login(t.app, 'admin@northwind.test', password));
    const roles = (await admin.get('/api/admin/roles?q=senior')).json();
    expect(roles.data).toEqual([expect.objectContaining({ name: 'Senior agent', level: 60, is_builtin: false, users_count: 0 })]);
    expect(roles.data[0].permissions).toEqual(expect.arrayContaining(['api.agents.job-assignment.manage', 'api.admin.activity-log.manage', 'api.admin.roles.view']));
    const southbank = new Client(t.app, await login(t.app, 'admin@southbank.test', password));
    const theirs = (await southbank.get('/api/admin/roles?q=senior')).json().data;
    expect(theirs).toHaveLength(1);
    expect(theirs[0].id).not.toBe(roles.data[0].id);
  });
});
