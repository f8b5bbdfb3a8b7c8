/**
 * The fault tier (`npm run soak`; docs/operations.md "Under load and faults"), not part of the
 * default run: two instances on PostgreSQL and Redis serve readers, job creators and note writers
 * for SOAK_DURATION_S seconds (default 120); one instance is killed with SIGKILL a third of the way
 * in and started again at two thirds. Every write carries an Idempotency-Key and is retried on the
 * other instance after a lost answer or a 503. At the end every write answered 2xx is stored
 * exactly once, no write is stored twice, and no request answered 500.
 *
 * Runs only with SOAK=1 (and DATABASE_URL, REDIS_URL).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, type CaretakerProcess, type ProcessWorld } from '../helpers/process.ts';
import { skipWithout } from '../helpers/skip.ts';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 120);
const READERS = 6;
const CREATORS = 3;
const NOTE_WRITERS = 3;

interface Write {
  kind: 'job' | 'note';
  marker: string;
  status: number | string;
}

describe.skipIf(
  skipWithout(process.env.SOAK === '1' && process.env.DATABASE_URL && process.env.REDIS_URL, 'the fault tier: run `npm run soak` with DATABASE_URL and REDIS_URL'),
)('soak: two instances, kill -9, every 2xx write stored once', () => {
  let world: ProcessWorld | undefined;
  afterAll(async () => {
    await stopAllProcesses();
    await world?.drop();
  });

  it(`holds for ${DURATION_S} s`, { timeout: (DURATION_S + 240) * 1000 }, async () => {
    world = await createProcessWorld('postgres');
    const env = { ...world.env, REDIS_URL: process.env.REDIS_URL ?? '', CARETAKER_SHUTDOWN_TIMEOUT_S: '5', LOG_LEVEL: 'warn' };
    const start = async () => {
      const p = await startCaretaker({ ...env, LOG_LEVEL: 'info' });
      await p.waitReady();
      return p;
    };
    const instances: CaretakerProcess[] = [await start(), await start()];
    const { token } = await httpLogin(instances[0]!.url, world.admin.email, world.admin.password);
    const auth = { authorization: `Bearer ${token}` };
    const statuses = new Map<string, number>();
    const count = (s: number | string) => statuses.set(String(s), (statuses.get(String(s)) ?? 0) + 1);
    const writes: Write[] = [];
    const jobUuids: string[] = [];
    const end = Date.now() + DURATION_S * 1000;
    let turn = 0;
    const pick = () => instances[turn++ % instances.length]!;

    /** A write with one key, retried on the next instance after a lost answer or a 503 (up to 8 tries). */
    const write = async (path: string, body: Record<string, unknown>, kind: Write['kind'], marker: string): Promise<{ status: number | string; data?: { uuid?: string } }> => {
      const key = randomUUID();
      let last: number | string = 'not sent';
      for (let attempt = 0; attempt < 8; attempt++) {
        const target = pick();
        try {
          const csrf = await httpCsrf(target.url, token);
          const res = await fetch(`${target.url}${path}`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', 'x-csrf-token': csrf, 'idempotency-key': key },
            body: JSON.stringify(body),
          });
          const json = (await res.json()) as { data?: { uuid?: string } };
          count(res.status);
          last = res.status;
          if (res.status !== 503 && res.status !== 409) {
            writes.push({ kind, marker, status: res.status });
            return { status: res.status, ...(json.data ? { data: json.data } : {}) };
          }
        } catch (err) {
          last = (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
          count(last);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      writes.push({ kind, marker, status: last });
      return { status: last };
    };

    const reader = async () => {
      while (Date.now() < end) {
        const path = ['/api/jobs/manage?limit=20', '/api/tenants?limit=20', '/api/users/permissions'][turn % 3]!;
        try {
          const res = await fetch(`${pick().url}${path}`, { headers: auth });
          await res.arrayBuffer();
          count(res.status);
        } catch (err) {
          count((err as Error & { cause?: { code?: string } }).cause?.code ?? 'error');
        }
      }
    };
    const creator = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const marker = `soak-job-${n}-${i}-${randomUUID().slice(0, 8)}`;
        const r = await write('/api/jobs/manage', { title: marker, priority: 3 }, 'job', marker);
        if (r.status === 201 && r.data?.uuid) jobUuids.push(r.data.uuid);
      }
    };
    const noteWriter = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const job = jobUuids[Math.floor(Math.random() * jobUuids.length)];
        if (!job) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        const marker = `soak-note-${n}-${i}-${randomUUID().slice(0, 8)}`;
        await write(`/api/jobs/${job}/notes`, { body: marker }, 'note', marker);
      }
    };
    const faults = (async () => {
      await new Promise((r) => setTimeout(r, (DURATION_S * 1000) / 3));
      const victim = instances[1]!;
      victim.signal('SIGKILL');
      await victim.waitExit();
      await new Promise((r) => setTimeout(r, (DURATION_S * 1000) / 3));
      instances[1] = await start();
    })();
    await Promise.all([
      ...Array.from({ length: READERS }, () => reader()),
      ...Array.from({ length: CREATORS }, (_, n) => creator(n)),
      ...Array.from({ length: NOTE_WRITERS }, (_, n) => noteWriter(n)),
      faults,
    ]);

    const handle = world.open();
    try {
      const stored = async (w: Write) =>
        w.kind === 'job'
          ? Number((await sql<{ n: number }>`select count(*)::int as n from jobs where title = ${w.marker}`.execute(handle.db)).rows[0]?.n)
          : Number((await sql<{ n: number }>`select count(*)::int as n from job_notes where body = ${w.marker}`.execute(handle.db)).rows[0]?.n);
      const wrong: string[] = [];
      for (const w of writes) {
        const n = await stored(w);
        const ok = typeof w.status === 'number' && w.status >= 200 && w.status < 300;
        if ((ok && n !== 1) || n > 1) wrong.push(`${w.kind} ${w.marker}: answered ${w.status}, stored ${n} times`);
      }
      const summary = {
        duration_s: DURATION_S,
        requests: [...statuses.values()].reduce((a, b) => a + b, 0),
        statuses: Object.fromEntries(statuses),
        writes: writes.length,
        writes_2xx: writes.filter((w) => typeof w.status === 'number' && w.status < 300).length,
        wrong: wrong.length,
      };
      console.info(`soak result: ${JSON.stringify(summary)}`);
      expect(wrong).toEqual([]);
      expect(statuses.get('500') ?? 0).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
