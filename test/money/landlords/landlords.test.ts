import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../helpers/factories.ts';

describe('landlords: records, bank details, property shares and spend limits', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let ada: { uuid: string };
  let acme: { uuid: string };
  let flat: { uuid: string; ID: number };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    flat = (await w.adminA.client.post('/api/addresses', { line1: '12 Hyde Park Road', town: 'Leeds', postcode: 'LS6 1AB' })).json().data;
  });
  afterAll(async () => t?.close());

  const count = async () => Number((await t.db.selectFrom('landlords').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('creates a person and a company landlord (201) with an activity entry; sort code and VAT number normalised', async () => {
    const res = await w.agentA1.client.post('/api/landlords', {
      name: 'Ada Lovelace', email: 'Ada@Example.test', phone: '0113 496 0001', address_line1: '1 Park Square', address_town: 'Leeds', address_postcode: 'ls1 2nd',
      bank_account_name: 'A Lovelace', bank_sort_code: '401276', bank_account_number: '31926819', approval_limit_pence: 30000,
    });
    expect(res.statusCode).toBe(201);
    ada = res.json().data;
    expect(res.json().data).toMatchObject({
      kind: 'person', name: 'Ada Lovelace', email: 'ada@example.test', has_bank_details: true, approval_limit_pence: 30000, vat_registered: false,
      correspondence_address: { line1: '1 Park Square', town: 'Leeds', postcode: 'LS1 2ND', line2: null }, properties: [],
    });
    // An agent does not hold api.landlords.bank-details.view: no bank details even in the detail.
    expect(res.json().data).not.toHaveProperty('bank_details');
    const co = await w.adminA.client.post('/api/landlords', { kind: 'company', name: 'Acme Lettings Ltd', email: 'accounts@acme.test', vat_registered: true, vat_number: '123456789' });
    expect(co.statusCode).toBe(201);
    acme = co.json().data;
    expect(co.json().data).toMatchObject({ kind: 'company', vat_registered: true, vat_number: 'GB123456789', has_bank_details: false, bank_details: { sort_code: null } });
    const log = await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'landlord').execute();
    expect(log.map((l) => l.action)).toEqual(['landlord.create', 'landlord.create']);
  });

  it('refuses bad input without writing', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ email: 'x@example.test' }, 400, 'Invalid or missing required parameter: name'],
      [{ name: '  ' }, 400, 'Invalid or missing required parameter: name'],
      [{ name: 'B', kind: 'trust' }, 400, 'Invalid or missing required parameter: kind'],
      [{ name: 'B', bank_sort_code: '12-34' }, 400, 'Invalid or missing required parameter: bank_sort_code'],
      [{ name: 'B', bank_account_number: '1234' }, 400, 'Invalid or missing required parameter: bank_account_number'],
      [{ name: 'B', vat_registered: true }, 400, 'Invalid or missing required parameter: vat_number'],
      [{ name: 'B', approval_limit_pence: -1 }, 400, 'Invalid or missing required parameter: approval_limit_pence'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.adminA.client.post('/api/landlords', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error, JSON.stringify(body)).toBe(error);
    }
    expect(await count()).toBe(before);
  });

  it('never shows bank details in a list; the detail shows them only to holders of the key', async () => {
    const list = await w.adminA.client.get('/api/landlords');
    expect(list.statusCode).toBe(200);
    expect(list.json().count).toBe(2);
    expect(list.json().data.map((l: { name: string }) => l.name)).toEqual(['Acme Lettings Ltd', 'Ada Lovelace']);
    const text = list.body;
    expect(text).not.toContain('31926819');
    expect(text).not.toContain('40-12-76');
    expect(text).not.toContain('"bank_details"');
    const admin = await w.adminA.client.get(`/api/landlords/${ada.uuid}`);
    expect(admin.json().data.bank_details).toEqual({ account_name: 'A Lovelace', sort_code: '40-12-76', account_number: '31926819' });
    const agent = await w.agentA1.client.get(`/api/landlords/${ada.uuid}`);
    expect(agent.statusCode).toBe(200);
    expect(agent.json().data).not.toHaveProperty('bank_details');
    expect(agent.body).not.toContain('31926819');
    expect((await w.agentA1.client.get('/api/landlords?q=ada')).json().data.map((l: { name: string }) => l.name)).toEqual(['Ada Lovelace']);
    expect((await w.adminB.client.get(`/api/landlords/${ada.uuid}`)).json()).toEqual({ success: false, error: 'Landlord not found' });
    expect((await w.adminB.client.get('/api/landlords')).json().count).toBe(0);
  });

  it('links a property with shares summing to at most 100 %; several landlords per property; unlink', async () => {
    const first = await w.agentA1.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 6000 });
    expect(first.statusCode).toBe(201);
    expect(first.json().data.properties).toMatchObject([{ share_bp: 6000, address: { uuid: flat.uuid, line1: '12 Hyde Park Road' } }]);
    const over = await w.agentA1.client.post(`/api/landlords/${acme.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 5000 });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe('The shares of this property would be 110.00 %: at most 40.00 % is left');
    expect((await w.agentA1.client.post(`/api/landlords/${acme.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 4000 })).statusCode).toBe(201);
    // Changing one's own share counts the others only.
    const change = await w.agentA1.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 5500 });
    expect(change.statusCode).toBe(200);
    expect(change.json().message).toBe('Share changed');
    expect((await w.agentA1.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 0 })).statusCode).toBe(400);
    expect((await w.agentA1.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 10001 })).statusCode).toBe(400);
    const owners = await w.agentA1.client.get(`/api/landlords/properties/${flat.uuid}`);
    expect(owners.json().data).toMatchObject({
      owners: [{ name: 'Ada Lovelace', share_bp: 5500 }, { name: 'Acme Lettings Ltd', share_bp: 4000 }], shares_total_bp: 9500,
      property_limit_pence: null, effective_limit_pence: 30000, limit_source: 'landlord',
    });
    expect((await w.agentA1.client.get(`/api/landlords?address_uuid=${flat.uuid}`)).json().count).toBe(2);
    // Another agency's address is 404, and B cannot link A's landlord.
    const foreign = (await w.adminB.client.post('/api/addresses', { line1: '1 Other St', town: 'York', postcode: 'YO1 7HH' })).json().data;
    expect((await w.adminA.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: foreign.uuid, share_bp: 100 })).json().error).toBe('Address not found');
    expect((await w.adminB.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: foreign.uuid, share_bp: 100 })).json().error).toBe('Landlord not found');
    const un = await w.agentA1.client.delete(`/api/landlords/${acme.uuid}/properties/${flat.uuid}`);
    expect(un.statusCode).toBe(200);
    expect((await w.agentA1.client.delete(`/api/landlords/${acme.uuid}/properties/${flat.uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.post(`/api/landlords/${acme.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 4500 })).statusCode).toBe(201);
  });

  it('the property limit wins over the landlords, then the agency default applies when neither is set', async () => {
    const set = await w.agentA1.client.put(`/api/landlords/properties/${flat.uuid}/approval-limit`, { limit_pence: 75000 });
    expect(set.json().data).toMatchObject({ property_limit_pence: 75000, effective_limit_pence: 75000, limit_source: 'property' });
    await w.agentA1.client.put(`/api/landlords/properties/${flat.uuid}/approval-limit`, { limit_pence: null });
    await w.agentA1.client.put(`/api/landlords/${ada.uuid}`, { approval_limit_pence: null });
    expect((await w.agentA1.client.put('/api/landlords/settings', { default_approval_limit_pence: 25000 })).statusCode).toBe(403);
    const s = await w.adminA.client.put('/api/landlords/settings', { default_approval_limit_pence: 25000, reminder_after_hours: 24 });
    expect(s.json().data).toEqual({ default_approval_limit_pence: 25000, reminder_after_hours: 24, expires_after_hours: 120 });
    expect((await w.adminA.client.put('/api/landlords/settings', { reminder_after_hours: 200 })).statusCode).toBe(400);
    const e = await w.agentA1.client.get(`/api/landlords/properties/${flat.uuid}`);
    expect(e.json().data).toMatchObject({ effective_limit_pence: 25000, limit_source: 'agency' });
  });

  it('updates only the fields sent (log keeps field names, not values); permissions and CSRF', async () => {
    const res = await w.agentA1.client.put(`/api/landlords/${ada.uuid}`, { phone: null, notes: 'Prefers e-mail' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ phone: null, notes: 'Prefers e-mail', name: 'Ada Lovelace' });
    const log = await t.db.selectFrom('activity_log').select('details').where('action', '=', 'landlord.update').execute();
    expect(JSON.stringify(log)).not.toContain('Prefers e-mail');
    const contractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id });
    expect((await contractor.client.get('/api/landlords')).statusCode).toBe(403);
    expect((await contractor.client.get(`/api/landlords/${ada.uuid}`)).statusCode).toBe(403);
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenant.client.get('/api/landlords')).statusCode).toBe(403);
    expect((await w.adminA.client.post('/api/landlords', { name: 'No Csrf' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.sysops.client.post('/api/landlords', { name: 'Ops' })).statusCode).toBe(403);
  });
  it('GDPR: the subject-access report holds the bank details, properties and approvals; erasure anonymises for good', async () => {
    const flatId = (await t.db.selectFrom('addresses').select('id').where('uuid', '=', flat.uuid).executeTakeFirstOrThrow()).id;
    const job = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: flatId, title: 'Leak reported by Ada Lovelace', description: 'Call ada@example.test' }, t.clock.now());
    const asked = await w.agentA1.client.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 26000, description: 'Plumber' });
    expect(asked.statusCode).toBe(201);
    expect((await w.agentA1.client.get(`/api/landlords/${ada.uuid}/gdpr-report`)).statusCode).toBe(403);
    const report = await w.adminA.client.get(`/api/landlords/${ada.uuid}/gdpr-report`);
    expect(report.statusCode).toBe(200);
    const r = report.json().data;
    expect(r.subject).toMatchObject({ name: 'Ada Lovelace', bank_details: { account_number: '31926819', sort_code: '40-12-76' } });
    expect(r.properties).toMatchObject([{ share_bp: 5500, address: { uuid: flat.uuid } }]);
    expect(r.approvals).toMatchObject([{ job_reference: job.reference, amount_pence: 26000, status: 'pending' }]);
    expect(r.recharges).toEqual([]);
    expect(r.activity.map((a: { action: string }) => a.action)).toContain('landlord.create');
    const zip = await w.adminA.client.get(`/api/landlords/${ada.uuid}/gdpr-report?format=zip`);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const erased = await w.adminA.client.post(`/api/landlords/${ada.uuid}/erase`, {});
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data).toMatchObject({ properties_unlinked: 1, approvals_withdrawn: 1, jobs_scrubbed: 1 });
    const name = erased.json().data.name as string;
    expect(name).toMatch(/^Erased landlord [0-9a-f]{4}$/);
    const row = await t.db.selectFrom('landlords').selectAll().where('uuid', '=', ada.uuid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name, email: null, phone: null, bank_account_number: null, bank_sort_code: null, address_line1: null, notes: null });
    const j = await t.db.selectFrom('jobs').select(['title', 'description']).where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(j).toEqual({ title: `Leak reported by ${name}`, description: 'Call [erased e-mail]' });
    expect((await w.agentA1.client.get(`/api/landlords/approvals?job_uuid=${job.uuid}`)).json().data[0].status).toBe('cancelled');
    const log = await t.db.selectFrom('activity_log').select('details').where('action', '=', 'landlord.erase').executeTakeFirstOrThrow();
    expect(JSON.stringify(log)).not.toContain('Lovelace');
    expect((await w.adminA.client.post(`/api/landlords/${ada.uuid}/erase`, {})).statusCode).toBe(409);
    expect((await w.adminA.client.put(`/api/landlords/${ada.uuid}`, { name: 'Back' })).statusCode).toBe(409);
    expect((await w.adminA.client.get('/api/landlords')).json().data.map((l: { name: string }) => l.name)).not.toContain(name);
    expect((await w.adminB.client.post(`/api/landlords/${ada.uuid}/erase`, {})).statusCode).toBe(404);
  });
});
