/**
 * Agencies (docs/onboarding.md): SysOps create an agency with its first branch and invited
 * administrator, read, list and change it; the administrator reads and changes the own profile;
 * suspension refuses every account of the agency (login and every request) and reactivation lets
 * them back in; another agency is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodemailerMailer } from '../../../src/modules/messaging/mail/mailer.ts';
import { buildTestApp, Client, login, standardWorld, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';
import { activity } from '../../helpers/roles-branches.ts';
import { mailTo, readEmlFiles, tokenFrom } from '../../people/users/mail-helpers.ts';

const PROFILE = {
  name: 'Harbour Lettings',
  legal_name: 'Harbour Lettings Ltd',
  registered_address: { line1: '4 Quay Street', town: 'Bristol', postcode: 'bs1 4dj' },
  company_number: '09876543',
  vat_number: 'GB294771306',
  contact_email: 'Office@Harbour.example',
  contact_phone: '0117 496 0000',
  bank_holiday_region: 'england-and-wales',
  office_hours: { mon: { open: '09:00', close: '17:30' }, fri: { open: '09:00', close: '16:00' } },
  default_approval_limit_pence: 25000,
  invoice_terms_days: 14,
};

describe('agencies', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let agencyUuid: string;
  let admin: Client;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('SysOps create an agency with its first branch and invite its first administrator', async () => {
    const res = await w.sysops.client.post('/api/agencies', { ...PROFILE, branch_name: 'Bristol', admin: { name: 'Hana Harbour', email: 'hana@harbour.example' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Agency created and administrator invited');
    expect(body.data.agency).toMatchObject({
      name: 'Harbour Lettings',
      legal_name: 'Harbour Lettings Ltd',
      registered_address: { line1: '4 Quay Street', line2: null, town: 'Bristol', postcode: 'BS1 4DJ' },
      company_number: '09876543',
      vat_number: 'GB294771306',
      contact_email: 'office@harbour.example',
      bank_holiday_region: 'england-and-wales',
      office_hours: { mon: { open: '09:00', close: '17:30' }, tue: null, fri: { open: '09:00', close: '16:00' }, sun: null },
      default_approval_limit_pence: 25000,
      invoice_terms_days: 14,
      status: 'active',
      suspended_at: null,
    });
    expect(body.data.branch.name).toBe('Bristol');
    expect(body.data.admin).toMatchObject({ email: 'hana@harbour.example', status: 'invited' });
    agencyUuid = body.data.agency.uuid;
    expect((await activity(t.db, 'agency.create')).at(-1)).toMatchObject({ user_id: w.sysops.user.id });

    // The invitation arrives and is accepted; the administrator works in the new agency.
    const mail = mailTo((await readEmlFiles((t.deps.mailer as NodemailerMailer).dir)).reverse(), 'hana@harbour.example');
    const token = tokenFrom(mail!.raw);
    const accepted = await t.app.inject({ method: 'POST', url: '/api/users/invitations/accept', payload: { token, password: TEST_PASSWORD } });
    expect(accepted.statusCode).toBe(200);
    admin = new Client(t.app, await login(t.app, 'hana@harbour.example'));
    const current = await admin.get('/api/agencies/current');
    expect(current.json().data).toMatchObject({ uuid: agencyUuid, name: 'Harbour Lettings' });
    const branches = await admin.get('/api/admin/branches');
    expect(branches.json().data.map((b: { name: string }) => b.name)).toEqual(['Bristol']);
  });

  it('refuses a taken name or administrator e-mail (409) and bad fields (400) without creating anything', async () => {
    const before = await t.db.selectFrom('agencies').select('id').execute();
    const dup = await w.sysops.client.post('/api/agencies', { name: 'harbour lettings', admin: { name: 'X', email: 'x@example.test' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('An agency named harbour lettings already exists');
    const email = await w.sysops.client.post('/api/agencies', { name: 'Other', admin: { name: 'X', email: w.adminA.user.email } });
    expect(email.statusCode).toBe(409);
    const postcode = await w.sysops.client.post('/api/agencies', { name: 'Other', registered_address: { line1: '1 A St', town: 'Leeds', postcode: 'NOPE 1' }, admin: { name: 'X', email: 'x@example.test' } });
    expect(postcode.json().error).toBe('Invalid or missing required parameter: registered_address.postcode');
    const hours = await w.sysops.client.post('/api/agencies', { name: 'Other', office_hours: { mon: { open: '17:00', close: '09:00' } }, admin: { name: 'X', email: 'x@example.test' } });
    expect(hours.json().error).toBe('Invalid or missing required parameter: office_hours.mon');
    const region = await w.sysops.client.post('/api/agencies', { name: 'Other', bank_holiday_region: 'wales', admin: { name: 'X', email: 'x@example.test' } });
    expect(region.statusCode).toBe(400);
    expect(await t.db.selectFrom('agencies').select('id').execute()).toHaveLength(before.length);
  });

  it('lists and reads agencies for SysOps only; an agency admin may not create agencies', async () => {
    const all = await w.sysops.client.get('/api/agencies?q=harbour');
    expect(all.json()).toMatchObject({ count: 1, data: [{ uuid: agencyUuid }] });
    expect((await w.sysops.client.get(`/api/agencies/${agencyUuid}`)).json().data.company_number).toBe('09876543');
    expect((await w.adminA.client.get('/api/agencies')).statusCode).toBe(403);
    expect((await w.adminA.client.get(`/api/agencies/${agencyUuid}`)).statusCode).toBe(403);
    expect((await w.adminA.client.post('/api/agencies', { name: 'Mine', admin: { name: 'X', email: 'y@example.test' } })).statusCode).toBe(403);
    expect((await w.sysops.client.get('/api/agencies/current')).statusCode).toBe(403);
    expect((await w.sysops.client.get('/api/agencies/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('lets the administrator change the own profile (office hours merge); agents only read it', async () => {
    const res = await admin.put('/api/agencies/current', { office_hours: { tue: { open: '10:00', close: '18:00' } }, invoice_terms_days: 30, bank_holiday_region: 'scotland' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      office_hours: { mon: { open: '09:00', close: '17:30' }, tue: { open: '10:00', close: '18:00' } },
      invoice_terms_days: 30,
      vat_number: 'GB294771306',
      bank_holiday_region: 'scotland',
    });
    expect((await admin.put('/api/agencies/current', {})).statusCode).toBe(400);
    expect((await w.agentA1.client.get('/api/agencies/current')).json().data.name).toBe('Agency A');
    expect((await w.agentA1.client.put('/api/agencies/current', { name: 'Renamed' })).statusCode).toBe(403);
    const sys = await w.sysops.client.put(`/api/agencies/${agencyUuid}`, { company_number: 'SC123456' });
    expect(sys.json().data.company_number).toBe('SC123456');
  });

  it('suspension refuses every account of the agency with 403 and keeps its records; reactivation lets them back in', async () => {
    const suspended = await w.sysops.client.post(`/api/agencies/${agencyUuid}/suspend`, { reason: 'Unpaid subscription' });
    expect(suspended.json().data).toMatchObject({ status: 'suspended', suspended_reason: 'Unpaid subscription' });
    const refused = await admin.get('/api/agencies/current');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, error: expect.stringContaining('This agency is suspended') });
    const relogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'hana@harbour.example', password: TEST_PASSWORD } });
    expect(relogin.statusCode).toBe(403);
    expect(relogin.json().error).toContain('This agency is suspended');
    // Another agency works as before; the suspended agency's records are all there.
    expect((await w.adminA.client.get('/api/agencies/current')).statusCode).toBe(200);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'hana@harbour.example').executeTakeFirst()).toBeDefined();
    expect((await w.sysops.client.post(`/api/agencies/${agencyUuid}/suspend`, {})).statusCode).toBe(409);
    expect((await w.sysops.client.get('/api/agencies?status=suspended')).json().count).toBe(1);

    const back = await w.sysops.client.post(`/api/agencies/${agencyUuid}/reactivate`);
    expect(back.json().data).toMatchObject({ status: 'active', suspended_at: null, suspended_reason: null });
    expect((await admin.get('/api/agencies/current')).statusCode).toBe(200);
    expect((await w.sysops.client.post(`/api/agencies/${agencyUuid}/reactivate`)).statusCode).toBe(409);
  });

  it('the setup checklist lists what the new agency lacks', async () => {
    const res = await admin.get('/api/agencies/current/setup');
    expect(res.statusCode).toBe(200);
    const items = res.json().data.items as { key: string; done: boolean; count: number; link: string }[];
    expect(items.map((i) => i.key)).toEqual(['branches', 'users', 'sla_rules', 'contractors', 'trades', 'properties', 'templates']);
    expect(items.find((i) => i.key === 'branches')).toMatchObject({ done: true, count: 1, link: '/branches' });
    expect(items.find((i) => i.key === 'users')).toMatchObject({ done: false, count: 1 });
    expect(items.find((i) => i.key === 'properties')).toMatchObject({ done: false, count: 0 });
    expect(res.json().data.done).toBe(false);
    expect((await w.agentA1.client.get('/api/agencies/current/setup')).statusCode).toBe(403);
  });
});
