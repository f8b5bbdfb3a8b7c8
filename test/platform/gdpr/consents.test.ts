import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

describe('GDPR consents: give, list, withdraw', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: { uuid: string };
  let consent: { uuid: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    tenant = (await w.adminA.client.post('/api/tenants', { name: 'Evie Fraser' })).json().data;
  });
  afterAll(async () => t?.close());

  it('records a consent with purpose, source and time (201), logged', async () => {
    const res = await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'marketing_email', source: 'web_form' });
    expect(res.statusCode).toBe(201);
    consent = res.json().data;
    expect(consent).toMatchObject({ tenant_uuid: tenant.uuid, user_uuid: null, purpose: 'marketing_email', source: 'web_form', given_at: '2026-11-21T09:00:00.000Z', withdrawn_at: null, active: true, recorded_by: 'Test agent' });
    const given = await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'tenancy_agreement', given_at: '2026-01-15T12:00:00Z' });
    expect(given.json().data.given_at).toBe('2026-01-15T12:00:00.000Z');
    const log = await t.db.selectFrom('activity_log').select(['action', 'resource_type']).where('action', '=', 'consent.give').execute();
    expect(log).toEqual([{ action: 'consent.give', resource_type: 'tenant' }, { action: 'consent.give', resource_type: 'tenant' }]);
  });

  it('giving the same consent again returns the one in force (200) and writes nothing', async () => {
    const res = await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'marketing_email', source: 'phone' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Consent was already in force', data: { uuid: consent.uuid, source: 'web_form' } });
    expect((await t.db.selectFrom('gdpr_consents').select('id').execute()).length).toBe(2);
  });

  it('records a consent of a user account of the agency', async () => {
    const user = await createUser(t.db, { role: 'tenant', agencyId: w.agencyA.id });
    const res = await w.agentA1.client.post('/api/gdpr/consents', { user_uuid: user.uuid, purpose: 'satisfaction_surveys', source: 'api' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ user_uuid: user.uuid, tenant_uuid: null });
    const foreign = await createUser(t.db, { role: 'tenant', agencyId: w.agencyB.id });
    expect((await w.agentA1.client.post('/api/gdpr/consents', { user_uuid: foreign.uuid, purpose: 'sms_updates', source: 'api' })).statusCode).toBe(404);
  });

  it('refuses bad input without writing', async () => {
    const before = (await t.db.selectFrom('gdpr_consents').select('id').execute()).length;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ purpose: 'marketing_email', source: 'web_form' }, 400, 'Invalid or missing required parameter: tenant_uuid'],
      [{ tenant_uuid: tenant.uuid, purpose: 'spam', source: 'web_form' }, 400, 'Invalid or missing required parameter: purpose'],
      [{ tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'carrier_pigeon' }, 400, 'Invalid or missing required parameter: source'],
      [{ tenant_uuid: tenant.uuid, purpose: 'data_sharing_contractors', source: 'api', given_at: '2027-01-01T00:00:00Z' }, 400, 'Invalid or missing required parameter: given_at'],
      [{ tenant_uuid: '00000000-0000-4000-8000-000000000000', purpose: 'sms_updates', source: 'api' }, 404, 'Tenant not found'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.agentA1.client.post('/api/gdpr/consents', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    expect((await w.adminB.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'api' })).statusCode).toBe(404);
    expect((await t.db.selectFrom('gdpr_consents').select('id').execute()).length).toBe(before);
  });

  it('lists with filters; another agency sees none', async () => {
    const all = await w.agentA1.client.get('/api/gdpr/consents');
    expect(all.json().count).toBe(3);
    expect((await w.agentA1.client.get(`/api/gdpr/consents?tenant_uuid=${tenant.uuid}`)).json().count).toBe(2);
    expect((await w.agentA1.client.get('/api/gdpr/consents?purpose=sms_updates')).json().data.map((c: { purpose: string }) => c.purpose)).toEqual(['sms_updates']);
    expect((await w.adminB.client.get('/api/gdpr/consents')).json().count).toBe(0);
    expect((await w.adminB.client.get(`/api/gdpr/consents?tenant_uuid=${tenant.uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.get('/api/gdpr/consents?purpose=spam')).statusCode).toBe(400);
  });

  it('withdraws a consent with time and source; twice is 409; another agency 404', async () => {
    t.clock.advance(3600);
    const url = `/api/gdpr/consents/${consent.uuid}/withdraw`;
    expect((await w.adminB.client.post(url, { source: 'phone' })).statusCode).toBe(404);
    expect((await w.agentA1.client.post(url, { source: 'phone' }, { csrf: false })).statusCode).toBe(403);
    const res = await w.agentA1.client.post(url, { source: 'phone' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ active: false, withdrawn_at: '2026-11-21T10:00:00.000Z', withdrawn_source: 'phone' });
    const again = await w.agentA1.client.post(url);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Consent was already withdrawn on 2026-11-21T10:00:00.000Z');
    expect((await w.agentA1.client.get('/api/gdpr/consents?active=true')).json().count).toBe(2);
    expect((await w.agentA1.client.get('/api/gdpr/consents?active=false')).json().data[0].uuid).toBe(consent.uuid);
    // After withdrawal the purpose can be consented to again.
    expect((await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'marketing_email', source: 'web_form' })).statusCode).toBe(201);
    expect((await w.agentA1.client.post('/api/gdpr/consents/00000000-0000-4000-8000-000000000000/withdraw', {})).statusCode).toBe(404);
  });

  it('needs the permission and CSRF tokens', async () => {
    const tenantUser = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenantUser.client.get('/api/gdpr/consents')).statusCode).toBe(403);
    expect((await tenantUser.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'api' })).statusCode).toBe(403);
    expect((await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'api' }, { csrf: false })).statusCode).toBe(403);
    const api = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await api.client.get('/api/gdpr/consents')).statusCode).toBe(200);
  });
});
