import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { form } from '../../helpers/upload-form.ts';
import { conversationsWorld } from './helpers.ts';

describe('job conversations: /api/jobs/{uuid}/threads', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof conversationsWorld>>;
  let base: string;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await conversationsWorld(t);
    base = `/api/jobs/${w.job.uuid}/threads`;
    // Case notes keep their meaning: they show in the threads their visibility maps onto.
    for (const visibility of ['internal', 'tenant', 'contractor', 'both'] as const) {
      expect((await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/notes`, { body: `Note (${visibility})`, visibility })).statusCode).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  const bodies = (res: { json(): { data: Array<{ body: string }> } }) => res.json().data.map((m) => m.body);

  it('staff see four threads; tenants, contractors and landlords only their own', async () => {
    const staff = await w.agentA1.client.get(base);
    expect(staff.statusCode).toBe(200);
    expect(staff.json().data.map((x: { audience: string }) => x.audience)).toEqual(['tenant', 'contractor', 'landlord', 'internal']);
    const counts = Object.fromEntries(staff.json().data.map((x: { audience: string; message_count: number }) => [x.audience, x.message_count]));
    expect(counts).toEqual({ tenant: 2, contractor: 2, landlord: 0, internal: 1 });
    for (const [c, audience] of [[w.tenant, 'tenant'], [w.contractor, 'contractor'], [w.landlord, 'landlord']] as const) {
      const res = await c.client.get(base);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((x: { audience: string }) => x.audience)).toEqual([audience]);
    }
  });

  it('notes appear as entries of their threads; another thread is 404 for tenants, contractors and landlords', async () => {
    const tenant = await w.tenant.client.get(`${base}/tenant/messages`);
    expect(tenant.statusCode).toBe(200);
    expect(bodies(tenant).sort()).toEqual(['Note (both)', 'Note (tenant)']);
    expect(tenant.json().data[0]).toMatchObject({ kind: 'note', channel: 'note', author_kind: 'staff', attachments: [] });
    expect(tenant.json().data[0].created_at_text).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    const internal = await w.agentA1.client.get(`${base}/internal/messages`);
    expect(bodies(internal)).toEqual(['Note (internal)']);
    for (const [c, other] of [[w.tenant, 'internal'], [w.tenant, 'contractor'], [w.contractor, 'tenant'], [w.landlord, 'tenant'], [w.contractor, 'internal']] as const) {
      const res = await c.client.get(`${base}/${other}/messages`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: 'Thread not found' });
      expect((await c.client.post(`${base}/${other}/messages`, { body: 'hello' })).statusCode).toBe(404);
    }
  });

  it('someone who cannot see the job gets 404 Job not found; bad audience is 400', async () => {
    for (const c of [w.adminB, w.otherTenant, w.otherContractor, w.agentA2]) {
      const res = await c.client.get(base);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: 'Job not found' });
    }
    expect((await w.adminA.client.get(`${base}/everyone/messages`)).statusCode).toBe(400);
  });

  it('posts with attachments, keeps read state per person and emits conversation.message_posted', async () => {
    const up = await w.tenant.client.post(`/api/jobs/${w.job.uuid}/photos`, form(PNG, 'leak.png'));
    expect(up.statusCode).toBe(201);
    const photo = up.json().data.uuid as string;
    t.clock.advance(60);
    const res = await w.tenant.client.post(`${base}/tenant/messages`, { body: '  Water is coming through the ceiling again.  ', attachment_uuids: [photo] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      kind: 'message', channel: 'web', audience: 'tenant', body: 'Water is coming through the ceiling again.', author_name: 'Emily Clarke', author_kind: 'tenant',
      attachments: [{ uuid: photo, kind: 'photo', filename: 'leak.png', mime: 'image/png' }],
    });
    // posting marks the thread read for its author; the agent has not read it
    const tenantThreads = (await w.tenant.client.get(base)).json().data;
    expect(tenantThreads[0]).toMatchObject({ audience: 'tenant', unread_count: 0, message_count: 3 });
    // the agent wrote the notes: only the tenant's message is unread for them
    const agentThreads = (await w.agentA1.client.get(base)).json().data;
    expect(agentThreads[0]).toMatchObject({ audience: 'tenant', message_count: 3, unread_count: 1, last_message_preview: 'Water is coming through the ceiling again.' });
    expect(agentThreads[0].uuid).toMatch(/^[0-9a-f-]{36}$/);
    t.clock.advance(60);
    const read = await w.agentA1.client.post(`${base}/tenant/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ audience: 'tenant', unread_count: 0 });
    expect((await w.adminA.client.get(base)).json().data[0].unread_count).toBe(3); // read state is per person
    const events = await t.db.selectFrom('outbox').select(['name', 'payload']).where('name', '=', 'conversation.message_posted').execute();
    expect(events).toHaveLength(1);
    const payload = typeof events[0]!.payload === 'string' ? JSON.parse(events[0]!.payload) : events[0]!.payload;
    expect(payload).toMatchObject({ job_uuid: w.job.uuid, audience: 'tenant', channel: 'web', author_kind: 'tenant' });
  });

  it('refuses attachments of another job, internal files outside the internal thread, and urgent from non-staff', async () => {
    const up = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/documents`, form(Buffer.from('Quote: £120'), 'quote.txt', { internal: 'true' }));
    expect(up.statusCode).toBe(201);
    const internalDoc = up.json().data.uuid as string;
    const bad = await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'See the quote', attachment_uuids: [internalDoc] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Invalid or missing required parameter: attachment_uuids');
    expect((await w.agentA1.client.post(`${base}/internal/messages`, { body: 'See the quote', attachment_uuids: [internalDoc] })).statusCode).toBe(201);
    expect((await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'x', attachment_uuids: ['00000000-0000-4000-8000-000000000000'] })).statusCode).toBe(400);
    expect((await w.tenant.client.post(`${base}/tenant/messages`, { body: 'x', urgent: true })).statusCode).toBe(400);
    expect((await w.tenant.client.post(`${base}/tenant/messages`, { body: '   ' })).statusCode).toBe(400);
    expect((await w.landlord.client.post(`${base}/landlord/messages`, { body: 'Please go ahead with the repair.' })).statusCode).toBe(201);
  });

  it('paginates newest first', async () => {
    const page = await w.agentA1.client.get(`${base}/tenant/messages?limit=1&offset=0`);
    expect(page.json().count).toBe(3);
    expect(page.json().data).toHaveLength(1);
    expect(page.json().data[0].kind).toBe('message');
  });
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
