/**
 * The heavy-work gate (docs/operations.md "Fairness between agencies"): the one place that decides
 * when an agency's heavy work may run. Heavy work is an import commit, an agency export, a report
 * download, a subject-access report or a copy of the embedded database.
 *
 * - Per agency, across instances: at most CARETAKER_AGENCY_HEAVY_MAX pieces run at once. The count
 *   (the agency's running tickets of `heavy_work` and its committing imports) is read and a slot
 *   taken inside one transaction holding the agency's advisory lock (`pg_advisory_xact_lock`, safe
 *   behind a transaction-mode pooler), so two instances never both take the last slot.
 * - Per process: at most CARETAKER_HEAVY_DB_CONNECTIONS pieces run at once, all agencies together;
 *   each holds at most one connection of the pool at a time, so heavy work never takes more than
 *   that many connections from request traffic.
 * - A request that finds no slot waits in its agency's queue, in order, up to CARETAKER_HEAVY_WAIT_S
 *   seconds; GET /api/agencies/current/heavy-work shows its queue position, then its progress. A
 *   wait that runs out answers 503 with `queue_position` and Retry-After.
 *
 * Tickets heartbeat every HEARTBEAT_S seconds; one not touched for STALE_S seconds (its process
 * died) no longer counts and is removed by the next release.
 */
import { EventEmitter, once } from 'node:events';
import { E_TIMEOUT, Semaphore, withTimeout } from 'async-mutex';
import type { AppDeps } from '../app-deps.ts';
import type { DbOrTrx } from '../db/types.ts';
import { newUuid } from '../lib/crypto.ts';
import { toIso, toIsoOrNull } from '../lib/clock.ts';
import { AppError } from './errors.ts';
import {
  countRunningHeavyWork, deleteHeavyWork, heavyWorkQueuePosition, insertHeavyWork, listHeavyWork,
  lockAgencyHeavyWork, startHeavyWork, touchHeavyWork,
} from './heavy-work.repository.ts';

/** What the gate needs of the app. */
type GateDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** The kinds of heavy work behind the gate (import commits count through their own table). */
export type HeavyKind = 'export' | 'report' | 'gdpr_report' | 'backup';

/** Seconds after which a ticket nobody touched no longer counts (the same as a stopped import commit's). */
export const HEAVY_STALE_S = 120;
/** Seconds between a running ticket's heartbeats. */
const HEARTBEAT_S = 30;
/** Milliseconds between two looks of a waiting request at its queue (a slot given back by another instance is seen by the next look). */
const POLL_MS = 200;

/** Per database handle (one app): an event each time a slot of this process is given back, so that its waiters look again at once. */
const releasesByDb = new WeakMap<object, EventEmitter>();
function releasesOf(deps: GateDeps): EventEmitter {
  let e = releasesByDb.get(deps.db);
  if (!e) {
    e = new EventEmitter();
    e.setMaxListeners(0);
    releasesByDb.set(deps.db, e);
  }
  return e;
}

/** Waits for the next look at the queue: a slot of this process given back, or POLL_MS, whichever comes first. */
async function nextLook(deps: GateDeps): Promise<void> {
  await once(releasesOf(deps), 'release', { signal: AbortSignal.timeout(POLL_MS) }).catch(() => undefined);
}

/**
 * Takes one of `permits`, waiting in order (async-mutex's Semaphore serves its waiters first in,
 * first out); resolves false when `deadline` (performance.now() ms) passes first. A waiter that gave
 * up is served later all the same and gives its permit straight back (async-mutex's withTimeout).
 */
async function takePermit(permits: Semaphore, deadline: number): Promise<boolean> {
  try {
    await withTimeout(permits, Math.max(0, deadline - performance.now())).acquire();
    return true;
  } catch (err) {
    if (err === E_TIMEOUT) return false;
    throw err;
  }
}

/** One process's permits per database handle (one app), sized CARETAKER_HEAVY_DB_CONNECTIONS. */
const permitsByDb = new WeakMap<object, Semaphore>();
function permitsOf(deps: GateDeps): Semaphore {
  let p = permitsByDb.get(deps.db);
  if (!p) {
    p = new Semaphore(deps.config.heavyDbConnections);
    permitsByDb.set(deps.db, p);
  }
  return p;
}

/** A slot of heavy work held: report progress, then release it (once; later calls do nothing). */
export interface HeavySlot {
  uuid: string;
  /** Records `done` of `total` steps (shown by GET /api/agencies/current/heavy-work); moves the heartbeat. */
  progress(done: number, total: number | null): Promise<void>;
  /** Ends the work: the agency's slot and the process's permit are free again. */
  release(): Promise<void>;
}

/**
 * Runs `fn` under the agency's heavy-work lock with whether the agency has a free slot now (fewer
 * than CARETAKER_AGENCY_HEAVY_MAX running, across instances), so a claim made in `fn` on `trx` is
 * atomic with the count. Used by import commits, whose queue is their own table.
 * @param agencyId the agency (null: the instance's own work)
 */
export async function withHeavyRoom<T>(deps: GateDeps, agencyId: number | null, fn: (trx: DbOrTrx, room: boolean) => Promise<T>): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    await lockAgencyHeavyWork(trx, agencyId);
    const fresh = new Date(deps.clock.now().getTime() - HEAVY_STALE_S * 1000);
    return fn(trx, (await countRunningHeavyWork(trx, agencyId, fresh)) < deps.config.agencyHeavyMax);
  });
}

/**
 * Runs `fn` holding one of the process's CARETAKER_HEAVY_DB_CONNECTIONS permits (waiting for one
 * in order), for heavy work whose agency slot was claimed another way (an import commit).
 */
export async function withHeavyPermit<T>(deps: GateDeps, fn: () => Promise<T>): Promise<T> {
  const permits = permitsOf(deps);
  await permits.acquire();
  try {
    return await fn();
  } finally {
    permits.release();
  }
}

/**
 * Takes a slot of the agency's heavy work, waiting in its queue when every slot is taken.
 * @param agencyId the caller's agency (null: SysOps, whose work counts as the instance's own)
 * @param kind what the work is (shown in the queue)
 * @returns the slot; the caller must release it when the work ends, also on error
 * @throws 503 `unavailable` with `queue_position` and Retry-After when no slot came within CARETAKER_HEAVY_WAIT_S
 */
export async function acquireHeavySlot(deps: GateDeps, agencyId: number | null, kind: HeavyKind): Promise<HeavySlot> {
  const uuid = newUuid();
  const id = await insertHeavyWork(deps.db, { uuid, agency_id: agencyId, kind, now: deps.clock.now() });
  const permits = permitsOf(deps);
  const deadline = performance.now() + deps.config.heavyWaitS * 1000;
  let position = 1;
  try {
    for (;;) {
      if (await takePermit(permits, deadline)) {
        let started = false;
        try {
          position = await deps.db.transaction().execute(async (trx) => {
            await lockAgencyHeavyWork(trx, agencyId);
            const now = deps.clock.now();
            const fresh = new Date(now.getTime() - HEAVY_STALE_S * 1000);
            const running = await countRunningHeavyWork(trx, agencyId, fresh);
            const place = await heavyWorkQueuePosition(trx, agencyId, id, fresh);
            if (place >= 1 && place <= deps.config.agencyHeavyMax - running) {
              await startHeavyWork(trx, id, now);
              started = true;
              return 0;
            }
            await touchHeavyWork(trx, id, now);
            return Math.max(1, place);
          });
        } finally {
          if (!started) permits.release();
        }
        if (started) return heldSlot(deps, id, uuid, permits);
      }
      if (performance.now() >= deadline) break;
      await nextLook(deps);
    }
  } catch (err) {
    await deleteHeavyWork(deps.db, id, staleBefore(deps)).catch(() => undefined);
    throw err;
  }
  await deleteHeavyWork(deps.db, id, staleBefore(deps));
  const retryAfter = Math.max(1, Math.ceil(deps.config.heavyWaitS / 2));
  const err = new AppError(
    'unavailable',
    `No slot for heavy work came free in ${deps.config.heavyWaitS} s (an agency runs ${deps.config.agencyHeavyMax} at once, this server ${deps.config.heavyDbConnections}); the request was at position ${position} of the queue. Try again later.`,
    { queue_position: position, retry_after: retryAfter },
  );
  err.headers = { 'retry-after': String(retryAfter) };
  throw err;
}

/** The moment before which a ticket is stale. */
function staleBefore(deps: GateDeps): Date {
  return new Date(deps.clock.now().getTime() - HEAVY_STALE_S * 1000);
}

/** The slot of a started ticket, with its heartbeat. */
function heldSlot(deps: GateDeps, id: number, uuid: string, permits: Semaphore): HeavySlot {
  let released = false;
  const heartbeat = setInterval(() => {
    void touchHeavyWork(deps.db, id, deps.clock.now()).catch(() => undefined);
  }, HEARTBEAT_S * 1000);
  heartbeat.unref();
  return {
    uuid,
    async progress(done, total) {
      if (!released) await touchHeavyWork(deps.db, id, deps.clock.now(), { done, total });
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      permits.release();
      // Never throws, so a stream's close handler may release without awaiting: a ticket whose
      // delete fails (the database going away at shutdown) stops counting once stale (HEAVY_STALE_S).
      await deleteHeavyWork(deps.db, id, staleBefore(deps)).catch(() => undefined);
      releasesOf(deps).emit('release');
    },
  };
}

/**
 * Runs `work` in a slot of the agency's heavy work and releases it when `work` settles.
 * @throws what acquireHeavySlot throws, and what `work` throws
 */
export async function inHeavySlot<T>(deps: GateDeps, agencyId: number | null, kind: HeavyKind, work: (slot: HeavySlot) => Promise<T>): Promise<T> {
  const slot = await acquireHeavySlot(deps, agencyId, kind);
  try {
    return await work(slot);
  } finally {
    await slot.release();
  }
}

/**
 * GET /api/agencies/current/heavy-work: the heavy work of the caller's agency (SysOps: the
 * instance's own) running and waiting, running first, then the queue in order.
 * @returns per piece: uuid, kind, status (`running` | `waiting`), queue_position (waiting: 1 is
 *   next; running: null), steps_done and steps_total (progress; total null while unknown), created_at, started_at
 */
export async function listAgencyHeavyWork(deps: GateDeps, agencyId: number | null) {
  const rows = await listHeavyWork(deps.db, agencyId, staleBefore(deps));
  let waiting = 0;
  return rows.map((r) => ({
    uuid: r.uuid,
    kind: r.kind,
    status: r.status,
    queue_position: r.status === 'waiting' ? ++waiting : null,
    steps_done: r.steps_done,
    steps_total: r.steps_total,
    created_at: toIso(r.created_at),
    started_at: toIsoOrNull(r.started_at),
  }));
}
