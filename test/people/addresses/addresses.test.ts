import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

describe('addresses: create, search, read, update', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  const body = { line1: '12 Headingley Lane', town: 'Leeds', county: 'West Yorkshire', postcode: 'ls6 3hn' };

  it('creates an address with a normalised postcode and exposes ID beside uuid', async () => {
    const res = await w.agentA1.client.post('/api/addresses', { ...body, latitude: 53.82, longitude: -1.57, branch_uuid: w.a1.uuid });
    expect(res.statusCode).toBe(201);
    const a = res.json().data;
    expect(a.postcode).toBe('LS6 3HN');
    expect(Number.isInteger(a.ID)).toBe(true);
    expect(a.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.branch_name).toBe('A1');
    const row = await t.db.selectFrom('addresses').selectAll().where('uuid', '=', a.uuid).executeTakeFirstOrThrow();
    expect(row.postcode).toBe('LS6 3HN');
    expect(row.id).toBe(a.ID);
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'address.create').where('resource_id', '=', a.ID).execute();
    expect(log).toHaveLength(1);
  });

  it('normalises every spelling of a postcode and refuses invalid ones without writing', async () => {
    for (const [input, expected] of [['LS63HN', 'LS6 3HN'], [' yo1 7hh ', 'YO1 7HH'], ['sw1a1aa', 'SW1A 1AA'], ['ec1a 1bb', 'EC1A 1BB']] as const) {
      const res = await w.adminA.client.post('/api/addresses', { line1: `Flat ${input}`, town: 'Somewhere', postcode: input });
      expect(res.statusCode, input).toBe(201);
      expect(res.json().data.postcode).toBe(expected);
    }
    const before = await t.db.selectFrom('addresses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const bad of ['LS6', '12345', 'LS6 3HNN', 'QQ1 1AA', 'hello']) {
      const res = await w.adminA.client.post('/api/addresses', { line1: '1 Bad Street', town: 'Leeds', postcode: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
      expect(res.json().error).toMatch(/^Invalid or missing required parameter: postcode \(/);
    }
    const after = await t.db.selectFrom('addresses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('validates coordinates and required fields', async () => {
    expect((await w.adminA.client.post('/api/addresses', { ...body, line1: 'x1', latitude: 91, longitude: 0 })).json().error).toBe('Invalid or missing required parameter: latitude');
    expect((await w.adminA.client.post('/api/addresses', { ...body, line1: 'x2', longitude: -200, latitude: 1 })).json().error).toBe('Invalid or missing required parameter: longitude');
    expect((await w.adminA.client.post('/api/addresses', { ...body, line1: 'x3', latitude: 53.1 })).json().error).toBe('Invalid or missing required parameter: longitude');
    expect((await w.adminA.client.post('/api/addresses', { town: 'Leeds', postcode: 'LS6 3HN' })).json().error).toBe('Invalid or missing required parameter: line1');
    expect((await w.adminA.client.post('/api/addresses', { ...body, line1: 'x4', agency_id: 99 })).statusCode).toBe(201);
  });

  it('refuses a duplicate whole address (409) and a branch of another agency (404)', async () => {
    const dup = await w.adminA.client.post('/api/addresses', { ...body, line1: '12 HEADINGLEY LANE', postcode: 'LS63HN' });
    expect(dup.statusCode).toBe(409);
    const other = await w.adminA.client.post('/api/addresses', { ...body, line1: '99 Other Road', branch_uuid: w.b1.uuid });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Branch not found');
  });

  it('searches by q (line1, town) and by postcode prefix, case- and space-insensitively, with pagination', async () => {
    const byQ = await w.agentA1.client.get('/api/addresses?q=headingley');
    expect(byQ.statusCode).toBe(200);
    expect(byQ.json().count).toBe(1);
    const byTown = await w.agentA1.client.get('/api/addresses?q=somewhere');
    expect(byTown.json().count).toBe(4);
    for (const p of ['ls6', 'LS6 3', 'ls63h', 'LS6%203HN']) {
      const res = await w.agentA1.client.get(`/api/addresses?postcode=${p}`);
      expect(res.json().data.every((a: { postcode: string }) => a.postcode.startsWith('LS6 3')), p).toBe(true);
      expect(res.json().count, p).toBeGreaterThanOrEqual(2);
    }
    const page = await w.agentA1.client.get('/api/addresses?limit=2&offset=1');
    expect(page.json().data).toHaveLength(2);
    expect(page.json().count).toBeGreaterThanOrEqual(6);
    expect((await w.agentA1.client.get('/api/addresses?limit=0')).statusCode).toBe(400);
    expect((await w.agentA1.client.get('/api/addresses?bogus=1')).statusCode).toBe(400);
    const theirs = await w.adminB.client.get('/api/addresses');
    expect(theirs.json().count).toBe(0);
  });

  it('reads and updates one address; another agency gets 404', async () => {
    const list = await w.adminA.client.get('/api/addresses?q=headingley');
    const a = list.json().data[0];
    const read = await w.agentA1.client.get(`/api/addresses/${a.uuid}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.ID).toBe(a.ID);
    expect((await w.adminB.client.get(`/api/addresses/${a.uuid}`)).statusCode).toBe(404);
    expect((await w.adminB.client.put(`/api/addresses/${a.uuid}`, { town: 'Hacked' })).statusCode).toBe(404);
    const upd = await w.agentA1.client.put(`/api/addresses/${a.uuid}`, { line2: 'Flat 2', postcode: 'ls6 3hp', county: null });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().data).toMatchObject({ line2: 'Flat 2', postcode: 'LS6 3HP', county: null, line1: '12 Headingley Lane' });
    const bad = await w.agentA1.client.put(`/api/addresses/${a.uuid}`, { postcode: 'nope', line2: 'Flat 9' });
    expect(bad.statusCode).toBe(400);
    const row = await t.db.selectFrom('addresses').select(['line2', 'postcode']).where('uuid', '=', a.uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ line2: 'Flat 2', postcode: 'LS6 3HP' });
    expect((await w.agentA1.client.get('/api/addresses/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await w.agentA1.client.get('/api/addresses/not-a-uuid')).statusCode).toBe(400);
  });

  it('sorts by sort and order across pages (id breaks ties, no branch last); postcode ascending by default; a bad value is a 400', async () => {
    const made: Record<string, string> = {};
    for (const [key, line1, town, postcode, branch] of [
      ['a', '3 Quillby Row', 'York', 'YO1 7HH', w.a1.uuid],
      ['b', '1 Quillby Row', 'Leeds', 'LS6 3HN', undefined],
      ['c', '2 Quillby Row', 'Leeds', 'LS1 6BY', w.a2.uuid],
      ['d', '4 Quillby Row', 'Leeds', 'LS1 6BY', w.a1.uuid],
    ] as const) {
      const res = await w.adminA.client.post('/api/addresses', { line1, town, postcode, ...(branch ? { branch_uuid: branch } : {}) });
      expect(res.statusCode, res.body).toBe(201);
      made[res.json().data.uuid] = key;
    }
    await t.db.updateTable('addresses').set({ is_hmo: true }).where('line1', '=', '4 Quillby Row').execute();
    const keys = async (qs: string) => {
      const res = await w.agentA1.client.get(`/api/addresses?q=quillby&${qs}`);
      expect(res.statusCode, qs).toBe(200);
      return res.json().data.map((x: { uuid: string }) => made[x.uuid]).join('');
    };
    // Postcode, then line 1: the list's order without sort.
    expect(await keys('')).toBe('cdba');
    expect(await keys('sort=postcode&order=asc')).toBe('cdba');
    expect(await keys('sort=postcode&order=desc')).toBe('abdc');
    expect(await keys('sort=line1&order=asc')).toBe('bcad');
    // Three in Leeds: the id breaks the tie, in the list's direction.
    expect(await keys('sort=town&order=asc')).toBe('bcda');
    expect(await keys('sort=town&order=desc')).toBe('adcb');
    // No branch last either way.
    expect(await keys('sort=branch_name&order=asc')).toBe('adcb');
    expect(await keys('sort=branch_name&order=desc')).toBe('cdab');
    expect(await keys('sort=is_hmo&order=desc')).toBe('dcba');
    let paged = '';
    for (const offset of [0, 1, 2, 3]) paged += await keys(`sort=town&order=desc&limit=1&offset=${offset}`);
    expect(paged).toBe('adcb');
    for (const qs of ['sort=county', 'order=upwards', 'sort=']) {
      const res = await w.agentA1.client.get(`/api/addresses?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${qs.split('=')[0]}` });
    }
  });

  it('needs the permission, a CSRF token on writes, and an agency to create', async () => {
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenant.client.get('/api/addresses')).statusCode).toBe(403);
    expect((await tenant.client.post('/api/addresses', body)).statusCode).toBe(403);
    const noCsrf = await w.adminA.client.post('/api/addresses', { ...body, line1: 'csrf' }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    expect((await w.sysops.client.post('/api/addresses', { ...body, line1: 'sysops' })).statusCode).toBe(403);
    expect((await w.sysops.client.get('/api/addresses')).json().count).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/addresses' })).statusCode).toBe(401);
  });
});
