/**
 * Transactional messages (docs/messaging.md): each event reaches the right people and no one
 * else (other agencies, other branches, other tenants and contractors), a withdrawn GDPR consent
 * or a preference switched off suppresses the message, a rolled-back change sends nothing, and an
 * SMTP server that refuses twice gets the message once, after backoff.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../../src/events/index.ts';
import { newUuid } from '../../../src/lib/crypto.ts';
import { STATUS } from '../../../src/modules/jobs/jobs/lifecycle.ts';
import { sendDueDeliveries } from '../../../src/modules/messaging/messaging/index.ts';
import { buildTestApp, userClient, type TestApp } from '../../helpers/app.ts';
import { insertJob, jobsWorld, type JobsWorld } from '../../jobs/jobs/fixtures.ts';
import { deliver, deliveries, startFlakySmtp } from './helpers.ts';

describe('transactional e-mail on domain events', () => {
  let t: TestApp;
  let w: JobsWorld;
  let smtp: Awaited<ReturnType<typeof startFlakySmtp>>;
  let agentA1b: Awaited<ReturnType<typeof userClient>>;
  let agentB1: Awaited<ReturnType<typeof userClient>>;
  beforeAll(async () => {
    smtp = await startFlakySmtp();
    t = await buildTestApp({ SMTP_URL: smtp.url, CARETAKER_PUBLIC_URL: 'https://app.caretaker.test' });
    w = await jobsWorld(t);
    agentA1b = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Second Agent' });
    agentB1 = await userClient(t, { role: 'agent', agencyId: w.agencyB.id, branchId: w.b1.id });
    await userClient(t, { role: 'tenant', agencyId: w.agencyB.id });
    await deliver(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** Messages received since `from`, as [recipient, subject]. */
  const since = (from: number) => smtp.state.messages.slice(from).map((m) => [m.to.join(','), m.subject] as const);

  it('job created for a tenant: the tenant alone hears it was received', async () => {
    const from = smtp.state.messages.length;
    const res = await w.agentA1.client.post('/api/jobs/manage', { title: 'Boiler not firing', priority: 2, address_uuid: w.address.uuid, tenant_uuid: w.tenant.uuid });
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json().data;
    expect(smtp.state.messages.length).toBe(from);
    expect(await deliver(t)).toMatchObject({ sent: 1, retrying: 0 });
    expect(since(from)).toEqual([[w.tenantUser.user.email, `We received your repair request ${job.reference}`]]);
    const mail = smtp.state.messages.at(-1)!;
    expect(mail.text).toContain('Hello Test tenant,');
    expect(mail.text).toContain(`https://app.caretaker.test/jobs/${job.uuid}`);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    const row = (await deliveries(t, w.agencyA.id)).at(-1)!;
    expect(row).toMatchObject({ event_name: 'job.created', template_key: 'job.received', channel: 'email', status: 'sent', attempts: 1, recipient_user_id: w.tenantUser.user.id, content: null });
    expect(await deliver(t)).toMatchObject({ sent: 0 });
  });

  it('assignment with a date: the contractor hears of the job, the tenant of the visit with its slot; nobody else', async () => {
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.approved, tenant_id: w.tenant.id, address_id: w.address.id, title: 'Dripping tap' });
    const from = smtp.state.messages.length;
    const res = await w.agentA1.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor.uuid, scheduled_for: '2026-11-25', time_range_id: 1 });
    expect(res.statusCode, res.body).toBe(200);
    await deliver(t);
    const got = since(from).sort();
    expect(got.map(([to]) => to)).toEqual([w.contractorUser.user.email, w.tenantUser.user.email].sort());
    const visit = smtp.state.messages.slice(from).find((m) => m.to[0] === w.tenantUser.user.email)!;
    expect(visit.subject).toMatch(/^Visit booked for Wednesday 25 November 2026 \(FIX-\d{6}\)$/);
    expect(visit.text).toContain('Acme Plumbing will visit on Wednesday 25 November 2026, Morning 08:00-12:00.');
    const assigned = smtp.state.messages.slice(from).find((m) => m.to[0] === w.contractorUser.user.email)!;
    expect(assigned.subject).toMatch(/^New job FIX-\d{6}: Dripping tap$/);
  });

  it('decline: the agents of the job branch only (not branch A2, not agency B, not admins)', async () => {
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.assigned, contractor_id: w.contractor.id });
    const from = smtp.state.messages.length;
    const res = await w.contractorUser.client.post(`/api/jobs/${job.uuid}/assignment/decline`, { reason: 'No engineer free' });
    expect(res.statusCode, res.body).toBe(200);
    await deliver(t);
    expect(since(from).map(([to]) => to).sort()).toEqual([w.agentA1.user.email, agentA1b.user.email].sort());
    expect(smtp.state.messages.at(-1)!.text).toContain('Reason: No engineer free');
    expect(since(from).map(([to]) => to)).not.toContain(w.agentA2.user.email);
    expect(since(from).map(([to]) => to)).not.toContain(agentB1.user.email);
  });

  it('cancelled: the contractor of the job; completed: the tenant of the job', async () => {
    const scheduled = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.scheduled, contractor_id: w.contractor2.id, tenant_id: w.tenant2.id });
    let from = smtp.state.messages.length;
    expect((await w.agentA1.client.post(`/api/jobs/${scheduled.uuid}/transitions`, { to_status_id: STATUS.cancelled })).statusCode).toBe(200);
    await deliver(t);
    expect(since(from)).toEqual([[w.contractor2User.user.email, expect.stringMatching(/^Job cancelled: FIX-\d{6}$/)]]);
    const working = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.inProgress, contractor_id: w.contractor.id, tenant_id: w.tenant2.id });
    from = smtp.state.messages.length;
    expect((await w.contractorUser.client.post(`/api/jobs/${working.uuid}/transitions`, { to_status_id: STATUS.completed })).statusCode).toBe(200);
    await deliver(t);
    expect(since(from)).toEqual([[w.tenant2User.user.email, expect.stringMatching(/^Work completed: FIX-\d{6}$/)]]);
  });

  it('SLA at risk and breached reach the branch agents (mode immediate); a certificate expiring reaches the agency admins', async () => {
    // SLA e-mails default to the hourly digest (test/messaging/messaging/notifications-arrive.test.ts); these agents ask for each one.
    for (const agent of [w.agentA1.client, agentA1b.client]) {
      expect((await agent.put('/api/users/me/notification-preferences', { preferences: [{ event: 'sla.breached', channel: 'email', mode: 'immediate' }] })).statusCode).toBe(200);
    }
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.approved });
    const cert = await t.db
      .insertInto('contractor_certifications')
      .values({ uuid: newUuid(), agency_id: w.agencyA.id, contractor_id: w.contractor.id, cert_type: 'gas_safe', reference: 'GS-1', issued_on: null, expires_on: '2026-12-15', file_key: null, file_mime: null, file_size: null, file_sha256: null, created_at: t.clock.now(), updated_at: t.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const from = smtp.state.messages.length;
    const ref = { job_id: job.id, job_uuid: job.uuid, reference: 'FIX-X', branch_id: w.a1.id, clock_id: 1, rule_uuid: '00000000-0000-4000-8000-000000000001', due_at: '2026-11-24T17:00:00.000Z' };
    await t.db.transaction().execute(async (trx) => {
      await emitEvent(trx, t.clock.now(), { name: 'sla.breached', agencyId: w.agencyA.id, payload: ref });
      await emitEvent(trx, t.clock.now(), { name: 'contractor.certificate_expiring', agencyId: w.agencyA.id, payload: { contractor_id: w.contractor.id, certification_id: cert.id, expires_on: '2026-12-15' } });
    });
    await deliver(t);
    const got = since(from);
    expect(got.filter(([, s]) => s.startsWith('SLA breached')).map(([to]) => to).sort()).toEqual([w.agentA1.user.email, agentA1b.user.email].sort());
    expect(got.filter(([, s]) => s.startsWith('Certificate expiring')).map(([to]) => to)).toEqual([w.adminA.user.email]);
    expect(got).toHaveLength(3);
    // People's dates: the due time in London terms, never ISO (docs/messaging.md, "Dates")
    const breach = smtp.state.messages.slice(from).find((m) => m.subject.startsWith('SLA breached'))!;
    expect(breach.text).toContain('It was due Tue 24 Nov 2026, 17:00 (London time).');
    expect(breach.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const expiring = smtp.state.messages.slice(from).find((m) => m.subject.startsWith('Certificate expiring'))!;
    expect(expiring.subject).toContain('on Tue 15 Dec 2026');
    expect(expiring.text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('an event naming another agency job sends nothing; a rolled-back change emits and sends nothing', async () => {
    const jobA = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, tenant_id: w.tenant.id });
    const from = smtp.state.messages.length;
    await t.db.transaction().execute((trx) =>
      emitEvent(trx, t.clock.now(), { name: 'job.created', agencyId: w.agencyB.id, payload: { job_id: jobA.id, job_uuid: jobA.uuid, reference: 'FIX-Y', branch_id: w.a1.id, status_id: 1, priority: 3, tenant_id: w.tenant.id } }),
    );
    await expect(
      t.db.transaction().execute(async (trx) => {
        await emitEvent(trx, t.clock.now(), { name: 'job.created', agencyId: w.agencyA.id, payload: { job_id: jobA.id, job_uuid: jobA.uuid, reference: 'FIX-Y', branch_id: w.a1.id, status_id: 1, priority: 3, tenant_id: w.tenant.id } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await deliver(t);
    expect(since(from)).toEqual([]);
    expect(await deliveries(t, w.agencyB.id)).toEqual([]);
  });

  it('a tenant who withdrew the e-mail consent gets nothing (logged suppressed); a preference switched off likewise', async () => {
    const given = await w.adminA.client.post('/api/gdpr/consents', { tenant_uuid: w.tenant2.uuid, purpose: 'email_updates', source: 'web_form' });
    expect(given.statusCode, given.body).toBe(201);
    expect((await w.adminA.client.post(`/api/gdpr/consents/${given.json().data.uuid}/withdraw`, { source: 'email' })).statusCode).toBe(200);
    const prefs = await w.tenantUser.client.put('/api/users/me/notification-preferences', { preferences: [{ event: 'job.received', channel: 'email', enabled: false }] });
    expect(prefs.statusCode, prefs.body).toBe(200);
    expect(prefs.json().data).toContainEqual(expect.objectContaining({ event: 'job.received', channel: 'email', enabled: false }));
    const from = smtp.state.messages.length;
    for (const tenant of [w.tenant2, w.tenant]) {
      expect((await w.agentA1.client.post('/api/jobs/manage', { title: 'Damp wall', priority: 4, tenant_uuid: tenant.uuid, address_uuid: tenant === w.tenant ? w.address.uuid : w.address2.uuid })).statusCode).toBe(201);
    }
    await deliver(t);
    expect(since(from)).toEqual([]);
    const rows = (await deliveries(t, w.agencyA.id)).slice(-2);
    expect(rows.map((r) => [r.recipient_user_id, r.status, r.reason, r.content])).toEqual([
      [w.tenant2User.user.id, 'suppressed', 'consent_withdrawn', null],
      [w.tenantUser.user.id, 'suppressed', 'preference_off', null],
    ]);
    const bad = await w.tenantUser.client.put('/api/users/me/notification-preferences', { preferences: [{ event: 'sla.breached', channel: 'email', enabled: false }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Invalid or missing required parameter: preferences[0].event');
    await w.tenantUser.client.put('/api/users/me/notification-preferences', { preferences: [{ event: 'job.received', channel: 'email', enabled: true }] });
  });

  it('an SMTP server that refuses twice gets the message once, after backoff; the log shows attempts and the last error', async () => {
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.inProgress, tenant_id: w.tenant.id });
    smtp.state.failNext = 2;
    const from = smtp.state.messages.length;
    expect((await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: STATUS.completed })).statusCode).toBe(200);
    expect(await deliver(t)).toMatchObject({ sent: 0, retrying: 1 });
    const row = async () => (await deliveries(t, w.agencyA.id)).at(-1)!;
    expect(await row()).toMatchObject({ status: 'queued', attempts: 1, last_error: expect.stringContaining('Mailbox busy') });
    expect(await sendDueDeliveries(t.deps)).toMatchObject({ sent: 0, retrying: 0 });
    t.clock.advance(60);
    expect(await sendDueDeliveries(t.deps)).toMatchObject({ retrying: 1 });
    t.clock.advance(299);
    expect(await sendDueDeliveries(t.deps)).toMatchObject({ sent: 0, retrying: 0 });
    t.clock.advance(1);
    expect(await sendDueDeliveries(t.deps)).toMatchObject({ sent: 1 });
    expect(await deliver(t)).toMatchObject({ sent: 0, retrying: 0 });
    expect(smtp.state.refused).toBe(2);
    expect(since(from)).toEqual([[w.tenantUser.user.email, expect.stringMatching(/^Work completed/)]]);
    expect(await row()).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
  });

  it('GET /api/messaging/deliveries: the agency log with filters and pagination; other agencies and agents see none of it', async () => {
    const all = await w.adminA.client.get('/api/messaging/deliveries?limit=200');
    expect(all.statusCode, all.body).toBe(200);
    const total = all.json().count as number;
    expect(total).toBe((await deliveries(t, w.agencyA.id)).length);
    const page = await w.adminA.client.get('/api/messaging/deliveries?status=suppressed&limit=1&offset=1');
    expect(page.json()).toMatchObject({ success: true, count: 2, data: [{ status: 'suppressed', reason: 'consent_withdrawn', channel: 'email', event: 'job.created', template: 'job.received' }] });
    const mine = await w.adminA.client.get(`/api/messaging/deliveries?recipient=${encodeURIComponent(w.tenantUser.user.email)}&template=job.completed`);
    expect(mine.json().data[0]).toMatchObject({ status: 'sent', attempts: 3, recipient: { kind: 'tenant', user_uuid: w.tenantUser.user.uuid, address: w.tenantUser.user.email } });
    expect((await w.adminB.client.get('/api/messaging/deliveries')).json().count).toBe(0);
    expect((await w.agentA1.client.get('/api/messaging/deliveries')).statusCode).toBe(403);
    expect((await w.adminA.client.get('/api/messaging/deliveries?status=bogus')).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/messaging/deliveries?from_date=2026-11-22&to_date=2026-11-21')).statusCode).toBe(400);
  });
});
