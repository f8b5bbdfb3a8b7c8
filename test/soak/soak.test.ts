/**
 * The fault tier (`npm run soak`; docs/operations.md "Under load and faults"), not part of the
 * default run: two instances on PostgreSQL, Redis and S3-compatible storage (the local S3 server of
 * the S3 test tier) serve readers, job creators, movers (status transitions), note writers and photo
 * uploaders for SOAK_DURATION_S seconds (default 120), through these faults:
 *
 * - every PostgreSQL connection of the database terminated (pg_terminate_backend), twice;
 * - SIGTERM to instance A during a slow photo upload (the upload and every request in flight on A
 *   must finish with an answer), then A started again;
 * - instance B's Redis unreachable (a TCP proxy that drops and refuses connections) for 60 s of a
 *   600 s run, scaled to SOAK_DURATION_S;
 * - kill -9 of instance A, started again a sixth of the run later.
 *
 * Every write carries an Idempotency-Key and is retried on the other instance after a lost answer,
 * a 503 or a 409 of a key still in progress. At the end: every write answered 2xx is stored exactly
 * once with its history row, activity entry and event (jobs, moves, notes, photos), no write is
 * stored twice, every photo's bytes read back equal to what was sent, and no request answered 500.
 *
 * Runs only with SOAK=1 (and DATABASE_URL, REDIS_URL).
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pngBytes } from '../../src/seed/demo/sample-files.ts';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, TcpProxy, type CaretakerProcess, type ProcessWorld } from '../helpers/process.ts';
import { s3TestEnv } from '../helpers/s3-server.ts';
import { skipWithout } from '../helpers/skip.ts';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 120);
/** 60 s of a 600 s run, scaled. */
const REDIS_OUTAGE_S = Math.max(5, Math.round((60 * DURATION_S) / 600));
const READERS = 6;
const CREATORS = 2;
const MOVERS = 3;
const NOTE_WRITERS = 2;
const UPLOADERS = 3;
/** The moves each mover makes on its own job: Reported, Awaiting approval, Approved, On hold, Cancelled. */
const MOVES = [2, 3, 11, 10] as const;

interface Write {
  kind: 'job' | 'move' | 'note' | 'photo';
  marker: string;
  status: number | string;
  /** Uuid of what the write created (job, note, file). */
  uuid?: string;
  jobUuid?: string;
  /** Photo bytes' SHA-256. */
  sha?: string;
}

const causeOf = (err: unknown) => (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(
  skipWithout(process.env.SOAK === '1' && process.env.DATABASE_URL && process.env.REDIS_URL, 'the fault tier: run `npm run soak` with DATABASE_URL and REDIS_URL'),
)('soak: two instances on PostgreSQL, Redis and S3 under faults; every 2xx write stored once', () => {
  let world: ProcessWorld | undefined;
  let redisProxy: TcpProxy | undefined;
  afterAll(async () => {
    await stopAllProcesses();
    await redisProxy?.close();
    await world?.drop();
  });

  it(`holds for ${DURATION_S} s`, { timeout: (DURATION_S + 300) * 1000 }, async () => {
    world = await createProcessWorld('postgres');
    const redisUrl = new URL(process.env.REDIS_URL!);
    redisProxy = await new TcpProxy(Number(redisUrl.port || 6379), redisUrl.hostname).start();
    const proxied = new URL(redisUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(redisProxy.port);
    const env = { ...world.env, ...(await s3TestEnv()), CARETAKER_SHUTDOWN_TIMEOUT_S: '10', LOG_LEVEL: 'warn' };
    const start = async (redis: string) => {
      const p = await startCaretaker({ ...env, REDIS_URL: redis, LOG_LEVEL: 'info' });
      await p.waitReady();
      return p;
    };
    // A: direct Redis (SIGTERM, kill -9); B: Redis through the proxy (the outage).
    const instances: CaretakerProcess[] = [await start(process.env.REDIS_URL!), await start(proxied.toString())];
    const { token } = await httpLogin(instances[0]!.url, world.admin.email, world.admin.password);
    const auth = { authorization: `Bearer ${token}` };
    const statuses = new Map<string, number>();
    const count = (s: number | string) => statuses.set(String(s), (statuses.get(String(s)) ?? 0) + 1);
    const writes: Write[] = [];
    const jobUuids: string[] = [];
    const end = Date.now() + DURATION_S * 1000;
    let turn = 0;
    const pick = () => instances[turn++ % instances.length]!;
    /** Requests in flight per instance port, each settling to its status or error code. */
    const inFlight = new Map<number, Set<Promise<number | string>>>();
    const tracked = (target: CaretakerProcess, send: () => Promise<Response>): Promise<Response> => {
      const p = send();
      const settled = p.then(
        (r) => r.status,
        (err: unknown) => causeOf(err),
      );
      const set = inFlight.get(target.port) ?? new Set();
      inFlight.set(target.port, set);
      set.add(settled);
      void settled.finally(() => set.delete(settled));
      return p;
    };

    /**
     * A write with one key, retried on the next instance after a lost answer, a 503 or a 409 of a key
     * still in progress (up to 12 tries).
     */
    const write = async (path: string, body: () => RequestInit['body'], json: boolean, w: Omit<Write, 'status'>): Promise<Write> => {
      const key = randomUUID();
      let last: number | string = 'not sent';
      for (let attempt = 0; attempt < 12; attempt++) {
        const target = pick();
        try {
          const csrf = await httpCsrf(target.url, token);
          const res = await tracked(target, () =>
            fetch(`${target.url}${path}`, {
              method: 'POST',
              headers: { ...auth, ...(json ? { 'content-type': 'application/json' } : {}), 'x-csrf-token': csrf, 'idempotency-key': key },
              body: body(),
            }),
          );
          const answer = (await res.json()) as { data?: { uuid?: string }; error?: string };
          const inProgress = res.status === 409 && answer.error?.includes('still in progress') === true;
          count(inProgress ? '409 key in progress' : res.status);
          last = res.status;
          if (res.status !== 503 && !inProgress) {
            const done = { ...w, status: res.status, ...(answer.data?.uuid ? { uuid: answer.data.uuid } : {}) };
            writes.push(done);
            return done;
          }
        } catch (err) {
          last = causeOf(err);
          count(last);
        }
        await sleep(250);
      }
      const failed = { ...w, status: last };
      writes.push(failed);
      return failed;
    };
    const jsonWrite = (path: string, body: Record<string, unknown>, w: Omit<Write, 'status'>) => write(path, () => JSON.stringify(body), true, w);
    const photo = (jobUuid: string, marker: string) => {
      const bytes = pngBytes(8 + Math.floor(Math.random() * 56), 8 + Math.floor(Math.random() * 56), [Math.floor(Math.random() * 256), 40, 90]);
      const form = () => {
        const f = new FormData();
        f.append('description', marker);
        f.append('file', new Blob([bytes]), `${marker}.png`);
        return f;
      };
      return write(`/api/jobs/${jobUuid}/photos`, form, false, { kind: 'photo', marker, jobUuid, sha: createHash('sha256').update(bytes).digest('hex') });
    };
    const randomJob = () => jobUuids[Math.floor(Math.random() * jobUuids.length)];

    const reader = async () => {
      while (Date.now() < end) {
        const path = ['/api/jobs/manage?limit=20', '/api/tenants?limit=20', '/api/users/permissions'][turn % 3]!;
        const target = pick();
        try {
          const res = await tracked(target, () => fetch(`${target.url}${path}`, { headers: auth }));
          await res.arrayBuffer();
          count(res.status);
        } catch (err) {
          count(causeOf(err));
          await sleep(50);
        }
      }
    };
    const creator = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const marker = `soak-job-${n}-${i}-${randomUUID().slice(0, 8)}`;
        const r = await jsonWrite('/api/jobs/manage', { title: marker, priority: 3 }, { kind: 'job', marker });
        if (r.status === 201 && r.uuid) jobUuids.push(r.uuid);
      }
    };
    const mover = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const marker = `soak-moved-${n}-${i}-${randomUUID().slice(0, 8)}`;
        const job = await jsonWrite('/api/jobs/manage', { title: marker, priority: 3 }, { kind: 'job', marker });
        if (job.status !== 201 || !job.uuid) continue;
        jobUuids.push(job.uuid);
        for (const to of MOVES) {
          if (Date.now() >= end) break;
          const moved = await jsonWrite(`/api/jobs/${job.uuid}/transitions`, { to_status_id: to, note: `${marker} to ${to}` }, { kind: 'move', marker: `${marker} to ${to}`, jobUuid: job.uuid });
          if (moved.status !== 200) break;
        }
      }
    };
    const noteWriter = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const job = randomJob();
        if (!job) {
          await sleep(100);
          continue;
        }
        const marker = `soak-note-${n}-${i}-${randomUUID().slice(0, 8)}`;
        await jsonWrite(`/api/jobs/${job}/notes`, { body: marker }, { kind: 'note', marker, jobUuid: job });
      }
    };
    const uploader = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const job = randomJob();
        if (!job) {
          await sleep(100);
          continue;
        }
        await photo(job, `soak-photo-${n}-${i}-${randomUUID().slice(0, 8)}`);
      }
    };

    /** A photo sent in 10 pieces over 3.5 s to `target`, which gets SIGTERM half a second after the first piece. */
    const slowUploadDuringSigterm = async (target: CaretakerProcess) => {
      const job = randomJob()!;
      const marker = `soak-slow-photo-${randomUUID().slice(0, 8)}`;
      const bytes = pngBytes(200, 200, [10, 120, 200]);
      const boundary = `----soak${randomUUID().replace(/-/g, '')}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n${marker}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${marker}.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const csrf = await httpCsrf(target.url, token);
      const result = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${target.url}/api/jobs/${job}/photos`, {
          method: 'POST',
          headers: {
            ...auth,
            'x-csrf-token': csrf,
            'idempotency-key': randomUUID(),
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + bytes.length + tail.length),
          },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        void (async () => {
          req.write(head);
          const piece = Math.ceil(bytes.length / 10);
          for (let i = 0; i < 10; i++) {
            req.write(bytes.subarray(i * piece, (i + 1) * piece));
            if (i === 0) {
              // The upload has reached the server (its headers and first piece) and is being read.
              await sleep(500);
              // Every request on the target now, the upload included, must finish with an answer.
              const pending = [...(inFlight.get(target.port) ?? [])];
              target.signal('SIGTERM');
              shutdown.inFlightAtSigterm = pending.length + 1;
              void Promise.all(pending).then((r) => (shutdown.inFlightAnswers = r));
            }
            await sleep(300);
          }
          req.end(tail);
        })();
      });
      const answer = await result;
      count(answer.status);
      const uuid = (JSON.parse(answer.body) as { data?: { uuid?: string } }).data?.uuid;
      writes.push({ kind: 'photo', marker, jobUuid: job, status: answer.status, ...(uuid ? { uuid } : {}), sha: createHash('sha256').update(bytes).digest('hex') });
      shutdown.upload = answer.status;
      shutdown.exit = await target.waitExit(20_000);
    };
    const shutdown: { inFlightAtSigterm?: number; inFlightAnswers?: Array<number | string>; upload?: number; exit?: unknown } = {};

    const admin = new pg.Client({ connectionString: world.databaseUrl });
    await admin.connect();
    const terminated: number[] = [];
    const terminateAll = async () => {
      const r = await admin.query<{ n: number }>(
        `select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      );
      terminated.push(r.rows[0]?.n ?? 0);
    };
    const at = async (fraction: number) => {
      const wait = end - DURATION_S * 1000 * (1 - fraction) - Date.now();
      if (wait > 0) await sleep(wait);
    };
    const faults = (async () => {
      await at(0.12);
      await terminateAll();
      await at(0.22);
      await slowUploadDuringSigterm(instances[0]!);
      instances[0] = await start(process.env.REDIS_URL!);
      await at(0.35);
      redisProxy!.down();
      await sleep(REDIS_OUTAGE_S * 1000);
      redisProxy!.up();
      await at(0.55);
      const victim = instances[0]!;
      victim.signal('SIGKILL');
      await victim.waitExit();
      await at(0.7);
      instances[0] = await start(process.env.REDIS_URL!);
      await at(0.8);
      await terminateAll();
    })();
    await Promise.all([
      ...Array.from({ length: READERS }, () => reader()),
      ...Array.from({ length: CREATORS }, (_, n) => creator(n)),
      ...Array.from({ length: MOVERS }, (_, n) => mover(n)),
      ...Array.from({ length: NOTE_WRITERS }, (_, n) => noteWriter(n)),
      ...Array.from({ length: UPLOADERS }, (_, n) => uploader(n)),
      faults,
    ]);
    await admin.end();

    const handle = world.open();
    const n = async (q: ReturnType<typeof sql<{ n: number }>>) => Number((await q.execute(handle.db)).rows[0]?.n ?? 0);
    try {
      const wrong: string[] = [];
      const ok = (w: Write) => typeof w.status === 'number' && w.status >= 200 && w.status < 300;
      const photoOf = new Map<string, string>();
      for (const w of writes) {
        if (w.kind === 'job') {
          const stored = await n(sql`select count(*)::int as n from jobs where title = ${w.marker}`);
          if ((ok(w) && stored !== 1) || stored > 1) wrong.push(`job ${w.marker}: answered ${w.status}, stored ${stored} times`);
          if (!ok(w) || stored !== 1) continue;
          const job = sql`(select id from jobs where title = ${w.marker})`;
          const history = await n(sql`select count(*)::int as n from job_status_history where job_id = ${job} and from_status_id is null`);
          const activity = await n(sql`select count(*)::int as n from activity_log where resource_type = 'job' and resource_id = ${job} and action = 'job.create'`);
          const events = await n(sql`select count(*)::int as n from outbox where name = 'job.created' and (payload->>'job_id')::int = ${job}`);
          if (history !== 1 || activity !== 1 || events !== 1) wrong.push(`job ${w.marker}: history ${history}, activity ${activity}, events ${events}`);
        } else if (w.kind === 'move') {
          const stored = await n(sql`select count(*)::int as n from job_status_history where note = ${w.marker}`);
          if ((ok(w) && stored !== 1) || stored > 1) wrong.push(`move ${w.marker}: answered ${w.status}, stored ${stored} times`);
          if (!ok(w) || stored !== 1) continue;
          const to = Number(w.marker.split(' to ')[1]);
          const job = sql`(select id from jobs where uuid = ${w.jobUuid})`;
          const activity = await n(sql`select count(*)::int as n from activity_log where resource_type = 'job' and resource_id = ${job} and action = 'job.transition' and (details->>'to_status_id')::int = ${to}`);
          const events = await n(sql`select count(*)::int as n from outbox where name = 'job.status_changed' and (payload->>'job_id')::int = ${job} and (payload->>'to_status_id')::int = ${to}`);
          if (activity !== 1 || events !== 1) wrong.push(`move ${w.marker}: activity ${activity}, events ${events}`);
        } else if (w.kind === 'note') {
          const stored = await n(sql`select count(*)::int as n from job_notes where body = ${w.marker}`);
          if ((ok(w) && stored !== 1) || stored > 1) wrong.push(`note ${w.marker}: answered ${w.status}, stored ${stored} times`);
          if (!ok(w) || stored !== 1) continue;
          const note = sql`(select id from job_notes where body = ${w.marker})`;
          const activity = await n(sql`select count(*)::int as n from activity_log where resource_type = 'job_note' and resource_id = ${note} and action = 'job_note.create'`);
          const events = await n(sql`select count(*)::int as n from outbox where name = 'job.note_added' and (payload->>'note_id')::int = ${note}`);
          if (activity !== 1 || events !== 1) wrong.push(`note ${w.marker}: activity ${activity}, events ${events}`);
        } else {
          const stored = await n(sql`select count(*)::int as n from job_files where description = ${w.marker}`);
          if ((ok(w) && stored !== 1) || stored > 1) wrong.push(`photo ${w.marker}: answered ${w.status}, stored ${stored} times`);
          if (!ok(w) || stored !== 1) continue;
          const file = sql`(select id from job_files where description = ${w.marker})`;
          const activity = await n(sql`select count(*)::int as n from activity_log where resource_type = 'job_file' and resource_id = ${file}`);
          const events = await n(sql`select count(*)::int as n from outbox where name = 'job.file_added' and (payload->>'file_id')::int = ${file}`);
          if (activity !== 1 || events !== 1) wrong.push(`photo ${w.marker}: activity ${activity}, events ${events}`);
          if (w.uuid) photoOf.set(`/api/jobs/${w.jobUuid}/photos/${w.uuid}`, w.sha!);
        }
      }
      // Every stored photo's bytes, read back through an instance (from the S3 server).
      let bytesChecked = 0;
      for (const [path, sha] of photoOf) {
        const res = await fetch(`${instances[1]!.url}${path}`, { headers: auth });
        const got = createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
        if (res.status !== 200 || got !== sha) wrong.push(`photo ${path}: ${res.status}, sha ${got} instead of ${sha}`);
        else bytesChecked += 1;
      }
      const byKind = (k: Write['kind']) => writes.filter((w) => w.kind === k && ok(w)).length;
      const summary = {
        duration_s: DURATION_S,
        redis_outage_s: REDIS_OUTAGE_S,
        requests: [...statuses.values()].reduce((a, b) => a + b, 0),
        statuses: Object.fromEntries(statuses),
        writes: writes.length,
        writes_2xx: { jobs: byKind('job'), moves: byKind('move'), notes: byKind('note'), photos: byKind('photo') },
        photo_bytes_checked: bytesChecked,
        connections_terminated: terminated,
        sigterm: shutdown,
        wrong: wrong.length,
      };
      console.info(`soak result: ${JSON.stringify(summary)}`);
      expect(wrong.slice(0, 20)).toEqual([]);
      expect(statuses.get('500') ?? 0).toBe(0);
      expect(terminated.every((t) => t > 0)).toBe(true);
      expect(shutdown.upload).toBe(201);
      expect(shutdown.exit).toMatchObject({ code: 0 });
      expect((shutdown.inFlightAnswers ?? []).filter((a) => typeof a !== 'number')).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
