import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../../src/seed/demo/load.ts';
import { buildTestApp, Client, login, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

describe('SLA demo step: both agencies have rules and clocks in every state', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
    await loadDemoData(t.db, { seed: 20_261_121, password: TEST_PASSWORD, now: new Date('2026-11-23T00:00:00Z'), log: () => {} });
  }, 600_000);
  afterAll(async () => t?.close());

  it('every SLA state is present, for both agencies', async () => {
    const rows = await t.db.selectFrom('sla_clocks').select(['agency_id', 'state']).distinct().execute();
    const states = new Set(rows.map((r) => r.state));
    expect([...states].sort()).toEqual(['at_risk', 'breached', 'met', 'not_applicable', 'paused', 'running']);
    expect(new Set(rows.map((r) => r.agency_id)).size).toBe(2);
  });

  it('the breaches list and compliance report of each demo administrator show real records', async () => {
    for (const email of ['admin@northwind.test', 'admin@southbank.test']) {
      const client = new Client(t.app, await login(t.app, email));
      const breaches = (await client.get('/api/sla/breaches?limit=5')).json();
      expect(breaches.count).toBeGreaterThan(0);
      const report = (await client.get('/api/sla/compliance?from_date=2026-01-01&to_date=2026-11-23')).json();
      expect(report.data.length).toBeGreaterThan(0);
      expect(report.data[0].met + report.data[0].breached).toBeGreaterThan(0);
    }
  });
});
