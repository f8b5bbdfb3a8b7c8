import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob } from '../../helpers/factories.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

describe('competing quotes: several contractors, a deadline, answers by link or portal, side by side, one award', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let address: { id: number; uuid: string };
  const cs: Array<{ id: number; uuid: string; company_name: string; email: string }> = [];

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    address = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '9 Gledhow Wood Road', postcode: 'LS8 2GD' });
    for (const [name, email] of [['Fletcher Plumbing', 'dave@fletcher.test'], ['Aire Heating', 'jobs@aire.test'], ['Kirk Gas', 'kirk@gas.test']] as const) {
      const c = await insertContractor(t.db, w.agencyA.id, name);
      await t.db.updateTable('contractors').set({ email }).where('id', '=', c.id).execute();
      cs.push({ ...c, email });
    }
  });
  afterAll(async () => t?.close());

  const dispatch = () => dispatchPendingEvents(t.deps, backgroundHandlers());
  const agent = async () => (await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id })).client;
  const deadline = () => new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString();

  async function delivery(kind: string, to: string) {
    await dispatch();
    const d = await t.db.selectFrom('message_deliveries').select(['content', 'subject']).where('template_key', '=', kind).where('recipient_address', '=', to).orderBy('id', 'desc').executeTakeFirst();
    if (!d) return undefined;
    const text = ((typeof d.content === 'string' ? JSON.parse(d.content) : d.content) as { text: string }).text;
    const m = /(http\S+\/works-orders\/link\/\S+)/.exec(text);
    return { subject: d.subject, text, path: m ? new URL(m[1]!).pathname : null };
  }

  it('asks three, gets a quote by link, one in the portal and a decline, compares and awards; the others are told', async () => {
    const job = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: address.id, title: 'Replace boiler', status_id: 1 }, t.clock.now());
    const created = await (await agent()).post(`/api/jobs/${job.uuid}/quote-requests`, { contractor_uuids: cs.map((c) => c.uuid), deadline_at: deadline(), notes: 'Access through the side gate.' });
    expect(created.statusCode).toBe(201);
    const req = created.json().data;
    expect(req).toMatchObject({ status: 'open', job_reference: job.reference, past_deadline: false });
    expect(req.entries.map((e: { status: string }) => e.status)).toEqual(['invited', 'invited', 'invited']);
    expect((await (await agent()).post(`/api/jobs/${job.uuid}/quote-requests`, { contractor_uuids: [cs[0]!.uuid, cs[1]!.uuid], deadline_at: deadline() })).statusCode).toBe(409);

    const mails = await Promise.all(cs.map((c) => delivery('quote_request.sent', c.email)));
    expect(mails[0]!.subject).toContain(`Request for a quote ${job.reference}: Replace boiler`);
    expect(mails[0]!.text).toContain('Access through the side gate.');

    // Fletcher quotes by link (form, pounds); the page first.
    const page = await t.app.inject({ method: 'GET', url: mails[0]!.path! });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Quote requested: ${job.reference}`);
    const byLink = await t.app.inject({ method: 'POST', url: mails[0]!.path!, headers: FORM, payload: 'action=quote&line_description=Combi+boiler+supplied+and+fitted&line_quantity=1&line_unit_price=2150.00&line_vat_rate=standard' });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.body).toContain('Your quote was sent');
    const reused = await t.app.inject({ method: 'POST', url: mails[0]!.path!, payload: { action: 'decline_quote' } });
    expect(reused.statusCode).toBe(409);

    // Aire Heating has a portal login: it sees the invitation and answers there (its link is used up with it).
    const aire = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: cs[1]!.id });
    const inv = (await aire.client.get('/api/quote-requests/invitations')).json().data;
    expect(inv).toEqual([expect.objectContaining({ quote_request_uuid: req.uuid, job_reference: job.reference, status: 'invited' })]);
    const portal = await aire.client.post(`/api/quote-requests/${req.uuid}/answer`, { lines: [{ description: 'Boiler swap', quantity: 1, unit_price_pence: 189000, vat_rate: 'standard' }], notes: 'Two days' });
    expect(portal.statusCode).toBe(200);
    expect(portal.json().data[0].status).toBe('quoted');
    expect((await aire.client.post(`/api/quote-requests/${req.uuid}/answer`, { decline: true })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'GET', url: mails[1]!.path! })).statusCode).toBe(409);
    // A contractor not asked: 404; staff may not answer: 403.
    const stranger = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: (await insertContractor(t.db, w.agencyA.id)).id });
    expect((await stranger.client.post(`/api/quote-requests/${req.uuid}/answer`, { decline: true })).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/quote-requests/${req.uuid}`)).statusCode).toBe(403);

    // Kirk cannot quote.
    expect((await t.app.inject({ method: 'POST', url: mails[2]!.path!, payload: { action: 'decline_quote', reason: 'Booked up' } })).statusCode).toBe(200);

    // Side by side: cheapest first, ranked.
    const cmp = (await (await agent()).get(`/api/quote-requests/${req.uuid}`)).json().data;
    expect(cmp.entries.map((e: Record<string, unknown>) => [e.contractor_name, e.status, e.gross_pence, e.rank])).toEqual([
      ['Aire Heating', 'quoted', 189000, 1],
      ['Fletcher Plumbing', 'quoted', 215000, 2],
      ['Kirk Gas', 'declined', null, null],
    ]);
    expect((await w.adminB.client.get(`/api/quote-requests/${req.uuid}`)).statusCode).toBe(404);

    // Award the cheaper: the quote is approved, the other rejected, the job Approved, everyone told.
    const award = await w.adminA.client.post(`/api/quote-requests/${req.uuid}/award`, { quote_uuid: cmp.entries[0].quote_uuid });
    expect(award.statusCode).toBe(200);
    expect(award.json().data).toMatchObject({ status: 'awarded', awarded_quote_uuid: cmp.entries[0].quote_uuid });
    expect(award.json().data.entries.map((e: { status: string; quote_status: string | null }) => [e.status, e.quote_status])).toEqual([
      ['awarded', 'approved'], ['not_awarded', 'rejected'], ['declined', null],
    ]);
    expect((await t.db.selectFrom('jobs').select(['status_id', 'agreed_cost_pence']).where('id', '=', job.id).executeTakeFirstOrThrow())).toEqual({ status_id: 3, agreed_cost_pence: 189000 });
    expect((await delivery('quote_request.awarded', cs[1]!.email))!.subject).toBe(`Your quote for ${job.reference} was accepted`);
    expect((await delivery('quote_request.not_awarded', cs[0]!.email))!.subject).toBe(`Quote request ${job.reference} closed`);
    expect(await delivery('quote_request.not_awarded', cs[2]!.email)).toBeUndefined();
    expect((await w.adminA.client.post(`/api/quote-requests/${req.uuid}/award`, { quote_uuid: cmp.entries[1].quote_uuid })).statusCode).toBe(409);
  });

  it('refuses answers after the deadline, and a deadline in the past', async () => {
    const job = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: address.id, title: 'Fence', status_id: 3 }, t.clock.now());
    expect((await (await agent()).post(`/api/jobs/${job.uuid}/quote-requests`, { contractor_uuids: [cs[0]!.uuid, cs[1]!.uuid], deadline_at: '2020-01-01T00:00:00Z' })).statusCode).toBe(400);
    const req = (await (await agent()).post(`/api/jobs/${job.uuid}/quote-requests`, { contractor_uuids: [cs[0]!.uuid, cs[1]!.uuid], deadline_at: deadline() })).json().data;
    const mail = await delivery('quote_request.sent', cs[0]!.email);
    t.clock.advance(3 * 86_400 + 60);
    const late = await t.app.inject({ method: 'POST', url: mail!.path!, payload: { action: 'quote', lines: [{ description: 'Fence', quantity: 1, unit_price_pence: 10000, vat_rate: 'standard' }] } });
    expect(late.statusCode).toBe(410);
    expect((await (await agent()).get(`/api/quote-requests/${req.uuid}`)).json().data.past_deadline).toBe(true);
  });
});
