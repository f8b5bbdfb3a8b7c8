/**
 * GET /api/search: finds by typo, by postcode without its space and by reference; ranks and
 * highlights safely; never returns nor counts a record of another agency or an unshared branch.
 * Invoices (fixture-sla-money.ts) by number, contractor reference, job reference, contractor name
 * and address, within the money scope.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_JOB_CANDIDATES } from '../../src/modules/insight/search/search.repository.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { addJob, insightWorld } from './fixture.ts';
import { addSlaAndMoney } from './fixture-sla-money.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof insightWorld>>;
let scriptJob: { uuid: string; reference: string };
let m: Awaited<ReturnType<typeof addSlaAndMoney>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await insightWorld(t);
  await addJob(t.db, { agencyId: w.agencyB.id, branchId: w.b1.id, statusId: 1, priority: 3, title: 'Boiler service', createdAt: '2026-11-20T09:00:00Z' });
  m = await addSlaAndMoney(t.db, w);
  scriptJob = await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a2.id, statusId: 1, priority: 3, title: '<script>alert(1)</script> Shower leaking', createdAt: '2026-11-20T09:00:00Z' });
});
afterAll(async () => t.close());

const find = async (client: { get(u: string): Promise<any> }, q: string, extra = '') => {
  const res = await client.get(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { count: number; data: Array<{ type: string; uuid: string; title: string; subtitle: string | null; snippet: string; score: number; url: string }> };
};

describe('GET /api/search', () => {
  it('finds jobs by a typo in the title and highlights the word', async () => {
    const r = await find(w.adminA.client, 'boilr');
    const jobs = r.data.filter((h) => h.type === 'job');
    expect(jobs.map((h) => h.uuid).sort()).toEqual([w.job.uuid, w.j1.uuid].sort());
    expect(jobs[0]!.snippet).toContain('<mark>Boiler</mark>');
    expect(jobs[0]!.url).toBe(`/api/jobs/${jobs[0]!.uuid}`);
  });

  it('finds the address and its jobs by a postcode typed without the space, exact postcode ranked first', async () => {
    const r = await find(w.adminA.client, 'ls62ab', '&types=address,job');
    expect(r.data[0]).toMatchObject({ type: 'address', uuid: w.address.uuid, subtitle: 'LS6 2AB' });
    expect(r.data[0]!.snippet).toBe('Postcode: <mark>LS6</mark> <mark>2AB</mark>');
    const jobs = r.data.filter((h) => h.type === 'job').map((h) => h.uuid).sort();
    expect(jobs).toEqual([w.job.uuid, w.j1.uuid, w.j2.uuid, w.j3.uuid, w.j4.uuid].sort());
    expect(r.count).toBe(6);
    const spaced = await find(w.adminA.client, 'LS6 2AB', '&types=address');
    expect(spaced.data.map((h) => h.uuid)).toEqual([w.address.uuid]);
  });

  it('puts the job whose reference is typed first', async () => {
    const r = await find(w.adminA.client, w.j5.reference);
    expect(r.data[0]).toMatchObject({ type: 'job', uuid: w.j5.uuid, score: 2 });
  });

  it('puts a job whose title is the query first, and the newest first among equal matches', async () => {
    const older = await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: 1, priority: 3, title: 'Kitchen tap leaking under the sink', createdAt: '2026-11-18T09:00:00Z' });
    const exact = await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: 1, priority: 3, title: 'Kitchen tap leaking', createdAt: '2026-11-21T09:00:00Z' });
    const r = await find(w.adminA.client, 'kitchen tap leaking', '&types=job');
    expect(r.data[0]).toMatchObject({ uuid: exact.uuid, score: 1.8 });
    expect(r.data.map((h) => h.uuid)).toContain(older.uuid);
  });

  it('finds tenants, contractors and users of the caller agency by name with a typo', async () => {
    expect((await find(w.adminA.client, 'Emily Clarkk', '&types=tenant')).data.map((h) => h.title)).toEqual(['Emily Clarke']);
    expect((await find(w.adminA.client, 'Fletcher Plumbng', '&types=contractor')).data.map((h) => h.title)).toEqual(['Fletcher Plumbing']);
    expect((await find(w.adminA.client, 'Dave Fletcher', '&types=user')).data.map((h) => h.title)).toEqual(['Dave Fletcher']);
  });

  it("never returns nor counts another agency's or an unshared branch's records", async () => {
    const b = await find(w.adminB.client, 'boiler');
    expect(b.data.map((h) => h.title)).toEqual([expect.stringContaining('Boiler service')]);
    expect(b.count).toBe(1);
    expect((await find(w.adminB.client, 'Emily Clarke')).count).toBe(0);
    expect((await find(w.adminB.client, 'ls62ab')).count).toBe(0);
    const a2 = await find(w.agentA2.client, 'boiler');
    expect(a2.data.filter((h) => h.type === 'job')).toEqual([]);
    const all = await find(w.sysops.client, 'boiler', '&types=job');
    expect(all.count).toBe(3);
  });

  it('lets a contractor find only its own jobs and no people or addresses', async () => {
    const r = await find(w.contractor.client, 'boiler');
    expect(r.data.map((h) => [h.type, h.uuid])).toEqual([['job', w.job.uuid]]);
    expect(r.count).toBe(1);
    expect((await find(w.contractor.client, 'Emily', '&types=tenant,user,address')).count).toBe(0);
    const tenant = await find(w.tenant.client, 'boiler');
    expect(tenant.data.map((h) => h.uuid).sort()).toEqual([w.job.uuid, w.j1.uuid].sort());
  });

  it('escapes stored markup in snippets', async () => {
    const r = await find(w.adminA.client, 'shower', '&types=job');
    expect(r.data.map((h) => h.uuid)).toEqual([scriptJob.uuid]);
    expect(r.data[0]!.snippet).toBe('Title: &lt;script&gt;alert(1)&lt;/script&gt; <mark>Shower</mark> leaking');
  });

  it('pages the hits and refuses bad input with 400', async () => {
    const page = await find(w.adminA.client, 'ls62ab', '&types=job&limit=2&offset=1');
    expect(page.data).toHaveLength(2);
    expect(page.count).toBe(5);
    for (const bad of ['q=%21%21%21', `q=${'a'.repeat(201)}`, 'q=boiler&types=job,planet', 'q=boiler&limit=0', 'q=boiler&limit=51', 'q=']) {
      const res = await w.adminA.client.get(`/api/search?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('ranks only the newest 2,000 matching jobs: a word in more jobs than that is counted as 2,000 with X-Count-Capped', async () => {
    // 2,003 jobs of agency B with the word "guttering", one statement (set-based); the newest made last.
    await sql`insert into jobs (uuid, agency_id, branch_id, reference, title, description, priority, status_id, job_type_id, created_at, updated_at)
      select gen_random_uuid(), ${w.agencyB.id}, ${w.b1.id}, 'GUT-' || lpad(g::text, 5, '0'), 'Guttering blocked ' || g, '', 3, 1, 1,
             timestamptz '2026-01-01T09:00:00Z' + g * interval '1 minute', timestamptz '2026-01-01T09:00:00Z' + g * interval '1 minute'
      from generate_series(1, ${SEARCH_JOB_CANDIDATES + 3}) g`.execute(t.db);
    const res = await w.adminB.client.get('/api/search?q=guttering&types=job&limit=5');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-count-capped']).toBe('true');
    const body = res.json() as { count: number; data: Array<{ title: string }> };
    expect(body.count).toBe(SEARCH_JOB_CANDIDATES);
    // Equal ranks: the newest first.
    expect(body.data.map((h) => h.title)).toEqual([2003, 2002, 2001, 2000, 1999].map((g) => `GUT-0${g} Guttering blocked ${g}`));
    // Under the cap the count is exact and nothing is flagged.
    const few = await w.adminB.client.get('/api/search?q=boiler&types=job');
    expect(few.headers['x-count-capped']).toBeUndefined();
    expect((few.json() as { count: number }).count).toBeGreaterThan(0);
  });

  describe('buildings, flats, tenants by postcode, landlords', () => {
    let block: { uuid: string };
    let flat3: { uuid: string };
    let tenantUuid: string;
    let landlordUuid: string;

    beforeAll(async () => {
      const admin = w.adminA.client as unknown as { post(u: string, b: unknown): Promise<any> };
      const b = await admin.post('/api/buildings', { building_name: 'Aire Court', building_number: '21', street: 'The Calls', town: 'Leeds', postcode: 'LS1 7BN' });
      expect(b.statusCode, b.body).toBe(201);
      block = b.json().data;
      for (const n of [1, 2, 3, 13]) {
        const f = await admin.post('/api/addresses', { building_uuid: block.uuid, sub_building: `Flat ${n}` });
        expect(f.statusCode, f.body).toBe(201);
        if (n === 3) flat3 = f.json().data;
      }
      const flat3Id = (await sql<{ id: number }>`select id from addresses where uuid = ${flat3.uuid}`.execute(t.db)).rows[0]!.id;
      tenantUuid = crypto.randomUUID();
      const te = await sql<{ id: number }>`insert into tenants (uuid, agency_id, name, email, created_at, updated_at)
        values (${tenantUuid}, ${w.agencyA.id}, 'Priya Raman', 'priya@example.test', now(), now()) returning id`.execute(t.db);
      await sql`insert into tenant_addresses (tenant_id, address_id, created_at) values (${te.rows[0]!.id}, ${flat3Id}, now())`.execute(t.db);
      const l = await admin.post('/api/landlords', { kind: 'person', name: 'Margaret Oyelaran', email: 'margaret@example.test' });
      expect(l.statusCode, l.body).toBe(201);
      landlordUuid = l.json().data.uuid;
    });

    it('matches addresses, buildings and e-mails on the expressions their trigram indexes are built on', async () => {
      // With sequential scans priced out, each predicate the search uses must be answerable from its
      // index (migration 2026_12_06_1900): a call that drifts from the index expression falls back to
      // a scan of the agency's rows and this plan names no index.
      const plans: Record<string, string> = {
        addresses_text_trgm: `select 1 from addresses a where 'aire court' <% caretaker_address_text(a.sub_building, a.building_name, a.line1, a.line2, a.line3, a.town)`,
        buildings_text_trgm: `select 1 from buildings bd where 'aire' <% caretaker_building_text(bd.building_name, bd.building_number, bd.street, bd.locality, bd.town)`,
        tenants_email_trgm: `select 1 from tenants te where te.email ilike '%priya%'`,
      };
      await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        for (const [index, query] of Object.entries(plans)) {
          const plan = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(query)}`.execute(trx);
          expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), index).toContain(index);
        }
      });
    });

    it('finds a building by its name, with the snippet naming the field', async () => {
      const r = await find(w.adminA.client, 'aire court', '&types=building');
      expect(r.data).toHaveLength(1);
      expect(r.data[0]).toMatchObject({ type: 'building', uuid: block.uuid, title: 'Aire Court, Leeds', subtitle: 'LS1 7BN', url: `/api/buildings/${block.uuid}` });
      expect(r.data[0]!.snippet).toBe('Building: <mark>Aire</mark> <mark>Court</mark>');
      // The building's flats are addresses found by the building name too.
      expect((await find(w.adminA.client, 'aire court', '&types=address')).count).toBe(4);
      // Agency B sees nothing of agency A's block.
      expect((await find(w.adminB.client, 'aire court')).count).toBe(0);
    });

    it('finds a flat by its flat and building, the exact flat first', async () => {
      const r = await find(w.adminA.client, 'Flat 3, Aire Court', '&types=address');
      expect(r.data[0]).toMatchObject({ type: 'address', uuid: flat3.uuid });
      expect(r.data[0]!.snippet).toBe('Flat: <mark>Flat</mark> <mark>3</mark>');
    });

    it('finds a tenant by the postcode they live at, the snippet showing the address', async () => {
      const r = await find(w.adminA.client, 'ls17bn', '&types=tenant');
      expect(r.data.map((h) => h.uuid)).toEqual([tenantUuid]);
      expect(r.data[0]).toMatchObject({ title: 'Priya Raman', subtitle: 'priya@example.test', score: 1.5 });
      expect(r.data[0]!.snippet).toBe('Lives at: Flat 3, Aire Court, Leeds <mark>LS1</mark> <mark>7BN</mark>');
      expect((await find(w.adminB.client, 'ls17bn', '&types=tenant')).count).toBe(0);
      // Without tenant permission nothing is returned nor counted.
      expect((await find(w.contractor.client, 'ls17bn', '&types=tenant')).count).toBe(0);
    });

    it('finds a landlord by name with a typo', async () => {
      const r = await find(w.adminA.client, 'Margret Oyelaran', '&types=landlord');
      expect(r.data.map((h) => h.uuid)).toEqual([landlordUuid]);
      expect(r.data[0]).toMatchObject({ type: 'landlord', title: 'Margaret Oyelaran', subtitle: 'Landlord', url: `/api/landlords/${landlordUuid}` });
      expect(r.data[0]!.snippet).toBe('Name: <mark>Margaret</mark> <mark>Oyelaran</mark>');
      expect((await find(w.adminB.client, 'Margaret Oyelaran')).count).toBe(0);
      expect((await find(w.contractor.client, 'Margaret Oyelaran', '&types=landlord')).count).toBe(0);
    });

    it('does not repeat the subtitle: a job found by postcode shows the postcode field', async () => {
      const r = await find(w.adminA.client, 'ls62ab', '&types=job');
      for (const h of r.data) expect(h.snippet).toBe('Postcode: <mark>LS6</mark> <mark>2AB</mark>');
    });
  });

  describe('invoices', () => {
    const uuids = (r: { data: Array<{ uuid: string }> }) => r.data.map((h) => h.uuid).sort();

    it('finds an invoice by its number, typed whole, short or as digits, and a credit note apart', async () => {
      const r = await find(w.adminA.client, 'INV-000001', '&types=invoice');
      expect(r.count).toBe(1);
      expect(r.data[0]).toMatchObject({ type: 'invoice', uuid: m.inv1.uuid, title: 'INV-000001 Fletcher Plumbing', score: 2, url: `/api/invoices/${m.inv1.uuid}` });
      expect(r.data[0]!.snippet).toBe('Number: <mark>INV</mark>-<mark>000001</mark>');
      expect(r.data[0]!.subtitle).toBe(`Issued · ${w.job.reference} · 12 Acacia Avenue, Leeds LS6 2AB`);
      expect(uuids(await find(w.adminA.client, 'inv 3', '&types=invoice'))).toEqual([m.inv3.uuid]);
      expect(uuids(await find(w.adminA.client, 'CN-000001', '&types=invoice'))).toEqual([m.cn1.uuid]);
      expect(uuids(await find(w.adminA.client, '1', '&types=invoice'))).toEqual([m.inv1.uuid, m.cn1.uuid].sort());
    });

    it('lists the numbered invoices, or credit notes, for the prefix alone', async () => {
      const inv = await find(w.adminA.client, 'INV', '&types=invoice');
      expect(inv.count).toBeGreaterThan(1);
      expect(inv.data.every((h) => h.title.startsWith('INV-') && h.score === 0.5)).toBe(true);
      expect(inv.data.map((h) => h.uuid)).toContain(m.inv1.uuid);
      expect(inv.data.map((h) => h.uuid)).not.toContain(m.draft.uuid);
      expect(uuids(await find(w.adminA.client, 'cn', '&types=invoice'))).toEqual([m.cn1.uuid]);
    });

    it("finds by the contractor's reference, the job's reference, the contractor's name with a typo and the address", async () => {
      expect(uuids(await find(w.adminA.client, 'FP-7731', '&types=invoice'))).toEqual([m.inv1.uuid]);
      const byJob = await find(w.adminA.client, w.j5.reference, '&types=invoice');
      expect(uuids(byJob)).toEqual([m.inv2.uuid, m.inv4.uuid, m.draft.uuid, m.inv6.uuid].sort());
      expect(byJob.data.find((h) => h.uuid === m.draft.uuid)!.title).toBe('Draft invoice Fletcher Plumbing');
      const byName = await find(w.adminA.client, 'Fletcher Plumbng', '&types=invoice');
      expect(uuids(byName)).toEqual([m.inv1.uuid, m.inv2.uuid, m.inv4.uuid, m.draft.uuid, m.inv6.uuid].sort());
      expect(byName.count).toBe(5);
      const byPostcode = await find(w.adminA.client, 'ls62ab', '&types=invoice');
      expect(uuids(byPostcode)).toEqual([m.inv1.uuid]);
      expect(byPostcode.data[0]!.snippet).toContain('<mark>LS6</mark> <mark>2AB</mark>');
    });

    it("never returns nor counts another agency's, another branch's or another contractor's invoice", async () => {
      // Agency B has its own INV-000001, a contractor also called Fletcher Plumbing and the same reference FP-7731.
      expect(uuids(await find(w.adminB.client, 'INV-000001'))).toEqual([m.invB.uuid]);
      const bRef = await find(w.adminB.client, 'FP-7731');
      expect(uuids(bRef)).toEqual([m.invB.uuid]);
      expect(bRef.count).toBe(1);
      expect((await find(w.adminB.client, 'Fletcher Plumbng', '&types=invoice')).count).toBe(1);
      expect(uuids(await find(w.sysops.client, 'FP-7731', '&types=invoice'))).toEqual([m.inv1.uuid, m.invB.uuid].sort());
      // Agent of A2: the invoices of A2's job j5 only (INV-000003 and INV-000005 are of j6, also A2, but another contractor).
      expect(uuids(await find(w.agentA2.client, 'Fletcher Plumbng', '&types=invoice'))).toEqual([m.inv2.uuid, m.inv4.uuid, m.draft.uuid, m.inv6.uuid].sort());
      expect((await find(w.agentA2.client, 'INV-000001', '&types=invoice')).count).toBe(0);
      // A contractor: its own invoices only.
      expect(uuids(await find(w.contractor.client, 'FP-7731'))).toEqual([m.inv1.uuid]);
      expect((await find(w.contractor.client, 'INV-000003')).count).toBe(0);
      expect(uuids(await find(w.otherContractor.client, 'INV-000003'))).toEqual([m.inv3.uuid]);
      expect((await find(w.otherContractor.client, 'Fletcher Plumbng', '&types=invoice')).count).toBe(0);
      // A tenant holds no invoice permission: nothing, not even counted.
      const tenant = await find(w.tenant.client, 'INV-000001', '&types=invoice');
      expect(tenant).toMatchObject({ count: 0, data: [] });
    });
  });
});
