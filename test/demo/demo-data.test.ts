/**
 * The demo data set (issue "Foundation" item 4): loaded into a fresh database through
 * loadDemoIfEmpty, then checked the way a letting agent and the API would see it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/db/schema.ts';
import { raiseDueMaintenance } from '../../src/modules/jobs/compliance/index.ts';
import { loadDemoIfEmpty } from '../../src/seed/demo/index.ts';
import { Client, buildTestApp, login, type TestApp } from '../helpers/app.ts';

const UK_POSTCODE = /^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][ABD-HJLNP-UW-Z]{2}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ACCOUNTS = [
  'sysops@caretaker.test', 'admin@northwind.test', 'agent@northwind.test', 'contractor@northwind.test',
  'tenant@northwind.test', 'api@northwind.test', 'admin@southbank.test',
];

describe('demo data set', () => {
  let t: TestApp;
  let jobs: Job[];
  /** The loader's reference time: the test clock truncated to the start of its UTC day. */
  const demoNow = new Date('2026-11-21T00:00:00Z').getTime();
  const count = async (table: 'agencies' | 'branches' | 'addresses' | 'tenants' | 'contractors' | 'jobs' | 'users') =>
    (await t.db.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;

  beforeAll(async () => {
    t = await buildTestApp();
    // How long loading takes is measured by bench/ (the first start), not asserted here.
    const result = await loadDemoIfEmpty(t.db, t.config, t.clock.now());
    // The seven named demo accounts (docs/api.md); later demo steps add more staff (src/seed/demo/users.ts).
    expect(result.loaded).toBe(true);
    expect(result.accounts).toEqual(expect.arrayContaining(ACCOUNTS));
    jobs = await t.db.selectFrom('jobs').selectAll().orderBy('id').execute();
  });
  afterAll(async () => t?.close());

  it('has the promised counts', async () => {
    expect(await count('agencies')).toBe(2);
    expect(await count('branches')).toBe(3);
    expect(await count('addresses')).toBeGreaterThanOrEqual(190);
    expect(await count('addresses')).toBeLessThanOrEqual(210);
    expect(await count('tenants')).toBe(150);
    expect(await count('contractors')).toBe(30);
    expect(await count('jobs')).toBe(1000);
    expect(await count('users')).toBeGreaterThanOrEqual(7); // the named accounts, plus the staff added by the users step
    const names = await t.db.selectFrom('branches').innerJoin('agencies', 'agencies.id', 'branches.agency_id')
      .select(['agencies.name as agency', 'branches.name as branch']).orderBy('branches.id').execute();
    expect(names).toEqual([
      { agency: 'Northwind Lettings', branch: 'Leeds' },
      { agency: 'Northwind Lettings', branch: 'York' },
      { agency: 'Southbank Estates', branch: 'London' },
    ]);
  });

  it('has jobs in every status, older ones mostly closed', async () => {
    const statuses = await t.db.selectFrom('job_statuses').select('id').execute();
    const seen = new Set(jobs.map((j) => j.status_id));
    for (const s of statuses) expect(seen.has(s.id), `status ${s.id}`).toBe(true);
    const old = jobs.filter((j) => demoNow - j.created_at.getTime() > 90 * 86_400_000);
    const done = old.filter((j) => [8, 9, 10].includes(j.status_id));
    expect(done.length / old.length).toBeGreaterThan(0.85);
    const recent = jobs.filter((j) => demoNow - j.created_at.getTime() < 7 * 86_400_000);
    expect(recent.filter((j) => [1, 2, 3, 4, 5, 6, 11].includes(j.status_id)).length / recent.length).toBeGreaterThan(0.6);
  });

  it('has UK addresses with valid postcodes on the nearest branch of their agency', async () => {
    const rows = await t.db.selectFrom('addresses').selectAll().execute();
    const branches = await t.db.selectFrom('branches').select(['id', 'agency_id', 'name']).execute();
    const branch = new Map(branches.map((b) => [b.id, b]));
    for (const a of rows) {
      expect(a.postcode, a.postcode).toMatch(UK_POSTCODE);
      expect(a.uuid).toMatch(UUID_V4);
      expect(branch.get(a.branch_id!)!.agency_id).toBe(a.agency_id);
      const prefix = a.postcode.replace(/[0-9].*$/, '');
      expect({ LS: 'Leeds', YO: 'York', SE: 'London', SW: 'London', N: 'London', E: 'London' }[prefix]).toBe(branch.get(a.branch_id!)!.name);
      expect(a.latitude).toBeGreaterThan(51.3);
      expect(a.latitude).toBeLessThan(54.1);
      expect(a.line1).toMatch(/^\d+ [A-Z]/);
      if (a.line2 !== null) expect(a.line2).toMatch(/^(Flat|Apartment) \d+$/);
    }
    expect(rows.filter((a) => a.line2 !== null).length).toBeGreaterThan(20);
  });

  it('links tenants to addresses of their agency, some jointly', async () => {
    const links = await t.db.selectFrom('tenant_addresses')
      .innerJoin('tenants', 'tenants.id', 'tenant_addresses.tenant_id')
      .innerJoin('addresses', 'addresses.id', 'tenant_addresses.address_id')
      .select(['tenants.id as tenant', 'addresses.id as address', 'tenants.agency_id as ta', 'addresses.agency_id as aa'])
      .execute();
    for (const l of links) expect(l.ta).toBe(l.aa);
    expect(new Set(links.map((l) => l.tenant)).size).toBe(150);
    const perAddress = new Map<number, number>();
    for (const l of links) perAddress.set(l.address, (perAddress.get(l.address) ?? 0) + 1);
    expect([...perAddress.values()].filter((n) => n > 1).length).toBeGreaterThan(3);
    const tenants = await t.db.selectFrom('tenants').selectAll().execute();
    for (const x of tenants) {
      expect(x.phone).toMatch(/^07700 900\d{3}$/);
      expect(x.email).toMatch(/@(example\.(com|org|net)|northwind\.test)$/);
    }
  });

  it('gives contractors one to three trades', async () => {
    const rows = await t.db.selectFrom('contractor_trades').select(['contractor_id', sql<number>`count(*)::int`.as('n')]).groupBy('contractor_id').execute();
    expect(rows).toHaveLength(30);
    for (const r of rows) expect(r.n).toBeGreaterThanOrEqual(1);
    for (const r of rows) expect(r.n).toBeLessThanOrEqual(3);
  });

  it('orders the date fields of every job and keeps them in the past', () => {
    const ms = (d: Date | null) => (d === null ? null : d.getTime());
    for (const j of jobs) {
      const chain = [j.created_at, j.approved_at, j.assigned_at, j.scheduled_for, j.attended_at, j.completed_at, j.invoiced_at, j.closed_at, j.cancelled_at]
        .map(ms).filter((x): x is number => x !== null);
      for (let i = 1; i < chain.length; i++) expect(chain[i]! > chain[i - 1]!, `${j.reference} dates out of order`).toBe(true);
      const created = j.created_at.getTime();
      expect(created).toBeGreaterThan(demoNow - 366 * 86_400_000);
      for (const d of [j.created_at, j.approved_at, j.assigned_at, j.attended_at, j.completed_at, j.invoiced_at, j.closed_at, j.cancelled_at, j.updated_at]) {
        if (d) expect(d.getTime(), j.reference).toBeLessThanOrEqual(demoNow);
      }
      if (j.scheduled_for && j.scheduled_for.getTime() > demoNow) expect(j.status_id).toBe(5);
      const past = chain.filter((x) => x <= demoNow);
      expect(j.updated_at.getTime()).toBe(Math.max(...past));
    }
  });

  it('fills the fields each status implies', () => {
    for (const j of jobs) {
      const s = j.status_id;
      const reached = (...ids: number[]) => ids.includes(s);
      expect(j.approved_at !== null, `${j.reference} approved_at`).toBe(reached(3, 4, 5, 6, 7, 8, 9, 11) || (s === 10 && j.approved_at !== null));
      if (reached(4, 5, 6, 7, 8, 9, 11)) expect(j.contractor_id, j.reference).not.toBeNull();
      if (reached(1, 2, 3)) expect(j.contractor_id).toBeNull();
      expect(j.scheduled_for !== null).toBe(reached(5, 6, 7, 8, 9, 11));
      expect(j.time_range_id !== null).toBe(reached(5, 6, 7, 8, 9, 11));
      expect(j.attended_at !== null).toBe(reached(6, 7, 8, 9, 11));
      expect(j.completed_at !== null).toBe(reached(7, 8, 9));
      expect(j.invoiced_at !== null).toBe(reached(8, 9));
      expect(j.closed_at !== null).toBe(s === 9);
      expect(j.cancelled_at !== null).toBe(s === 10);
      expect(j.estimated_cost_pence === null || (j.estimated_cost_pence >= 8_500 && j.estimated_cost_pence <= 240_000)).toBe(true);
      if (reached(3, 4, 5, 6, 7, 8, 9, 11)) expect(j.agreed_cost_pence! >= 8_500 && j.agreed_cost_pence! <= 240_000, j.reference).toBe(true);
      if (s === 2) expect(j.estimated_cost_pence).not.toBeNull();
      expect(j.priority >= 1 && j.priority <= 5).toBe(true);
      expect(j.time_range_id === null || (j.time_range_id >= 1 && j.time_range_id <= 4)).toBe(true);
    }
  });

  it('keeps titles, priorities, job types, trades and places consistent', async () => {
    const trades = new Map((await t.db.selectFrom('trades').select(['id', 'code']).execute()).map((x) => [x.code, x.id]));
    const byTitle = (title: string) => jobs.filter((j) => j.title === title);
    for (const j of byTitle('Annual gas safety check (CP12)')) expect([j.job_type_id, j.trade_id]).toEqual([5, trades.get('gas')]);
    for (const j of byTitle('Void clean before new tenancy')) expect([j.job_type_id, j.tenant_id, j.trade_id]).toEqual([6, null, trades.get('cleaning')]);
    for (const j of byTitle('Smell of gas in kitchen')) expect([j.priority, j.job_type_id]).toEqual([1, 2]);
    for (const j of byTitle('EICR inspection')) expect(j.job_type_id).toBe(5);
    expect(byTitle('Boiler not firing').length).toBeGreaterThan(10);
    for (const j of jobs.filter((x) => x.priority === 1)) expect(j.job_type_id).toBe(2);

    const addresses = new Map((await t.db.selectFrom('addresses').select(['id', 'agency_id', 'branch_id']).execute()).map((a) => [a.id, a]));
    const links = new Set((await t.db.selectFrom('tenant_addresses').selectAll().execute()).map((l) => `${l.tenant_id}:${l.address_id}`));
    const skills = new Set((await t.db.selectFrom('contractor_trades').selectAll().execute()).map((l) => `${l.contractor_id}:${l.trade_id}`));
    const contractorAgency = new Map((await t.db.selectFrom('contractors').select(['id', 'agency_id']).execute()).map((c) => [c.id, c.agency_id]));
    for (const j of jobs) {
      const a = addresses.get(j.address_id!)!;
      expect([j.agency_id, j.branch_id]).toEqual([a.agency_id, a.branch_id]);
      if (j.tenant_id !== null) expect(links.has(`${j.tenant_id}:${j.address_id}`), j.reference).toBe(true);
      if (j.contractor_id !== null) {
        expect(contractorAgency.get(j.contractor_id)).toBe(j.agency_id);
        expect(skills.has(`${j.contractor_id}:${j.trade_id}`), j.reference).toBe(true);
      }
      expect(j.uuid).toMatch(UUID_V4);
    }
  });

  it('numbers references per agency in date order and continues them through the API', async () => {
    const counters = await t.db.selectFrom('agency_counters').selectAll().where('name', '=', 'job_reference').execute();
    expect(counters).toHaveLength(2);
    for (const c of counters) {
      const own = jobs.filter((j) => j.agency_id === c.agency_id);
      expect(new Set(own.map((j) => j.reference)).size).toBe(own.length);
      expect(own.map((j) => j.reference).sort()).toEqual(own.map((_, i) => `JOB-${String(i + 1).padStart(6, '0')}`));
      expect(c.value).toBe(own.length);
      const byCreated = [...own].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id);
      expect(byCreated.map((j) => j.reference)).toEqual(own.map((j) => j.reference));
    }
    const northwind = await t.db.selectFrom('agencies').select('id').where('name', '=', 'Northwind Lettings').executeTakeFirstOrThrow();
    const next = counters.find((c) => c.agency_id === northwind.id)!.value + 1;
    const agent = new Client(t.app, await login(t.app, 'agent@northwind.test', 'caretaker-demo'));
    const created = await agent.post('/api/jobs/manage', { title: 'Leaking kitchen tap', priority: 4 });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.reference).toBe(`JOB-${String(next).padStart(6, '0')}`);
  });

  it('links the tenant and contractor accounts to records with jobs', async () => {
    const tenantUser = await t.db.selectFrom('users').select(['id', 'tenant_id']).where('email', '=', 'tenant@northwind.test').executeTakeFirstOrThrow();
    const emily = await t.db.selectFrom('tenants').innerJoin('tenant_addresses', 'tenant_addresses.tenant_id', 'tenants.id')
      .innerJoin('addresses', 'addresses.id', 'tenant_addresses.address_id').innerJoin('branches', 'branches.id', 'addresses.branch_id')
      .select(['tenants.name', 'branches.name as branch']).where('tenants.id', '=', tenantUser.tenant_id!).execute();
    expect(emily).toEqual([{ name: 'Emily Clarke', branch: 'Leeds' }]);
    const hers = jobs.filter((j) => j.tenant_id === tenantUser.tenant_id);
    expect(hers.length).toBeGreaterThanOrEqual(5);
    expect(new Set(hers.map((j) => j.status_id)).size).toBeGreaterThanOrEqual(4);
    expect(hers.some((j) => j.reported_by_user_id === tenantUser.id)).toBe(true);
    for (const j of jobs) if (j.reported_by_user_id !== null) expect(j.reported_by_user_id).toBe(tenantUser.id);

    const contractorUser = await t.db.selectFrom('users').select('contractor_id').where('email', '=', 'contractor@northwind.test').executeTakeFirstOrThrow();
    const firm = await t.db.selectFrom('contractors').select(['company_name', 'contact_name']).where('id', '=', contractorUser.contractor_id!).executeTakeFirstOrThrow();
    expect(firm).toEqual({ company_name: 'Fletcher Gas & Heating', contact_name: 'Dave Fletcher' });
    const trades = await t.db.selectFrom('contractor_trades').innerJoin('trades', 'trades.id', 'contractor_trades.trade_id')
      .select('trades.code').where('contractor_id', '=', contractorUser.contractor_id!).orderBy('trades.code').execute();
    expect(trades.map((x) => x.code)).toEqual(['gas', 'heating', 'plumbing']);
    const his = jobs.filter((j) => j.contractor_id === contractorUser.contractor_id);
    expect(his.length).toBeGreaterThanOrEqual(10);
    expect(his.filter((j) => [4, 5, 6, 11].includes(j.status_id)).length).toBeGreaterThanOrEqual(3);

    const agent = await t.db.selectFrom('users').select('id').where('email', '=', 'agent@northwind.test').executeTakeFirstOrThrow();
    const leeds = await t.db.selectFrom('branches').select('id').where('name', '=', 'Leeds').executeTakeFirstOrThrow();
    const owned = jobs.filter((j) => j.agent_user_id !== null);
    expect(owned.length).toBeGreaterThan(50);
    for (const j of owned) expect([j.agent_user_id, j.branch_id]).toEqual([agent.id, leeds.id]);
  });

  it('lets every demo account log in with the demo password', async () => {
    for (const email of ACCOUNTS) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'caretaker-demo' } });
      expect(res.statusCode, email).toBe(200);
      expect(res.json().token).toEqual(expect.any(String));
    }
  });

  it('has guided reports (most deflected), survey answers and recalls (docs/tenant-reporting.md)', async () => {
    const outcomes = await t.db.selectFrom('tenant_reports').select(['outcome', sql<number>`count(*)::int`.as('n')]).groupBy('outcome').execute();
    const by = Object.fromEntries(outcomes.map((o) => [o.outcome, o.n]));
    expect(by.advice).toBeGreaterThan((by.job ?? 0) + (by.emergency ?? 0));
    expect(by.emergency).toBeGreaterThan(0);
    const answered = await t.db.selectFrom('job_surveys').select(sql<number>`count(*)::int`.as('n')).where('rating', 'is not', null).executeTakeFirstOrThrow();
    expect(answered.n).toBeGreaterThan(10);
    const recalls = await t.db.selectFrom('job_recalls as r').innerJoin('jobs as o', 'o.id', 'r.original_job_id').innerJoin('jobs as j', 'j.id', 'r.job_id')
      .select(['o.address_id as a', 'j.address_id as b', 'o.completed_at', 'j.created_at']).execute();
    expect(recalls.length).toBeGreaterThan(0);
    for (const r of recalls) {
      expect(r.a).toBe(r.b);
      expect(new Date(r.created_at).getTime()).toBeGreaterThan(new Date(r.completed_at!).getTime());
    }
    // The deflections reach the analytics through the API.
    const token = await login(t.app, 'admin@northwind.test', 'caretaker-demo');
    const res = await new Client(t.app, token).get('/api/analytics/deflections?from_date=2026-09-01&to_date=2026-11-21');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.reduce((n: number, r: { deflected: number }) => n + r.deflected, 0)).toBeGreaterThan(0);
  });

  it('has visits: windows waiting, one booked tomorrow, one missed by the contractor (docs/tenant-reporting.md)', async () => {
    const admin = new Client(t.app, await login(t.app, 'admin@northwind.test', 'caretaker-demo'));
    const uuidOf = async (jobId: number) => jobs.find((j) => j.id === jobId)!.uuid;
    const windowJob = await t.db.selectFrom('job_visit_windows').select('job_id').executeTakeFirstOrThrow();
    const waiting = (await admin.get(`/api/jobs/${await uuidOf(windowJob.job_id)}/visit`)).json().data;
    expect(waiting).toMatchObject({ status: 'Assigned', visit: null });
    expect(waiting.windows).toHaveLength(3);
    expect(waiting.free_slots.length).toBeGreaterThan(0);
    const booked = await t.db.selectFrom('job_visits').select('job_id').where('state', '=', 'booked').execute();
    expect(booked).toHaveLength(1);
    const plan = (await admin.get(`/api/jobs/${await uuidOf(booked[0]!.job_id)}/visit`)).json().data;
    // The test clock is Sat 21 Nov 2026: tomorrow is Sun 22 Nov.
    expect(plan).toMatchObject({ status: 'Scheduled', visit: { label: 'Sun 22 Nov 2026, 09:00-12:00', booked_by: 'contractor', reminder_sent_at: null } });
    const missed = await t.db.selectFrom('job_visits as v').innerJoin('contractors as c', 'c.id', 'v.contractor_id')
      .select(['v.job_id', 'v.missed_by', 'c.uuid']).where('v.state', '=', 'missed').execute();
    expect(missed).toEqual([expect.objectContaining({ missed_by: 'contractor' })]);
    const missedPlan = (await admin.get(`/api/jobs/${await uuidOf(missed[0]!.job_id)}/visit`)).json().data;
    // Thu 19 Nov 2026, the last working day before yesterday.
    expect(missedPlan.missed).toEqual([expect.objectContaining({ label: 'Thu 19 Nov 2026, 10:00-12:00', missed_by: 'contractor', note: expect.stringContaining('Van broke down') })]);
    const card = (await admin.get(`/api/contractors/${missed[0]!.uuid}/scorecard?from_date=2025-11-21&to_date=2026-11-21`)).json().data;
    expect(card.attendance.no_shows).toBe(1);
  });

  it('has planned maintenance schedules whose jobs are not due to be raised yet (docs/compliance.md "Demo data")', async () => {
    const token = await login(t.app, 'admin@northwind.test', 'caretaker-demo');
    const res = await new Client(t.app, token).get('/api/compliance/schedules');
    expect(res.statusCode, res.body).toBe(200);
    const schedules = res.json().data as Array<{ title: string; rrule: string; type: string | null; lead_days: number; contractor_name: string | null; next: Array<{ raise_on: string }> }>;
    expect(schedules.map((s) => [s.title, s.rrule, s.type]).sort()).toEqual([
      ['Annual boiler service', 'FREQ=YEARLY', null],
      ['Annual gas safety check', 'FREQ=YEARLY', 'gas_safety'],
      ['Electrical installation condition report (EICR)', 'FREQ=YEARLY;INTERVAL=5', 'eicr'],
    ]);
    for (const s of schedules) {
      expect(s.contractor_name, s.title).not.toBeNull();
      expect(s.next.length, s.title).toBe(3);
      expect(s.next[0]!.raise_on > '2026-11-21', s.title).toBe(true);
    }
    // Southbank has none; the scheduler raises no job on the demo's date.
    const southbank = await new Client(t.app, await login(t.app, 'admin@southbank.test', 'caretaker-demo')).get('/api/compliance/schedules');
    expect(southbank.json().count).toBe(0);
    expect(await raiseDueMaintenance(t.deps)).toBe(0);
  });

  it('does nothing on a second call', async () => {
    const before = await count('jobs');
    const again = await loadDemoIfEmpty(t.db, t.config, t.clock.now());
    expect(again).toEqual({ loaded: false });
    expect(await count('jobs')).toBe(before);
    expect(await count('agencies')).toBe(2);
  });
});
