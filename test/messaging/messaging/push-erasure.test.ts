/**
 * The push channel and GDPR erasure in the delivery log (docs/messaging.md): a recipient with a
 * device token gets a push delivery rendered from the agency's push template (the push module
 * sends it); an erased tenant's deliveries lose their address, subject and queued message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents, emitEvent } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { sendDueDeliveries } from '../../../src/modules/messaging/messaging/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { jobsWorld, type JobsWorld } from '../../jobs/jobs/fixtures.ts';
import { deliveries, startFlakySmtp } from './helpers.ts';

/** An app with a local SMTP server and the jobs world, opened before and closed after the describe. */
function world() {
  const s = {} as { t: TestApp; w: JobsWorld; smtp: Awaited<ReturnType<typeof startFlakySmtp>> };
  beforeAll(async () => {
    s.smtp = await startFlakySmtp();
    s.t = await buildTestApp({ SMTP_URL: s.smtp.url });
    s.w = await jobsWorld(s.t);
  });
  afterAll(async () => {
    await s.t?.close();
    await s.smtp?.close();
  });
  return s;
}

describe('push deliveries and erasure', () => {
  const s = world();

  it('plans a push from the agency push template for a recipient with a device token, and an e-mail beside it', async () => {
    await s.t.db.insertInto('device_tokens').values({ user_id: s.w.tenantUser.user.id, device_token: 'tok-1', token_hash: 'a'.repeat(64), platform: 'android', registered_at: s.t.clock.now() }).execute();
    expect((await s.w.adminA.client.put('/api/messaging/templates/job.received.push', { title: 'Thanks {{ recipient.name }}' })).statusCode).toBe(200);
    const res = await s.w.agentA1.client.post('/api/jobs/manage', { title: 'Loose tile', priority: 4, tenant_uuid: s.w.tenant.uuid, address_uuid: s.w.address.uuid });
    expect(res.statusCode).toBe(201);
    await dispatchPendingEvents(s.t.deps, backgroundHandlers());
    const rows = await deliveries(s.t, s.w.agencyA.id);
    expect(rows.map((r) => [r.channel, r.status, r.recipient_user_id, r.subject])).toEqual([
      ['email', 'queued', s.w.tenantUser.user.id, `We received your repair request ${res.json().data.reference}`],
      ['push', 'queued', s.w.tenantUser.user.id, 'Thanks Test tenant'],
    ]);
    const push = rows[1]!;
    const content = (typeof push.content === 'string' ? JSON.parse(push.content) : push.content) as Record<string, unknown>;
    expect(content).toEqual({ title: 'Thanks Test tenant', body: `${res.json().data.reference}: Loose tile`, data: { job_uuid: res.json().data.uuid, kind: 'job.received' } });
    expect(push.recipient_address).toBeNull();
  });

  it('erasing the tenant blanks their deliveries and stops the queued ones', async () => {
    await s.t.db.transaction().execute((trx) => emitEvent(trx, s.t.clock.now(), { name: 'tenant.erased', agencyId: s.w.agencyA.id, payload: { tenant_id: s.w.tenant.id } }));
    await dispatchPendingEvents(s.t.deps, backgroundHandlers());
    const rows = await deliveries(s.t, s.w.agencyA.id);
    expect(rows.map((r) => [r.status, r.reason, r.recipient_address, r.subject, r.content])).toEqual([
      ['suppressed', 'erased', null, null, null],
      ['suppressed', 'erased', null, null, null],
    ]);
  });
});

describe('push without provider credentials', () => {
  const s = world();

  it('fails at once with reason not_configured on the first attempt; the e-mail beside it is sent', async () => {
    await s.t.db.insertInto('device_tokens').values({ user_id: s.w.tenantUser.user.id, device_token: 'tok-2', token_hash: 'b'.repeat(64), platform: 'ios', registered_at: s.t.clock.now() }).execute();
    const res = await s.w.agentA1.client.post('/api/jobs/manage', { title: 'Dripping tap', priority: 4, tenant_uuid: s.w.tenant.uuid, address_uuid: s.w.address.uuid });
    expect(res.statusCode).toBe(201);
    await dispatchPendingEvents(s.t.deps, backgroundHandlers());
    expect(await sendDueDeliveries(s.t.deps)).toEqual({ sent: 1, retrying: 0, failed: 1, suppressed: 0 });
    const rows = await deliveries(s.t, s.w.agencyA.id);
    expect(rows.map((r) => [r.channel, r.status, r.reason, r.attempts, r.next_attempt_at])).toEqual([
      ['email', 'sent', null, 1, null],
      ['push', 'failed', 'not_configured', 1, null],
    ]);
  });
});
