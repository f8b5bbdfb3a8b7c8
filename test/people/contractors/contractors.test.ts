import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { tradeId } from './helpers.ts';

describe('contractors: CRUD, trades, coverage', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let acme: { uuid: string };
  let plumbing: number;
  let gas: number;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    plumbing = await tradeId(t.db, 'plumbing');
    gas = await tradeId(t.db, 'gas');
  });
  afterAll(async () => t?.close());

  it('creates a contractor with contacts, trades and normalised coverage', async () => {
    const res = await w.agentA1.client.post('/api/contractors', {
      company_name: 'Acme Plumbing Ltd', contact_name: 'Dave Fletcher', email: 'Office@Acme.test', phone: '0113 496 0500',
      trade_ids: [plumbing, gas], coverage: ['ls6', 'LS7', 'ls6'],
      contacts: [{ name: 'Jo Acme', role: 'Scheduler', email: 'jo@acme.test', is_primary: true }, { name: 'Out of hours', phone: '07700 900999' }],
    });
    expect(res.statusCode).toBe(201);
    const d = res.json().data;
    acme = d;
    expect(d).toMatchObject({ company_name: 'Acme Plumbing Ltd', email: 'office@acme.test', active: true, coverage: ['LS6', 'LS7'], has_login: false, certifications: [] });
    expect(d.trades.map((x: { code: string }) => x.code).sort()).toEqual(['gas', 'plumbing']);
    expect(d.contacts.map((c: { name: string; is_primary: boolean }) => [c.name, c.is_primary])).toEqual([['Jo Acme', true], ['Out of hours', false]]);
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'contractor.create').execute();
    expect(log).toHaveLength(1);
  });

  it('refuses bad input without writing', async () => {
    const count = async () => Number((await t.db.selectFrom('contractors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'company_name'],
      [{ company_name: ' ' }, 'company_name'],
      [{ company_name: 'X', trade_ids: [99999] }, 'trade_ids'],
      [{ company_name: 'X', coverage: ['LS6 3HN'] }, 'coverage'],
      [{ company_name: 'X', coverage: ['123'] }, 'coverage'],
      [{ company_name: 'X', email: 'nope' }, 'email'],
      [{ company_name: 'X', contacts: [{ role: 'no name' }] }, 'contacts.0.name'],
    ];
    for (const [body, name] of cases) {
      const res = await w.adminA.client.post('/api/contractors', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe(`Invalid or missing required parameter: ${name}`);
    }
    expect(await count()).toBe(before);
  });

  it('lists with search, trade and district filters; another agency sees none', async () => {
    await w.adminA.client.post('/api/contractors', { company_name: 'Bright Sparks Electrical', trade_ids: [await tradeId(t.db, 'electrical')], coverage: ['YO1'] });
    await w.adminA.client.post('/api/contractors', { company_name: 'Dormant Builders', active: false });
    const all = await w.agentA1.client.get('/api/contractors');
    expect(all.json().count).toBe(3);
    expect(all.json().data.map((c: { company_name: string }) => c.company_name)).toEqual(['Acme Plumbing Ltd', 'Bright Sparks Electrical', 'Dormant Builders']);
    expect((await w.agentA1.client.get('/api/contractors?q=dave')).json().data.map((c: { company_name: string }) => c.company_name)).toEqual(['Acme Plumbing Ltd']);
    expect((await w.agentA1.client.get('/api/contractors?trade=electrical')).json().count).toBe(1);
    expect((await w.agentA1.client.get('/api/contractors?district=ls6')).json().data[0].company_name).toBe('Acme Plumbing Ltd');
    expect((await w.agentA1.client.get('/api/contractors?active=false')).json().data.map((c: { company_name: string }) => c.company_name)).toEqual(['Dormant Builders']);
    expect((await w.agentA1.client.get('/api/contractors?district=999')).statusCode).toBe(400);
    expect((await w.agentA1.client.get('/api/contractors?limit=1&offset=2')).json()).toMatchObject({ count: 3, data: [{ company_name: 'Dormant Builders' }] });
    expect((await w.adminB.client.get('/api/contractors')).json().count).toBe(0);
  });

  it('sorts by sort and order across pages (id breaks ties, no contact name last); a bad value is a 400', async () => {
    const names = async (qs: string) => {
      const res = await w.agentA1.client.get(`/api/contractors?${qs}`);
      expect(res.statusCode, qs).toBe(200);
      return res.json().data.map((c: { company_name: string }) => c.company_name) as string[];
    };
    const acme = 'Acme Plumbing Ltd';
    const bright = 'Bright Sparks Electrical';
    const dormant = 'Dormant Builders';
    expect(await names('sort=company_name&order=asc')).toEqual(await names(''));
    expect(await names('sort=company_name&order=desc')).toEqual([dormant, bright, acme]);
    expect(await names('order=desc')).toEqual([dormant, bright, acme]);
    expect(await names('sort=active&order=asc')).toEqual([dormant, acme, bright]);
    expect(await names('sort=active&order=desc')).toEqual([bright, acme, dormant]);
    expect(await names('sort=contact_name&order=asc')).toEqual([acme, bright, dormant]);
    expect(await names('sort=contact_name&order=desc')).toEqual([acme, dormant, bright]);
    const paged = [];
    for (const offset of [0, 1, 2]) paged.push(...(await names(`sort=active&order=desc&limit=1&offset=${offset}`)));
    expect(paged).toEqual([bright, acme, dormant]);
    for (const qs of ['sort=notes', 'sort=id', 'order=sideways']) {
      const res = await w.agentA1.client.get(`/api/contractors?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: `Invalid or missing required parameter: ${qs.split('=')[0]}` });
    }
  });

  it('reads and updates one contractor; 404 for another agency', async () => {
    expect((await w.agentA1.client.get(`/api/contractors/${acme.uuid}`)).json().data.company_name).toBe('Acme Plumbing Ltd');
    const other = await w.adminB.client.get(`/api/contractors/${acme.uuid}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Contractor not found');
    const upd = await w.agentA1.client.put(`/api/contractors/${acme.uuid}`, { phone: null, notes: 'Good on boilers', contacts: [{ name: 'Sam New' }] });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().data).toMatchObject({ phone: null, notes: 'Good on boilers', contacts: [{ name: 'Sam New', is_primary: false }], company_name: 'Acme Plumbing Ltd' });
    expect((await w.adminB.client.put(`/api/contractors/${acme.uuid}`, { notes: 'x' })).statusCode).toBe(404);
    expect((await w.agentA1.client.put(`/api/contractors/${acme.uuid}`, { company_name: '' })).statusCode).toBe(400);
  });

  it('replaces trades (live, visible trades only) and coverage (valid districts only)', async () => {
    const carpentry = await tradeId(t.db, 'carpentry');
    const res = await w.agentA1.client.put(`/api/contractors/${acme.uuid}/trades`, { trade_ids: [carpentry] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.trades.map((x: { code: string }) => x.code)).toEqual(['carpentry']);
    expect((await w.agentA1.client.put(`/api/contractors/${acme.uuid}/trades`, { trade_ids: [123456] })).json().error).toBe('Invalid or missing required parameter: trade_ids');
    expect((await w.agentA1.client.put(`/api/contractors/${acme.uuid}/trades`, {})).statusCode).toBe(400);
    expect((await w.adminB.client.put(`/api/contractors/${acme.uuid}/trades`, { trade_ids: [carpentry] })).statusCode).toBe(404);

    const cov = await w.agentA1.client.put(`/api/contractors/${acme.uuid}/coverage`, { districts: ['ls6', ' yo1 ', 'SW1A', 'EC1'] });
    expect(cov.statusCode).toBe(200);
    expect(cov.json().data.coverage).toEqual(['EC1', 'LS6', 'SW1A', 'YO1']);
    for (const bad of ['LS6 3HN', 'L', '66', 'LS6X9']) {
      const r = await w.agentA1.client.put(`/api/contractors/${acme.uuid}/coverage`, { districts: ['LS7', bad] });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error).toBe('Invalid or missing required parameter: districts');
    }
    const stored = await t.db.selectFrom('contractor_coverage').select('district').innerJoin('contractors', 'contractors.id', 'contractor_coverage.contractor_id')
      .where('contractors.uuid', '=', acme.uuid).orderBy('district').execute();
    expect(stored.map((s) => s.district)).toEqual(['EC1', 'LS6', 'SW1A', 'YO1']);
    expect((await w.adminB.client.put(`/api/contractors/${acme.uuid}/coverage`, { districts: ['LS6'] })).statusCode).toBe(404);
  });

  it('needs the permissions and CSRF tokens', async () => {
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    for (const [method, url] of [['GET', '/api/contractors'], ['GET', `/api/contractors/${acme.uuid}`], ['GET', '/api/contractors/trades']] as const) {
      expect((await tenant.client.get(url)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await tenant.client.post('/api/contractors', { company_name: 'x' })).statusCode).toBe(403);
    expect((await tenant.client.put(`/api/contractors/${acme.uuid}/coverage`, { districts: [] })).statusCode).toBe(403);
    expect((await w.adminA.client.post('/api/contractors', { company_name: 'x' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.adminA.client.put(`/api/contractors/${acme.uuid}`, { notes: 'x' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.adminA.client.put(`/api/contractors/${acme.uuid}/trades`, { trade_ids: [] }, { csrf: false })).statusCode).toBe(403);
    expect((await w.adminA.client.put(`/api/contractors/${acme.uuid}/coverage`, { districts: [] }, { csrf: false })).statusCode).toBe(403);
  });
});

describe('trades: the managed list', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('lists the seeded platform trades with their required certificates', async () => {
    const res = await w.agentA1.client.get('/api/contractors/trades');
    expect(res.statusCode).toBe(200);
    const codes = res.json().data.map((x: { code: string }) => x.code);
    for (const c of ['plumbing', 'electrical', 'gas', 'heating', 'roofing', 'carpentry', 'glazing', 'locksmith', 'drainage', 'pest_control', 'cleaning', 'general_maintenance', 'oil_heating']) {
      expect(codes).toContain(c);
    }
    const byCode = Object.fromEntries(res.json().data.map((x: { code: string }) => [x.code, x]));
    expect(byCode.gas).toMatchObject({ scope: 'platform', required_certificates: ['gas_safe'], retired_at: null });
    expect(byCode.electrical.required_certificates).toEqual(['niceic', 'napit']);
    expect(byCode.glazing.required_certificates).toEqual(['fensa']);
    expect(byCode.plumbing.required_certificates).toEqual([]);
    expect(res.json().count).toBe(res.json().data.length);
  });

  it('an admin creates, renames, retires and restores an agency trade; other agencies never see it', async () => {
    const created = await w.adminA.client.post('/api/contractors/trades', { name: 'Solar panels' });
    expect(created.statusCode).toBe(201);
    const trade = created.json().data;
    expect(trade).toMatchObject({ code: 'solar_panels', name: 'Solar panels', scope: 'agency' });
    expect((await w.adminA.client.post('/api/contractors/trades', { name: 'SOLAR PANELS' })).statusCode).toBe(409);
    expect((await w.adminA.client.post('/api/contractors/trades', { name: 'Plumbing' })).statusCode).toBe(409);
    expect((await w.adminA.client.post('/api/contractors/trades', { name: 'X', code: 'Bad Code' })).statusCode).toBe(400);
    expect((await w.adminB.client.get('/api/contractors/trades')).json().data.map((x: { code: string }) => x.code)).not.toContain('solar_panels');
    expect((await w.adminB.client.put(`/api/contractors/trades/${trade.ID}`, { name: 'Mine' })).statusCode).toBe(404);

    const renamed = await w.adminA.client.put(`/api/contractors/trades/${trade.ID}`, { name: 'Solar PV' });
    expect(renamed.json().data).toMatchObject({ name: 'Solar PV', code: 'solar_panels' });
    const retired = await w.adminA.client.put(`/api/contractors/trades/${trade.ID}`, { retired: true });
    expect(retired.json().data.retired_at).toBe(t.clock.now().toISOString());
    expect((await w.agentA1.client.get('/api/contractors/trades')).json().data.map((x: { code: string }) => x.code)).not.toContain('solar_panels');
    expect((await w.agentA1.client.get('/api/contractors/trades?include_retired=true')).json().data.map((x: { code: string }) => x.code)).toContain('solar_panels');
    // A retired trade cannot be given to a contractor.
    const c = await w.adminA.client.post('/api/contractors', { company_name: 'Sunny Ltd', trade_ids: [trade.ID] });
    expect(c.statusCode).toBe(400);
    const restored = await w.adminA.client.put(`/api/contractors/trades/${trade.ID}`, { retired: false });
    expect(restored.json().data.retired_at).toBeNull();
    expect((await w.adminA.client.post('/api/contractors', { company_name: 'Sunny Ltd', trade_ids: [trade.ID] })).statusCode).toBe(201);
    const actions = (await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'trade').orderBy('id').execute()).map((r) => r.action);
    expect(actions).toEqual(['trade.create', 'trade.update', 'trade.retire', 'trade.restore']);
  });

  it('platform trades are renamed or retired by SysOps only', async () => {
    const gas = await tradeId(t.db, 'decorating');
    const res = await w.adminA.client.put(`/api/contractors/trades/${gas}`, { name: 'Painting' });
    expect(res.statusCode).toBe(403);
    const ok = await w.sysops.client.put(`/api/contractors/trades/${gas}`, { name: 'Decorating and painting' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.name).toBe('Decorating and painting');
    expect((await w.sysops.client.post('/api/contractors/trades', { name: 'Asbestos survey' })).json().data.scope).toBe('platform');
    expect((await w.adminB.client.get('/api/contractors/trades')).json().data.map((x: { code: string }) => x.code)).toContain('asbestos_survey');
    expect((await w.sysops.client.put('/api/contractors/trades/999999', { name: 'x' })).statusCode).toBe(404);
  });

  it('agents and API accounts cannot manage trades; writes need CSRF', async () => {
    expect((await w.agentA1.client.post('/api/contractors/trades', { name: 'Agent trade' })).statusCode).toBe(403);
    const api = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await api.client.post('/api/contractors/trades', { name: 'API trade' })).statusCode).toBe(403);
    expect((await w.adminA.client.post('/api/contractors/trades', { name: 'No csrf' }, { csrf: false })).statusCode).toBe(403);
    const own = (await w.adminA.client.post('/api/contractors/trades', { name: 'Chimney sweeping' })).json().data;
    expect((await w.adminA.client.put(`/api/contractors/trades/${own.ID}`, { name: 'Sweeping' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.agentA1.client.put(`/api/contractors/trades/${own.ID}`, { name: 'Sweeping' })).statusCode).toBe(403);
    expect((await w.adminA.client.put(`/api/contractors/trades/${own.ID}`, { name: '' })).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/contractors/trades')).json().data.find((x: { ID: number }) => x.ID === own.ID).name).toBe('Chimney sweeping');
    expect((await api.client.get('/api/contractors/trades')).statusCode).toBe(200);
  });
});
