/**
 * docs/security.md promise 27: no input produces a 5xx. NUL bytes, lone surrogates, out-of-range
 * integers and dates, malformed multipart, empty bodies and over-long paths all get a 4xx in the
 * envelope, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { attachedRecordsWorld } from '../helpers/attached-records-world.ts';

describe('bad input is a 4xx in the envelope, never a 5xx', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  let contractorUuid: string;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await attachedRecordsWorld(t);
    contractorUuid = (await t.db.selectFrom('contractors').select('uuid').where('id', '=', w.contractorId).executeTakeFirstOrThrow()).uuid;
  });
  afterAll(async () => t?.close());

  const expectEnvelope = (res: { statusCode: number; json(): unknown; body: string }, status: number, error?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json() as { success: boolean; error: string };
    expect(body.success).toBe(false);
    expect(typeof body.error).toBe('string');
    if (error) expect(body.error).toBe(error);
  };
  const activityCount = async () => (await t.db.selectFrom('activity_log').select('id').where('action', 'not like', 'auth.%').execute()).length;

  it('refuses a NUL byte in a body string, a query value and a path value with 400 naming it', async () => {
    expectEnvelope(await w.adminA.client.post('/api/jobs/manage', { title: 'Leak\u0000', priority: 3, branch_uuid: w.a1.uuid }), 400, 'Invalid or missing required parameter: title');
    expectEnvelope(await w.adminA.client.get('/api/jobs/manage?q=a%00b'), 400, 'Invalid or missing required parameter: q');
    expectEnvelope(await w.adminA.client.get('/api/admin/branches?q=%00'), 400);
  });

  it('refuses a lone UTF-16 surrogate in a branch name with 400', async () => {
    const before = await t.db.selectFrom('branches').select('id').execute();
    const payload = '{"name":"Branch \\ud800 x"}';
    const res = await w.adminA.client.post('/api/admin/branches', payload, { headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 400, 'Invalid or missing required parameter: name');
    expect(await t.db.selectFrom('branches').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses integers beyond the int32 columns in paths, bodies and queries', async () => {
    expectEnvelope(await w.adminA.client.get('/api/jobs/manage?offset=1e20'), 400, 'Invalid or missing required parameter: offset');
    expectEnvelope(await w.adminA.client.get('/api/jobs/manage?job_type_id=2147483648'), 400, 'Invalid or missing required parameter: job_type_id');
    expectEnvelope(await w.adminA.client.get('/api/admin/activity-log?user_id=99999999999'), 400, 'Invalid or missing required parameter: user_id');
    expectEnvelope(await w.adminA.client.put('/api/contractors/trades/2147483648', { name: 'x' }), 400);
    expectEnvelope(await w.adminA.client.post('/api/jobs/manage', { title: 'Leak', priority: 3, branch_uuid: w.a1.uuid, trade_id: 2 ** 31 }), 400, 'Invalid or missing required parameter: trade_id');
  });

  it('refuses dates outside 1900-2999 on certificates and the calendar', async () => {
    const before = await activityCount();
    expectEnvelope(await w.adminA.client.post(`/api/contractors/${contractorUuid}/certifications`, { cert_type: 'gas_safe', reference: 'GS-1', expires_on: '0000-01-01' }), 400, 'Invalid or missing required parameter: expires_on');
    expectEnvelope(await w.adminA.client.get('/api/calendar?from_date=9999-12-01'), 400, 'Invalid or missing required parameter: from_date');
    expectEnvelope(await w.adminA.client.get('/api/calendar?from_date=2026-02-30'), 400, 'Invalid or missing required parameter: from_date');
    expect(await activityCount()).toBe(before);
  });

  it('maps every malformed multipart body to 400', async () => {
    const url = `/api/jobs/${w.job.uuid}/documents`;
    const cases: Array<[string, string]> = [
      ['multipart/form-data', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF'],
      ['multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 truncated'],
      ['multipart/form-data; boundary=abc', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF\r\n--xyz--\r\n'],
      ['multipart/form-data; boundary=abc', '--abc\r\nbroken header line\r\n\r\nbody\r\n--abc--\r\n'],
    ];
    for (const [type, body] of cases) {
      const res = await w.adminA.client.post(url, body, { headers: { 'content-type': type } });
      expect(res.statusCode, `${type} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().success).toBe(false);
    }
    expect(await t.db.selectFrom('job_files').select('id').execute()).toHaveLength(0);
  });

  it('an empty-body PUT on a trade is 400, not an SQL error', async () => {
    const trade = await w.adminA.client.post('/api/contractors/trades', { name: 'Roofing A' });
    expect(trade.statusCode, trade.body).toBe(201);
    expectEnvelope(await w.adminA.client.put(`/api/contractors/trades/${trade.json().data.ID}`, {}), 400, 'Invalid or missing required parameter: name');
    expectEnvelope(await w.adminA.client.put(`/api/contractors/trades/${trade.json().data.ID}`), 400);
  });

  it('a time slot updated while it is deleted answers 404, never 500', async () => {
    const slot = await w.adminA.client.post('/api/jobs/time-ranges', { range_label: 'Dawn', starts_at: '06:00', ends_at: '07:00' });
    expect(slot.statusCode, slot.body).toBe(201);
    const id = slot.json().data.ID as number;
    const [upd, del] = await Promise.all([
      w.adminA.client.put(`/api/jobs/time-ranges/${id}`, { range_label: 'Early dawn' }),
      w.adminA.client.delete(`/api/jobs/time-ranges/${id}`),
    ]);
    expect([200, 404]).toContain(upd.statusCode);
    expect([200, 404]).toContain(del.statusCode);
    await t.db.updateTable('job_time_ranges').set({ retired_at: null }).where('id', '=', id).execute();
    // The race made deterministic: the slot is retired between the read and the write.
    await t.db.updateTable('job_time_ranges').set({ retired_at: new Date() }).where('id', '=', id).execute();
    expectEnvelope(await w.adminA.client.put(`/api/jobs/time-ranges/${id}`, { range_label: 'Later' }), 404, 'Time range not found');
  });

  it('GET /api/agents lists invited agents (one shared user status enum)', async () => {
    await t.db.updateTable('users').set({ status: 'invited' }).where('id', '=', w.agentA1.user.id).execute();
    const res = await w.adminA.client.get('/api/agents');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((a: { status: string }) => a.status)).toContain('invited');
    await t.db.updateTable('users').set({ status: 'active' }).where('id', '=', w.agentA1.user.id).execute();
  });

  it("a path parameter over 100 characters gets the envelope, not Fastify's body with the URL", async () => {
    const long = 'a'.repeat(150);
    const res = await w.adminA.client.get(`/api/jobs/${long}`);
    expectEnvelope(res, 414, 'Request path is too long');
    expect(res.body).not.toContain(long);
    expectEnvelope(await w.adminA.client.get('/api/jobs/%E0%A4%A'), 400, 'Malformed request path');
  });
});
