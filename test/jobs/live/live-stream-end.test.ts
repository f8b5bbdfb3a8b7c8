/**
 * docs/live-updates.md "When a stream ends", docs/security.md promise "live streams end at once":
 * a live stream ends with `signed_out` as soon as its session ends (a logout, the account's
 * sessions revoked, the account disabled or blocked, its agency suspended), not at the next
 * heartbeat: the heartbeat is set to 300 s here, so only the change's own signal (the
 * `caretaker_auth` notification of migration 2026_12_06_1500) can end the stream within the
 * test. Streams of other people stay open and keep receiving events.
 * - one instance, on the file's database (PGlite in process, or PostgreSQL LISTEN/NOTIFY);
 * - two instances on one PostgreSQL database (PostgreSQL only): the change is made through A, the
 *   streams are held by B.
 */
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildApp } from '../../../src/main/app.ts';
import { openRuntime, type Runtime } from '../../../src/main/runtime.ts';
import type { Db } from '../../../src/db/database.ts';
import { buildTestApp, Client, createAgency, createBranch, createUser, login, type TestApp } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { insertJob } from '../../helpers/factories.ts';
import { skipWithout } from '../../helpers/skip.ts';
import { openSse, type SseStream } from '../../helpers/sse.ts';

/** Long enough that no heartbeat check happens during the test. */
const HEARTBEAT_S = '300';
/** Generous wait for the signal on a loaded machine; far below the heartbeat. */
const WAIT_MS = 20_000;

interface Setup {
  db: Db;
  /** Where changes are made (instance A). */
  actions: FastifyInstance;
  /** Base URL of the instance holding the streams (B, or the same one). */
  streamBase: string;
}

/** The scenarios, run against one instance or two. */
function scenarios(setup: () => Setup) {
  const streams: SseStream[] = [];
  let w: Awaited<ReturnType<typeof world>>;

  async function world() {
    const { db, actions } = setup();
    const agencyA = await createAgency(db, 'Agency A');
    const agencyB = await createAgency(db, 'Agency B');
    const a1 = await createBranch(db, agencyA.id, 'A1');
    const b1 = await createBranch(db, agencyB.id, 'B1');
    const person = async (role: string, agencyId: number | undefined, branchId?: number) => {
      const user = await createUser(db, { role, ...(agencyId !== undefined ? { agencyId } : {}), ...(branchId !== undefined ? { branchId } : {}) });
      const token = await login(actions, user.email);
      return { user, token, client: new Client(actions, token) };
    };
    return {
      agencyA, agencyB,
      jobA: await insertJob(db, { agency_id: agencyA.id, branch_id: a1.id }),
      jobB: await insertJob(db, { agency_id: agencyB.id, branch_id: b1.id }),
      sysops: await person('sysops', undefined),
      adminA: await person('admin', agencyA.id),
      adminB: await person('admin', agencyB.id),
      bystander: await person('agent', agencyA.id, a1.id),
    };
  }

  async function open(token: string): Promise<SseStream> {
    const s = await openSse(`${setup().streamBase}/api/events/stream`, { authorization: `Bearer ${token}` });
    streams.push(s);
    expect(s.status).toBe(200);
    await s.waitFor((m) => m.some((x) => x.json.type === 'ready'), WAIT_MS);
    return s;
  }

  /** An agent of branch A1 with a login of its own, streaming. */
  async function agentStreaming() {
    const { db, actions } = setup();
    const branch = await db.selectFrom('branches').select('id').where('agency_id', '=', w.agencyA.id).executeTakeFirstOrThrow();
    const user = await createUser(db, { role: 'agent', agencyId: w.agencyA.id, branchId: branch.id });
    const token = await login(actions, user.email);
    return { user, token, client: new Client(actions, token), stream: await open(token) };
  }

  async function endsWithSignedOut(s: SseStream): Promise<void> {
    await s.waitFor((m) => m.some((x) => x.json.type === 'signed_out'), WAIT_MS);
    await s.ended;
    expect(s.isEnded()).toBe(true);
  }

  /** The bystander's stream is still open and still hears agency A's changes. */
  async function bystanderStillHears(s: SseStream, title: string): Promise<void> {
    expect((await w.adminA.client.put(`/api/jobs/${w.jobA.uuid}`, { title })).statusCode).toBe(200);
    await s.waitFor((m) => m.some((x) => x.json.job_uuid === w.jobA.uuid && Array.isArray(x.json.fields)), WAIT_MS);
    expect(s.isEnded()).toBe(false);
    s.messages.length = 0;
  }

  let bystander: SseStream;
  beforeAll(async () => {
    w = await world();
    bystander = await open(w.bystander.token);
  });
  afterAll(() => {
    for (const s of streams) s.close();
  });

  it('a logout ends the stream of that login at once', async () => {
    const agent = await agentStreaming();
    expect((await agent.client.post('/api/auth/logout')).statusCode).toBe(200);
    await endsWithSignedOut(agent.stream);
    expect((await setup().actions.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${agent.token}` } })).statusCode).toBe(401);
    await bystanderStillHears(bystander, 'After a logout');
  });

  it("an administrator revoking the account's sessions ends its streams at once", async () => {
    const agent = await agentStreaming();
    expect((await w.adminA.client.delete(`/api/users/${agent.user.uuid}/sessions`)).statusCode).toBe(200);
    await endsWithSignedOut(agent.stream);
    await bystanderStillHears(bystander, 'After a revocation');
  });

  it('disabling the account ends its streams at once', async () => {
    const agent = await agentStreaming();
    expect((await w.adminA.client.post(`/api/users/${agent.user.uuid}/disable`, {})).statusCode).toBe(200);
    await endsWithSignedOut(agent.stream);
    await bystanderStillHears(bystander, 'After a disable');
  });

  it('blocking the account (blacklist) ends its streams at once', async () => {
    const agent = await agentStreaming();
    const res = await w.adminA.client.post('/api/security/blacklist', { kind: 'account', user_uuid: agent.user.uuid, reason: 'stolen laptop' });
    expect(res.statusCode, res.body).toBe(201);
    await endsWithSignedOut(agent.stream);
    await bystanderStillHears(bystander, 'After a block');
  });

  it("suspending an agency ends its people's streams at once, and nobody else's", async () => {
    const admin = await open(w.adminB.token);
    const platform = await open(w.sysops.token);
    const res = await w.sysops.client.post(`/api/agencies/${w.agencyB.uuid}/suspend`, { reason: 'unpaid' });
    expect(res.statusCode, res.body).toBe(200);
    await endsWithSignedOut(admin);
    await bystanderStillHears(bystander, 'After a suspension');
    expect(platform.isEnded()).toBe(false);
  });
}

describe('live streams end at once on one instance', () => {
  let t: TestApp;
  let base = '';
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_LIVE_HEARTBEAT_S: HEARTBEAT_S });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });
  scenarios(() => ({ db: t.db, actions: t.app, streamBase: base }));
});

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'two instances need PostgreSQL (set DATABASE_URL; CI\'s second run does)'))('live streams end at once on the other instance', () => {
  let database: TestDatabase;
  const runtimes: Runtime[] = [];
  let a: FastifyInstance;
  let b: FastifyInstance;
  let base = '';
  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({
      LOG_LEVEL: 'silent', CARETAKER_COOKIE_SECURE: 'true', CARETAKER_RATE_LIMIT_IP_MAX: '100000', CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '100000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
      CARETAKER_LIVE_HEARTBEAT_S: HEARTBEAT_S, DATABASE_URL: database.databaseUrl!, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    });
    const clock = new ManualClock(new Date('2026-11-21T09:00:00Z'));
    const prefix = `caretaker-test:live-end-${process.pid}-${Date.now()}:`;
    const open = async () => {
      const rt = await openRuntime(config, {
        clock, dataDir: 'memory://', redisPrefix: prefix,
        filesDir: await mkdtemp(path.join(tmpdir(), 'caretaker-files-')), mailDir: await mkdtemp(path.join(tmpdir(), 'caretaker-mail-')),
      });
      runtimes.push(rt);
      const app = await buildApp(rt.deps, { logger: false });
      await app.ready();
      return app;
    };
    a = await open();
    b = await open();
    await b.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    for (const rt of runtimes) await rt.close();
    await database?.drop();
  });
  scenarios(() => ({ db: runtimes[0]!.deps.db, actions: a, streamBase: base }));
});
