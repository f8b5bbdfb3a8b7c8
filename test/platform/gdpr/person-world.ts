/**
 * A tenant named in rows across many tables (docs/gdpr.md): the fixture of the subject-access
 * coverage test and of the erasure test. Every row carries the name, the e-mail or the phone
 * number where the table has free text, so a search finds them before an erasure.
 */
import { sql } from 'kysely';
import { newUuid } from '../../../src/lib/crypto.ts';
import { createUser, login, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../people/contractors/helpers.ts';

export const NAME = 'Zebedee Quarrington';
export const EMAIL = 'zeb.q@example.test';
export const LOGIN_EMAIL = 'zeb.login@example.test';
export const PHONE = '0113 496 0777';
export const MOBILE = '07700 900777';
export const MOBILE_E164 = '+447700900777';

/** The seeded tenant, their account and the uuid (or marker) of each seeded row by table. */
export async function personWorld(t: TestApp) {
  const w = await standardWorld(t);
  const now = t.clock.now();
  const tenant = (await w.adminA.client.post('/api/tenants', { name: NAME, email: EMAIL, phone: PHONE, mobile: MOBILE, notes: `Spoke to ${NAME}` })).json().data as { uuid: string };
  const tenantId = (await t.db.selectFrom('tenants').select('id').where('uuid', '=', tenant.uuid).executeTakeFirstOrThrow()).id;
  const address = (await w.adminA.client.post('/api/addresses', { line1: '7 Kirkstall Road', town: 'Leeds', postcode: 'LS4 2AZ' })).json().data;
  await w.adminA.client.post('/api/tenants/assign-address', { tenant_uuid: tenant.uuid, address_id: address.ID });
  const user = await createUser(t.db, { role: 'tenant', agencyId: w.agencyA.id, tenantId, email: LOGIN_EMAIL, name: NAME });
  await login(t.app, LOGIN_EMAIL); // auth_tokens
  const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, tenantId, addressId: address.ID, title: `Leak reported by ${NAME}`, description: `Call ${EMAIL} or ${PHONE}`, statusId: 9 });
  const rows: Record<string, string> = {};
  const status = await t.db.selectFrom('job_statuses').select('name').where('id', '=', 9).executeTakeFirstOrThrow();
  await t.db.insertInto('job_status_history').values({ job_id: job.id, from_status_id: 1, to_status_id: 9, by_user_id: user.id, note: `Closed by ${NAME}`, created_at: now }).execute();
  rows.job_status_history = `Closed by ${NAME}`;
  rows.jobs = job.uuid;
  rows.tenants = tenant.uuid;
  rows.users = user.uuid;
  rows.tenant_addresses = 'LS4 2AZ';
  void status;

  const note = newUuid();
  await t.db.insertInto('job_notes').values({ uuid: note, job_id: job.id, author_user_id: null, body: `Internal: ${NAME} was upset`, visibility: 'internal', created_at: now, updated_at: now, edited_at: null }).execute();
  rows.job_notes = note;

  // A photo the tenant sent (name in its file name and caption) and a staff document showing them.
  const stored = await t.deps.files.put(Buffer.from(`letter to ${NAME}`), 'txt');
  const photo = newUuid();
  await t.db.insertInto('job_files').values({
    uuid: photo, job_id: job.id, agency_id: w.agencyA.id, kind: 'document', storage_key: stored.key, original_filename: `${NAME} letter.txt`, mime: 'text/plain',
    ext: 'txt', size_bytes: stored.size, sha256: stored.sha256, description: `Letter from ${NAME}`, uploaded_by_user_id: user.id, created_at: now, deleted_at: null,
    deleted_by_user_id: null, verified_at: null,
  }).execute();
  rows.job_files = photo;

  const delivery = newUuid();
  await t.db.insertInto('message_deliveries').values({
    uuid: delivery, agency_id: w.agencyA.id, event_id: newUuid(), event_name: 'job.status_changed', template_key: 'job.status_changed', channel: 'email',
    recipient_key: `tenant:${tenantId}`, recipient_kind: 'tenant', recipient_user_id: null, recipient_address: EMAIL, status: 'sent', reason: null,
    last_error: null, subject: `Your repair, ${NAME}`, content: null, next_attempt_at: null, created_at: now, updated_at: now, sent_at: now,
  }).execute();
  rows.message_deliveries = delivery;

  const thread = await t.db.insertInto('conversation_threads').values({ uuid: newUuid(), agency_id: w.agencyA.id, job_id: job.id, audience: 'internal', created_at: now, last_message_at: now })
    .returning('id').executeTakeFirstOrThrow();
  const message = newUuid();
  await t.db.insertInto('conversation_messages').values({
    uuid: message, agency_id: w.agencyA.id, thread_id: thread.id, job_id: job.id, author_user_id: null, author_kind: 'staff', author_key: null, author_name: 'Agent',
    channel: 'web', body: `${NAME} asked for mornings`, external_id: null, created_at: now,
  }).execute();
  rows.conversation_messages = message;
  await t.db.insertInto('conversation_reads').values({ job_id: job.id, audience: 'tenant', user_id: user.id, read_at: now }).execute();
  rows.conversation_reads = 'threads_read';

  const sms = newUuid();
  await t.db.insertInto('sms_messages').values({
    uuid: sms, agency_id: w.agencyA.id, direction: 'inbound', delivery_id: null, thread_id: null, to_number: '+447700900000', from_number: MOBILE_E164,
    body: `This is ${NAME}, mornings please`, provider: 'twilio', provider_sid: 'SMperson0001', status: 'received', error_code: null, segments: null,
    price_micros: null, price_currency: null, created_at: now, updated_at: now,
  }).execute();
  rows.sms_messages = sms;
  await t.db.insertInto('sms_opt_outs').values({ phone: MOBILE_E164, opted_out_at: now, keyword: 'STOP' }).execute();
  rows.sms_opt_outs = 'STOP';

  const hazard = newUuid();
  await t.db.insertInto('job_hazards').values({
    uuid: hazard, agency_id: w.agencyA.id, job_id: job.id, category: 'damp_mould', severity: 'significant', description: `Black mould in ${NAME}'s bedroom`,
    reported_at: now, made_safe_at: null, investigated_at: now, summary_sent_at: now, works_started_at: null, works_completed_at: null, works_working_days: 60,
    summary_findings: 'Mould on the north wall', summary_actions: 'Treat and ventilate', summary_text: `Dear ${NAME}, we investigated the mould on ${now.toISOString().slice(0, 10)}.`,
    created_by_user_id: null, created_at: now, updated_at: now, awareness_reason: null, further_works_reason: null, further_works_started_at: null,
    made_safe_recorded_at: null, investigated_recorded_at: now, works_started_recorded_at: null, further_works_started_recorded_at: null,
    works_completed_recorded_at: null, summary_delivered_at: now, summary_delivered_recorded_at: now, summary_delivery_method: 'email', summary_fallback: null,
    summary_fallback_at: null, summary_posted_by_user_id: null, summary_event_id: null,
  }).execute();
  rows.job_hazards = hazard;

  const windowUuid = newUuid();
  await t.db.insertInto('job_visit_windows').values({ uuid: windowUuid, agency_id: w.agencyA.id, job_id: job.id, starts_at: now, ends_at: new Date(now.getTime() + 4 * 3600_000), given_by: 'tenant', by_user_id: user.id, created_at: now }).execute();
  rows.job_visit_windows = windowUuid;
  const link = newUuid();
  await t.db.insertInto('visit_links').values({ uuid: link, agency_id: w.agencyA.id, job_id: job.id, tenant_id: tenantId, nonce: newUuid(), expires_at: now, used_at: null, used_action: null, created_at: now }).execute();
  rows.visit_links = link;
  const tenancy = (await w.adminA.client.post(`/api/properties/${address.uuid}/tenancies`, { starts_on: '2026-01-15', tenant_uuids: [tenant.uuid] })).json().data as { uuid: string };
  rows.tenancies = tenancy.uuid;
  rows.tenancy_tenants = tenancy.uuid;
  await w.adminA.client.post(`/api/properties/${address.uuid}/tenancies/${tenancy.uuid}/served-documents`, {
    document: 'how_to_rent', guide_edition: '2025-10-01', served_on: '2026-01-10', method: 'email', proof_note: `Sent to ${EMAIL}`,
  });
  rows.tenancy_served_documents = `Sent to ${EMAIL}`;

  const flow = await t.db.insertInto('triage_flows').values({ uuid: newUuid(), agency_id: w.agencyA.id, code: 'leak', name: 'Leak', retired_at: null, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const version = await t.db.insertInto('triage_flow_versions').values({ flow_id: flow.id, version: 1, name: 'Leak', tree: '{}', created_by_user_id: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  const report = newUuid();
  await t.db.insertInto('tenant_reports').values({
    uuid: report, agency_id: w.agencyA.id, branch_id: w.a1.id, flow_id: flow.id, flow_version_id: version.id, tenant_id: tenantId, reported_by_user_id: user.id,
    address_id: address.ID, answers: JSON.stringify([{ node: 'q1', question: 'Who is reporting?', option: null, answer: NAME }]), outcome: 'job', outcome_node: 'end',
    job_id: job.id, description: `Reported by ${NAME}`, created_at: now,
  }).execute();
  rows.tenant_reports = report;
  const survey = newUuid();
  await t.db.insertInto('job_surveys').values({ uuid: survey, agency_id: w.agencyA.id, job_id: job.id, tenant_id: tenantId, contractor_id: null, nonce: newUuid(), expires_at: now, answered_at: now, rating: 4, comment: `Thanks from ${NAME}`, created_at: now }).execute();
  rows.job_surveys = survey;

  await w.agentA1.client.post('/api/gdpr/consents', { tenant_uuid: tenant.uuid, purpose: 'sms_updates', source: 'phone' });
  rows.gdpr_consents = 'sms_updates';
  await t.db.insertInto('notification_preferences').values({ user_id: user.id, template_key: 'job.status_changed', channel: 'email', enabled: false, mode: 'off', updated_at: now }).execute();
  rows.notification_preferences = 'job.status_changed';
  await t.db.insertInto('notification_digest_items').values({ agency_id: w.agencyA.id, user_id: user.id, event_id: newUuid(), event_name: 'job.status_changed', template_key: 'job.status_changed', line: `${NAME}: your repair was closed`, url: null, created_at: now, sent_at: null, delivery_uuid: null }).execute();
  rows.notification_digest_items = 'your repair was closed';
  const notice = await t.db.insertInto('notices').values({ uuid: newUuid(), agency_id: w.agencyA.id, branch_id: null, role_id: null, title: 'Water off on Friday', body: 'Works', severity: 'info', starts_at: now, expires_at: null, created_by_user_id: null, created_at: now, updated_at: now, deleted_at: null })
    .returning('id').executeTakeFirstOrThrow();
  await t.db.insertInto('notice_reads').values({ notice_id: notice.id, user_id: user.id, read_at: now }).execute();
  rows.notice_reads = 'Water off on Friday';
  await t.db.insertInto('device_tokens').values({ user_id: user.id, device_token: newUuid(), token_hash: newUuid(), platform: 'android', registered_at: now }).execute();
  rows.device_tokens = 'android';
  await t.db.insertInto('user_appearance').values({ user_id: user.id, dashboard_bg_custom: '#123456', banner_key: null, banner_size: null, banner_sha256: null, banner_mime: null, banner_uploaded_at: null, updated_at: now }).execute();
  rows.user_appearance = '#123456';
  rows.auth_tokens = 'signed_in_at';
  const block = newUuid();
  await t.db.insertInto('security_blacklist').values({ uuid: block, kind: 'account', value: null, user_id: user.id, agency_id: w.agencyA.id, reason: 'Too many failed sign-ins', added_by_user_id: null, expires_at: now, created_at: now, removed_at: now, removed_by_user_id: null }).execute();
  rows.security_blacklist = block;
  // Second factors: listed when made and used, never a secret, hash or key.
  const factorAt = new Date('2026-10-01T08:15:00.000Z');
  await t.db.insertInto('user_totp').values({ user_id: user.id, secret: 'JBSWY3DPEHPK3PXP', confirmed_at: factorAt, last_step: null, created_at: factorAt }).execute();
  rows.user_totp = '2026-10-01T08:15:00.000Z';
  await t.db.insertInto('user_recovery_codes').values({ user_id: user.id, code_hash: 'not-a-real-hash', used_at: new Date('2026-10-02T09:30:00.000Z'), created_at: factorAt }).execute();
  rows.user_recovery_codes = '2026-10-02T09:30:00.000Z';
  const passkey = newUuid();
  await t.db.insertInto('user_passkeys').values({ uuid: passkey, user_id: user.id, credential_id: newUuid(), public_key: 'x', counter: 0, name: 'Pixel 9 passkey', created_at: factorAt, last_used_at: null } as never).execute();
  rows.user_passkeys = 'Pixel 9 passkey';
  await t.db.insertInto('auth_challenges').values({ challenge_hash: newUuid(), user_id: user.id, purpose: 'second_factor', credential: null, webauthn_challenge: null, totp_secret: null, created_at: factorAt, expires_at: new Date('2026-10-01T08:20:00.000Z'), used_at: null } as never).execute();
  rows.auth_challenges = '2026-10-01T08:20:00.000Z';
  rows.activity_log = 'tenant.create';

  // An import of tenants kept on the server (the dry run's rows).
  const imp = await t.db.insertInto('imports').values({ uuid: newUuid(), agency_id: w.agencyA.id, entity: 'tenants', file_name: 'tenants.csv', file_sha256: 'x', status: 'committed', counts: '{}', encoding: 'utf-8', delimiter: ',', failure: null, created_by: null, created_at: now, updated_at: now, committed_at: now })
    .returning('id').executeTakeFirstOrThrow();
  await t.db.insertInto('import_rows').values({ import_id: imp.id, row_number: 2, outcome: 'create', data: JSON.stringify({ name: NAME, email: EMAIL }), errors: '[]' }).execute();

  // An e-mail to the tenant in the mail folder (file transport).
  await t.deps.mailer.send({ to: EMAIL, subject: `Your repair, ${NAME}`, text: `Dear ${NAME},\n\nthe plumber comes on Thursday.` });

  return { w, tenant, tenantId, user, job, address, rows };
}

/** Every `table.column` of the public schema (text, varchar, json, jsonb) where `needle` occurs (case-insensitive). */
export async function occurrences(t: TestApp, needle: string): Promise<string[]> {
  const cols = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
    where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'character', 'jsonb', 'json')
    order by 1, 2`.execute(t.db);
  const hits: string[] = [];
  for (const { table_name, column_name } of cols.rows) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)} where ${sql.ref(column_name)}::text ilike ${`%${needle}%`}`.execute(t.db);
    if (r.rows[0]!.n > 0) hits.push(`${table_name}.${column_name}`);
  }
  return hits;
}
