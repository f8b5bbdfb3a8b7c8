import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../../src/lib/crypto.ts';
import { buildTestApp, createUser, login, standardWorld, userClient, Client, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../people/contractors/helpers.ts';
import { unzip } from './unzip.ts';
import { conversationsWorld } from '../../jobs/conversations/helpers.ts';
import { signTwilio, startTwilioServer } from '../../jobs/conversations/twilio-server.ts';
import { deliver } from '../../messaging/messaging/helpers.ts';

const NAME = 'Zebedee Quarrington';
const EMAIL = 'zeb.q@example.test';
const LOGIN_EMAIL = 'zeb.login@example.test';
const PHONE = '0113 496 0777';

/** Every (table, column) of the public schema holding text, and the rows where `needle` occurs. */
async function occurrences(t: TestApp, needle: string): Promise<string[]> {
  const cols = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
    where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'character', 'jsonb', 'json')`.execute(t.db);
  expect(cols.rows.length).toBeGreaterThan(20);
  const hits: string[] = [];
  for (const { table_name, column_name } of cols.rows) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)} where ${sql.ref(column_name)}::text ilike ${`%${needle}%`}`.execute(t.db);
    if (r.rows[0]!.n > 0) hits.push(`${table_name}.${column_name}`);
  }
  return hits;
}

describe('GDPR subject-access report and erasure', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: { uuid: string };
  let tenantId: number;
  let tenantClient: Client;
  let openJob: { id: number; uuid: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    tenant = (await w.adminA.client.post('/api/tenants', { name: NAME, email: EMAIL, phone: PHONE, notes: `Spoke to ${NAME} on the phone` })).json().data;
    tenantId = (await t.db.selectFrom('tenants').select('id').where('uuid', '=', tenant.uuid).executeTakeFirstOrThrow()).id;
    const address = (await w.adminA.client.post('/api/addresses', { line1: '7 Kirkstall Road', town: 'Leeds', postcode: 'LS4 2AZ' })).json().data;
    await w.adminA.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID });
    const user = await createUser(t.db, { role: 'tenant', agencyId: w.agencyA.id, tenantId, email: LOGIN_EMAIL, name: NAME });
    tenantClient = new Client(t.app, await login(t.app, LOGIN_EMAIL));
    // Failed logins: the account's name, and the typed e-mail of no account, land in the log.
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: LOGIN_EMAIL, password: 'wrong password!' } });
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: EMAIL, password: TEST_PASSWORD } });
    openJob = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, tenantId, title: `Leak reported by ${NAME}`, description: `Call ${EMAIL} or ${PHONE}`, statusId: 1 });
    await t.db.updateTable('jobs').set({ estimated_cost_pence: 12345 }).where('id', '=', openJob.id).execute();
    const atAddress = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, addressId: address.ID, title: 'Gutter clearance', statusId: 9 });
    await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, reportedBy: user.id, title: 'Broken window', statusId: 9 });
    await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, title: 'Unrelated job', statusId: 1 });
    const now = t.clock.now();
    const note = (jobId: number, body: string, visibility: 'internal' | 'tenant' | 'both') =>
      t.db.insertInto('job_notes').values({ uuid: newUuid(), job_id: jobId, author_user_id: null, body, visibility, created_at: now, updated_at: now, edited_at: null }).execute();
    await note(openJob.id, `Hi ${NAME.split(' ')[0]}, the engineer comes on Tuesday`, 'tenant');
    await note(openJob.id, `Internal: ${NAME.toUpperCase()} was rude on the phone`, 'internal');
    await note(atAddress.id, 'Gutters cleared, photos attached', 'both');
    await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'phone' });
  });
  afterAll(async () => t?.close());

  it('returns everything held about the tenant as JSON, and logs the export', async () => {
    const res = await w.adminA.client.get(`/api/tenants/${tenant.uuid}/gdpr-report`);
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    expect(r.controller).toBe('Agency A');
    expect(r.subject).toMatchObject({ uuid: tenant.uuid, name: NAME, email: EMAIL, phone: PHONE });
    expect(r.login_accounts).toEqual([expect.objectContaining({ email: LOGIN_EMAIL, status: 'active', role: 'Tenant' })]);
    expect(r.addresses.map((a: { postcode: string }) => a.postcode)).toEqual(['LS4 2AZ']);
    expect(r.jobs.map((j: { title: string; relation: string }) => [j.title, j.relation])).toEqual([
      [`Leak reported by ${NAME}`, 'tenant'], ['Gutter clearance', 'address'], ['Broken window', 'reported'],
    ]);
    expect(JSON.stringify(r.jobs)).not.toContain('12345');
    // Every note on the job naming them, internal ones too (an exemption withholds one: docs/gdpr.md "Exemptions").
    expect(r.notes.map((n: { body: string }) => n.body)).toEqual(['Hi Zebedee, the engineer comes on Tuesday', `Internal: ${NAME.toUpperCase()} was rude on the phone`, 'Gutters cleared, photos attached']);
    expect(r.consents).toEqual([expect.objectContaining({ purpose: 'sms_updates', source: 'phone', active: true })]);
    const actions = r.activity.map((a: { action: string }) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['tenant.create', 'tenant.assign_address', 'auth.login', 'auth.login_failed', 'consent.give']));
    const log = await t.db.selectFrom('activity_log').select(['resource_id', 'details']).where('action', '=', 'tenant.gdpr_export').execute();
    expect(log).toEqual([{ resource_id: tenantId, details: { format: 'json' } }]);
  });

  it('downloads the report as a zip holding report.json and README.txt', async () => {
    const res = await w.adminA.client.get(`/api/tenants/${tenant.uuid}/gdpr-report?format=zip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="gdpr-report-${tenant.uuid}-2026-11-21.zip"`);
    const buf = res.rawPayload;
    expect(buf.subarray(0, 2).toString()).toBe('PK');
    const entries = unzip(buf);
    expect([...entries.keys()]).toEqual(expect.arrayContaining(['README.txt', 'report.json', 'report.pdf', 'tables/notes.json', 'tables/jobs.json']));
    const report = JSON.parse(entries.get('report.json')!.toString('utf8'));
    expect(report.subject.name).toBe(NAME);
    expect(report.notes).toHaveLength(3);
    expect(entries.get('README.txt')!.toString()).toContain('Subject-access report');
    expect((await t.db.selectFrom('activity_log').select('id').where('action', '=', 'tenant.gdpr_export').execute()).length).toBe(2);
  });

  it('report: 404 for another agency, 400 for an unknown format, 403 for agents', async () => {
    expect((await w.adminB.client.get(`/api/tenants/${tenant.uuid}/gdpr-report`)).statusCode).toBe(404);
    expect((await w.adminA.client.get(`/api/tenants/${tenant.uuid}/gdpr-report?format=xml`)).statusCode).toBe(400);
    expect((await w.agentA1.client.get(`/api/tenants/${tenant.uuid}/gdpr-report`)).statusCode).toBe(403);
    expect((await w.sysops.client.get(`/api/tenants/${tenant.uuid}/gdpr-report`)).statusCode).toBe(200);
  });

  it('erasure is refused with 409 while an open job needs the tenant; only administrators may force', async () => {
    const res = await w.adminA.client.post(`/api/tenants/${tenant.uuid}/erase`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Tenant has 1 open job; close it first, or an administrator may send force: true');
    const now = new Date();
    const role = await t.db.insertInto('roles').values({ name: 'GDPR officer', code: 'gdpr_officer', level: 60, agency_id: w.agencyA.id, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('role_permissions').values([{ role_id: role.id, permission_key: 'api.tenants.erase.manage' }]).execute();
    const officer = await userClient(t, { role: 'gdpr_officer', agencyId: w.agencyA.id });
    const forced = await officer.client.post(`/api/tenants/${tenant.uuid}/erase`, { force: true });
    expect(forced.statusCode).toBe(403);
    expect(forced.json().error).toBe('Only an administrator may force an erasure');
    expect((await w.agentA1.client.post(`/api/tenants/${tenant.uuid}/erase`, { force: true })).statusCode).toBe(403);
    expect((await w.adminB.client.post(`/api/tenants/${tenant.uuid}/erase`, { force: true })).statusCode).toBe(404);
    expect((await w.adminA.client.post(`/api/tenants/${tenant.uuid}/erase`, { force: true }, { csrf: false })).statusCode).toBe(403);
    const row = await t.db.selectFrom('tenants').select(['name', 'erased_at']).where('id', '=', tenantId).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: NAME, erased_at: null });
  });

  it('an administrator forces the erasure: the name, e-mail and phone appear nowhere in the database afterwards', async () => {
    expect((await occurrences(t, NAME)).length).toBeGreaterThan(3);
    const jobsBefore = (await t.db.selectFrom('jobs').select('id').execute()).length;
    const logBefore = (await t.db.selectFrom('activity_log').select('id').execute()).length;
    const res = await w.adminA.client.post(`/api/tenants/${tenant.uuid}/erase`, { force: true });
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ uuid: tenant.uuid, forced: true, open_jobs: 1, users_disabled: 1, jobs_scrubbed: 1, notes_scrubbed: 1 });
    expect(d.name).toMatch(/^Erased tenant [0-9a-f]{4}$/);

    expect(await occurrences(t, NAME)).toEqual([]);
    expect(await occurrences(t, EMAIL)).toEqual([]);
    expect(await occurrences(t, LOGIN_EMAIL)).toEqual([]);
    expect(await occurrences(t, PHONE)).toEqual([]);

    const job = await t.db.selectFrom('jobs').select(['title', 'description']).where('id', '=', openJob.id).executeTakeFirstOrThrow();
    expect(job).toEqual({ title: `Leak reported by ${d.name}`, description: 'Call [erased e-mail] or [erased phone]' });
    expect((await t.db.selectFrom('jobs').select('id').execute()).length).toBe(jobsBefore);
    expect((await t.db.selectFrom('activity_log').select('id').execute()).length).toBe(logBefore + 1);
    const entry = await t.db.selectFrom('activity_log').select(['resource_type', 'resource_id', 'details']).where('action', '=', 'tenant.erase').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ resource_type: 'tenant', resource_id: tenantId, details: { forced: true, open_jobs: 1 } });
    const user = await t.db.selectFrom('users').select(['status', 'disabled_at', 'email']).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(user.status).toBe('disabled');
    expect(user.email).toMatch(/^erased-.*@erased\.invalid$/);
    expect((await tenantClient.get('/api/jobs/manage')).statusCode).toBe(401);
    const live = await t.db.selectFrom('auth_tokens').select('auth_tokens.id').innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .where('users.tenant_id', '=', tenantId).where('auth_tokens.revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    const consents = await t.db.selectFrom('gdpr_consents').select(['withdrawn_at', 'withdrawn_source']).where('tenant_id', '=', tenantId).execute();
    expect(consents).toEqual([{ withdrawn_at: expect.any(Date), withdrawn_source: 'erasure' }]);
    expect((await t.db.selectFrom('tenant_addresses').select('address_id').where('tenant_id', '=', tenantId).execute())).toEqual([]);
    await expect(login(t.app, LOGIN_EMAIL)).rejects.toThrow();
  });

  it('an erased tenant reads as erased, cannot be erased or edited again, and is out of the default list', async () => {
    const read = await w.adminA.client.get(`/api/tenants/${tenant.uuid}`);
    expect(read.json().data).toMatchObject({ email: null, phone: null, notes: null, erased_at: '2026-11-21T09:00:00.000Z' });
    const again = await w.adminA.client.post(`/api/tenants/${tenant.uuid}/erase`, { force: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Tenant has already been erased');
    expect((await w.adminA.client.put(`/api/tenants/${tenant.uuid}`, { name: 'Back again' })).statusCode).toBe(409);
    expect((await w.adminA.client.get('/api/tenants')).json().count).toBe(0);
    expect((await w.adminA.client.get('/api/tenants?include_erased=true')).json().count).toBe(1);
    const report = (await w.adminA.client.get(`/api/tenants/${tenant.uuid}/gdpr-report`)).json().data;
    expect(report.subject.name).toMatch(/^Erased tenant/);
  });

  it('a tenant without open jobs is erased without force', async () => {
    const other = (await w.adminA.client.post('/api/tenants', { name: 'Quiet Person', email: 'quiet@example.test' })).json().data;
    const otherId = (await t.db.selectFrom('tenants').select('id').where('uuid', '=', other.uuid).executeTakeFirstOrThrow()).id;
    await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, tenantId: otherId, title: 'Done job', statusId: 9 });
    const res = await w.adminA.client.post(`/api/tenants/${other.uuid}/erase`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ forced: false, open_jobs: 0, users_disabled: 0 });
    expect(await occurrences(t, 'Quiet Person')).toEqual([]);
  });
});

describe("GDPR subject-access report: the tenant's conversations and SMS log", () => {
  const SID = `AC${'0123456789abcdef'.repeat(2)}`;
  const TOKEN = 'test-auth-token-0123456789';
  const PUBLIC = 'https://caretaker.example.test';
  const MOBILE = '+447700900123';
  let t: TestApp;
  let w: Awaited<ReturnType<typeof conversationsWorld>>;
  let twilio: Awaited<ReturnType<typeof startTwilioServer>>;
  let tenantUuid: string;
  const twilioPost = (path: string, params: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signTwilio(TOKEN, `${PUBLIC}${path}`, params) }, payload: new URLSearchParams(params).toString() });

  beforeAll(async () => {
    twilio = await startTwilioServer(SID, TOKEN);
    t = await buildTestApp({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+447700900000', TWILIO_API_URL: twilio.url, CARETAKER_PUBLIC_URL: PUBLIC });
    w = await conversationsWorld(t);
    tenantUuid = (await t.db.selectFrom('tenants').select('uuid').where('id', '=', w.tenantId).executeTakeFirstOrThrow()).uuid;
    const base = `/api/jobs/${w.job.uuid}/threads`;
    expect((await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenantUuid, purpose: 'sms_updates', source: 'phone' })).statusCode).toBe(201);
    // A staff message in the tenant's thread: e-mailed and texted; Twilio reports delivery and price.
    expect((await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'The plumber comes on Thursday, 8-12.' })).statusCode).toBe(201);
    await deliver(t);
    const sms = twilio.sent[0]!;
    const report = { AccountSid: SID, MessageSid: sms.sid, MessageStatus: 'delivered', To: MOBILE, From: '+447700900000', ErrorCode: '', Price: '-0.04000', PriceUnit: 'GBP', NumSegments: '1' };
    expect((await twilioPost('/api/sms/twilio/status', report)).statusCode).toBe(200);
    // The tenant answers by text, writes in the console, then replies STOP.
    t.clock.advance(60);
    await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMreply0001', From: MOBILE, To: '+447700900000', Body: 'Thursday is fine, thank you' });
    await deliver(t);
    t.clock.advance(60);
    expect((await w.tenant.client.post(`${base}/tenant/messages`, { body: 'Please ring the bell twice.' })).statusCode).toBe(201);
    t.clock.advance(60);
    await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMstop0001', From: MOBILE, To: '+447700900000', Body: 'STOP' });
    t.clock.advance(60);
    await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'Reminder: plumber tomorrow.' });
    // Not about the tenant: the contractor's and the internal thread; another agency's text from the same number.
    await w.agentA1.client.post(`${base}/contractor/messages`, { body: 'Key is with the neighbour at number 14.' });
    await w.agentA1.client.post(`${base}/internal/messages`, { body: 'Tenant sounded annoyed.' });
    await deliver(t);
    const now = t.clock.now();
    await t.db.insertInto('sms_messages').values({
      uuid: newUuid(), agency_id: w.agencyB.id, direction: 'inbound', delivery_id: null, thread_id: null, to_number: '+447700900000', from_number: MOBILE,
      body: 'For agency B only', provider: 'twilio', provider_sid: 'SMotheragency', status: 'received', error_code: null, segments: null, price_micros: null,
      price_currency: null, created_at: now, updated_at: now,
    }).execute();
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  it('lists the messages they wrote or that were written in their thread, and every text with number, status and cost', async () => {
    const res = await w.adminA.client.get(`/api/tenants/${tenantUuid}/gdpr-report`);
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    expect(r.conversations.map((m: { thread: string; author_kind: string; channel: string; body: string; written_by_subject: boolean }) =>
      [m.thread, m.author_kind, m.channel, m.body, m.written_by_subject])).toEqual([
      ['tenant', 'staff', 'web', 'The plumber comes on Thursday, 8-12.', false],
      ['tenant', 'tenant', 'sms', 'Thursday is fine, thank you', true],
      ['tenant', 'tenant', 'web', 'Please ring the bell twice.', true],
      ['tenant', 'staff', 'web', 'Reminder: plumber tomorrow.', false],
      ['contractor', 'staff', 'web', 'Key is with the neighbour at number 14.', false],
      ['internal', 'staff', 'web', 'Tenant sounded annoyed.', false],
    ]);
    expect(r.conversations[0]).toMatchObject({ job_uuid: w.job.uuid, job_reference: w.job.reference, files: [] });
    // Every thread of a job naming the tenant is about them; another agency's text never is.
    expect(JSON.stringify(r)).not.toMatch(/For agency B only/);
    expect(r.sms.numbers).toEqual([{ number: MOBILE, opted_out_at: expect.any(String), opt_out_keyword: 'STOP' }]);
    // The STOP withdrew it (docs/gdpr.md "Consents by text").
    expect(r.sms.consents).toEqual([expect.objectContaining({ purpose: 'sms_updates', source: 'phone', active: false, withdrawn_source: 'sms_reply' })]);
    expect(r.sms.messages).toEqual([
      expect.objectContaining({ direction: 'outbound', kind: 'conversation.message', to_number: MOBILE, from_number: '+447700900000', status: 'delivered', reason: null, segments: 1, price_micros: 40_000, price_currency: 'GBP', sent_at: expect.any(String) }),
      expect.objectContaining({ direction: 'inbound', kind: null, from_number: MOBILE, status: 'received', body: 'Thursday is fine, thank you' }),
      expect.objectContaining({ direction: 'outbound', kind: 'conversation.message', to_number: MOBILE, status: 'suppressed', reason: 'opted_out', price_micros: null, sent_at: null }),
    ]);
    // STOP and START are not logged as messages; the other agency's text is not there.
    expect(r.sms.messages).toHaveLength(3);
  });

  it("another agency's administrator gets 404; the zip's README names the new sections", async () => {
    expect((await w.adminB.client.get(`/api/tenants/${tenantUuid}/gdpr-report`)).statusCode).toBe(404);
    const entries = unzip((await w.adminA.client.get(`/api/tenants/${tenantUuid}/gdpr-report?format=zip`)).rawPayload);
    const readme = entries.get('README.txt')!.toString();
    expect(readme).toMatch(/conversations +messages the tenant wrote/);
    expect(readme).toMatch(/sms +the tenant's numbers/);
    expect(JSON.parse(entries.get('report.json')!.toString()).sms.messages).toHaveLength(3);
  });
});
