import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

const PATH = '/api/jobs/time-ranges';
const LIST = `${PATH}?action=list`;

describe('job time ranges (spec 4.13, 2.5)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const labels = async (client: { get(url: string): Promise<{ json(): { data: Array<{ range_label: string }> } }> }) =>
    (await client.get(LIST)).json().data.map((r) => r.range_label);
  const stored = () => t.db.selectFrom('job_time_ranges').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('lists the four seeded global slots as { ID, range_label, ... } for any role', async () => {
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    const res = await tenant.client.get(LIST);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Time ranges retrieved', count: 4 });
    expect(body.data[0]).toEqual({ ID: expect.any(Number), range_label: 'Morning 08:00-12:00', starts_at: '08:00', ends_at: '12:00', sort_order: 10, agency_uuid: null });
    expect(body.data.map((r: { range_label: string }) => r.range_label)).toEqual([
      'Morning 08:00-12:00', 'Afternoon 12:00-17:00', 'Evening 17:00-20:00', 'All day 08:00-18:00',
    ]);
  });

  it('answers 400 for a missing or unknown action', async () => {
    for (const url of [PATH, `${PATH}?action=get`, `${PATH}?action=`, `${LIST}&extra=1`]) {
      const res = await w.agentA1.client.get(url);
      expect(res.statusCode, url).toBe(400);
    }
    expect((await w.agentA1.client.get(`${PATH}?action=delete`)).json()).toEqual({ success: false, error: 'Invalid or missing required parameter: action' });
    expect((await w.agentA1.client.get(PATH)).json().error).toBe('Invalid or missing required parameter: action');
  });

  it("lets an agency admin add a slot only its agency sees; SysOps add global slots", async () => {
    const res = await w.adminA.client.post(PATH, { range_label: 'Saturday 09:00-12:00', starts_at: '09:00', ends_at: '12:00' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: 'Time range created', data: { range_label: 'Saturday 09:00-12:00', agency_uuid: w.agencyA.uuid, sort_order: 50 } });
    expect(await labels(w.agentA1.client)).toContain('Saturday 09:00-12:00');
    expect(await labels(w.adminB.client)).not.toContain('Saturday 09:00-12:00');
    const global = await w.sysops.client.post(PATH, { range_label: 'Night 20:00-23:00', starts_at: '20:00', ends_at: '23:00', sort_order: 35 });
    expect(global.statusCode).toBe(201);
    expect(global.json().data.agency_uuid).toBeNull();
    expect((await labels(w.adminB.client))[3]).toBe('Night 20:00-23:00');
    expect(await labels(w.sysops.client)).toContain('Saturday 09:00-12:00');
    const log = await t.db.selectFrom('activity_log').select(['action', 'agency_id']).where('action', '=', 'time_range.create').orderBy('id').execute();
    expect(log).toEqual([{ action: 'time_range.create', agency_id: w.agencyA.id }, { action: 'time_range.create', agency_id: null }]);
  });

  it('rejects bad input with 400 or 409 and writes nothing', async () => {
    const before = await stored();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{}, 400, 'Invalid or missing required parameter: range_label'],
      [{ range_label: '   ' }, 400, 'Invalid or missing required parameter: range_label'],
      [{ range_label: 'x'.repeat(101) }, 400, 'Invalid or missing required parameter: range_label'],
      [{ range_label: 'Late', starts_at: '24:00' }, 400, 'Invalid or missing required parameter: starts_at'],
      [{ range_label: 'Late', starts_at: '9:00' }, 400, 'Invalid or missing required parameter: starts_at'],
      [{ range_label: 'Late', starts_at: '18:00', ends_at: '17:00' }, 400, 'Invalid or missing required parameter: ends_at'],
      [{ range_label: 'Late', sort_order: -1 }, 400, 'Invalid or missing required parameter: sort_order'],
      [{ range_label: 'morning 08:00-12:00' }, 409, 'A time range with this label already exists'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.adminA.client.post(PATH, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toEqual({ success: false, error });
    }
    expect(await stored()).toEqual(before);
  });

  it("renames and retires the agency's own slot; retired slots leave the list and are 404 after", async () => {
    const slot = (await w.adminA.client.post(PATH, { range_label: 'Early 07:00-08:00', starts_at: '07:00', ends_at: '08:00' })).json().data;
    const renamed = await w.adminA.client.put(`${PATH}/${slot.ID}`, { range_label: 'Early 06:30-08:00', starts_at: '06:30' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Time range updated', data: { ID: slot.ID, range_label: 'Early 06:30-08:00', starts_at: '06:30', ends_at: '08:00' } });
    expect((await w.adminA.client.put(`${PATH}/${slot.ID}`, { ends_at: '06:00' })).json().error).toBe('Invalid or missing required parameter: ends_at');
    expect((await w.adminA.client.put(`${PATH}/${slot.ID}`, {})).json().error).toBe('Invalid or missing required parameter: body');
    expect((await w.adminA.client.put(`${PATH}/${slot.ID}`, { range_label: 'Evening 17:00-20:00' })).statusCode).toBe(409);
    expect((await w.adminA.client.put(`${PATH}/abc`, { range_label: 'x' })).json().error).toBe('Invalid or missing required parameter: id');
    const retired = await w.adminA.client.delete(`${PATH}/${slot.ID}`);
    expect(retired.statusCode).toBe(200);
    expect(retired.json()).toEqual({ success: true, message: 'Time range retired' });
    expect(await labels(w.adminA.client)).not.toContain('Early 06:30-08:00');
    const row = (await stored()).find((r) => r.id === slot.ID)!;
    expect(row.retired_at).not.toBeNull();
    expect((await w.adminA.client.delete(`${PATH}/${slot.ID}`)).json()).toEqual({ success: false, error: 'Time range not found' });
    expect((await w.adminA.client.put(`${PATH}/${slot.ID}`, { range_label: 'again' })).statusCode).toBe(404);
  });

  it("keeps another agency's slot 404, global slots 403 for agency admins, and lets SysOps change them", async () => {
    const slotA = (await w.adminA.client.post(PATH, { range_label: 'Agency A only' })).json().data;
    for (const res of [await w.adminB.client.put(`${PATH}/${slotA.ID}`, { range_label: 'mine' }), await w.adminB.client.delete(`${PATH}/${slotA.ID}`)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Time range not found');
    }
    const globalId = (await w.adminA.client.get(LIST)).json().data[0].ID;
    const denied = await w.adminA.client.put(`${PATH}/${globalId}`, { range_label: 'Mine now' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('Only SysOps can change the global time ranges');
    expect((await w.adminA.client.delete(`${PATH}/${globalId}`)).statusCode).toBe(403);
    const sys = await w.sysops.client.put(`${PATH}/${globalId}`, { range_label: 'Morning 08:00-12:30', ends_at: '12:30' });
    expect(sys.statusCode).toBe(200);
    expect((await w.sysops.client.put(`${PATH}/${slotA.ID}`, { sort_order: 5 })).statusCode).toBe(200);
    expect((await labels(w.adminA.client))[0]).toBe('Agency A only');
  });

  it('needs authentication, the admin key for writes, and a CSRF token', async () => {
    expect((await t.app.inject({ method: 'GET', url: LIST })).statusCode).toBe(401);
    const before = await stored();
    expect((await w.agentA1.client.post(PATH, { range_label: 'Agent slot' })).statusCode).toBe(403);
    const globalId = before[0]!.id;
    expect((await w.agentA1.client.put(`${PATH}/${globalId}`, { range_label: 'Agent slot' })).statusCode).toBe(403);
    expect((await w.agentA1.client.delete(`${PATH}/${globalId}`)).statusCode).toBe(403);
    const noCsrf = await w.adminA.client.post(PATH, { range_label: 'No csrf' }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    expect((await w.sysops.client.put(`${PATH}/${globalId}`, { range_label: 'No csrf' }, { csrf: false })).statusCode).toBe(403);
    expect((await w.sysops.client.delete(`${PATH}/${globalId}`, undefined, { csrf: false })).statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });
});
