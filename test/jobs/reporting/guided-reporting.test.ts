/**
 * Tenant self-service (docs/tenant-reporting.md): the seeded UK flows, a walk to advice (no job,
 * a deflection), to an emergency (the instruction at once, a priority 1 job, the on-call alert)
 * and to a job (preset trade, job type, priority, photos); editing a flow makes a version and
 * leaves recorded reports as they were; the preview; duplicates and merge; recalls; the survey
 * link answers once; agency isolation and bad input.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { surveyKey, signSurvey } from '../../../src/modules/jobs/reporting/survey-links.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../../helpers/factories.ts';

type Client = Awaited<ReturnType<typeof userClient>>['client'];

describe('guided reporting', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: Client;
  let tenantRow: { id: number; uuid: string };
  let house: { id: number; uuid: string };
  let contractor: { id: number; uuid: string };
  const dispatch = () => dispatchPendingEvents(t.deps, backgroundHandlers());

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(new Date('2026-11-26T18:07:00Z'));
    house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    tenantRow = await insertTenant(t.db, w.agencyA.id, [house.id], 'Emily Clarke');
    await t.db.updateTable('tenants').set({ email: 'emily@example.test', phone: '0113 496 0000' }).where('id', '=', tenantRow.id).execute();
    tenant = (await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: tenantRow.id, name: 'Emily Clarke' })).client;
    contractor = await insertContractor(t.db, w.agencyA.id, 'Aire Heating');
  });
  afterAll(async () => t?.close());

  const walk = (answers: Array<[string, string]>, flow = 'heating') =>
    tenant.post('/api/reporting/walk', { flow_code: flow, answers: answers.map(([node, option]) => ({ node, option })) });
  const submit = (answers: Array<[string, string]>, flow = 'heating', extra: Record<string, unknown> = {}) =>
    tenant.post('/api/reporting/reports', { flow_code: flow, answers: answers.map(([node, option]) => ({ node, option })), ...extra });
  const body = (c: unknown) => (typeof c === 'string' ? JSON.parse(c) : c) as { text: string };
  const jobCount = async () => Number((await t.db.selectFrom('jobs').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('seeds the UK flows for the agency on first use', async () => {
    const res = await tenant.get('/api/reporting/flows');
    expect(res.statusCode, res.body).toBe(200);
    const codes = res.json().data.map((f: { code: string }) => f.code);
    expect(codes).toEqual(['gas_smell', 'heating', 'leaks', 'electrics', 'doors_locks', 'damp_mould', 'appliances', 'pests']);
    const gas = res.json().data[0];
    expect(gas).toMatchObject({ version: 1, emergency: true });
    expect(gas.tree.nodes[0].instruction).toContain('0800 111 999');
    // Agency B gets its own copy.
    const b = await w.adminB.client.get('/api/reporting/flows');
    expect(b.json().data.map((f: { uuid: string }) => f.uuid)).not.toContain(gas.uuid);
  });

  it('walks question by question, with the self-help shown', async () => {
    const first = await walk([]);
    expect(first.json().data).toMatchObject({ next: { id: 'what', text: 'What is wrong?' }, outcome: null });
    const topUp = await walk([['what', 'none'], ['pressure', 'yes']]);
    expect(topUp.json().data.next).toMatchObject({ id: 'top_up', help: expect.stringContaining('filling loop') });
    const bad = await walk([['what', 'none'], ['what', 'none']]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: answers[1] (expected an answer to "pressure", got "what")' });
  });

  it('advice that settles it creates no job and counts as a deflection', async () => {
    const before = await jobCount();
    const res = await submit([['what', 'none'], ['pressure', 'yes'], ['top_up', 'yes']]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      report: { outcome: 'advice', deflected: true, job_uuid: null, flow: { code: 'heating', version: 1 }, outcome_title: 'Fixed by topping up the pressure' },
      advice: { title: 'Fixed by topping up the pressure' }, instruction: null, photos_requested: [],
    });
    expect(res.json().data.report.answers[1]).toEqual({ node: 'pressure', question: 'Is the boiler pressure below 1 bar?', option: 'yes', answer: 'Yes, below 1 bar' });
    expect(await jobCount()).toBe(before);
    const listed = await w.adminA.client.get('/api/reporting/reports?outcome=advice');
    expect(listed.json().count).toBe(1);
  });

  it('answers that stop before an outcome are refused and change nothing', async () => {
    const res = await submit([['what', 'none']]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('the flow continues with "pressure"');
    expect((await w.adminA.client.get('/api/reporting/reports')).json().count).toBe(1);
  });

  let boilerJob: string;
  it('a job outcome presets trade, job type, priority and the photos asked for', async () => {
    const res = await submit([['what', 'none'], ['pressure', 'yes'], ['top_up', 'no']], 'heating', { description: 'Pressure drops overnight' });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json().data;
    expect(d.report).toMatchObject({ outcome: 'job', deflected: false, job_reference: expect.stringMatching(/^JOB-/) });
    expect(d.photos_requested).toEqual(['the pressure gauge after topping up', 'the pipes under the boiler']);
    boilerJob = d.report.job_uuid;
    const job = (await w.agentA1.client.get(`/api/jobs/${boilerJob}`)).json().data;
    expect(job).toMatchObject({ title: 'Boiler losing pressure: no heating or hot water', priority: 2, trade: 'Heating', job_type: 'Reactive repair', address_uuid: house.uuid, tenant_uuid: tenantRow.uuid, status: 'Reported' });
    expect(job.description).toContain('Is the boiler pressure below 1 bar? Yes, below 1 bar');
    expect(job.description).toContain("In the tenant's words: Pressure drops overnight");
    // People's words: the flow's name, never its version.
    expect(job.description).not.toMatch(/version \d/);
  });

  it('an emergency shows the instruction at once, raises a priority 1 job and alerts the on-call contact', async () => {
    const onCall = await w.adminA.client.put(`/api/reporting/on-call/${w.a1.uuid}`, { name: 'Sam Patel', phone: '07700 900123', email: 'oncall-a1@example.test' });
    expect(onCall.statusCode, onCall.body).toBe(200);
    const step = await walk([], 'gas_smell');
    expect(step.json().data.outcome).toMatchObject({ kind: 'emergency', phone: '0800 111 999', instruction: expect.stringContaining('Leave the property') });
    const res = await submit([], 'gas_smell');
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json().data;
    expect(d.instruction).toMatchObject({ title: 'Gas emergency: leave the property now', phone: '0800 111 999' });
    expect(d.report.outcome).toBe('emergency');
    const job = (await w.agentA1.client.get(`/api/jobs/${d.report.job_uuid}`)).json().data;
    expect(job).toMatchObject({ priority: 1, job_type: 'Emergency', trade: 'Gas' });
    await dispatch();
    const mail = await t.db.selectFrom('message_deliveries').select(['recipient_address', 'subject', 'content']).where('event_name', '=', 'report.emergency').execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.recipient_address).toBe('oncall-a1@example.test');
    expect(mail[0]!.subject).toBe(`EMERGENCY ${job.reference}: Gas emergency: leave the property now at 12 Harehills Lane, LS8 4AA`);
    expect(body(mail[0]!.content).text).toContain('Tenant: Emily Clarke, phone 0113 496 0000');
  });

  it('a report at an address with an open job of the same trade offers it, and can be added to it', async () => {
    const step = await walk([['what', 'hot_water']]);
    expect(step.json().data.duplicates).toEqual([expect.objectContaining({ uuid: boilerJob, status: 'Reported' })]);
    const before = await jobCount();
    const res = await submit([['what', 'hot_water']], 'heating', { add_to_job_uuid: boilerJob, description: 'Now no hot water either' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.report).toMatchObject({ outcome: 'added_to_job', job_uuid: boilerJob });
    expect(await jobCount()).toBe(before);
    const notes = (await w.agentA1.client.get(`/api/jobs/${boilerJob}/notes`)).json().data;
    expect(notes.map((n: { body: string }) => n.body).join('\n')).toContain('Now no hot water either');
    // Another job's uuid is not a duplicate.
    const other = await submit([['what', 'hot_water']], 'heating', { add_to_job_uuid: '00000000-0000-4000-8000-000000000000' });
    expect(other.statusCode).toBe(404);
  });

  it('agents merge a duplicate into the job kept; both keep their history', async () => {
    const dup = (await submit([['what', 'hot_water']])).json().data.report.job_uuid as string;
    const res = await w.agentA1.client.post(`/api/jobs/${dup}/merge`, { into_job_uuid: boilerJob, note: 'Same boiler' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.uuid).toBe(boilerJob);
    const d = (await w.agentA1.client.get(`/api/jobs/${dup}`)).json().data;
    expect(d.status).toBe('Cancelled');
    const history = (await w.agentA1.client.get(`/api/jobs/${dup}/history`)).json().data;
    expect(history.map((h: { note: string | null }) => h.note)).toContain(`Merged into ${(await w.agentA1.client.get(`/api/jobs/${boilerJob}`)).json().data.reference}: Same boiler`);
    const links = (await w.agentA1.client.get(`/api/jobs/${boilerJob}/links`)).json().data;
    expect(links.merged).toEqual([expect.objectContaining({ uuid: dup, note: 'Same boiler' })]);
    expect((await w.agentA1.client.get(`/api/jobs/${dup}/links`)).json().data.merged_into.uuid).toBe(boilerJob);
    // Twice, into itself, by a tenant, or from another agency: refused.
    expect((await w.agentA1.client.post(`/api/jobs/${dup}/merge`, { into_job_uuid: boilerJob })).statusCode).toBe(409);
    expect((await w.agentA1.client.post(`/api/jobs/${boilerJob}/merge`, { into_job_uuid: boilerJob })).statusCode).toBe(409);
    expect((await tenant.post(`/api/jobs/${dup}/merge`, { into_job_uuid: boilerJob })).statusCode).toBe(403);
    expect((await w.adminB.client.post(`/api/jobs/${dup}/merge`, { into_job_uuid: boilerJob })).statusCode).toBe(404);
  });

  it('editing a flow makes a new version and leaves recorded reports unchanged; the preview writes nothing', async () => {
    const flow = (await w.adminA.client.get('/api/reporting/flows/heating')).json().data;
    const tree = structuredClone(flow.tree);
    const pressure = tree.nodes.find((n: { id: string }) => n.id === 'pressure');
    pressure.text = 'Does the gauge show less than 1 bar?';
    const preview = await w.adminA.client.post('/api/reporting/flows/preview', { tree, answers: [{ node: 'what', option: 'none' }] });
    expect(preview.json().data).toMatchObject({ problems: [], step: { next: { text: 'Does the gauge show less than 1 bar?' } } });
    const broken = structuredClone(tree);
    broken.nodes[0].options[0].next = 'nowhere';
    const bp = await w.adminA.client.post('/api/reporting/flows/preview', { tree: broken, answers: [] });
    expect(bp.json().data).toEqual({ problems: [{ path: 'nodes[0].options[0].next', problem: 'no node "nowhere"' }], step: null });
    expect((await w.adminA.client.put('/api/reporting/flows/heating', { name: 'Heating and hot water', tree: broken })).json())
      .toEqual({ success: false, error: 'Invalid flow: tree.nodes[0].options[0].next: no node "nowhere"' });
    expect((await tenant.put('/api/reporting/flows/heating', { name: 'x', tree })).statusCode).toBe(403);
    const saved = await w.adminA.client.put('/api/reporting/flows/heating', { name: 'Heating and hot water', tree });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.version).toBe(2);
    const versions = (await w.adminA.client.get('/api/reporting/flows/heating/versions')).json().data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const old = (await w.adminA.client.get('/api/reporting/reports?flow_code=heating&outcome=advice')).json().data[0];
    expect(old.flow.version).toBe(1);
    expect(old.answers[1].question).toBe('Is the boiler pressure below 1 bar?');
    const fresh = await submit([['what', 'none'], ['pressure', 'yes'], ['top_up', 'yes']]);
    expect(fresh.json().data.report).toMatchObject({ flow: { version: 2 } });
    expect(fresh.json().data.report.answers[1].question).toBe('Does the gauge show less than 1 bar?');
  });

  let surveyToken = '';
  it('completion sends the tenant a survey by signed link that answers once', async () => {
    await t.db.updateTable('jobs').set({ status_id: 6, contractor_id: contractor.id, attended_at: t.clock.now() }).where('uuid', '=', boilerJob).execute();
    const done = await w.agentA1.client.post(`/api/jobs/${boilerJob}/transitions`, { to_status_id: 7 });
    expect(done.statusCode, done.body).toBe(200);
    await dispatch();
    const mail = await t.db.selectFrom('message_deliveries').select(['recipient_address', 'content']).where('template_key', '=', 'survey.requested').execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.recipient_address).toBe('emily@example.test');
    const text = body(mail[0]!.content).text as string;
    surveyToken = /\/survey\?token=([0-9a-f]{32}\.[A-Za-z0-9_-]{43})/.exec(text)![1]!;
    expect(text).toContain('until Thu 10 Dec 2026, 18:07');
    const view = await t.app.inject({ method: 'GET', url: `/api/surveys/link/${surveyToken}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data).toMatchObject({ job_title: 'Boiler losing pressure: no heating or hot water', contractor_name: 'Aire Heating', completed_on: 'Thu 26 Nov 2026' });
    const tampered = surveyToken.slice(0, -2) + (surveyToken.endsWith('AA') ? 'BB' : 'AA');
    expect((await t.app.inject({ method: 'POST', url: `/api/surveys/link/${tampered}`, payload: { rating: 5 } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/surveys/link/${surveyToken}`, payload: { rating: 6 } })).statusCode).toBe(400);
    const answer = await t.app.inject({ method: 'POST', url: `/api/surveys/link/${surveyToken}`, payload: { rating: 4, comment: 'Quick and tidy' } });
    expect(answer.statusCode, answer.body).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: `/api/surveys/link/${surveyToken}`, payload: { rating: 1 } });
    expect(again.statusCode).toBe(409);
    const links = (await w.agentA1.client.get(`/api/jobs/${boilerJob}/links`)).json().data;
    expect(links.survey).toMatchObject({ rating: 4, comment: 'Quick and tidy' });
  });

  it('an expired survey link is refused with 410', async () => {
    const row = await t.db.selectFrom('job_surveys as s').innerJoin('tenants as te', 'te.id', 's.tenant_id').select(['s.id', 's.uuid', 's.nonce', 'te.uuid as tenant_uuid']).executeTakeFirstOrThrow();
    // A second, unanswered survey row of another job, already past its expiry.
    const other = await t.db.selectFrom('jobs').select(['id']).where('uuid', '!=', boilerJob).where('agency_id', '=', w.agencyA.id).executeTakeFirstOrThrow();
    const expires = new Date(t.clock.now().getTime() - 1000);
    // Another uuid than the first survey's (replacing its first character with a fixed one gave
    // the same uuid, and a duplicate key, whenever it already began with that character).
    const otherUuid = randomUUID();
    await t.db.insertInto('job_surveys').values({ uuid: otherUuid, agency_id: w.agencyA.id, job_id: other.id, tenant_id: tenantRow.id, contractor_id: null, nonce: 'f'.repeat(32), expires_at: expires, created_at: expires }).execute();
    const token = signSurvey(await surveyKey(t.db, t.clock.now()), { nonce: 'f'.repeat(32), surveyUuid: otherUuid, tenantUuid: row.tenant_uuid, expiresAt: expires });
    const res = await t.app.inject({ method: 'GET', url: `/api/surveys/link/${token}` });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ success: false, error: 'This survey link has expired' });
  });

  it('a repair reopened within the recall window becomes a recall linked to the original; later it is refused', async () => {
    const res = await tenant.post(`/api/jobs/${boilerJob}/recall`, { reason: 'Pressure dropping again' });
    expect(res.statusCode, res.body).toBe(201);
    const recall = res.json().data;
    expect(recall).toMatchObject({ title: 'Recall: Boiler losing pressure: no heating or hot water', trade: 'Heating', address_uuid: house.uuid, status: 'Reported' });
    const links = (await w.agentA1.client.get(`/api/jobs/${recall.uuid}/links`)).json().data;
    expect(links.recall_of).toMatchObject({ uuid: boilerJob, note: 'Pressure dropping again' });
    expect((await tenant.post(`/api/jobs/${boilerJob}/recall`, { reason: 'again' })).statusCode).toBe(409);
    // Outside the window (set to 7 days; completed today, now 8 days later): refused.
    expect((await w.adminA.client.put('/api/reporting/settings', { recall_days: 7 })).json().data).toEqual({ recall_days: 7, survey_link_days: 14 });
    await t.db.updateTable('jobs').set({ status_id: 10 }).where('uuid', '=', recall.uuid).execute();
    t.clock.set(new Date('2026-12-04T18:08:00Z'));
    const late = await tenant.post(`/api/jobs/${boilerJob}/recall`, { reason: 'again' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe(`${(await w.agentA1.client.get(`/api/jobs/${boilerJob}`)).json().data.reference} was completed on Thu 26 Nov 2026, more than 7 days ago: report it as a new repair`);
    t.clock.set(new Date('2026-11-26T18:30:00Z'));
  });

  it('scorecards: a recall lowers the first-time-fix rate; ratings, attendance on the slot, cost; deflections by flow', async () => {
    const created = new Date('2026-11-20T09:00:00Z');
    await insertJob(t.db, {
      agency_id: w.agencyA.id, branch_id: w.a1.id, title: 'Radiator valve', status_id: 7, contractor_id: contractor.id, trade_id: null, created_at: created,
      assigned_at: new Date('2026-11-20T10:00:00Z'), contractor_accepted_at: new Date('2026-11-20T10:30:00Z'),
      scheduled_for: new Date('2026-11-23T00:00:00Z'), attended_at: new Date('2026-11-23T09:15:00Z'), completed_at: new Date('2026-11-23T11:00:00Z'), agreed_cost_pence: 12_000,
    }, created);
    const all = await w.adminA.client.get('/api/analytics/contractors?from_date=2026-11-01&to_date=2026-11-30');
    expect(all.statusCode, all.body).toBe(200);
    const card = all.json().data.find((c: { contractor_uuid: string }) => c.contractor_uuid === contractor.uuid);
    expect(card).toMatchObject({
      company_name: 'Aire Heating', jobs: 2,
      response: { median_s: 1800, jobs: 1 },
      attendance: { visits_due: 1, on_slot: 1, rate: 1 },
      first_time_fix: { completed: 2, fixed_first_time: 1, recalls: 1, rate: 0.5 },
      rating: { surveys: 1, average: 4 },
      cost: { jobs: 1, total_pence: 12_000, mean_pence: 12_000 },
    });
    const one = await w.agentA1.client.get(`/api/contractors/${contractor.uuid}/scorecard?from_date=2026-11-01&to_date=2026-11-30`);
    expect(one.json().data).toEqual(card);
    expect((await w.adminB.client.get(`/api/contractors/${contractor.uuid}/scorecard`)).statusCode).toBe(404);
    // The job analytics count the recall too.
    const jobs = await w.adminA.client.get('/api/analytics/jobs?from_date=2026-11-01&to_date=2026-11-30&group_by=contractor');
    expect(jobs.json().data.find((r: { group: { label: string } }) => r.group.label === 'Aire Heating').first_time_fix_rate).toBe(0.5);
    const defl = await w.adminA.client.get('/api/analytics/deflections?from_date=2026-11-26&to_date=2026-11-26');
    expect(defl.json().data).toEqual([
      { flow_code: 'gas_smell', flow_name: 'Smell of gas', reports: 1, deflected: 0, emergencies: 1, jobs: 0, added_to_job: 0, deflection_rate: 0 },
      { flow_code: 'heating', flow_name: 'Heating and hot water', reports: 5, deflected: 2, emergencies: 0, jobs: 2, added_to_job: 1, deflection_rate: 0.4 },
    ]);
    expect((await w.adminA.client.get('/api/analytics/deflections?from_date=2026-11-26&to_date=2026-11-01')).statusCode).toBe(400);
  });

  it('keeps agencies apart and refuses bad input without a 500', async () => {
    const report = (await w.adminA.client.get('/api/reporting/reports')).json().data[0];
    expect((await w.adminB.client.get(`/api/reporting/reports/${report.uuid}`)).statusCode).toBe(404);
    expect((await w.adminB.client.get('/api/reporting/reports')).json().count).toBe(0);
    expect((await w.adminB.client.put(`/api/reporting/on-call/${w.a1.uuid}`, { name: 'X', phone: '01134960000', email: 'x@example.test' })).statusCode).toBe(404);
    expect((await tenant.get('/api/reporting/reports')).statusCode).toBe(403);
    expect((await tenant.post('/api/reporting/walk', { flow_code: 'nope', answers: [] })).statusCode).toBe(404);
    expect((await tenant.post('/api/reporting/walk', { flow_code: 'heating', answers: 'x' })).statusCode).toBe(400);
    expect((await tenant.post('/api/reporting/reports', { flow_code: 'heating', answers: [], tenant_uuid: tenantRow.uuid })).statusCode).toBe(400);
    expect((await w.adminA.client.put('/api/reporting/flows/cycle', {
      name: 'Cycle', tree: { start: 'a', nodes: [
        { id: 'a', kind: 'question', text: 'A?', options: [{ id: 'x', label: 'x', next: 'b' }, { id: 'y', label: 'y', next: 'b' }] },
        { id: 'b', kind: 'question', text: 'B?', options: [{ id: 'x', label: 'x', next: 'a' }, { id: 'y', label: 'y', next: 'a' }] },
      ] },
    })).json().error).toBe('Invalid flow: tree.nodes[1].options[0].next: leads back to "a" (a cycle) (and 1 more)');
  });

  it("erasing the tenant drops the words of their reports and survey comments", async () => {
    const res = await w.adminA.client.post(`/api/tenants/${tenantRow.uuid}/erase`, { force: true });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await dispatch();
    const words = await t.db.selectFrom('tenant_reports').select('description').where('tenant_id', '=', tenantRow.id).where('description', '!=', '').execute();
    expect(words).toEqual([]);
    const comments = await t.db.selectFrom('job_surveys').select('comment').where('tenant_id', '=', tenantRow.id).where('comment', 'is not', null).execute();
    expect(comments).toEqual([]);
  });
});
