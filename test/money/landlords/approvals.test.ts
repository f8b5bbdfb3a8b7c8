import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { sendDueDeliveries } from '../../../src/modules/messaging/messaging/index.ts';
import { remindAndExpire } from '../../../src/modules/money/landlords/index.ts';
import { linkKey, signLink } from '../../../src/modules/money/landlords/approval-links.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob } from '../../helpers/factories.ts';

describe('landlord approvals: spend limits, signed single-use links, reminders and expiry', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let address: { id: number; uuid: string };
  let landlordId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, email: 'tom.agent@example.test' });
    address = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Hyde Park Road', postcode: 'LS6 1AB' });
    const l = (await w.adminA.client.post('/api/landlords', { name: 'Ada Lovelace', email: 'ada@example.test', approval_limit_pence: 30000 })).json().data;
    await w.adminA.client.post(`/api/landlords/${l.uuid}/properties`, { address_uuid: address.uuid, share_bp: 10000 });
    landlordId = (await t.db.selectFrom('landlords').select('id').where('uuid', '=', l.uuid).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  const newJob = (title = 'Boiler repair') => insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: address.id, title }, t.clock.now());
  const jobStatus = async (id: number) => (await t.db.selectFrom('jobs').select('status_id').where('id', '=', id).executeTakeFirstOrThrow()).status_id;
  const dispatch = () => dispatchPendingEvents(t.deps, backgroundHandlers());

  /** The links of the newest e-mail to the landlord, read from the delivery log. */
  async function mailedLinks() {
    await dispatch();
    const d = await t.db.selectFrom('message_deliveries').select(['content', 'subject', 'recipient_address', 'status']).where('recipient_kind', '=', 'landlord')
      .orderBy('id', 'desc').executeTakeFirstOrThrow();
    const content = (typeof d.content === 'string' ? JSON.parse(d.content) : d.content) as { text: string };
    const url = (action: string) => new RegExp(`(http\\S+/approvals/link/\\S+)\\?action=${action}`).exec(content.text)![1]!;
    const path = (u: string) => new URL(u).pathname;
    // A landlord is sent to a page, never to an API path (docs/messaging.md "Dates").
    expect(content.text).not.toContain('/api/');
    return { subject: d.subject, to: d.recipient_address, text: content.text, approve: path(url('approve')), decline: path(url('decline')), question: path(url('question')) };
  }

  /** A fresh agent session (the clock moves far in these tests). */
  const agent = async () => (await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id })).client;

  async function requestFor(jobUuid: string, amount: number, description = 'Replace the boiler') {
    return (await agent()).post(`/api/jobs/${jobUuid}/landlord-approval`, { amount_pence: amount, description });
  }

  it('a cost at or under the limit does not wait; above it waits, moves the job and e-mails the landlord signed links', async () => {
    const job = await newJob();
    const under = await requestFor(job.uuid, 30000);
    expect(under.statusCode).toBe(200);
    expect(under.json().data).toEqual({ required: false, limit_pence: 30000, limit_source: 'landlord', approval: null });
    expect(await t.db.selectFrom('approval_requests').select('id').execute()).toHaveLength(0);
    expect(await jobStatus(job.id)).toBe(1);

    const over = await requestFor(job.uuid, 45000);
    expect(over.statusCode).toBe(201);
    expect(over.json().data).toMatchObject({ required: true, limit_pence: 30000, approval: { status: 'pending', amount_pence: 45000, landlord_name: 'Ada Lovelace', job_reference: job.reference } });
    expect(await jobStatus(job.id)).toBe(2);
    expect((await requestFor(job.uuid, 45000)).statusCode).toBe(409);

    const mail = await mailedLinks();
    expect(mail.to).toBe('ada@example.test');
    expect(mail.subject).toBe(`Approval needed for ${job.reference}: £450.00`);
    expect(mail.text).toContain('your spend limit is £300.00');
    // The outbox never holds the token.
    const outbox = await t.db.selectFrom('outbox').select('payload').where('name', '=', 'approval.requested').execute();
    expect(JSON.stringify(outbox)).not.toContain(mail.approve.split('/').pop()!);
    // Looking does not answer.
    const page = await t.app.inject({ method: 'GET', url: `${mail.approve}?action=approve` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`Approval needed for ${job.reference}`);
    expect(page.body).toContain('£450.00');
    expect(page.body).toContain('12 Hyde Park Road');
    expect(await jobStatus(job.id)).toBe(2);

    // Approve with a comment: the note, the job moves to Approved, the link is used up.
    const answer = await t.app.inject({ method: 'POST', url: mail.approve, payload: 'action=approve&comment=Go+ahead%2C+use+Fletcher', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('You approved the work');
    expect(await jobStatus(job.id)).toBe(3);
    const notes = await t.db.selectFrom('job_notes').select(['body', 'visibility', 'author_user_id']).where('job_id', '=', job.id).orderBy('id').execute();
    expect(notes.at(-1)).toEqual({ body: 'Landlord Ada Lovelace approved Replace the boiler (£450.00) by link: "Go ahead, use Fletcher"', visibility: 'internal', author_user_id: null });
    const history = await t.db.selectFrom('job_status_history').select(['to_status_id', 'note']).where('job_id', '=', job.id).orderBy('id').execute();
    expect(history.map((h) => h.to_status_id)).toEqual([2, 3]);
    const approval = (await (await agent()).get(`/api/landlords/approvals?job_uuid=${job.uuid}`)).json().data[0];
    expect(approval).toMatchObject({ status: 'approved', comment: 'Go ahead, use Fletcher' });

    const reused = await t.app.inject({ method: 'POST', url: mail.decline, payload: { action: 'decline' } });
    expect(reused.statusCode).toBe(409);
    expect(reused.body).toContain('This link has already been used');
    expect((await t.app.inject({ method: 'GET', url: mail.approve })).body).toContain('This link has already been used');
    expect(await jobStatus(job.id)).toBe(3);
  });

  it('refuses tampered, cross-job, revoked and expired links with a clear page, and changes nothing', async () => {
    const jobA = await newJob('Roof');
    await requestFor(jobA.uuid, 50000, 'Roof repair');
    const a = await mailedLinks();
    const jobB = await newJob('Damp');
    await requestFor(jobB.uuid, 60000, 'Damp proofing');
    const b = await mailedLinks();

    // Tampered: one character of the signature or of the nonce; malformed tokens.
    const token = a.approve.split('/').pop()!;
    const [nonce, sig] = token.split('.') as [string, string];
    const flip = (x: string) => (x[0] === 'a' ? 'b' : 'a') + x.slice(1);
    for (const bad of [`${nonce}.${flip(sig)}`, `${flip(nonce)}.${sig}`, 'v1.garbage', 'x']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/approvals/link/${bad}`, payload: { action: 'approve' } });
      expect(res.statusCode, bad).toBe(400);
      expect(res.body).toContain('This link is not valid');
    }
    // A browser gets the page; any other client the error envelope with the same status.
    const page = await t.app.inject({ method: 'GET', url: '/api/approvals/link/x', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>This link is not valid');
    const api = await t.app.inject({ method: 'GET', url: '/api/approvals/link/x' });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({ success: false, error: expect.stringMatching(/^This link is not valid: The link is incomplete/) });
    // Cross-job: job B's link row presented with a signature made (with the real key) for job A's approval.
    const key = await linkKey(t.db, t.clock.now());
    const rowB = await t.db.selectFrom('approval_links as k').innerJoin('approval_requests as ar', 'ar.id', 'k.approval_id')
      .select(['k.nonce', 'k.expires_at']).where('ar.job_id', '=', jobB.id).executeTakeFirstOrThrow();
    const uuidA = (await t.db.selectFrom('approval_requests').select('uuid').where('job_id', '=', jobA.id).executeTakeFirstOrThrow()).uuid;
    const landlordUuid = (await t.db.selectFrom('landlords').select('uuid').where('id', '=', landlordId).executeTakeFirstOrThrow()).uuid;
    const cross = signLink(key, { a: uuidA, l: landlordUuid, n: rowB.nonce, e: Math.floor(new Date(rowB.expires_at).getTime() / 1000) });
    const crossRes = await t.app.inject({ method: 'POST', url: `/api/approvals/link/${cross}`, payload: { action: 'approve' } });
    expect(crossRes.statusCode).toBe(400);
    expect(crossRes.body).toContain('This link is not valid');
    expect(await jobStatus(jobA.id)).toBe(2);
    expect(await jobStatus(jobB.id)).toBe(2);

    // Revoked by the agent: refused with the "withdrawn" page.
    const ab = (await (await agent()).get(`/api/landlords/approvals?job_uuid=${jobB.uuid}`)).json().data[0];
    const rev = await (await agent()).post(`/api/landlords/approvals/${ab.uuid}/revoke`, {});
    expect(rev.json().data.status).toBe('cancelled');
    const revRes = await t.app.inject({ method: 'POST', url: b.approve, payload: { action: 'approve' } });
    expect(revRes.statusCode).toBe(410);
    expect(revRes.body).toContain('This link was withdrawn');
    expect(await jobStatus(jobB.id)).toBe(2);
    expect((await (await agent()).post(`/api/landlords/approvals/${ab.uuid}/revoke`, {})).statusCode).toBe(409);

    // Another agency sees none of it.
    expect((await (await userClient(t, { role: 'admin', agencyId: w.agencyB.id })).client.get(`/api/landlords/approvals/${ab.uuid}`)).statusCode).toBe(404);

    // Expired: 120 h later the link is refused and the agents are told once.
    t.clock.advance(121 * 3600);
    const exp = await t.app.inject({ method: 'GET', url: a.approve });
    expect(exp.statusCode).toBe(410);
    expect(exp.body).toContain('This link has expired');
    const first = await remindAndExpire(t.deps);
    expect(first.expired).toBe(1);
    expect((await remindAndExpire(t.deps)).expired).toBe(0);
    await dispatch();
    const told = await t.db.selectFrom('message_deliveries').select(['recipient_address', 'subject']).where('event_name', '=', 'approval.expired').execute();
    expect(told.map((d) => d.recipient_address).sort()).toContain('tom.agent@example.test');
    expect(told[0]!.subject).toBe(`Landlord approval expired: ${jobA.reference}`);
    expect((await (await agent()).get(`/api/landlords/approvals?job_uuid=${jobA.uuid}`)).json().data[0]).toMatchObject({ status: 'expired' });
  });

  it('reminds once with the same links after the reminder time; decline holds the job; a question waits and can be asked again', async () => {
    const job = await newJob('Windows');
    await requestFor(job.uuid, 80000, 'New windows');
    const first = await mailedLinks();
    t.clock.advance(47 * 3600);
    expect((await remindAndExpire(t.deps)).reminded).toBe(0);
    t.clock.advance(2 * 3600);
    expect((await remindAndExpire(t.deps)).reminded).toBe(1);
    expect((await remindAndExpire(t.deps)).reminded).toBe(0);
    const reminder = await mailedLinks();
    expect(reminder.subject).toBe(`Reminder: Approval needed for ${job.reference}: £800.00`);
    expect(reminder.approve).toBe(first.approve);

    const q = await t.app.inject({ method: 'POST', url: reminder.question, payload: { action: 'question', comment: 'Can you get a second quote?' } });
    expect(q.statusCode).toBe(200);
    expect(await jobStatus(job.id)).toBe(2);
    await dispatch();
    const agentMail = await t.db.selectFrom('message_deliveries').select(['subject', 'content']).where('event_name', '=', 'approval.answered').execute();
    expect(agentMail[0]!.subject).toBe(`Landlord asked a question about ${job.reference}`);
    expect(JSON.stringify(agentMail[0]!.content)).toContain('Can you get a second quote?');

    const appr = (await (await agent()).get(`/api/landlords/approvals?job_uuid=${job.uuid}`)).json().data[0];
    expect(appr.status).toBe('question');
    const again = await (await agent()).post(`/api/landlords/approvals/${appr.uuid}/resend`, {});
    expect(again.json().data.status).toBe('pending');
    const second = await mailedLinks();
    expect(second.approve).not.toBe(first.approve);
    // The first link was withdrawn with the resend.
    expect((await t.app.inject({ method: 'GET', url: first.approve })).statusCode).toBe(409);
    const dec = await t.app.inject({ method: 'POST', url: second.decline, payload: { action: 'decline', comment: 'Too dear' } });
    expect(dec.statusCode).toBe(200);
    expect(await jobStatus(job.id)).toBe(11);
    await sendDueDeliveries(t.deps);
    const sent = await t.db.selectFrom('message_deliveries').select('status').where('recipient_kind', '=', 'landlord').execute();
    expect(sent.every((s) => s.status === 'sent')).toBe(true);
  });

  it('a quote above the limit waits for the landlord automatically; under it does not', async () => {
    const contractor = await insertContractor(t.db, w.agencyA.id, 'Fletcher Gas & Heating');
    const job = await newJob('Heating');
    await t.db.updateTable('jobs').set({ contractor_id: contractor.id }).where('id', '=', job.id).execute();
    const ag = await agent();
    const cheap = await ag.post(`/api/jobs/${job.uuid}/quotes`, { lines: [{ description: 'Service', quantity: 1, unit_price_pence: 10000, vat_rate: 'standard' }] });
    expect(cheap.statusCode).toBe(201);
    await dispatch();
    expect(await t.db.selectFrom('approval_requests').select('id').where('job_id', '=', job.id).execute()).toHaveLength(0);
    const dear = await ag.post(`/api/jobs/${job.uuid}/quotes`, { lines: [{ description: 'New boiler', quantity: 1, unit_price_pence: 200000, vat_rate: 'standard' }] });
    await dispatch();
    const rows = await t.db.selectFrom('approval_requests').select(['amount_pence', 'status', 'landlord_id', 'description']).where('job_id', '=', job.id).execute();
    expect(rows).toEqual([{ amount_pence: 200000, status: 'pending', landlord_id: landlordId, description: 'Quote from Fletcher Gas & Heating' }]);
    expect((await (await agent()).get(`/api/landlords/approvals?job_uuid=${job.uuid}`)).json().data[0].quote_uuid).toBe(dear.json().data.uuid);
    expect(await jobStatus(job.id)).toBe(2);
    const mail = await mailedLinks();
    expect(mail.subject).toBe(`Approval needed for ${job.reference}: £2,000.00`);
  });

  it('needs the approvals key and a CSRF token; bad input is 400 and writes nothing', async () => {
    const job = await newJob('Gutter');
    const contractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id });
    const ag = await agent();
    const adminB = (await userClient(t, { role: 'admin', agencyId: w.agencyB.id })).client;
    expect((await contractor.client.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 90000, description: 'x' })).statusCode).toBe(403);
    expect((await ag.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 90000, description: 'x' }, { csrf: false })).statusCode).toBe(403);
    expect((await ag.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: -5, description: 'x' })).statusCode).toBe(400);
    expect((await ag.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 90000, description: '   ' })).statusCode).toBe(400);
    expect((await adminB.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 90000, description: 'x' })).statusCode).toBe(404);
    expect(await t.db.selectFrom('approval_requests').select('id').where('job_id', '=', job.id).execute()).toHaveLength(0);
    // Above the agency default but no landlord to ask (a job without a property): nothing waits, and the answer says why.
    await (await userClient(t, { role: 'admin', agencyId: w.agencyA.id })).client.put('/api/landlords/settings', { default_approval_limit_pence: 10000 });
    const bare = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, title: 'No property' }, t.clock.now());
    const none = await ag.post(`/api/jobs/${bare.uuid}/landlord-approval`, { amount_pence: 90000, description: 'x' });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ data: { required: false, limit_pence: 10000, limit_source: 'agency' }, message: 'The property has no landlord to ask: no approval needed' });
  });
});
