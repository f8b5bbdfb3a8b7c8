/**
 * The push channel and GDPR erasure in the delivery log (docs/messaging.md): a recipient with a
 * device token gets a push delivery rendered from the agency's push template (the push module
 * sends it); an erased tenant's deliveries lose their address, subject and queued message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents, emitEvent } from '../../src/events/index.ts';
import { backgroundHandlers } from '../../src/background.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { jobsWorld, type JobsWorld } from '../jobs/fixtures.ts';
import { deliveries, startFlakySmtp } from './helpers.ts';

describe('push deliveries and erasure', () => {
  let t: TestApp;
  let w: JobsWorld;
  let smtp: Awaited<ReturnType<typeof startFlakySmtp>>;
  beforeAll(async () => {
    smtp = await startFlakySmtp();
    t = await buildTestApp({ SMTP_URL: smtp.url });
    w = await jobsWorld(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('plans a push from the agency push template for a recipient with a device token, and an e-mail beside it', async () => {
    await t.db.insertInto('device_tokens').values({ user_id: w.tenantUser.user.id, device_token: 'tok-1', token_hash: 'a'.repeat(64), platform: 'android', registered_at: t.clock.now() }).execute();
    expect((await w.adminA.client.put('/api/messaging/templates/job.received.push', { title: 'Thanks {{ recipient.name }}' })).statusCode).toBe(200);
    const res = await w.agentA1.client.post('/api/jobs/manage', { title: 'Loose tile', priority: 4, tenant_uuid: w.tenant.uuid, address_uuid: w.address.uuid });
    expect(res.statusCode).toBe(201);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = await deliveries(t, w.agencyA.id);
    expect(rows.map((r) => [r.channel, r.status, r.recipient_user_id, r.subject])).toEqual([
      ['email', 'queued', w.tenantUser.user.id, `We received your repair request ${res.json().data.reference}`],
      ['push', 'queued', w.tenantUser.user.id, 'Thanks Test tenant'],
    ]);
    const push = rows[1]!;
    const content = (typeof push.content === 'string' ? JSON.parse(push.content) : push.content) as Record<string, unknown>;
    expect(content).toEqual({ title: 'Thanks Test tenant', body: `${res.json().data.reference}: Loose tile`, data: { job_uuid: res.json().data.uuid, kind: 'job.received' } });
    expect(push.recipient_address).toBeNull();
  });

  it('erasing the tenant blanks their deliveries and stops the queued ones', async () => {
    await t.db.transaction().execute((trx) => emitEvent(trx, t.clock.now(), { name: 'tenant.erased', agencyId: w.agencyA.id, payload: { tenant_id: w.tenant.id } }));
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = await deliveries(t, w.agencyA.id);
    expect(rows.map((r) => [r.status, r.reason, r.recipient_address, r.subject, r.content])).toEqual([
      ['suppressed', 'erased', null, null, null],
      ['suppressed', 'erased', null, null, null],
    ]);
  });
});
