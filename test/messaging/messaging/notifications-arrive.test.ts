/**
 * Notifications that arrive (docs/messaging.md "Slots", "Cutting text"): two messages of one
 * event to one person each keep their own delivery row (the "Work completed" e-mail and the
 * satisfaction survey both reach a tenant without an account); a staff message of emoji is cut by
 * grapheme for its SMS, so the handler no longer fails on a split surrogate pair; a delivery that
 * cannot be logged fails with a message naming the recipient and the cause; an SLA notice goes to
 * the people responsible (the job's owning agent, else the branch's agents) and those who asked for
 * it, by default as a line of the hourly digest, each person's mode honoured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents, emitEvent } from '../../../src/events/index.ts';
import { newUuid } from '../../../src/lib/crypto.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { queueEmail, sendDigests } from '../../../src/modules/messaging/messaging/index.ts';
import { buildTestApp, userClient, type Client, type TestApp } from '../../helpers/app.ts';
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

  describe('SLA notices: the people responsible, and digests', () => {
    let slaJobs = 0;
    /** The agent who switched SLA e-mails off (second test). */
    let offAgentId = 0;
    /** Emits `n` sla.breached events for a job of branch A1 (owned by `ownerId`, or nobody). */
    async function breaches(n: number, ownerId: number | null) {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const job = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 3, agent_user_id: ownerId, title: `Late job ${++slaJobs}` });
        await t.db.transaction().execute(async (trx) => {
          const id = await emitEvent(trx, t.clock.now(), {
            name: 'sla.breached', agencyId: w.agencyA.id,
            payload: { job_id: job.id, job_uuid: job.uuid, reference: job.reference, branch_id: w.a1.id, clock_id: 1, rule_uuid: '00000000-0000-4000-8000-000000000001', due_at: '2026-11-24T17:00:00.000Z' },
          });
          ids.push(id);
        });
      }
      return ids;
    }
    const slaMails = (from: number) => smtp.state.messages.slice(from).filter((m) => /SLA|notices? since/.test(m.subject));
    const setMode = (c: Client, mode: string) =>
      c.put('/api/users/me/notification-preferences', { preferences: [{ event: 'sla.breached', channel: 'email', mode }] });

    it("a job's owner alone hears of its breaches, as one digest; the branch's other agents and the admins get nothing", async () => {
      const others = await Promise.all([1, 2, 3, 4, 5].map(() => userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id })));
      const owner = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Owning Agent' });
      const from = smtp.state.messages.length;
      await breaches(3, owner.user.id);
      await deliver(t);
      // No e-mail per event: three lines wait for the owner's digest.
      expect(slaMails(from)).toEqual([]);
      const lines = await t.db.selectFrom('notification_digest_items').select(['user_id', 'line']).where('sent_at', 'is', null).execute();
      expect(lines.map((l) => l.user_id)).toEqual([owner.user.id, owner.user.id, owner.user.id]);
      expect(lines[0]!.line).toMatch(/^SLA breached: FIX-\d{6} \(Late job \d+\), due Tue 24 Nov 2026, 17:00$/);
      expect(await sendDigests(t.deps)).toEqual({ digests: 1, lines: 3, dropped: 0 });
      await deliver(t);
      const mails = slaMails(from);
      expect(mails.map((m) => [m.to.join(','), m.subject])).toEqual([[owner.user.email, `${w.agencyA.name}: 3 notices since your last digest`]]);
      expect(mails[0]!.text).toContain('Hello Owning Agent,');
      expect(mails[0]!.text.match(/^- .*: SLA breached: FIX-\d{6} \(Late job \d+\), due Tue 24 Nov 2026, 17:00$/gm)).toHaveLength(3);
      for (const o of others) expect(smtp.state.messages.slice(from).some((m) => m.to.includes(o.user.email))).toBe(false);
      // Gathered once: another run sends nothing.
      expect(await sendDigests(t.deps)).toEqual({ digests: 0, lines: 0, dropped: 0 });
    });

    it('each person\'s mode: immediate (one e-mail per event), off (logged suppressed), and staff who asked for the notices of jobs not theirs', async () => {
      const owner = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const keen = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      expect((await setMode(owner.client, 'immediate')).statusCode).toBe(200);
      expect((await setMode(keen.client, 'immediate')).statusCode).toBe(200);
      const admin = w.adminA.client;
      const prefs = (await admin.get('/api/users/me/notification-preferences')).json().data as Array<{ event: string; channel: string; mode: string; enabled: boolean }>;
      expect(prefs.find((p) => p.event === 'sla.breached' && p.channel === 'email')).toMatchObject({ mode: 'off', enabled: false });
      const saved = await setMode(admin, 'digest');
      expect(saved.statusCode, saved.body).toBe(200);
      const from = smtp.state.messages.length;
      await breaches(2, owner.user.id);
      await deliver(t);
      expect(slaMails(from).map((m) => m.to.join(',')).sort()).toEqual([owner.user.email, owner.user.email, keen.user.email, keen.user.email].sort());
      expect(await sendDigests(t.deps)).toMatchObject({ digests: 1, lines: 2 });
      await deliver(t);
      expect(slaMails(from).filter((m) => m.to.includes(w.adminA.user.email))).toHaveLength(1);

      expect((await setMode(owner.client, 'off')).statusCode).toBe(200);
      offAgentId = owner.user.id;
      const [eventId] = await breaches(1, owner.user.id);
      await deliver(t);
      const rows = await t.db.selectFrom('message_deliveries').select(['recipient_user_id', 'status', 'reason']).where('event_id', '=', eventId!).where('channel', '=', 'email').orderBy('id').execute();
      expect(rows).toEqual([
        { recipient_user_id: owner.user.id, status: 'suppressed', reason: 'preference_off' },
        { recipient_user_id: keen.user.id, status: 'sent', reason: null },
      ]);
    });

    it("a job without an owner: the branch's agents are responsible (each as they chose), and the admin who asked", async () => {
      const [eventId] = await breaches(1, null);
      await deliver(t);
      const agents = await t.db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').select('u.id').where('r.code', '=', 'agent').where('u.branch_id', '=', w.a1.id).where('u.status', '=', 'active').execute();
      const heard = await t.db.selectFrom('notification_digest_items').select('user_id').where('event_id', '=', eventId!).execute();
      const immediate = await t.db.selectFrom('message_deliveries').select('recipient_user_id').where('event_id', '=', eventId!).where('status', '=', 'sent').execute();
      // Everyone of the branch hears it once (a digest line, or at once for those who chose immediate)
      // but the agent who switched it off; the administrator who asked for digests hears it too.
      const expected = [...agents.map((a) => a.id).filter((id) => id !== offAgentId), w.adminA.user.id];
      expect([...heard.map((h) => h.user_id), ...immediate.map((i) => i.recipient_user_id)].sort()).toEqual(expected.sort());
    });

    it('refuses a digest where there is none, and a preference with neither mode nor enabled', async () => {
      const tenant = w.tenant.client;
      const bad = await tenant.put('/api/users/me/notification-preferences', { preferences: [{ event: 'job.completed', channel: 'email', mode: 'digest' }] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('Invalid or missing required parameter: preferences[0].mode');
      const push = await w.agentA1.client.put('/api/users/me/notification-preferences', { preferences: [{ event: 'sla.breached', channel: 'push', mode: 'digest' }] });
      expect(push.json().error).toBe('Invalid or missing required parameter: preferences[0].mode');
      const neither = await w.agentA1.client.put('/api/users/me/notification-preferences', { preferences: [{ event: 'sla.breached', channel: 'email' }] });
      expect(neither.json().error).toBe('Invalid or missing required parameter: preferences[0].enabled');
    });
  });
});
