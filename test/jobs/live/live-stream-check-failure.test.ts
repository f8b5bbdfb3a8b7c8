/**
 * docs/live-updates.md "When a stream ends": a stream ends with `signed_out` when its session is
 * refused, not when the check itself cannot be made. With the heartbeat at 1 s, the database is
 * made unreachable for the session checks (every use of `deps.db` throws) for several heartbeats:
 * the stream stays open, says nothing of a sign-out, and receives the next change once the
 * database is back. (At 10,000 streams an exhausted pool made these checks fail, and each failure
 * ended a stream as signed out: bench/README.md "Live updates at 10,000 streams".)
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.ts';
import { buildTestApp, Client, createAgency, createBranch, createUser, login, type TestApp } from '../../helpers/app.ts';
import { insertJob } from '../../helpers/factories.ts';
import { openSse, type SseStream } from '../../helpers/sse.ts';

/** Generous wait for an event on a loaded machine. */
const WAIT_MS = 20_000;

describe('a live stream whose session check fails (database unreachable)', () => {
  let t: TestApp;
  let stream: SseStream | undefined;

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_LIVE_HEARTBEAT_S: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    stream?.close();
    await t.close();
  });

  it('stays open through failed checks and delivers the next change', async () => {
    const agency = await createAgency(t.db);
    const branch = await createBranch(t.db, agency.id);
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const token = await login(t.app, admin.email);
    const job = await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const s = (stream = await openSse(`${base}/api/events/stream`, { authorization: `Bearer ${token}` }));
    expect(s.status).toBe(200);
    await s.waitFor((m) => m.some((x) => x.json.type === 'ready'), WAIT_MS);

    // The database unreachable for the checks of the next heartbeats (the hub's own LISTEN
    // connection is not `deps.db`, and nothing else runs meanwhile).
    const deps = t.deps as { db: Db };
    const db = deps.db;
    const heartbeats = s.comments.length;
    deps.db = new Proxy({} as Db, {
      get() {
        throw new Error('database unreachable (test)');
      },
    });
    try {
      // Two heartbeats, each with its failed check.
      await s.waitFor(() => s.comments.length >= heartbeats + 2, WAIT_MS);
    } finally {
      deps.db = db;
    }
    expect(s.isEnded()).toBe(false);
    expect(s.messages.some((x) => x.json.type === 'signed_out')).toBe(false);

    expect((await new Client(t.app, token).put(`/api/jobs/${job.uuid}`, { title: 'Checked again' })).statusCode).toBe(200);
    await s.waitFor(() => s.jobEvents().some((e) => e.type === 'job.updated' && e.job_uuid === job.uuid), WAIT_MS);
    expect(s.messages.some((x) => x.json.type === 'signed_out')).toBe(false);
  });
});
