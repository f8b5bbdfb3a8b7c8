import { Writable } from 'node:stream';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/main/app.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { insertJob, attachedRecordsWorld } from '../../helpers/attached-records-world.ts';

interface Entry {
  job_uuid: string;
  summary: string;
  location: string | null;
  start: string;
  end: string;
  all_day: boolean;
  date: string;
  time_range: { ID: number; range_label: string; starts_at: string; ends_at: string } | null;
}

/** Parses an iCalendar text with ical.js into plain events. */
function parseFeed(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  return cal.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      location: e.location,
      description: e.description,
      allDay: e.startDate.isDate,
      start: e.startDate.isDate ? e.startDate.toString() : e.startDate.toJSDate().toISOString(),
      end: e.endDate.isDate ? e.endDate.toString() : e.endDate.toJSDate().toISOString(),
    };
  });
}

describe('calendar: GET /api/calendar, feed keys and the iCalendar feed', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  const jobs: Record<string, { uuid: string; reference: string }> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    w = await attachedRecordsWorld(t);
    const base = { agencyId: w.agencyA.id, branchId: w.a1.id };
    jobs.main = w.job; // 2026-11-25, Morning 08:00-12:00, tenant and contractor
    jobs.allDay = await insertJob(t.db, { ...base, title: 'Annual gas safety check', scheduledFor: new Date('2026-12-02T00:00:00Z') });
    jobs.bst = await insertJob(t.db, {
      ...base, title: 'Gutter clearance', scheduledFor: new Date('2027-04-30T23:30:00Z'), timeRangeId: 2, addressId: w.address.id, tenantId: w.tenantId,
    });
    jobs.summer = await insertJob(t.db, { ...base, title: 'Garden fence repair', scheduledFor: new Date('2027-06-10T09:30:00Z') });
    jobs.cancelled = await insertJob(t.db, { ...base, title: 'Cancelled visit', statusId: 10, scheduledFor: new Date('2026-11-26T00:00:00Z') });
    jobs.unscheduled = await insertJob(t.db, { ...base, title: 'Not yet scheduled' });
    jobs.other = await insertJob(t.db, { agencyId: w.agencyB.id, branchId: w.b1.id, title: 'Southbank visit', scheduledFor: new Date('2026-11-25T10:00:00Z') });
  });
  afterAll(async () => t?.close());

  const cal = async (client: typeof w.adminA.client, query: string) => {
    const res = await client.get(`/api/calendar?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Entry[]; count: number };
  };

  it('lists scheduled jobs with their slots, event times in Europe/London, cancelled and unscheduled left out', async () => {
    const body = await cal(w.adminA.client, 'from_date=2026-11-01&to_date=2027-06-30');
    expect(body.data.map((e) => e.job_uuid)).toEqual([jobs.main!.uuid, jobs.allDay!.uuid, jobs.bst!.uuid, jobs.summer!.uuid]);
    expect(body.count).toBe(4);
    const [main, allDay, bst, summer] = body.data as [Entry, Entry, Entry, Entry];
    expect(main).toMatchObject({
      summary: `${jobs.main!.reference} Boiler not firing`, date: '2026-11-25', all_day: false,
      start: '2026-11-25T08:00:00.000Z', end: '2026-11-25T12:00:00.000Z', location: '12 Acacia Avenue, Leeds, LS6 2AB',
      time_range: { range_label: 'Morning 08:00-12:00', starts_at: '08:00', ends_at: '12:00' },
    });
    expect(allDay).toMatchObject({ all_day: true, date: '2026-12-02', start: '2026-12-02T00:00:00.000Z', end: '2026-12-03T00:00:00.000Z', time_range: null });
    // 23:30 UTC on 30 April is 00:30 on 1 May in London (BST): the afternoon slot is 11:00-16:00 UTC
    expect(bst).toMatchObject({ date: '2027-05-01', start: '2027-05-01T11:00:00.000Z', end: '2027-05-01T16:00:00.000Z' });
    expect(summer).toMatchObject({ all_day: false, start: '2027-06-10T09:30:00.000Z', end: '2027-06-10T10:30:00.000Z' });
  });

  it('dates are inclusive London dates', async () => {
    expect((await cal(w.adminA.client, 'from_date=2026-11-25&to_date=2026-11-25')).data.map((e) => e.job_uuid)).toEqual([jobs.main!.uuid]);
    expect((await cal(w.adminA.client, 'from_date=2026-11-24&to_date=2026-11-24')).count).toBe(0);
    expect((await cal(w.adminA.client, 'from_date=2027-05-01&to_date=2027-05-01')).data.map((e) => e.job_uuid)).toEqual([jobs.bst!.uuid]);
    expect((await cal(w.adminA.client, 'from_date=2027-04-30&to_date=2027-04-30')).count).toBe(0);
  });

  it('defaults to today and 30 days on; paginates', async () => {
    const body = await cal(w.adminA.client, '');
    expect(body.data.map((e) => e.job_uuid)).toEqual([jobs.main!.uuid, jobs.allDay!.uuid]);
    const page = await cal(w.adminA.client, 'from_date=2026-11-01&to_date=2027-06-30&limit=1&offset=1');
    expect(page.count).toBe(4);
    expect(page.data.map((e) => e.job_uuid)).toEqual([jobs.allDay!.uuid]);
  });

  it('bad ranges: 400', async () => {
    for (const q of ['from_date=2026-01-01&to_date=2027-01-02', 'from_date=2026-12-01&to_date=2026-11-30', 'from_date=2026-13-01', 'from_date=tomorrow', 'colour=red', 'limit=0']) {
      const res = await w.adminA.client.get(`/api/calendar?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await w.adminA.client.get('/api/calendar?from_date=2026-12-01&to_date=2026-11-30')).json().error).toBe('Invalid or missing required parameter: to_date');
    // exactly 366 days is allowed
    expect((await w.adminA.client.get('/api/calendar?from_date=2026-01-01&to_date=2027-01-01')).statusCode).toBe(200);
  });

  it('each caller sees only what they may: agent, tenant, contractor, other agency, other branch', async () => {
    const range = 'from_date=2026-11-01&to_date=2027-06-30';
    expect((await cal(w.agentA1.client, range)).count).toBe(4);
    expect((await cal(w.tenant.client, range)).data.map((e) => e.job_uuid)).toEqual([jobs.main!.uuid, jobs.bst!.uuid]);
    expect((await cal(w.contractor.client, range)).data.map((e) => e.job_uuid)).toEqual([jobs.main!.uuid]);
    expect((await cal(w.adminB.client, range)).data.map((e) => e.job_uuid)).toEqual([jobs.other!.uuid]);
    expect((await cal(w.agentA2.client, range)).count).toBe(0);
    expect((await cal(w.otherTenant.client, range)).count).toBe(0);
    expect((await cal(w.sysops.client, range)).count).toBe(5);
  });

  it('the feed key: created once, shown once, status without the key; the feed matches the JSON calendar', async () => {
    expect((await w.adminA.client.get('/api/calendar/feed-key')).json().data).toEqual({ exists: false, created_at: null, last_used_at: null });
    const created = await w.adminA.client.post('/api/calendar/feed-key');
    expect(created.statusCode).toBe(200);
    expect(created.json().message).toBe('Feed key created');
    const { key, feed_url, regenerated } = created.json().data;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(regenerated).toBe(false);
    const stored = await t.db.selectFrom('calendar_feed_keys').select('key_hash').executeTakeFirstOrThrow();
    expect(stored.key_hash).not.toBe(key);
    const status = await w.adminA.client.get('/api/calendar/feed-key');
    expect(status.body).not.toContain(key);
    expect(status.json().data.exists).toBe(true);

    const feed = await t.app.inject({ method: 'GET', url: feed_url });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const events = parseFeed(feed.body);
    // window: 30 days back to 180 days ahead of 2026-11-21 (the summer job is beyond it)
    const json = (await cal(w.adminA.client, 'from_date=2026-10-22&to_date=2027-05-20')).data;
    expect(events.map((e) => e.uid).sort()).toEqual(json.map((e) => e.job_uuid).sort());
    for (const entry of json) {
      const ev = events.find((e) => e.uid === entry.job_uuid)!;
      expect(ev.summary).toBe(entry.summary);
      expect(ev.location ?? null).toBe(entry.location);
      expect(ev.allDay).toBe(entry.all_day);
      if (entry.all_day) expect(ev.start).toBe(entry.date);
      else expect([ev.start, ev.end]).toEqual([entry.start, entry.end]);
    }
    expect(events.find((e) => e.uid === jobs.main!.uuid)!.description).toContain('Estimated cost: £120.00');
    expect((await w.adminA.client.get('/api/calendar/feed-key')).json().data.last_used_at).toBe(t.clock.now().toISOString());
  });

  it("a tenant's feed has no costs", async () => {
    const { key } = (await w.tenant.client.post('/api/calendar/feed-key')).json().data;
    const feed = await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${key}` });
    const events = parseFeed(feed.body);
    expect(events.map((e) => e.uid).sort()).toEqual([jobs.main!.uuid, jobs.bst!.uuid].sort());
    expect(feed.body).not.toMatch(/cost/i);
  });

  it('regenerating invalidates the old key; revoking removes it', async () => {
    const first = (await w.agentA1.client.post('/api/calendar/feed-key')).json().data.key;
    const again = await w.agentA1.client.post('/api/calendar/feed-key');
    expect(again.json()).toMatchObject({ message: 'Feed key regenerated', data: { regenerated: true } });
    const second = again.json().data.key;
    const old = await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${first}` });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ success: false, error: 'Calendar feed not found' });
    expect((await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${second}` })).statusCode).toBe(200);
    expect((await w.agentA1.client.delete('/api/calendar/feed-key', undefined, { csrf: false })).statusCode).toBe(403);
    const revoked = await w.agentA1.client.delete('/api/calendar/feed-key');
    expect(revoked.json()).toEqual({ success: true, message: 'Feed key revoked' });
    expect((await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${second}` })).statusCode).toBe(404);
    expect((await w.agentA1.client.delete('/api/calendar/feed-key')).json()).toEqual({ success: false, error: 'Feed key not found' });
    const log = await t.db.selectFrom('activity_log').select('action').where('action', 'like', 'calendar_feed_key.%').execute();
    expect(log.map((r) => r.action)).toEqual(expect.arrayContaining(['calendar_feed_key.create', 'calendar_feed_key.regenerate', 'calendar_feed_key.revoke']));
  });

  it('unknown, malformed or missing keys; a disabled owner', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${'a'.repeat(64)}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/feed.ics?key=nope' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/feed.ics' })).statusCode).toBe(400);
    const { key } = (await w.contractor.client.post('/api/calendar/feed-key')).json().data;
    const ok = await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${key}` });
    expect(parseFeed(ok.body).map((e) => e.uid)).toEqual([jobs.main!.uuid]);
    await t.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', w.contractor.user.id).execute();
    expect((await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${key}` })).statusCode).toBe(404);
  });

  it('writes need a CSRF token; everything needs the permission', async () => {
    const res = await w.otherTenant.client.post('/api/calendar/feed-key', undefined, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Invalid or missing CSRF token');
    const { key } = (await w.otherTenant.client.post('/api/calendar/feed-key')).json().data;
    const role = await t.db.selectFrom('roles').select('id').where('code', '=', 'tenant').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_permissions').where('role_id', '=', role.id).where('permission_key', '=', 'api.calendar.view').execute();
    // A write behind the services' back: move the auth epoch on as changeIdentity does (docs/security.md "Token lookup cache").
    await t.deps.authEpoch.bump();
    try {
      expect((await w.otherTenant.client.get('/api/calendar')).statusCode).toBe(403);
      expect((await w.otherTenant.client.get('/api/calendar/feed-key')).statusCode).toBe(403);
      expect((await w.otherTenant.client.post('/api/calendar/feed-key')).statusCode).toBe(403);
      // the feed answers only while the owner holds the permission
      expect((await t.app.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${key}` })).statusCode).toBe(404);
    } finally {
      await t.db.insertInto('role_permissions').values({ role_id: role.id, permission_key: 'api.calendar.view' }).execute();
      await t.deps.authEpoch.bump();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar' })).statusCode).toBe(401);
  });

  it('the feed key never reaches a log line', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logged = await buildApp(t.deps, { logger: { level: 'info', stream } });
    await logged.ready();
    try {
      const { key } = (await w.adminA.client.post('/api/calendar/feed-key')).json().data;
      const res = await logged.inject({ method: 'GET', url: `/api/calendar/feed.ics?key=${key}` });
      expect(res.statusCode).toBe(200);
      expect(lines.join('')).toContain('/api/calendar/feed.ics?key=****');
      expect(lines.join('')).not.toContain(key);
    } finally {
      await logged.close();
    }
  });
});
