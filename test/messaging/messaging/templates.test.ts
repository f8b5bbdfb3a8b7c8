/**
 * Message templates (docs/messaging.md "Templates"): built-in defaults, per-agency overrides with
 * version history and revert, validation of variables, Liquid and MJML on save, the preview, and
 * that the override is what the tenant then receives (and only in its agency).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { jobsWorld, type JobsWorld } from '../../jobs/jobs/fixtures.ts';
import { deliver, startFlakySmtp } from './helpers.ts';

const ID = '/api/messaging/templates/job.received.email';

describe('message templates', () => {
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

  it('lists every kind and channel with its default and variables, filtered and paginated', async () => {
    const res = await w.adminA.client.get('/api/messaging/templates?limit=200');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(63); // 21 kinds x 3 channels
    const email = await w.adminA.client.get('/api/messaging/templates?event=job.visit_booked&channel=email');
    expect(email.json()).toMatchObject({ count: 1, data: [{ id: 'job.visit_booked.email', source: 'default', version: 0, audience: 'tenant' }] });
    expect(email.json().data[0].variables).toEqual(expect.arrayContaining(['visit.date', 'visit.slot', 'recipient.name']));
    expect(email.json().data[0].parts.mjml).toContain('<mjml>');
    const page = await w.adminA.client.get('/api/messaging/templates?limit=2&offset=3');
    expect(page.json().data.map((d: { id: string }) => d.id)).toEqual(['job.visit_booked.email', 'job.visit_booked.push']);
    expect((await w.agentA1.client.get('/api/messaging/templates')).statusCode).toBe(403);
    expect((await w.adminA.client.get('/api/messaging/templates/job.nope.email')).json()).toEqual({ success: false, error: 'Template not found' });
    expect((await w.adminA.client.get('/api/messaging/templates/job.received.fax')).statusCode).toBe(404);
  });

  it('refuses unknown variables (naming each), bad Liquid, bad MJML and parts of another channel; nothing saved', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ subject: 'Hi {{ tenant.name }} {{ job.reference }} {{ secret }}' }, 'Unknown template variables: secret, tenant.name'],
      [{ text_body: 'Hi {% if job.title %}' }, 'Invalid template: text_body: '],
      [{ mjml: '<mjml><mj-body><mj-nope>x</mj-nope></mj-body></mjml>' }, 'Invalid template: mjml: '],
      [{ title: 'Push title' }, 'Invalid or missing required parameter: title'],
      [{}, 'Invalid or missing required parameter: body'],
      [{ subject: '' }, 'Invalid or missing required parameter: subject'],
      [{ subject: 'Hi\u0000' }, 'Invalid or missing required parameter: subject'],
      [{ text_body: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' }, 'Invalid template: '],
    ];
    for (const [body, error] of cases) {
      const res = await w.adminA.client.put(ID, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.startsWith(error), res.json().error).toBe(true);
    }
    expect(await t.db.selectFrom('message_template_versions').selectAll().execute()).toEqual([]);
  });

  it('an override becomes version 1, is sent to the tenant, and stays inside its agency; revert restores the default', async () => {
    const saved = await w.adminA.client.put(ID, { subject: 'Got it: {{ job.reference }} for {{ recipient.name | upcase }}' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ source: 'override', version: 1, updated_by: w.adminA.user.name });
    expect(saved.json().data.parts.mjml).toContain('<mjml>');
    expect((await w.adminB.client.get(ID)).json().data).toMatchObject({ source: 'default', version: 0 });

    const from = smtp.state.messages.length;
    const job = await w.agentA1.client.post('/api/jobs/manage', { title: 'Broken window', priority: 3, tenant_uuid: w.tenant.uuid, address_uuid: w.address.uuid });
    await deliver(t);
    expect(smtp.state.messages.slice(from).map((m) => m.subject)).toEqual([`Got it: ${job.json().data.reference} for TEST TENANT`]);

    await w.adminA.client.put(ID, { text_body: 'Thanks {{ recipient.name }}' });
    const reverted = await w.adminA.client.delete(ID);
    expect(reverted.json().data).toMatchObject({ source: 'default', version: 3 });
    expect((await w.adminA.client.delete(ID)).statusCode).toBe(409);
    const versions = await w.adminA.client.get(`${ID}/versions?limit=2`);
    expect(versions.json()).toMatchObject({ count: 3, data: [{ version: 3, reverted: true }, { version: 2, reverted: false, parts: { text_body: 'Thanks {{ recipient.name }}' } }] });
    expect((await w.adminB.client.get(`${ID}/versions`)).json().count).toBe(0);
    const activity = await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'message_template').execute();
    expect(activity.map((a) => a.action).sort()).toEqual(['message_template.revert', 'message_template.update', 'message_template.update']);
  });

  it('preview renders the template in force or unsaved parts with sample data, escaping HTML, and sends nothing', async () => {
    const from = smtp.state.messages.length;
    const res = await w.adminA.client.post('/api/messaging/templates/job.visit_booked.email/preview', {});
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.subject).toBe('Visit booked for Wednesday 25 November 2026 (JOB-000123)');
    expect(data.html).toMatch(/^<!doctype html>/i);
    expect(data.html).toContain('Fletcher Plumbing will visit on <strong>Wednesday 25 November 2026</strong>, Morning 08:00-12:00.');
    expect(data.text).toContain('Hello Emily Clarke,');
    const push = await w.adminA.client.post('/api/messaging/templates/job.visit_booked.push/preview', { body: '{{ job.title }} <b>' });
    expect(push.json().data).toMatchObject({ title: 'Visit booked', body: 'Boiler not firing <b>' });
    const unsaved = await w.adminA.client.post('/api/messaging/templates/job.received.email/preview', {
      mjml: '<mjml><mj-body><mj-section><mj-column><mj-text>{{ job.title }} & {{ recipient.name }}</mj-text></mj-column></mj-section></mj-body></mjml>',
    });
    expect(unsaved.statusCode, unsaved.body).toBe(200);
    expect(unsaved.json().data.html).toContain('Boiler not firing');
    expect((await w.adminA.client.post('/api/messaging/templates/job.received.email/preview', { subject: '{{ nope }}' })).json().error).toBe('Unknown template variables: nope');
    expect(await t.db.selectFrom('message_template_versions').select('id').where('template_key', '=', 'job.visit_booked').execute()).toEqual([]);
    expect(smtp.state.messages.length).toBe(from);
    expect((await w.sysops.client.get('/api/messaging/templates')).statusCode).toBe(403);
  });

  it('refuses the tags that read other templates (include, render, layout) with 400 on save and preview', async () => {
    const versions = () => t.db.selectFrom('message_template_versions').select('id').execute();
    const before = await versions();
    for (const tag of ['{% include "header" %}', "{% render 'x' %}", '{% layout "base" %}Hi', '{% include job.title %}', '{%- render "a" with job as j -%}']) {
      for (const [method, url] of [['put', ID], ['post', `${ID}/preview`]] as const) {
        const res = await w.adminA.client[method](url, { subject: `Hi ${tag}` });
        expect(res.statusCode, `${method} ${tag}`).toBe(400);
        expect(res.json().error, tag).toMatch(/^Invalid template: subject: the (include|render|layout) tag is not allowed/);
      }
    }
    expect(await versions()).toEqual(before);
  });
});
