import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

describe('tenants: records, search, read with addresses and login', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let alice: { uuid: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('creates a tenant (201) with an activity entry, e-mail lower-cased', async () => {
    const res = await w.agentA1.client.post('/api/tenants', {
      name: 'Alice Barrowman', email: 'Alice.B@Example.test', phone: '0113 496 0000', mobile: '+44 7700 900123', preferred_contact: 'sms', notes: 'Works nights',
    });
    expect(res.statusCode).toBe(201);
    const d = res.json().data;
    expect(d).toMatchObject({ name: 'Alice Barrowman', email: 'alice.b@example.test', preferred_contact: 'sms', has_login: false, addresses: [], login: null, erased_at: null });
    alice = d;
    const id = (await t.db.selectFrom('tenants').select('id').where('uuid', '=', d.uuid).executeTakeFirstOrThrow()).id;
    const log = await t.db.selectFrom('activity_log').select(['action', 'details']).where('resource_type', '=', 'tenant').where('resource_id', '=', id).execute();
    expect(log.map((l) => l.action)).toEqual(['tenant.create']);
  });

  it('refuses bad input without writing: missing name, bad e-mail, bad phone, unknown contact preference, duplicate e-mail', async () => {
    const count = async () => Number((await t.db.selectFrom('tenants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ email: 'x@example.test' }, 400, 'Invalid or missing required parameter: name'],
      [{ name: '   ' }, 400, 'Invalid or missing required parameter: name'],
      [{ name: 'Bob', email: 'not-an-email' }, 400, 'Invalid or missing required parameter: email'],
      [{ name: 'Bob', phone: 'call me' }, 400, 'Invalid or missing required parameter: phone'],
      [{ name: 'Bob', preferred_contact: 'pigeon' }, 400, 'Invalid or missing required parameter: preferred_contact'],
      [{ name: 'Bob', email: 'ALICE.B@example.test' }, 409, 'A tenant with this e-mail already exists'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.adminA.client.post('/api/tenants', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    expect(await count()).toBe(before);
    // The same e-mail in another agency is fine.
    expect((await w.adminB.client.post('/api/tenants', { name: 'Alice Elsewhere', email: 'alice.b@example.test' })).statusCode).toBe(201);
  });

  it('lists with search by name and e-mail, postcode filter and pagination; other agency sees none of A', async () => {
    await w.adminA.client.post('/api/tenants', { name: 'Bertie Crane', email: 'bertie@example.test' });
    await w.adminA.client.post('/api/tenants', { name: 'Cara Dunne', email: 'cara@mail.test' });
    const all = await w.agentA1.client.get('/api/tenants');
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(3);
    expect(all.json().data.map((x: { name: string }) => x.name)).toEqual(['Alice Barrowman', 'Bertie Crane', 'Cara Dunne']);
    expect((await w.agentA1.client.get('/api/tenants?q=crane')).json().data.map((x: { name: string }) => x.name)).toEqual(['Bertie Crane']);
    expect((await w.agentA1.client.get('/api/tenants?q=mail.test')).json().data.map((x: { name: string }) => x.name)).toEqual(['Cara Dunne']);
    expect((await w.agentA1.client.get('/api/tenants?q=%25')).json().count).toBe(0);
    const page = await w.agentA1.client.get('/api/tenants?limit=1&offset=1');
    expect(page.json()).toMatchObject({ count: 3, data: [{ name: 'Bertie Crane' }] });
    const addr = await w.adminA.client.post('/api/addresses', { line1: '3 Cardigan Road', town: 'Leeds', postcode: 'LS6 1LF' });
    await w.adminA.client.post('/api/tenants/assign-address', { tenant_uuid: alice.uuid, address_id: addr.json().data.ID });
    const byPc = await w.agentA1.client.get('/api/tenants?postcode=ls61');
    expect(byPc.json().data.map((x: { name: string }) => x.name)).toEqual(['Alice Barrowman']);
    expect(byPc.json().data[0].address_count).toBe(1);
    expect((await w.adminB.client.get('/api/tenants?q=alice')).json().data.map((x: { name: string }) => x.name)).toEqual(['Alice Elsewhere']);
  });

  it('sorts by sort and order across pages (id breaks ties); a bad value is a 400', async () => {
    const names = async (qs: string) => {
      const res = await w.agentA1.client.get(`/api/tenants?${qs}`);
      expect(res.statusCode, qs).toBe(200);
      return res.json().data.map((x: { name: string }) => x.name) as string[];
    };
    const [alice, bertie, cara] = ['Alice Barrowman', 'Bertie Crane', 'Cara Dunne'];
    expect(await names('sort=name&order=asc')).toEqual(await names(''));
    expect(await names('order=desc')).toEqual([cara, bertie, alice]);
    expect(await names('sort=email&order=desc')).toEqual([cara, bertie, alice]);
    // Alice has one address, the others none (the id breaks their tie).
    expect(await names('sort=address_count&order=desc')).toEqual([alice, cara, bertie]);
    expect(await names('sort=address_count&order=asc')).toEqual([bertie, cara, alice]);
    const paged = [];
    for (const offset of [0, 1, 2]) paged.push(...(await names(`sort=address_count&order=desc&limit=1&offset=${offset}`)));
    expect(paged).toEqual([alice, cara, bertie]);
    for (const qs of ['sort=notes', 'order=upwards']) {
      const res = await w.agentA1.client.get(`/api/tenants?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: `Invalid or missing required parameter: ${qs.split('=')[0]}` });
    }
  });

  it('reads a tenant with linked addresses and the linked login account', async () => {
    const row = await t.db.selectFrom('tenants').select('id').where('uuid', '=', alice.uuid).executeTakeFirstOrThrow();
    await createUser(t.db, { role: 'tenant', agencyId: w.agencyA.id, tenantId: row.id, email: 'alice.login@example.test', name: 'Alice Barrowman' });
    const res = await w.agentA1.client.get(`/api/tenants/${alice.uuid}`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.has_login).toBe(true);
    expect(d.login).toMatchObject({ email: 'alice.login@example.test', status: 'active' });
    expect(d.addresses).toHaveLength(1);
    expect(d.addresses[0]).toMatchObject({ line1: '3 Cardigan Road', postcode: 'LS6 1LF' });
    expect(Number.isInteger(d.addresses[0].ID)).toBe(true);
    expect((await w.adminB.client.get(`/api/tenants/${alice.uuid}`)).statusCode).toBe(404);
    expect((await w.adminB.client.get(`/api/tenants/${alice.uuid}`)).json().error).toBe('Tenant not found');
  });

  it('updates only the fields sent; null clears; 404 across agencies; nothing written on bad input', async () => {
    const res = await w.agentA1.client.put(`/api/tenants/${alice.uuid}`, { phone: null, notes: 'Prefers mornings' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Alice Barrowman', phone: null, notes: 'Prefers mornings', mobile: '+44 7700 900123' });
    expect((await w.adminB.client.put(`/api/tenants/${alice.uuid}`, { name: 'X' })).statusCode).toBe(404);
    const dup = await w.agentA1.client.put(`/api/tenants/${alice.uuid}`, { email: 'bertie@example.test', notes: 'changed' });
    expect(dup.statusCode).toBe(409);
    const bad = await w.agentA1.client.put(`/api/tenants/${alice.uuid}`, { name: '', notes: 'changed' });
    expect(bad.statusCode).toBe(400);
    const row = await t.db.selectFrom('tenants').select(['notes', 'email']).where('uuid', '=', alice.uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ notes: 'Prefers mornings', email: 'alice.b@example.test' });
    const log = await t.db.selectFrom('activity_log').select('details').where('action', '=', 'tenant.update').execute();
    expect(JSON.stringify(log)).not.toContain('Prefers mornings');
  });

  it('needs the permissions and a CSRF token', async () => {
    const contractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id });
    expect((await contractor.client.get('/api/tenants')).statusCode).toBe(403);
    expect((await contractor.client.get(`/api/tenants/${alice.uuid}`)).statusCode).toBe(403);
    expect((await contractor.client.post('/api/tenants', { name: 'Z' })).statusCode).toBe(403);
    expect((await contractor.client.put(`/api/tenants/${alice.uuid}`, { name: 'Z' })).statusCode).toBe(403);
    expect((await w.adminA.client.post('/api/tenants', { name: 'No Csrf' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.adminA.client.put(`/api/tenants/${alice.uuid}`, { name: 'No Csrf' }, { csrf: false })).statusCode).toBe(403);
    const api = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await api.client.get('/api/tenants')).statusCode).toBe(200);
    expect((await w.sysops.client.post('/api/tenants', { name: 'Ops' })).statusCode).toBe(403);
  });
});
