/**
 * Read replicas (docs/operations.md "Read replicas"): which database a read that may lag runs on.
 *
 * The reads that may be a moment old (the jobs list, the dashboard, reports, search, exports) ask
 * for their database by name, `deps.reads.mayLag(person, (db) => ...)`; every other query keeps
 * using `deps.db`, the primary. The answer is the replica when all three hold, the primary
 * otherwise:
 *
 * 1. a replica is configured (DATABASE_REPLICA_URL; never on the embedded database);
 * 2. it is healthy: its last check (every `checkEveryMs`) answered, it is a standby, and it had
 *    replayed everything the primary held at most DATABASE_REPLICA_MAX_LAG_MS ago;
 * 3. the person reading has no write it has not replayed yet (read-your-writes): after each write
 *    request of a signed-in person the primary's WAL position (`pg_current_wal_lsn()`) is noted
 *    under the person (`noteWrite`, in Redis when configured so every instance sees it, else in
 *    this process), and until the replica's replayed position passes it that person reads from
 *    the primary.
 *
 * A read the replica fails (stopped, unreachable, a conflict with recovery) runs again on the
 * primary, and a replica that cannot be reached is skipped until a check finds it healthy again.
 *
 * Lag is measured without writing anything: each check reads the primary's WAL position (with the
 * time it was read) and then the replica's replayed position; the replica is as current as the
 * newest of those samples whose position it has replayed, and its lag is the time since that
 * sample. An idle primary therefore shows no lag, and a replica that stopped replaying shows a lag
 * that grows with the clock once the primary writes.
 */
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import { isTerminatedConnection } from './errors.ts';
import type { Db } from './database.ts';

/** Where the replica stands, as its last check found it. */
export interface ReplicaStatus {
  /**
   * `none`: no replica configured; `unknown`: not checked yet; `healthy`: reads that may lag go
   * to it; `lagging`: further behind than the bound; `down`: unreachable, or not a standby.
   */
  state: 'none' | 'unknown' | 'healthy' | 'lagging' | 'down';
  /** Milliseconds behind the primary at the last check (null unless measured). */
  lagMs: number | null;
  /** Why it is down (the driver's message), or null. */
  problem: string | null;
}

/** A WAL position (`16/B374D848`) as a number that orders like the position. */
export function walPosition(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The last write position of each person, kept until the replica must have replayed it. */
interface WritePositions {
  set(person: number, position: bigint, ttlMs: number): Promise<void>;
  get(person: number): Promise<bigint | undefined>;
}

/** In this process only (no Redis): another instance does not know this instance's writes. */
class MemoryWritePositions implements WritePositions {
  readonly #positions = new Map<number, { position: bigint; until: number }>();

  async set(person: number, position: bigint, ttlMs: number): Promise<void> {
    this.#positions.set(person, { position, until: Date.now() + ttlMs });
  }

  async get(person: number): Promise<bigint | undefined> {
    const entry = this.#positions.get(person);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.position;
    this.#positions.delete(person);
    return undefined;
  }
}

/** In Redis: one key per person (`<prefix>replica:written:<user id>`) that expires by itself. */
class RedisWritePositions implements WritePositions {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = `${prefix}replica:written:`;
  }

  async set(person: number, position: bigint, ttlMs: number): Promise<void> {
    await this.#redis.set(`${this.#prefix}${person}`, position.toString(), 'PX', ttlMs);
  }

  async get(person: number): Promise<bigint | undefined> {
    const value = await this.#redis.get(`${this.#prefix}${person}`);
    return value === null ? undefined : BigInt(value);
  }
}

/** What `ReadRouting` is built from (src/main/runtime.ts). */
export interface ReadRoutingOptions {
  /** The primary (DATABASE_URL). */
  primary: Db;
  /** The replica (DATABASE_REPLICA_URL), or undefined: every read on the primary. */
  replica?: Db | undefined;
  /** DATABASE_REPLICA_MAX_LAG_MS. */
  maxLagMs: number;
  /** Shared client for the write positions; undefined keeps them in this process. */
  redis?: Redis | undefined;
  redisPrefix: string;
}

/**
 * Sends the reads that may lag to the replica when it is healthy and the reader has no write it
 * lacks, to the primary otherwise (see the file's comment). Without a replica every method is the
 * primary unchanged.
 */
export class ReadRouting {
  readonly #primary: Db;
  readonly #replica: Db | undefined;
  readonly #maxLagMs: number;
  /** How often the replica is checked: half the bound, between 100 ms and 1 s. */
  readonly checkEveryMs: number;
  /**
   * How long a person's write position is kept: by then a replica within the bound has replayed
   * it (it had everything the primary held `maxLagMs` before its last check, which is at most
   * `checkEveryMs` old), or the replica is skipped anyway.
   */
  readonly #rememberMs: number;
  readonly #written: WritePositions;
  #status: ReplicaStatus;
  /** The replica's replayed WAL position at its last check (0 before the first). */
  #replayed = 0n;
  /** The primary's WAL positions and when each was read, oldest first: the newest one known replayed and every later one. */
  #samples: Array<{ at: number; position: bigint }> = [];
  /** Set when a write position could not be read or kept (the primary or Redis did not answer): until then every read is on the primary. */
  #everyoneOnPrimaryUntil = 0;
  /** Samples kept: enough to reach back past the bound. */
  readonly #maxSamples: number;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ReadRoutingOptions) {
    this.#primary = options.primary;
    this.#replica = options.replica;
    this.#maxLagMs = options.maxLagMs;
    this.checkEveryMs = Math.min(1_000, Math.max(100, Math.floor(options.maxLagMs / 2)));
    this.#rememberMs = options.maxLagMs + 2 * this.checkEveryMs;
    this.#maxSamples = Math.ceil(options.maxLagMs / this.checkEveryMs) + 2;
    this.#written = options.redis ? new RedisWritePositions(options.redis, options.redisPrefix) : new MemoryWritePositions();
    this.#status = { state: options.replica ? 'unknown' : 'none', lagMs: null, problem: null };
  }

  /** Starts the periodic check (nothing without a replica); `close` stops it. */
  start(): void {
    if (!this.#replica || this.#timer || this.#closed) return;
    const tick = async () => {
      await this.check();
      if (!this.#closed) this.#timer = setTimeout(tick, this.checkEveryMs).unref();
    };
    this.#timer = setTimeout(tick, 0).unref();
  }

  /** The replica's state as its last check (or a read it failed) found it: for operators' checks and the tests. */
  status(): ReplicaStatus {
    return { ...this.#status };
  }

  /**
   * Runs a read that may lag on the database `databaseFor` picks; if the replica fails it, runs it
   * again on the primary (and skips a replica that cannot be reached until its next good check).
   * @param person the reader's user id (undefined: nobody signed in, no writes of their own)
   * @param read the read; it must not write (a standby refuses writes)
   * @returns the read's result
   * @throws what the read throws on the primary
   */
  async mayLag<T>(person: number | undefined, read: (db: Db) => Promise<T>): Promise<T> {
    const db = await this.databaseFor(person);
    if (db === this.#primary) return read(db);
    try {
      return await read(db);
    } catch (err) {
      if (!replicaFailure(err)) throw err;
      if (isUnreachable(err)) this.#status = { state: 'down', lagMs: null, problem: messageOf(err) };
      return read(this.#primary);
    }
  }

  /**
   * The database for a read that may lag, for a read that outlives one call (a streamed report):
   * the replica when it is healthy and has replayed the person's last write, else the primary.
   * Prefer `mayLag`, which also falls back to the primary when the replica fails the read.
   * @param person the reader's user id (undefined: nobody signed in)
   */
  async databaseFor(person: number | undefined): Promise<Db> {
    if (!this.#replica || this.#status.state !== 'healthy' || Date.now() < this.#everyoneOnPrimaryUntil) return this.#primary;
    if (person === undefined) return this.#replica;
    const written = await this.#written.get(person).catch(() => 'unknown' as const);
    if (written === 'unknown') return this.#primary;
    return written === undefined || written <= this.#replayed ? this.#replica : this.#primary;
  }

  /** Whether a replica is configured: without one nothing is noted or routed. */
  get hasReplica(): boolean {
    return this.#replica !== undefined;
  }

  /**
   * Notes that `person` has just written: the primary's WAL position now, kept for the time a
   * replica within the bound needs to replay it. Called before a write's answer is sent
   * (src/main/app.ts), so the person's next read cannot arrive before it. Nothing without a
   * replica. Never throws: when the position cannot be read or kept (the primary or Redis does not
   * answer), nobody reads from the replica until a replica within the bound must have replayed it.
   */
  async noteWrite(person: number): Promise<void> {
    if (!this.#replica) return;
    try {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.#primary);
      await this.#written.set(person, walPosition(rows[0]!.lsn), this.#rememberMs);
    } catch {
      this.#everyoneOnPrimaryUntil = Date.now() + this.#rememberMs;
    }
  }

  /**
   * Checks the replica once: the primary's WAL position, then the replica's replayed position;
   * updates the lag and the state (see the file's comment). The periodic check calls it.
   * @returns the new status
   */
  async check(): Promise<ReplicaStatus> {
    const replica = this.#replica;
    if (!replica) return this.status();
    const at = Date.now();
    try {
      const primary = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.#primary);
      this.#samples.push({ at, position: walPosition(primary.rows[0]!.lsn) });
      if (this.#samples.length > this.#maxSamples) this.#samples.shift();
    } catch (err) {
      // Without the primary's position nothing can be said about the lag.
      this.#status = { state: 'unknown', lagMs: null, problem: messageOf(err) };
      return this.status();
    }
    try {
      const { rows } = await sql<{ standby: boolean; replayed: string | null }>`select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed`.execute(replica);
      const row = rows[0]!;
      if (!row.standby || row.replayed === null) {
        this.#status = { state: 'down', lagMs: null, problem: 'DATABASE_REPLICA_URL is not a standby (pg_is_in_recovery() is false)' };
        return this.status();
      }
      this.#replayed = walPosition(row.replayed);
      // The newest sample it has replayed; older samples are no longer needed.
      let caughtUp = -1;
      this.#samples.forEach((s, i) => {
        if (s.position <= this.#replayed) caughtUp = i;
      });
      let lagMs = caughtUp === -1 ? Date.now() - (this.#samples[0]?.at ?? at) : Date.now() - this.#samples[caughtUp]!.at;
      if (caughtUp > 0) this.#samples = this.#samples.slice(caughtUp);
      // Measured from before the primary was asked: never below the check's own round trips.
      lagMs = Math.max(0, lagMs);
      this.#status = { state: lagMs > this.#maxLagMs ? 'lagging' : 'healthy', lagMs, problem: null };
    } catch (err) {
      this.#status = { state: 'down', lagMs: null, problem: messageOf(err) };
    }
    return this.status();
  }

  /** Stops the periodic check and closes the replica's connections. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#replica?.destroy();
  }
}

/** A SQLSTATE class that says the server, not the query, failed: 08 connection, 53 resources, 57 operator, 58 system. */
const SERVER_CLASSES = new Set(['08', '53', '57', '58']);

/**
 * True when `err` means the replica could not run the read: the connection failed (no SQLSTATE,
 * a Node socket error, pg's connect timeout) or the server did (classes 08, 53, 57, 58).
 */
function isUnreachable(err: unknown): boolean {
  if (isTerminatedConnection(err)) return true;
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return SERVER_CLASSES.has(code.slice(0, 2));
  if (typeof code === 'string' && code.startsWith('E')) return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT ...
  return err instanceof Error && /timeout exceeded when trying to connect|Connection terminated/i.test(err.message);
}

/**
 * True when the read should run again on the primary: the replica was unreachable, or the standby
 * cancelled the statement in a conflict with recovery (40001, replay needed what it read).
 */
function replicaFailure(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === '40001' || isUnreachable(err);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
