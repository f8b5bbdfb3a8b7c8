/**
 * Notifications that arrive (docs/messaging.md "Slots", "Cutting text"): two messages of one
 * event to one person each keep their own delivery row (the "Work completed" e-mail and the
 * satisfaction survey both reach a tenant without an account); a staff message of emoji is cut by
 * grapheme for its SMS, so the handler no longer fails on a split surrogate pair; a delivery that
 * cannot be logged fails with a message naming the recipient and the cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { newUuid } from '../../../src/lib/crypto.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { queueEmail } from '../../../src/modules/messaging/messaging/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../jobs/jobs/fixtures.ts';
import { conversationsWorld } from '../../jobs/conversations/helpers.ts';
import { deliver, startFlakySmtp } from './helpers.ts';

/** True when the text holds a UTF-16 surrogate without its other half. */
const loneSurrogate = (s: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe('notifications that arrive', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof conversationsWorld>>;
  let smtp: Awaited<ReturnType<typeof startFlakySmtp>>;
  beforeAll(async () => {
    smtp = await startFlakySmtp();
    t = await buildTestApp({ SMTP_URL: smtp.url, CARETAKER_PUBLIC_URL: 'https://app.caretaker.test' });
    w = await conversationsWorld(t);
    await deliver(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a completed job: the tenant without an account receives both the "Work completed" e-mail and the survey', async () => {
    const now = t.clock.now();
    const tenant = await t.db
      .insertInto('tenants')
      .values({ uuid: newUuid(), agency_id: w.agencyA.id, name: 'Ruth Okafor', email: 'ruth.okafor@example.test', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 6, tenant_id: tenant.id, contractor_id: w.contractorId, attended_at: now, title: 'Leaking trap' });
    const from = smtp.state.messages.length;
    const done = await w.agentA1.client.post(`/api/jobs/${job.uuid}/transitions`, { to_status_id: 7 });
    expect(done.statusCode, done.body).toBe(200);
    await deliver(t);
    const got = smtp.state.messages.slice(from).map((m) => [m.to.join(','), m.subject.replace(/FIX-\d+/, 'FIX')]).sort();
    expect(got).toEqual([
      ['ruth.okafor@example.test', 'How did we do? FIX Leaking trap'],
      ['ruth.okafor@example.test', 'Work completed: FIX'],
    ]);
    const rows = await t.db.selectFrom('message_deliveries').select(['template_key', 'recipient_key', 'status']).where('recipient_key', '=', `tenant:${tenant.id}`).orderBy('template_key').execute();
    expect(rows).toEqual([
      { template_key: 'job.completed', recipient_key: `tenant:${tenant.id}`, status: 'sent' },
      { template_key: 'survey.requested', recipient_key: `tenant:${tenant.id}`, status: 'sent' },
    ]);
  });

  it('a staff message of 150 emoji: its SMS is cut by grapheme and queued; the e-mail keeps the whole text', async () => {
    const now = t.clock.now();
    await t.db.insertInto('gdpr_consents').values({ uuid: newUuid(), agency_id: w.agencyA.id, tenant_id: w.tenantId, user_id: null, purpose: 'sms_updates', source: 'web_form', given_at: now, withdrawn_at: null, withdrawn_source: null, recorded_by_user_id: null, created_at: now }).execute();
    const body = '🔧'.repeat(150);
    const posted = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/threads/tenant/messages`, { body, urgent: true });
    expect(posted.statusCode, posted.body).toBe(201);
    // The handler used to fail here on every retry: "invalid input syntax for type json".
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const sms = await t.db.selectFrom('message_deliveries').select(['status', 'content']).where('channel', '=', 'sms').where('event_name', '=', 'conversation.message_posted').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(sms.status).toBe('queued');
    const text = (sms.content as { text: string }).text;
    expect(loneSurrogate(text)).toBe(false);
    const cut = /: ((?:🔧)+)\.\.\.\n/u.exec(text);
    expect(cut, text).not.toBeNull();
    // 280 UTF-16 units at most, ellipsis included: 138 whole emoji (276 units) and "...".
    expect([...cut![1]!].length).toBe(138);
    const mail = await t.db.selectFrom('message_deliveries').select(['content']).where('channel', '=', 'email').where('event_name', '=', 'conversation.message_posted').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect((mail.content as { text: string }).text).toContain(body);
  });

  it('a delivery that cannot be logged fails naming the message, the recipient and the cause', async () => {
    const at = t.clock.now();
    const bad = queueEmail(t.db, {
      agencyId: w.agencyA.id, eventId: newUuid(), eventName: 'conversation.message_posted', templateKey: 'conversation.message', recipientKey: `tenant:${w.tenantId}`,
      recipientKind: 'tenant', recipientUserId: null, address: 'emily.clarke@example.test', subject: 'Broken', text: 'half a pair: \uD83D', html: '',
    }, at);
    await expect(bad).rejects.toThrow(new RegExp(`^Could not log the email message conversation\\.message to tenant:${w.tenantId} \\(tenant\\): .*json`, 'i'));
  });
});
