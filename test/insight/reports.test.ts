/**
 * Reports: CSV and XLSX downloads parsed back (csv-parse, exceljs reader) match the matching list
 * endpoint row for row, across several internal pages; aggregate reports match a hand count;
 * formula text is neutralised; subscriptions are the caller's own and are e-mailed once per period
 * through a local SMTP server.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDeliveryTask } from '../../src/modules/insight/reports/delivery.task.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtpServer } from '../people/users/mail-helpers.ts';
import { addJob, insightWorld } from './fixture.ts';
import { addSlaAndMoney } from './fixture-sla-money.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof insightWorld>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const BULK = 1_150; // more than two internal pages of 500

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ SMTP_URL: smtp.url });
  w = await insightWorld(t);
  await addSlaAndMoney(t.db, w);
  await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: 1, priority: 3, title: '=HYPERLINK("http://evil.test","x")', createdAt: '2026-11-21T09:00:00Z' });
  await sql`insert into jobs (uuid, agency_id, branch_id, reference, title, description, priority, status_id, job_type_id, created_at, updated_at)
    select gen_random_uuid(), ${w.agencyA.id}, ${w.a2.id}, 'BULK-' || lpad(g::text, 5, '0'), 'Bulk job ' || g, '', 1 + g % 5, 1, 1,
      timestamptz '2026-10-01T00:00:00Z' + g * interval '1 minute', now()
    from generate_series(1, ${BULK}) g`.execute(t.db);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Every page of GET /api/jobs/manage with the query, as references in order. */
async function listReferences(query: string): Promise<string[]> {
  const refs: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const res = await w.adminA.client.get(`/api/jobs/manage?${query}&limit=200&offset=${offset}`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Array<{ reference: string }>;
    refs.push(...rows.map((r) => r.reference));
    if (rows.length < 200) return refs;
  }
}

describe('report downloads', () => {
  it('streams the jobs register as CSV matching the list endpoint row for row, with the same filters', async () => {
    for (const query of ['sort=created_at&order=desc', 'priority=3&order=asc', `branch_uuid=${w.a2.uuid}&q=bulk`]) {
      const res = await w.adminA.client.get(`/api/reports/jobs-register?format=csv&${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="jobs-register-\d{4}-\d{2}-\d{2}\.csv"/);
      const rows = parse(res.body, { columns: true }) as Array<Record<string, string>>;
      expect(rows.map((r) => r.reference), query).toEqual(await listReferences(query));
    }
  });

  it('has every job of the agency in the register (several internal pages) and none of another agency', async () => {
    const rows = parse((await w.adminA.client.get('/api/reports/jobs-register')).body, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(BULK + 9);
    expect(rows.some((r) => r.reference === w.jobB.reference)).toBe(false);
    const j5 = rows.find((r) => r.reference === w.j5.reference)!;
    expect(j5).toMatchObject({ status: 'Completed', priority: '2', agreed_cost_pence: '20000', completed_at: '2026-11-04T10:00:00.000Z', uuid: w.j5.uuid });
  });

  it('streams the jobs register as XLSX that reads back to the same rows', async () => {
    const res = await w.adminA.client.get('/api/reports/jobs-register?format=xlsx&priority=2');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['reference', 'title', 'status']);
    const refs: string[] = [];
    ws.eachRow((row, n) => {
      if (n > 1) refs.push(String((row.values as unknown[])[1]));
    });
    expect(refs).toEqual(await listReferences('priority=2'));
  });

  it('neutralises text that a spreadsheet would run as a formula', async () => {
    const rows = parse((await w.adminA.client.get('/api/reports/jobs-register?q=HYPERLINK')).body, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.title)).toEqual([`'=HYPERLINK("http://evil.test","x")`]);
  });

  it('counts contractor performance as the hand count', async () => {
    const res = await w.adminA.client.get('/api/reports/contractor-performance?from_date=2026-11-01&to_date=2026-11-30');
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.company_name, r.jobs_assigned, r.completed, r.cancelled, r.median_complete_s, r.first_time_fix_rate, r.agreed_total_pence])).toEqual([
      ['Fletcher Plumbing', '4', '1', '0', '180000', '1', '20000'],
      ['Other Trades', '2', '1', '0', '273600', '1', '10000'],
    ]);
  });

  it('lists the tenant jobs per property and the certificates register as the expiring list endpoint', async () => {
    const props = parse((await w.adminA.client.get('/api/reports/tenant-jobs-per-property')).body, { columns: true }) as Array<Record<string, string>>;
    expect(props).toEqual([{
      address_uuid: w.address.uuid, line1: '12 Acacia Avenue', town: 'Leeds', postcode: 'LS6 2AB', tenants: 'Emily Clarke',
      jobs_total: '5', jobs_open: '5', last_job_at: '2026-11-24T08:00:00.000Z',
    }]);
    const certs = parse((await w.adminA.client.get('/api/reports/certificates-register?days=60')).body, { columns: true }) as Array<Record<string, string>>;
    const listed = (await w.adminA.client.get('/api/contractors/certifications/expiring?days=60&limit=200')).json().data as Array<{ uuid: string }>;
    expect(certs.map((c) => c.uuid)).toEqual(listed.map((c) => c.uuid));
    expect(certs).toHaveLength(2);
  });

  it('refuses bad filters with 400 and callers without the permission with 403', async () => {
    for (const bad of ['priority=9', 'format=pdf', 'planet=mars', 'from_date=2026-11-30&to_date=2026-11-01']) {
      const url = bad.startsWith('from') ? `/api/reports/contractor-performance?${bad}` : `/api/reports/jobs-register?${bad}`;
      const res = await w.adminA.client.get(url);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await w.contractor.client.get('/api/reports/jobs-register')).statusCode).toBe(403);
    expect((await w.tenant.client.get('/api/reports')).statusCode).toBe(403);
    const catalogue = (await w.adminA.client.get('/api/reports')).json();
    expect(catalogue.data.map((r: { name: string }) => r.name)).toEqual(['jobs-register', 'contractor-performance', 'sla-compliance', 'tenant-jobs-per-property', 'certificates-register', 'compliance-register']);
  });
});

describe('SLA compliance report', () => {
  const RANGE = 'from_date=2026-11-01&to_date=2026-11-30';
  /** Every page of GET /api/sla/compliance as the report's columns, in text as CSV carries them. */
  async function listed(client: typeof w.adminA.client, query: string): Promise<Array<Record<string, string>>> {
    const out: Array<Record<string, string>> = [];
    for (let offset = 0; ; offset += 200) {
      const res = await client.get(`/api/sla/compliance?${query}&limit=200&offset=${offset}`);
      expect(res.statusCode).toBe(200);
      const rows = res.json().data as Array<Record<string, unknown>>;
      out.push(...rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? '' : String(v)]))));
      if (rows.length < 200) return out;
    }
  }

  it('streams CSV matching GET /api/sla/compliance for every grouping, and the hand count by branch', async () => {
    for (const group of ['', '&group_by=branch', '&group_by=contractor', '&group_by=job_type', '&group_by=priority']) {
      const res = await w.adminA.client.get(`/api/reports/sla-compliance?format=csv&${RANGE}${group}`);
      expect(res.statusCode, group).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/filename="sla-compliance-\d{4}-\d{2}-\d{2}\.csv"/);
      const rows = parse(res.body, { columns: true }) as Array<Record<string, string>>;
      expect(rows, group).toEqual(await listed(w.adminA.client, `${RANGE}${group}`));
    }
    const byBranch = parse((await w.adminA.client.get(`/api/reports/sla-compliance?${RANGE}`)).body, { columns: true }) as Array<Record<string, string>>;
    // A1: job and j2 breached; j1 (2), j2, j3, j4 still running or at risk. A2: j5 met in 180 minutes, j5 at risk, j6 breached.
    expect(byBranch.map((r) => [r.name, r.met, r.breached, r.running, r.compliance_percent, r.median_minutes_to_respond])).toEqual([
      ['A1', '0', '2', '5', '0', ''],
      ['A2', '1', '1', '1', '50', '180'],
    ]);
  });

  it('streams XLSX that reads back to the same rows, and keeps to the caller\'s jobs', async () => {
    const res = await w.agentA1.client.get(`/api/reports/sla-compliance?format=xlsx&${RANGE}&group_by=contractor`);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    const rows: Array<Record<string, string>> = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const values = (row.values as unknown[]).slice(1);
      rows.push(Object.fromEntries(header.map((h, i) => [h, values[i] === undefined || values[i] === null ? '' : String(values[i])])));
    });
    expect(rows).toEqual(await listed(w.agentA1.client, `${RANGE}&group_by=contractor`));
    const b = parse((await w.adminB.client.get(`/api/reports/sla-compliance?${RANGE}`)).body, { columns: true }) as Array<Record<string, string>>;
    expect(b.map((r) => [r.name, r.breached])).toEqual([['B1', '1']]);
  });

  it('defaults to the last 90 days, refuses bad filters with 400 and callers without the SLA permission with 403', async () => {
    const dflt = parse((await w.adminA.client.get('/api/reports/sla-compliance')).body, { columns: true }) as Array<Record<string, string>>;
    expect(dflt).toEqual(await listed(w.adminA.client, 'from_date=2026-08-27&to_date=2026-11-24'));
    for (const bad of ['group_by=planet', 'from_date=2026-11-30&to_date=2026-11-01', 'to_date=24-11-2026']) {
      const res = await w.adminA.client.get(`/api/reports/sla-compliance?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const sub = await w.agentA1.client.post('/api/reports/subscriptions', { report: 'sla-compliance', frequency: 'monthly', filters: { group_by: 'contractor' } });
    expect(sub.statusCode).toBe(201);
    expect((await w.agentA1.client.post('/api/reports/subscriptions', { report: 'sla-compliance', frequency: 'monthly', filters: { group_by: 'planet' } })).statusCode).toBe(400);
    expect((await w.agentA1.client.delete(`/api/reports/subscriptions/${sub.json().data.uuid}`)).statusCode).toBe(200);
    const agent = await t.db.selectFrom('roles').select('id').where('code', '=', 'agent').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_permissions').where('role_id', '=', agent.id).where('permission_key', '=', 'api.sla.compliance.view').execute();
    // A write behind the services' back: move the auth epoch on as changeIdentity does (docs/security.md "Token lookup cache").
    await t.deps.authEpoch.bump();
    try {
      const res = await w.agentA1.client.get('/api/reports/sla-compliance');
      expect(res.statusCode).toBe(403);
      expect(res.json().success).toBe(false);
      const names = (await w.agentA1.client.get('/api/reports')).json().data.map((r: { name: string }) => r.name);
      expect(names).not.toContain('sla-compliance');
      expect((await w.agentA1.client.post('/api/reports/subscriptions', { report: 'sla-compliance', frequency: 'weekly' })).statusCode).toBe(403);
    } finally {
      await t.db.insertInto('role_permissions').values({ role_id: agent.id, permission_key: 'api.sla.compliance.view' }).execute();
      await t.deps.authEpoch.bump();
    }
  });
});

/** The decoded attachment named like `prefix` in a raw MIME message. */
function attachment(raw: string, prefix: string): Buffer {
  const at = raw.indexOf(`filename=${prefix}`) >= 0 ? raw.indexOf(`filename=${prefix}`) : raw.indexOf(`filename="${prefix}`);
  expect(at).toBeGreaterThan(0);
  const body = raw.slice(raw.indexOf('\r\n\r\n', at) + 4);
  return Buffer.from(body.slice(0, body.indexOf('\r\n--')).replace(/\s+/g, ''), 'base64');
}

describe('report subscriptions', () => {
  it('creates, reads, changes, lists and deletes only the caller\'s own subscriptions', async () => {
    const created = await w.adminA.client.post('/api/reports/subscriptions', { report: 'jobs-register', frequency: 'weekly', filters: { priority: 2 } });
    expect(created.statusCode).toBe(201);
    const sub = created.json().data;
    expect(sub).toMatchObject({ report: 'jobs-register', format: 'csv', frequency: 'weekly', filters: { priority: 2 }, last_period: null });
    expect((await w.adminA.client.get(`/api/reports/subscriptions/${sub.uuid}`)).json().data.uuid).toBe(sub.uuid);
    expect((await w.agentA1.client.get(`/api/reports/subscriptions/${sub.uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.delete(`/api/reports/subscriptions/${sub.uuid}`)).statusCode).toBe(404);
    const changed = await w.adminA.client.put(`/api/reports/subscriptions/${sub.uuid}`, { format: 'xlsx', frequency: 'monthly' });
    expect(changed.json().data).toMatchObject({ format: 'xlsx', frequency: 'monthly' });
    expect((await w.adminA.client.get('/api/reports/subscriptions')).json().count).toBe(1);
    expect((await w.adminA.client.delete(`/api/reports/subscriptions/${sub.uuid}`)).statusCode).toBe(200);
    expect((await w.adminA.client.get('/api/reports/subscriptions')).json().count).toBe(0);
    const log = await t.db.selectFrom('activity_log').select('action').where('action', 'like', 'report_subscription.%')
      .where('user_id', '=', w.adminA.user.id).orderBy('id').execute();
    expect(log.map((l) => l.action)).toEqual(['report_subscription.create', 'report_subscription.update', 'report_subscription.delete']);
  });

  it('refuses unknown reports and filters that do not fit the report with 400, writing nothing', async () => {
    for (const body of [
      { report: 'payroll', frequency: 'weekly' },
      { report: 'jobs-register', frequency: 'daily' },
      { report: 'jobs-register', frequency: 'weekly', filters: { priority: 9 } },
      { report: 'certificates-register', frequency: 'weekly', filters: { planet: 'mars' } },
    ]) {
      const res = await w.adminA.client.post('/api/reports/subscriptions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await w.adminA.client.get('/api/reports/subscriptions')).json().count).toBe(0);
  });

  it('e-mails a due report once per period as an attachment matching the download', async () => {
    const sub = (await w.agentA1.client.post('/api/reports/subscriptions', { report: 'jobs-register', frequency: 'weekly', filters: { priority: 2 } })).json().data;
    await reportDeliveryTask.run(t.deps);
    await reportDeliveryTask.run(t.deps); // same week: nothing more
    const mails = smtp.messages.filter((m) => m.to.includes(w.agentA1.user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toContain('Subject: Caretaker report: Jobs register (2026-W48)');
    const csv = attachment(mails[0]!.raw, 'jobs-register-2026-W48.csv').toString('utf8');
    const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.reference)).toEqual(await listReferences('priority=2'));
    expect((await w.agentA1.client.get(`/api/reports/subscriptions/${sub.uuid}`)).json().data.last_period).toBe('2026-W48');
    t.clock.set(new Date('2026-11-30T06:00:00Z')); // next Monday: the next week's report
    await reportDeliveryTask.run(t.deps);
    expect(smtp.messages.filter((m) => m.to.includes(w.agentA1.user.email))).toHaveLength(2);
  });
});
