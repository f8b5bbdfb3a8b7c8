/**
 * Awaab's Law as the regulations define it (docs/compliance.md "Hazards and statutory clocks",
 * "Scope", "The written summary reaches the tenant"; SI 2025/1042), with worked examples: a
 * report of black mould on 17 Nov flagged on 6 Dec runs from the report (already breached); a
 * Scottish agency's English property counts England's working days; a property in Scotland runs
 * no clock; an investigation done on time but recorded late is met; a summary after the tenant
 * withdrew e-mail consent is still sent, and when the e-mail fails an SMS, then a letter posted by
 * staff, meets the duty; the Easter bank holiday weekend and the March clock change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import {
  calendarDaysDeadline, hazardScanTask, hazardScope, nationOfPostcode, planHazardClocks, STATUTORY_REGION, workingDaysDeadline,
} from '../../../src/modules/jobs/hazards/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertTenant } from '../../helpers/factories.ts';
import { jobsWorld, type JobsWorld } from '../jobs/fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('periods as SI 2025/1042 sets them, worked by hand', () => {
  it('counts England and Wales bank holidays whatever the agency region', () => {
    expect(STATUTORY_REGION).toBe('england-and-wales');
  });

  it('the Easter bank holiday weekend and the March clock change (5 working days)', () => {
    // Investigated Thu 25 Mar 2027 10:00 GMT. Good Friday 26 Mar and Easter Monday 29 Mar are bank holidays;
    // the clocks go forward on Sun 28 Mar. Tue 30 (1), Wed 31 (2), Thu 1 Apr (3), Fri 2 (4), Mon 5 (5): ends Mon 5 Apr 24:00 BST.
    expect(iso(workingDaysDeadline(Date.parse('2027-03-25T10:00:00Z'), 5, STATUTORY_REGION, 75).due)).toBe('2027-04-05T23:00:00.000Z');
  });

  it('12 weeks to begin further works are 84 calendar days from the day after the investigation, across the clock change', () => {
    // Investigated Fri 8 Jan 2027: the 84th day after is Fri 2 Apr 2027 (Good Friday counts: calendar days), ending 24:00 BST.
    expect(iso(calendarDaysDeadline(Date.parse('2027-01-08T15:00:00Z'), 84, 75).due)).toBe('2027-04-02T23:00:00.000Z');
    // Investigated Tue 29 Dec 2026: Tue 23 Mar 2027 is the 84th day, ending 24:00 GMT.
    expect(iso(calendarDaysDeadline(Date.parse('2026-12-29T11:00:00Z'), 84, 75).due)).toBe('2027-03-24T00:00:00.000Z');
  });

  it('further works: 5 working days by default, 12 weeks with a reason; no completion clock', () => {
    const base = {
      severity: 'significant' as const, reported_at: new Date('2027-01-04T09:00:00Z'), made_safe_at: null, investigated_at: new Date('2027-01-08T15:00:00Z'),
      summary_sent_at: null, works_started_at: null, works_completed_at: null,
    };
    const kinds = (p: ReturnType<typeof planHazardClocks>) => Object.fromEntries(p.map((c) => [c.kind, c.due_at.toISOString()]));
    // Mon 11 to Fri 15 Jan: the end of Fri 15 Jan.
    expect(kinds(planHazardClocks(base, 75))).toEqual({
      investigate: '2027-01-19T00:00:00.000Z', summary: '2027-01-14T00:00:00.000Z', works_start: '2027-01-16T00:00:00.000Z', further_works_start: '2027-01-16T00:00:00.000Z',
    });
    expect(kinds(planHazardClocks({ ...base, further_works_reason: 'Scaffold licence needed from the council' }, 75)).further_works_start).toBe('2027-04-02T23:00:00.000Z');
    expect(kinds(planHazardClocks({ ...base, further_works_required: false }, 75)).further_works_start).toBeUndefined();
  });

  it('the nation of a postcode, and the scope', () => {
    expect(['LS6 6HN', 'EH1 1YZ', 'G2 1AA', 'CF10 1AA', 'BT1 1AA', 'TD15 1AA', 'TD1 1AA', 'CH5 1AA', 'SY23 1AA', 'NP25 3AA', 'nonsense'].map(nationOfPostcode)).toEqual([
      'england', 'scotland', 'scotland', 'wales', 'northern_ireland', 'england', 'scotland', 'wales', 'wales', null, null,
    ]);
    expect(hazardScope({ nation: 'england', tenure: 'social', privateRentedPolicy: false })).toBe('social');
    expect(hazardScope({ nation: null, tenure: null, privateRentedPolicy: false })).toBe('not_covered');
    expect(hazardScope({ nation: null, tenure: null, privateRentedPolicy: true })).toBe('private_rented_policy');
    expect(hazardScope({ nation: 'scotland', tenure: 'social', privateRentedPolicy: true })).toBe('not_covered');
    expect(hazardScope({ nation: 'wales', tenure: 'social', privateRentedPolicy: true })).toBe('not_covered');
  });
});

describe('Awaab\'s Law through the API', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_PUBLIC_URL: 'https://app.caretaker.test' });
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  async function newJob(title: string, tenant: { uuid: string } = w.tenant, address: { uuid: string } = w.address) {
    const res = await w.agentA1.client.post('/api/jobs/manage', { title, priority: 2, address_uuid: address.uuid, tenant_uuid: tenant.uuid });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.uuid as string;
  }
  const clock = (h: { clocks: Array<{ kind: string }> }, kind: string) => h.clocks.find((c) => c.kind === kind) as Record<string, unknown> | undefined;

  it('a private rented property runs no clock until the agency applies the timescales as policy; a social one runs them', async () => {
    t.clock.set(new Date('2026-11-02T10:00:00Z'));
    const scope = await w.agentA1.client.get(`/api/hazards/properties/${w.address.uuid}/scope`);
    expect(scope.json().data).toMatchObject({ tenure: 'private_rented', nation: 'england', nation_from: 'postcode', stated: false, scope: 'not_covered' });
    const uuid = await newJob('Mould in the kitchen');
    const put = await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' });
    expect(put.json().data).toMatchObject({ scope: 'not_covered', clocks: [] });
    expect(put.json().data.scope_text).toContain('social housing in England only');

    const social = await w.agentA1.client.put(`/api/hazards/properties/${w.address.uuid}/scope`, { tenure: 'social' });
    expect(social.statusCode, social.body).toBe(200);
    expect(social.json().data).toMatchObject({ tenure: 'social', scope: 'social', stated: true });
    const after = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data;
    expect(after.scope).toBe('social');
    // Mon 2 Nov: Tue 3 to Mon 16 Nov.
    expect(clock(after, 'investigate')).toMatchObject({ state: 'running', due_at: '2026-11-17T00:00:00.000Z' });
    expect((await w.adminB.client.get(`/api/hazards/properties/${w.address.uuid}/scope`)).statusCode).toBe(404);
    expect((await w.agentA1.client.put(`/api/hazards/properties/${w.address.uuid}/scope`, { tenure: 'council' })).statusCode).toBe(400);

    const policy = await w.adminA.client.put('/api/hazards/settings', { private_rented_policy: true });
    expect(policy.json().data).toMatchObject({ private_rented_policy: true });
  });

  it('a report of black mould on 17 Nov flagged on 6 Dec runs from the report: already breached', async () => {
    t.clock.set(new Date('2026-11-17T09:30:00Z'));
    const uuid = await newJob('Black mould on the bedroom wall', w.tenant2, w.address2);
    t.clock.set(new Date('2026-12-06T10:00:00Z'));
    const put = await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' });
    expect(put.statusCode, put.body).toBe(201);
    const h = put.json().data;
    expect(h).toMatchObject({ reported_at: '2026-11-17T09:30:00.000Z', awareness_reason: null, flagged_at: '2026-12-06T10:00:00.000Z', scope: 'private_rented_policy' });
    // Wed 18 Nov (1) ... Tue 1 Dec (10): due by the end of Tue 1 Dec, breached when flagged.
    expect(clock(h, 'investigate')).toMatchObject({ state: 'breached', due_at: '2026-12-02T00:00:00.000Z', breached_at: '2026-12-06T10:00:00.000Z' });

    // Another moment of awareness needs a reason, kept and shown.
    const bare = await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant', reported_at: '2026-11-16T12:00:00Z' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error).toContain('awareness_reason');
    const earlier = await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, {
      category: 'damp_and_mould', severity: 'significant', reported_at: '2026-11-16T12:00:00Z', awareness_reason: 'Tenant phoned the Leeds office on Mon 16 Nov; logged as a call',
    });
    expect(earlier.statusCode, earlier.body).toBe(200);
    expect(earlier.json().data).toMatchObject({ reported_at: '2026-11-16T12:00:00.000Z', awareness_reason: 'Tenant phoned the Leeds office on Mon 16 Nov; logged as a call' });
    const pack = (await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack`)).json().data;
    expect(pack.law).toContain('SI 2025/1042');
    expect(pack.law).toContain('in force 27 October 2025');
    expect(pack.scope).toContain('policy');
    expect(pack.timeline.map((e: { text: string }) => e.text)).toContainEqual(expect.stringContaining('Moment of awareness set by staff: Tenant phoned the Leeds office'));
  });

  it('a Scottish agency\'s English property counts England\'s working days', async () => {
    expect((await w.adminA.client.post('/api/sla/settings', { uk_region: 'scotland' })).statusCode).toBe(200);
    t.clock.set(new Date('2026-12-23T10:00:00Z'));
    const uuid = await newJob('Damp in the hall', w.tenant2, w.address2);
    const h = (await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' })).json().data;
    // England: Thu 24 Dec (1), Tue 29 to Thu 31 (4), Mon 4 to Fri 8 Jan (9), Mon 11 (10). Scotland's 4 Jan holiday would make it the 12th.
    expect(clock(h, 'investigate')).toMatchObject({ due_at: '2027-01-12T00:00:00.000Z' });
    expect((await w.adminA.client.post('/api/sla/settings', { uk_region: 'england-and-wales' })).statusCode).toBe(200);
  });

  it('a property in Scotland runs no clock, whatever its tenure', async () => {
    const a = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '4 Rose Street', town: 'Edinburgh', postcode: 'EH2 2PR' });
    const tenant = await insertTenant(t.db, w.agencyA.id, [a.id], 'Isla Grant');
    expect((await w.agentA1.client.put(`/api/hazards/properties/${a.uuid}/scope`, { tenure: 'social' })).json().data).toMatchObject({ nation: 'scotland', nation_from: 'postcode', scope: 'not_covered' });
    t.clock.set(new Date('2027-01-05T10:00:00Z'));
    const uuid = await newJob('Gas smell', tenant, a);
    const h = (await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'uncombusted_fuel_gas', severity: 'emergency' })).json().data;
    expect(h).toMatchObject({ scope: 'not_covered', clocks: [] });
  });

  it('an investigation done on time but recorded after the deadline is met, not breached', async () => {
    t.clock.set(new Date('2026-12-07T09:00:00Z'));
    const uuid = await newJob('Mould behind the wardrobe', w.tenant2, w.address2);
    await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' });
    // Tue 8 (1) ... Mon 21 Dec (10): due at the end of Mon 21 Dec; the scan flags it breached.
    t.clock.set(new Date('2026-12-22T00:00:00Z'));
    await hazardScanTask.run(t.deps);
    expect(clock((await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data, 'investigate')).toMatchObject({ state: 'breached' });
    // The surveyor's report of Fri 18 Dec reaches the office on Wed 23 Dec.
    t.clock.set(new Date('2026-12-23T11:00:00Z'));
    const rec = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'investigated', at: '2026-12-18T14:00:00Z' });
    expect(rec.statusCode, rec.body).toBe(200);
    const h = rec.json().data;
    expect(h).toMatchObject({ investigated_at: '2026-12-18T14:00:00.000Z', recorded: { investigated_at: '2026-12-23T11:00:00.000Z' } });
    expect(clock(h, 'investigate')).toMatchObject({ state: 'met', breached_at: null, stopped_at: '2026-12-18T14:00:00.000Z' });
    // The clocks that start at the investigation run from when it happened: summary by the end of Wed 23 Dec.
    expect(clock(h, 'summary')).toMatchObject({ due_at: '2026-12-24T00:00:00.000Z' });
    const texts = (await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack`)).json().data.timeline.map((e: { text: string }) => e.text);
    expect(texts).toContainEqual('Hazard investigated (recorded Wed 23 Dec 2026, 11:00)');
    expect(texts.filter((x: string) => x.startsWith('Statutory deadline missed'))).toEqual([]);
  });

  it('a summary after the tenant withdrew e-mail consent is still sent; a failed e-mail goes by SMS, then by a posted letter', async () => {
    const given = await w.adminA.client.post('/api/gdpr/consents', { tenant_uuid: w.tenant2.uuid, purpose: 'email_updates', source: 'web_form' });
    expect((await w.adminA.client.post(`/api/gdpr/consents/${given.json().data.uuid}/withdraw`, { source: 'email' })).statusCode).toBe(200);
    t.clock.set(new Date('2027-01-11T09:00:00Z'));
    const uuid = await newJob('Black mould in the bathroom', w.tenant2, w.address2);
    await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' });
    await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'investigated' });
    const sum = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary`, { findings: 'Condensation.', actions: 'New extractor fan.' });
    expect(sum.statusCode, sum.body).toBe(200);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = () => t.db.selectFrom('message_deliveries as m').innerJoin('job_hazards as h', 'h.summary_event_id', 'm.event_id')
      .innerJoin('jobs as j', 'j.id', 'h.job_id').select(['m.id', 'm.channel', 'm.status', 'm.reason']).where('j.uuid', '=', uuid).orderBy('m.id').execute();
    // Consent withdrawn for e-mail updates: a statutory notice is still queued, not suppressed.
    expect((await rows()).filter((r) => r.channel === 'email')).toEqual([expect.objectContaining({ status: 'queued', reason: null })]);

    // The e-mail fails (the server refuses it for good): the SMS goes to the tenant's mobile.
    await t.db.updateTable('message_deliveries').set({ status: 'failed', last_error: '550 mailbox unavailable', next_attempt_at: null })
      .where('id', '=', (await rows())[0]!.id).execute();
    await t.db.updateTable('tenants').set({ mobile: '07700 900123' }).where('uuid', '=', w.tenant2.uuid).execute();
    t.clock.set(new Date('2027-01-11T10:00:00Z'));
    await hazardScanTask.run(t.deps);
    let h = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data;
    expect(h.summary).toMatchObject({ fallback: 'sms', delivered_at: null });
    expect((await rows()).filter((r) => r.channel === 'sms')).toEqual([expect.objectContaining({ status: 'queued' })]);

    // No SMS provider either: the SMS fails, so a letter is due.
    await t.db.updateTable('message_deliveries').set({ status: 'failed', next_attempt_at: null }).where('channel', '=', 'sms').where('id', 'in', (await rows()).map((r) => r.id)).execute();
    await hazardScanTask.run(t.deps);
    h = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data;
    expect(h.summary).toMatchObject({ fallback: 'letter', delivered_at: null });
    expect(clock(h, 'summary')).toMatchObject({ state: 'running' });
    let pack = (await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack`)).json().data;
    expect(pack.summary_delivery).toContain('Not yet met');

    const letter = await w.agentA1.client.get(`/api/jobs/${uuid}/hazard/summary/letter`);
    expect(letter.statusCode).toBe(200);
    expect(letter.headers['content-type']).toContain('application/pdf');
    expect(letter.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    t.clock.set(new Date('2027-01-12T16:00:00Z'));
    expect((await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary/posted`, { posted_at: '2027-01-13T09:00:00Z' })).statusCode).toBe(400);
    const posted = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary/posted`, { posted_at: '2027-01-12T15:30:00Z' });
    expect(posted.statusCode, posted.body).toBe(200);
    h = posted.json().data;
    expect(h.summary).toMatchObject({ delivered_at: '2027-01-12T15:30:00.000Z', delivery_method: 'post' });
    expect(clock(h, 'summary')).toMatchObject({ state: 'met', stopped_at: '2027-01-12T15:30:00.000Z' });
    expect((await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary/posted`, {})).statusCode).toBe(409);
    pack = (await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack`)).json().data;
    expect(pack.summary_delivery).toBe('Met by a recorded posting: letter posted to the property Tue 12 Jan 2027, 15:30 (recorded Tue 12 Jan 2027, 16:00)');
  });
});
