/**
 * Live updates, GET /api/events/stream (docs/live-updates.md), over real HTTP on the file's
 * database (PGlite in process, or PostgreSQL LISTEN/NOTIFY): each recipient hears only the events
 * of the jobs the reads let it see (tenant, contractor, agent, admin of another agency, SysOps),
 * notes by their visibility; a stream resumes with Last-Event-ID and is told to resync beyond the
 * replay window; limits per account; heartbeats; a revoked session ends its stream; the app's
 * close ends every stream.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAgency, createBranch, userClient, type TestApp } from '../../helpers/app.ts';
import { insertContractor, insertJob, insertTenant } from '../../helpers/factories.ts';
import { openSse, type SseStream } from '../../helpers/sse.ts';

describe('GET /api/events/stream', () => {
  let t: TestApp;
  let base: string;
  const streams: SseStream[] = [];
  let w: Awaited<ReturnType<typeof world>>;

  async function world() {
    const agencyA = await createAgency(t.db, 'Agency A');
    const agencyB = await createAgency(t.db, 'Agency B');
    const a1 = await createBranch(t.db, agencyA.id, 'A1');
    const b1 = await createBranch(t.db, agencyB.id, 'B1');
    const tenant1 = await insertTenant(t.db, agencyA.id, [], 'Tenant One');
    const tenant2 = await insertTenant(t.db, agencyA.id, [], 'Tenant Two');
    const firm = await insertContractor(t.db, agencyA.id, 'Fixit');
    const j1 = await insertJob(t.db, { agency_id: agencyA.id, branch_id: a1.id, tenant_id: tenant1.id, contractor_id: firm.id, status_id: 4 });
    const j2 = await insertJob(t.db, { agency_id: agencyA.id, branch_id: a1.id, tenant_id: tenant2.id });
    const j3 = await insertJob(t.db, { agency_id: agencyB.id, branch_id: b1.id });
    return {
      j1, j2, j3,
      sysops: await userClient(t, { role: 'sysops' }),
      adminA: await userClient(t, { role: 'admin', agencyId: agencyA.id }),
      agentA1: await userClient(t, { role: 'agent', agencyId: agencyA.id, branchId: a1.id }),
      adminB: await userClient(t, { role: 'admin', agencyId: agencyB.id }),
      tenant1: await userClient(t, { role: 'tenant', agencyId: agencyA.id, tenantId: tenant1.id }),
      tenant2: await userClient(t, { role: 'tenant', agencyId: agencyA.id, tenantId: tenant2.id }),
      contractor: await userClient(t, { role: 'contractor', agencyId: agencyA.id, contractorId: firm.id }),
    };
  }

  /** Opens a stream with a bearer token and waits for its `ready`. */
  async function open(token: string, headers: Record<string, string> = {}): Promise<SseStream> {
    const s = await openSse(`${base}/api/events/stream`, { authorization: `Bearer ${token}`, ...headers });
    streams.push(s);
    expect(s.status).toBe(200);
    await s.waitFor((m) => m.some((x) => x.json.type === 'ready'));
    return s;
  }

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_LIVE_MAX_PER_USER: '3', CARETAKER_LIVE_HEARTBEAT_S: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    w = await world();
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  it('refuses a caller without credentials with the error envelope', async () => {
    const s = await openSse(`${base}/api/events/stream`, {});
    expect(s.status).toBe(401);
    expect(JSON.parse(s.body)).toMatchObject({ success: false });
  });

  it('gives each recipient only the events the reads let it see', async () => {
    const names = ['sysops', 'adminA', 'agentA1', 'adminB', 'tenant1', 'tenant2', 'contractor'] as const;
    const s = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await open(w[n].token)] as const))) as Record<(typeof names)[number], SseStream>;
    expect(s.sysops.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.sysops.retry).toBe(2000);

    expect((await w.adminA.client.put(`/api/jobs/${w.j1.uuid}`, { title: 'Leak under the sink' })).statusCode).toBe(200);
    expect((await w.adminA.client.put(`/api/jobs/${w.j2.uuid}`, { title: 'Broken window' })).statusCode).toBe(200);
    expect((await w.adminB.client.put(`/api/jobs/${w.j3.uuid}`, { title: 'Agency B job' })).statusCode).toBe(200);
    expect((await w.agentA1.client.post(`/api/jobs/${w.j1.uuid}/notes`, { body: 'Internal: chase the landlord', visibility: 'internal' })).statusCode).toBe(201);
    expect((await w.tenant1.client.post(`/api/jobs/${w.j1.uuid}/notes`, { body: 'Water is still dripping' })).statusCode).toBe(201);

    // SysOps hears all five; once it has, the others have had theirs delivered in the same batches.
    await s.sysops.waitFor(() => s.sysops.jobEvents().length >= 5);
    await new Promise((r) => setTimeout(r, 200));
    const seen = (n: (typeof names)[number]) => s[n].jobEvents().map((e) => `${e.type} ${e.job_uuid === w.j1.uuid ? 'j1' : e.job_uuid === w.j2.uuid ? 'j2' : 'j3'}`);
    const all = ['job.updated j1', 'job.updated j2', 'job.updated j3', 'job.note_added j1', 'job.note_added j1'];
    expect(seen('sysops')).toEqual(all);
    expect(seen('adminA')).toEqual(['job.updated j1', 'job.updated j2', 'job.note_added j1', 'job.note_added j1']);
    expect(seen('agentA1')).toEqual(['job.updated j1', 'job.updated j2', 'job.note_added j1', 'job.note_added j1']);
    expect(seen('adminB')).toEqual(['job.updated j3']);
    // A tenant: its own job, and only the note shared with tenants; never the other tenant's job.
    expect(seen('tenant1')).toEqual(['job.updated j1', 'job.note_added j1']);
    expect(seen('tenant2')).toEqual(['job.updated j2']);
    // The contractor: the job assigned to it; neither note is shared with contractors.
    expect(seen('contractor')).toEqual(['job.updated j1']);

    // Small payloads: type, job, changed fields; the id is the SSE id.
    const update = s.tenant1.messages.find((m) => m.json.type === 'job.updated')!;
    expect(update.json).toEqual({ id: update.id, type: 'job.updated', job_uuid: w.j1.uuid, reference: w.j1.reference, fields: ['title'], at: expect.stringMatching(/Z$/) });
    expect(Number(update.id)).toBeGreaterThan(0);
    for (const st of Object.values(s)) st.close();
  });

  it('replays what a resumed stream missed (Last-Event-ID), authorised, and says resync beyond the window', async () => {
    const first = await open(w.tenant1.token);
    await w.adminA.client.put(`/api/jobs/${w.j1.uuid}`, { priority: 2 });
    await first.waitFor(() => first.jobEvents().length === 1);
    const lastId = first.messages.filter((m) => m.id).at(-1)!.id!;
    first.close();

    // Missed while away: one change of its own job, one of another tenant's job.
    await w.adminA.client.put(`/api/jobs/${w.j2.uuid}`, { priority: 2 });
    await w.adminA.client.put(`/api/jobs/${w.j1.uuid}`, { priority: 1 });
    const resumed = await open(w.tenant1.token, { 'last-event-id': lastId });
    const types = resumed.messages.map((m) => m.json.type);
    expect(types).toEqual(['job.updated', 'ready']);
    expect(resumed.messages[0]!.json).toMatchObject({ job_uuid: w.j1.uuid, fields: ['priority'] });
    expect(BigInt(resumed.messages[0]!.id!)).toBeGreaterThan(BigInt(lastId));
    // The query parameter works the same (a page opened afresh cannot set the header).
    const byQuery = await openSse(`${base}/api/events/stream?last_event_id=${lastId}`, { authorization: `Bearer ${w.tenant1.token}` });
    streams.push(byQuery);
    await byQuery.waitFor((m) => m.some((x) => x.json.type === 'ready'));
    expect(byQuery.jobEvents()).toHaveLength(1);
    resumed.close();
    byQuery.close();

    // Beyond CARETAKER_LIVE_REPLAY_S the missed events are not replayed: the client refetches.
    t.clock.advance(t.config.live.replayS + 60);
    const late = await open(w.tenant1.token, { 'last-event-id': lastId });
    expect(late.messages.map((m) => m.json.type)).toEqual(['resync', 'ready']);
    late.close();
    const bad = await openSse(`${base}/api/events/stream?last_event_id=abc`, { authorization: `Bearer ${w.tenant1.token}` });
    expect(bad.status).toBe(400);
  });

  it('limits open streams per account (429 with the envelope) and sends heartbeats', async () => {
    const mine = [await open(w.tenant2.token), await open(w.tenant2.token), await open(w.tenant2.token)];
    const fourth = await openSse(`${base}/api/events/stream`, { authorization: `Bearer ${w.tenant2.token}` });
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('30');
    expect(JSON.parse(fourth.body)).toMatchObject({ success: false, limit: 3, retry_after: 30 });
    await mine[0]!.waitFor(() => mine[0]!.comments.includes('heartbeat'), 3_000);
    for (const s of mine) s.close();
    // Closed streams free their places.
    await new Promise((r) => setTimeout(r, 100));
    (await open(w.tenant2.token)).close();
  });

  it('ends the stream of a session that was signed out', async () => {
    const s = await open(w.contractor.token);
    expect((await w.contractor.client.post('/api/auth/logout')).statusCode).toBe(200);
    await s.waitFor((m) => m.some((x) => x.json.type === 'signed_out'), 4_000);
    await s.ended;
    expect(s.isEnded()).toBe(true);
  });

  it('ends every stream when the app closes', async () => {
    const s = await open(w.adminA.token);
    await t.app.close();
    await s.ended;
    expect(s.isEnded()).toBe(true);
  });
});
