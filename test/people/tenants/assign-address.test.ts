import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

describe('POST /api/tenants/assign-address (spec 4.9) and unlinking', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: { uuid: string };
  let address: { ID: number; uuid: string };
  let addressB: { ID: number; uuid: string };
  let tenantB: { uuid: string };
  const links = async () => Number((await t.db.selectFrom('tenant_addresses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    tenant = (await w.adminA.client.post('/api/tenants', { name: 'Dora Ellis' })).json().data;
    address = (await w.adminA.client.post('/api/addresses', { line1: '1 Otley Road', town: 'Leeds', postcode: 'LS6 2AA' })).json().data;
    addressB = (await w.adminB.client.post('/api/addresses', { line1: '5 Thames Street', town: 'London', postcode: 'SE1 9PP' })).json().data;
    tenantB = (await w.adminB.client.post('/api/tenants', { name: 'Southbank Person' })).json().data;
  });
  afterAll(async () => t?.close());

  it('links the address by its integer ID (200) and records it', async () => {
    const res = await w.agentA1.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Address assigned to tenant' });
    expect(await links()).toBe(1);
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'tenant.assign_address').execute();
    expect(log).toHaveLength(1);
  });

  it('is idempotent: the same link again is 200, says so, and adds no row', async () => {
    const res = await w.agentA1.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Address was already assigned to tenant' });
    expect(await links()).toBe(1);
  });

  it('answers 400 naming the missing or malformed parameter', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ address_id: address.ID }, 'tenant_uuid'],
      [{ tenant_uuid: tenant.uuid }, 'address_id'],
      [{}, 'tenant_uuid'],
      [{ tenant_uuid: 'nope', address_id: address.ID }, 'tenant_uuid'],
      [{ tenant_uuid: tenant.uuid, address_id: 'abc' }, 'address_id'],
      [{ tenant_uuid: tenant.uuid, address_id: 1.5 }, 'address_id'],
    ];
    for (const [body, name] of cases) {
      const res = await w.agentA1.client.post('/api/tenants/assign-address', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${name}` });
    }
    expect(await links()).toBe(1);
  });

  it('accepts csrf_token in the body, as the spec lists it', async () => {
    const other = (await w.adminA.client.post('/api/addresses', { line1: '2 Otley Road', town: 'Leeds', postcode: 'LS6 2AB' })).json().data;
    const csrf = (await w.agentA1.client.get('/api/security/csrf-token')).json().data.token;
    const res = await t.app.inject({
      method: 'POST', url: '/api/tenants/assign-address', headers: { authorization: `Bearer ${w.agentA1.token}` },
      payload: { tenant_uuid: tenant.uuid, address_id: other.ID, csrf_token: csrf },
    });
    expect(res.statusCode).toBe(200);
    expect(await links()).toBe(2);
  });

  it('404 for a tenant or address that does not exist or belongs to another agency', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tenant_uuid: '00000000-0000-4000-8000-000000000000', address_id: address.ID }, 'Tenant not found'],
      [{ tenant_uuid: tenantB.uuid, address_id: address.ID }, 'Tenant not found'],
      [{ tenant_uuid: tenant.uuid, address_id: 999999 }, 'Address not found'],
      [{ tenant_uuid: tenant.uuid, address_id: addressB.ID }, 'Address not found'],
    ];
    for (const [body, error] of cases) {
      const res = await w.agentA1.client.post('/api/tenants/assign-address', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
      expect(res.json()).toEqual({ success: false, error });
    }
    expect((await w.adminB.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: addressB.ID })).statusCode).toBe(404);
    expect(await links()).toBe(2);
  });

  it('403 without the permission or without a CSRF token; 401 without credentials', async () => {
    const tenantUser = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenantUser.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID })).statusCode).toBe(403);
    const res = await w.agentA1.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID }, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Invalid or missing CSRF token');
    const anon = await t.app.inject({ method: 'POST', url: '/api/tenants/assign-address', payload: { tenant_uuid: tenant.uuid, address_id: address.ID } });
    expect(anon.statusCode).toBe(401);
    const api = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await api.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID })).statusCode).toBe(200);
  });

  it('unlinks with DELETE /api/tenants/{uuid}/addresses/{address_uuid}; 404 when not linked or another agency', async () => {
    expect((await w.adminB.client.delete(`/api/tenants/${tenant.uuid}/addresses/${address.uuid}`)).statusCode).toBe(404);
    const res = await w.agentA1.client.delete(`/api/tenants/${tenant.uuid}/addresses/${address.uuid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Address unassigned from tenant' });
    expect(await links()).toBe(1);
    const again = await w.agentA1.client.delete(`/api/tenants/${tenant.uuid}/addresses/${address.uuid}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('Address not found');
    expect((await w.agentA1.client.delete(`/api/tenants/${tenant.uuid}/addresses/${addressB.uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.delete(`/api/tenants/${tenant.uuid}/addresses/${address.uuid}`, undefined, { csrf: false })).statusCode).toBe(403);
  });
});
