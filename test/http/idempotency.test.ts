/**
 * Idempotency-Key on every write (docs/api.md "Idempotency-Key"): a note, a photo, a transition and
 * an assignment repeated under one key are stored once and the first answer is replayed with
 * Idempotent-Replayed: true; the same key with another body is 422; two concurrent requests under
 * one key write once. An answer carrying a secret shown once (a webhook's signing secret, a
 * calendar feed key) is stored without it (docs/security.md "Stored idempotent answers").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS } from '../../src/modules/jobs/jobs/lifecycle.ts';
import { pngBytes } from '../../src/seed/demo/sample-files.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { form } from '../helpers/upload-form.ts';
import { insertJob, jobsWorld, type JobsWorld } from '../jobs/jobs/fixtures.ts';

describe('Idempotency-Key on writes', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    // Webhook endpoints on loopback (no receiver needed: only the endpoint's creation is sent).
    t = await buildTestApp({ CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true' });
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  const approvedJob = () => insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.approved });
  const key = (name: string) => ({ headers: { 'idempotency-key': `${name}-${Math.random().toString(36).slice(2)}` } });
  const count = async (table: 'job_notes' | 'job_files' | 'job_status_history', jobId: number) =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('job_id', '=', jobId).executeTakeFirstOrThrow()).n);

  it('a note: stored once, the first answer replayed; another body is 422', async () => {
    const job = await approvedJob();
    const k = key('note');
    const first = await w.adminA.client.post(`/api/jobs/${job.uuid}/notes`, { body: 'Tenant called about the leak' }, k);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await w.adminA.client.post(`/api/jobs/${job.uuid}/notes`, { body: 'Tenant called about the leak' }, k);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(await count('job_notes', job.id)).toBe(1);

    const other = await w.adminA.client.post(`/api/jobs/${job.uuid}/notes`, { body: 'Something else' }, k);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ success: false, error: 'Idempotency-Key reused with a different request' });
    expect(await count('job_notes', job.id)).toBe(1);
    // Keys belong to their account: another account's same key is a new request.
    const byOther = await w.agentA1.client.post(`/api/jobs/${job.uuid}/notes`, { body: 'Tenant called about the leak' }, k);
    expect(byOther.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a photo (multipart): stored once, replayed; other bytes under the key are 422', async () => {
    const job = await approvedJob();
    const k = key('photo');
    const url = `/api/jobs/${job.uuid}/photos`;
    const first = await w.adminA.client.post(url, form(pngBytes(), 'leak.png', { description: 'Under the sink' }), k);
    expect(first.statusCode, first.body).toBe(201);
    const again = await w.adminA.client.post(url, form(pngBytes(), 'leak.png', { description: 'Under the sink' }), k);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await w.adminA.client.post(url, form(pngBytes(), 'leak.png', { description: 'Another view' }), k);
    expect(other.statusCode).toBe(422);
    expect(await count('job_files', job.id)).toBe(1);
  });

  it('a transition: the repeat answers the first 200 instead of 409 "Cannot move"', async () => {
    const job = await approvedJob();
    const k = key('move');
    const body = { to_status_id: STATUS.onHold, note: 'waiting for parts' };
    const first = await w.adminA.client.post(`/api/jobs/${job.uuid}/transitions`, body, k);
    expect(first.statusCode, first.body).toBe(200);
    const again = await w.adminA.client.post(`/api/jobs/${job.uuid}/transitions`, body, k);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await count('job_status_history', job.id)).toBe(1);
    // Without a key the repeat is the real conflict.
    expect((await w.adminA.client.post(`/api/jobs/${job.uuid}/transitions`, body)).statusCode).toBe(409);
  });

  it('an assignment: two concurrent requests under one key assign once, both answer the first answer', async () => {
    const job = await approvedJob();
    const k = key('assign');
    const send = () => w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor.uuid }, k);
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    expect(a.body).toBe(b.body);
    expect(await count('job_status_history', job.id)).toBe(1);
    const activity = await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'job').where('resource_id', '=', job.id).where('action', 'like', 'job.assign%').execute();
    expect(activity).toHaveLength(1);
  });

  it('a malformed key is 400', async () => {
    const job = await approvedJob();
    const res = await w.adminA.client.post(`/api/jobs/${job.uuid}/notes`, { body: 'x' }, { headers: { 'idempotency-key': 'has space' } });
    expect(res.statusCode).toBe(400);
  });

  it('a secret shown once is not stored: the replay omits it and names it in Idempotent-Withheld', async () => {
    const k = key('hook');
    const body = { url: 'http://127.0.0.1:9/caretaker', events: ['job.created'], description: 'Idempotent hook' };
    const first = await w.adminA.client.post('/api/webhooks/endpoints', body, k);
    expect(first.statusCode, first.body).toBe(201);
    const secret = first.json().data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const stored = await t.db.selectFrom('idempotency_keys').select(['response_text', 'response_headers']).where('key', '=', k.headers['idempotency-key']).executeTakeFirstOrThrow();
    expect(stored.response_text).not.toContain(secret);
    const again = await w.adminA.client.post('/api/webhooks/endpoints', body, k);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['idempotent-withheld']).toBe('data.secret');
    const { secret: _shownOnce, ...rest } = first.json().data as Record<string, unknown>;
    expect(again.json()).toEqual({ ...first.json(), data: rest });
    const endpoints = await t.db.selectFrom('webhook_endpoints').select('id').where('description', '=', 'Idempotent hook').execute();
    expect(endpoints).toHaveLength(1);

    const feed = key('feed');
    const created = await w.adminA.client.post('/api/calendar/feed-key', {}, feed);
    expect(created.statusCode, created.body).toBeLessThan(300);
    const replayed = await w.adminA.client.post('/api/calendar/feed-key', {}, feed);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers['idempotent-withheld']).toBe('data.key, data.feed_url');
    expect(replayed.body).not.toContain(created.json().data.key);
  });
});
