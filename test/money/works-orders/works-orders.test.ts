import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { signWorksOrderLink, worksOrderKey } from '../../../src/modules/money/works-orders/links.ts';
import { pngBytes } from '../../../src/seed/demo/sample-files.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob } from '../../helpers/factories.ts';
import { form } from '../../helpers/upload-form.ts';
import { newUuid } from '../../../src/lib/crypto.ts';

const HTML = { accept: 'text/html,application/xhtml+xml' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded', ...HTML };

describe('works orders by link: a contractor without an account works the job from an e-mail', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let address: { id: number; uuid: string };
  let contractor: { id: number; uuid: string; company_name: string };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    address = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '27 Ash Road', postcode: 'LS6 3HN' });
    contractor = await insertContractor(t.db, w.agencyA.id, 'Fletcher Plumbing');
    await t.db.updateTable('contractors').set({ email: 'dave@fletcher.test', contact_name: 'Dave Fletcher' }).where('id', '=', contractor.id).execute();
  });
  afterAll(async () => t?.close());

  const dispatch = () => dispatchPendingEvents(t.deps, backgroundHandlers());
  const assignedJob = (title = 'Boiler not firing', contractorId = contractor.id) =>
    insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: address.id, title, status_id: 4, contractor_id: contractorId, assigned_at: t.clock.now() }, t.clock.now());
  const job = (id: number) => t.db.selectFrom('jobs').select(['status_id', 'contractor_id', 'contractor_accepted_at', 'scheduled_for']).where('id', '=', id).executeTakeFirstOrThrow();
  const agent = async () => (await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id })).client;

  /** The link path of the newest e-mail of a kind to an address, from the delivery log. */
  async function mailedLink(kind: string, to = 'dave@fletcher.test') {
    await dispatch();
    const d = await t.db.selectFrom('message_deliveries').select(['content', 'subject']).where('template_key', '=', kind).where('recipient_address', '=', to)
      .orderBy('id', 'desc').executeTakeFirstOrThrow();
    const text = ((typeof d.content === "string" ? JSON.parse(d.content) : d.content) as { text: string }).text;
    // A contractor is sent to a page, never to an API path (docs/messaging.md "Dates").
    expect(text).not.toContain('/api/');
    return { subject: d.subject, text, path: new URL(/(http\S+\/works-orders\/link\/\S+)/.exec(text)![1]!).pathname };
  }

  it('walks the job: accept, book, note, photo, attended, completed, invoice; each through the portal services; then the link is used up', async () => {
    const j = await assignedJob();
    const sent = await (await agent()).post(`/api/jobs/${j.uuid}/works-order`, {});
    expect(sent.statusCode).toBe(201);
    expect(sent.json().data).toMatchObject({ purpose: 'works_order', state: 'live', contractor_name: 'Fletcher Plumbing', sent_to: 'dave@fletcher.test', job_reference: j.reference });
    const mail = await mailedLink('works_order.sent');
    expect(mail.subject).toBe(`Works order ${j.reference}: Boiler not firing`);
    expect(mail.text).toContain('Hello Dave Fletcher');
    const outbox = await t.db.selectFrom('outbox').select('payload').where('name', '=', 'works_order.sent').execute();
    expect(JSON.stringify(outbox)).not.toContain(mail.path.split('/').pop()!);

    // Opening changes nothing.
    const page = await t.app.inject({ method: 'GET', url: mail.path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`Works order ${j.reference}`);
    expect(page.body).toContain('27 Ash Road');
    expect(page.body).toContain('name="viewport"');
    expect((await job(j.id)).contractor_accepted_at).toBeNull();

    const act = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: mail.path, payload });
    const accepted = await act({ action: 'accept' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.actions).not.toContain('accept');
    expect((await job(j.id)).contractor_accepted_at).not.toBeNull();
    expect((await act({ action: 'accept' })).statusCode).toBe(409);

    const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const booked = await act({ action: 'book', scheduled_for: tomorrow });
    expect(booked.statusCode).toBe(200);
    expect(booked.json().data.job).toMatchObject({ status: 'Scheduled', scheduled_for: tomorrow });
    expect((await act({ action: 'book', scheduled_for: '2020-01-01' })).statusCode).toBe(400);

    expect((await act({ action: 'note', body: 'Part ordered, fitting Thursday' })).statusCode).toBe(200);
    const note = await t.db.selectFrom('job_notes').select(['body', 'visibility']).where('job_id', '=', j.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(note).toEqual({ body: 'Part ordered, fitting Thursday', visibility: 'contractor' });

    const photo = await t.app.inject({ method: 'POST', url: `${mail.path}/photos`, payload: form(pngBytes(3, 3), 'boiler.png', { description: 'Heat exchanger' }) });
    expect(photo.statusCode).toBe(200);
    expect(await t.db.selectFrom('job_files').select('kind').where('job_id', '=', j.id).execute()).toEqual([{ kind: 'photo' }]);

    // Completing before attending is refused by the lifecycle, shown on the page.
    const early = await t.app.inject({ method: 'POST', url: mail.path, payload: 'action=completed', headers: FORM });
    expect(early.statusCode).toBe(409);
    expect(early.body).toContain('Cannot move a job from Scheduled to Completed');
    expect((await act({ action: 'attended' })).json().data.job.status).toBe('In progress');
    expect((await act({ action: 'completed' })).json().data.job.status).toBe('Completed');

    const invoice = await t.app.inject({
      method: 'POST', url: mail.path, headers: FORM,
      payload: 'action=invoice&line_description=Replace+heat+exchanger&line_quantity=1&line_unit_price=405.00&line_vat_rate=standard&contractor_reference=FP-1042',
    });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.body).toContain('Your invoice was sent to the agency');
    // Not VAT registered: no VAT on the lines (docs/money.md).
    const inv = await t.db.selectFrom('invoices').select(['status', 'net_pence', 'vat_pence', 'gross_pence', 'contractor_reference', 'contractor_id']).where('job_id', '=', j.id).executeTakeFirstOrThrow();
    expect(inv).toEqual({ status: 'draft', net_pence: 40500, vat_pence: 0, gross_pence: 40500, contractor_reference: 'FP-1042', contractor_id: contractor.id });

    // Each action is in the activity log under the contractor's name, with the portal's action names.
    const log = await t.db.selectFrom('activity_log').select(['action', 'user_name']).where('user_name', '=', 'Fletcher Plumbing (contractor, by link)').orderBy('id').execute();
    expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['job.assignment_accept', 'job.visit_book', 'job_note.create', 'job.transition', 'invoice.create']));
    const events = (await t.db.selectFrom('outbox').select('name').execute()).map((e) => e.name);
    expect(events).toEqual(expect.arrayContaining(['job.assignment_accepted', 'job.visit_booked', 'job.note_added', 'job.status_changed']));

    // Used up: the invoice was its final answer.
    const reused = await t.app.inject({ method: 'POST', url: mail.path, payload: 'action=note&body=again', headers: FORM });
    expect(reused.statusCode).toBe(409);
    expect(reused.body).toContain('This link has already been used');
    expect((await t.app.inject({ method: 'GET', url: `${mail.path}/job` })).json()).toEqual({ success: false, error: expect.stringMatching(/^This link has already been used/) });
  });

  it('a decline by link gives the job back and uses the link up', async () => {
    const j = await assignedJob('Dripping tap');
    await (await agent()).post(`/api/jobs/${j.uuid}/works-order`, {});
    const mail = await mailedLink('works_order.sent');
    const res = await t.app.inject({ method: 'POST', url: mail.path, payload: 'action=decline&reason=No+engineer+free', headers: FORM });
    expect(res.statusCode).toBe(200);
    expect(await job(j.id)).toMatchObject({ status_id: 3, contractor_id: null });
    const again = await t.app.inject({ method: 'POST', url: mail.path, payload: { action: 'accept' } });
    expect(again.statusCode).toBe(409);
  });

  it('refuses tampered, cross-job, expired, revoked and reassigned links with a clear page, changing nothing', async () => {
    const a = await assignedJob('Roof');
    await (await agent()).post(`/api/jobs/${a.uuid}/works-order`, {});
    const linkA = await mailedLink('works_order.sent');
    const b = await assignedJob('Damp');
    await (await agent()).post(`/api/jobs/${b.uuid}/works-order`, { expires_in_days: 1 });
    const linkB = await mailedLink('works_order.sent');

    const token = linkA.path.split('/').pop()!;
    const [nonce, sig] = token.split('.') as [string, string];
    const flip = (x: string) => (x[0] === 'a' ? 'b' : 'a') + x.slice(1);
    for (const bad of [`${nonce}.${flip(sig)}`, `${flip(nonce)}.${sig}`, 'garbage', `${nonce}.${sig}x`]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/works-orders/link/${bad}`, payload: { action: 'accept' }, headers: HTML });
      expect(res.statusCode, bad).toBe(400);
      expect(res.body).toContain('<title>This link is not valid');
    }
    // Cross-job: job B's link row with a signature (real key) made for job A.
    const key = await worksOrderKey(t.db, t.clock.now());
    const rowB = await t.db.selectFrom('works_order_links').select(['nonce', 'expires_at']).where('job_id', '=', b.id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const cross = signWorksOrderLink(key, { nonce: rowB.nonce, purpose: 'works_order', jobUuid: a.uuid, contractorUuid: contractor.uuid, expires: Math.floor(new Date(rowB.expires_at).getTime() / 1000) });
    const crossRes = await t.app.inject({ method: 'POST', url: `/api/works-orders/link/${cross}`, payload: { action: 'accept' } });
    expect(crossRes.statusCode).toBe(400);
    expect(crossRes.json().error).toMatch(/^This link is not valid/);
    expect((await job(a.id)).contractor_accepted_at).toBeNull();
    expect((await job(b.id)).contractor_accepted_at).toBeNull();

    // Revoked by the agent (the console's button): the withdrawn page.
    const links = (await (await agent()).get(`/api/jobs/${a.uuid}/works-order-links`)).json().data;
    expect(links).toHaveLength(1);
    const rev = await (await agent()).post(`/api/works-order-links/${links[0].uuid}/revoke`, {});
    expect(rev.json().data.state).toBe('revoked');
    expect((await (await agent()).post(`/api/works-order-links/${links[0].uuid}/revoke`, {})).statusCode).toBe(409);
    const revRes = await t.app.inject({ method: 'GET', url: linkA.path, headers: HTML });
    expect(revRes.statusCode).toBe(410);
    expect(revRes.body).toContain('This link was withdrawn');

    // Expired: job B's link lived one day.
    t.clock.advance(86_400 + 60);
    const expRes = await t.app.inject({ method: 'POST', url: linkB.path, payload: { action: 'accept' }, headers: HTML });
    expect(expRes.statusCode).toBe(410);
    expect(expRes.body).toContain('This link has expired');
    expect((await job(b.id)).contractor_accepted_at).toBeNull();

    // Sending again replaces the old link; the job given to another contractor takes it away.
    const c = await assignedJob('Gutter');
    await (await agent()).post(`/api/jobs/${c.uuid}/works-order`, {});
    const first = await mailedLink('works_order.sent');
    await (await agent()).post(`/api/jobs/${c.uuid}/works-order`, {});
    const second = await mailedLink('works_order.sent');
    expect(second.path).not.toBe(first.path);
    expect((await t.app.inject({ method: 'GET', url: first.path })).statusCode).toBe(410);
    const other = await insertContractor(t.db, w.agencyA.id, 'Other Co');
    await t.db.updateTable('jobs').set({ contractor_id: other.id }).where('id', '=', c.id).execute();
    expect((await t.app.inject({ method: 'GET', url: second.path })).statusCode).toBe(410);
  });

  it('staff only, in their agency: contractors 403, another agency 404, no contractor 409', async () => {
    const j = await assignedJob('Window');
    const contractorUser = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: contractor.id });
    expect((await contractorUser.client.post(`/api/jobs/${j.uuid}/works-order`, {})).statusCode).toBe(403);
    expect((await w.adminB.client.post(`/api/jobs/${j.uuid}/works-order`, {})).statusCode).toBe(404);
    const bare = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 3 }, t.clock.now());
    expect((await w.adminA.client.post(`/api/jobs/${bare.uuid}/works-order`, {})).statusCode).toBe(409);
  });

  it("books a timed visit inside the tenant's windows (docs/tenant-reporting.md \"Booking the visit\")", async () => {
    const j = await assignedJob('Tap drips');
    const now = t.clock.now();
    const day = new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const windowUuid = newUuid();
    const starts = new Date(`${day}T09:00:00Z`);
    await t.db.insertInto('job_visit_windows').values({ uuid: windowUuid, agency_id: w.agencyA.id, job_id: j.id, starts_at: starts, ends_at: new Date(`${day}T12:00:00Z`), given_by: 'staff', by_user_id: null, created_at: now }).execute();
    expect((await (await agent()).post(`/api/jobs/${j.uuid}/works-order`, {})).statusCode).toBe(201);
    const mail = await mailedLink('works_order.sent');
    const page = await t.app.inject({ method: 'GET', url: mail.path });
    expect(page.body).toContain("Tenant's window");
    const act = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: mail.path, payload });
    const [from, until] = [starts, new Date(`${day}T11:00:00Z`)].map((d) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d));
    const outside = await act({ action: 'book', window_uuid: windowUuid, from: '13:00', until: '14:00' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toContain("outside the tenant's windows");
    const booked = await act({ action: 'book', window_uuid: windowUuid, from, until });
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json().data.job).toMatchObject({ status: 'Scheduled', scheduled_for: day });
    expect(await t.db.selectFrom('job_visits').select(['booked_by', 'state']).where('job_id', '=', j.id).execute()).toEqual([{ booked_by: 'contractor', state: 'booked' }]);
  });
});
