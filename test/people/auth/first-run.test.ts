/** First run: the SysOps account, and the playground rule (spec 4.1 rule 3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { ensureSysOpsAccount } from '../../../src/seed/first-run.ts';
import { buildTestApp, createAgency, createUser, login, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ CARETAKER_PLAYGROUND: 'true' });
});
afterAll(async () => t?.close());

describe('first run', () => {
  it('creates the SysOps account from the environment on an empty database, once', async () => {
    const config = loadConfig({ CARETAKER_ADMIN_EMAIL: 'Ops@Example.test', CARETAKER_ADMIN_PASSWORD: 'a long admin password' });
    const first = await ensureSysOpsAccount(t.db, config, t.clock.now());
    expect(first).toEqual({ created: true, email: 'ops@example.test' });
    expect(await login(t.app, 'ops@example.test', 'a long admin password')).toMatch(/^[0-9a-f]{64}$/);
    expect(await ensureSysOpsAccount(t.db, config, t.clock.now())).toEqual({ created: false });
  });

  it('generates a password when none is configured', async () => {
    const other = await buildTestApp();
    try {
      const result = await ensureSysOpsAccount(other.db, loadConfig({}), other.clock.now());
      expect(result.created).toBe(true);
      expect(result.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(await login(other.app, 'sysops@caretaker.test', result.generatedPassword)).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await other.close();
    }
  });
});

describe('playground deployment (CARETAKER_PLAYGROUND=true)', () => {
  it('lets only SysOps and API accounts log in', async () => {
    const agency = await createAgency(t.db);
    const api = await createUser(t.db, { role: 'api', agencyId: agency.id });
    const agent = await createUser(t.db, { role: 'agent', agencyId: agency.id });
    expect(await login(t.app, api.email)).toMatch(/^[0-9a-f]{64}$/);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: agent.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().success).toBe(false);
  });
});
