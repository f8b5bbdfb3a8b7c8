/**
 * The live-update hub of one instance (docs/live-updates.md): it LISTENs on `caretaker_outbox`
 * (every committed outbox row is announced there by a trigger, on whichever instance wrote it),
 * reads the announced rows in batches, and hands each open stream the events its recipient may
 * hear, authorised per recipient by the reads' rules (live-events.ts, `visibleJobUuids`).
 * Listening starts with the first stream and stops when the app closes.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { ChannelSubscription } from '../../../db/notifications.ts';
import { outboxRowsAfter, outboxRowsByRowIds, type LiveOutboxRow } from '../../../events/index.ts';
import { visibleJobUuids, type JobScope } from '../jobs/index.ts';
import { audienceAllows, liveCandidate, type LiveCandidate, type LiveEvent } from './live-events.ts';

/** The notification channel the outbox trigger announces on (migration 2026_11_26_2100). */
export const OUTBOX_CHANNEL = 'caretaker_outbox';

/**
 * The channel on which triggers announce every committed change that may end a session
 * (migration 2026_12_06_1500): `user:<id>` (a token of the account revoked or deleted, the account
 * changed), `agency:<id>` (suspended or reactivated), `all` (roles, permissions, the blacklist).
 */
export const AUTH_CHANNEL = 'caretaker_auth';

/** Which streams a change on AUTH_CHANNEL concerns. */
export type AuthChange = { userId: number } | { agencyId: number } | 'all';

/** The change a payload of AUTH_CHANNEL names, or null for a payload it does not know. */
export function parseAuthChange(payload: string): AuthChange | null {
  if (payload === 'all') return 'all';
  const m = /^(user|agency):(\d{1,12})$/.exec(payload);
  if (!m) return null;
  return m[1] === 'user' ? { userId: Number(m[2]) } : { agencyId: Number(m[2]) };
}

/** How long announced ids gather before one read of their rows, in milliseconds. */
const BATCH_MS = 10;

/** Rows read after a lost LISTEN connection came back (what was announced in between). */
const CATCH_UP_ROWS = 1_000;

/** One open stream, as the hub sees it. */
export interface LiveSubscriber {
  readonly userId: number;
  readonly scope: JobScope;
  /** The recipient's agency (null for SysOps and accounts of no agency). */
  readonly agencyId: number | null;
  /** Receives the events this recipient may hear, oldest first. */
  deliver(events: LiveEvent[]): void;
  /** Ends the stream (shutdown). */
  end(): void;
  /** Checks the session again at once, ending the stream (`signed_out`) when it no longer stands. */
  recheck(): void;
}

/** What the hub does besides streaming. */
export interface LiveHubOptions {
  /** Logs a failed delivery. */
  onError: (err: Error) => void;
  /**
   * Called with each session-ending change before the streams it concerns are checked again
   * (the composition root forgets its blacklist copy on `all`, so the check reads the new one).
   */
  onAuthChange?: (change: AuthChange) => void;
}

export class LiveHub {
  private readonly deps: AppDeps;
  private readonly subscribers = new Set<LiveSubscriber>();
  /** Open streams by recipient (scope and agency): one visibility query per group and batch. */
  private readonly groups = new Map<string, Set<LiveSubscriber>>();
  /** The group key of each open stream. */
  private readonly groupOf = new Map<LiveSubscriber, string>();
  /** Open streams per account (the per-account limit, checked at each opening). */
  private readonly perUser = new Map<number, number>();
  private subscription: ChannelSubscription | null = null;
  private authSubscription: ChannelSubscription | null = null;
  private starting: Promise<void> | null = null;
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** Batches are delivered one after the other, in the order they were read. */
  private chain: Promise<void> = Promise.resolve();
  /** The highest row id delivered, for the catch-up after a lost connection. */
  private lastId = 0n;
  private closed = false;
  private readonly onError: (err: Error) => void;
  private readonly onAuthChange: ((change: AuthChange) => void) | undefined;

  /** @param options where errors go, and what to do first on a session-ending change */
  constructor(deps: AppDeps, options: LiveHubOptions) {
    this.deps = deps;
    this.onError = options.onError;
    this.onAuthChange = options.onAuthChange;
  }

  /** Open streams on this instance. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Open streams of one account on this instance. */
  countOf(userId: number): number {
    return this.perUser.get(userId) ?? 0;
  }

  /**
   * Adds a stream (starting to LISTEN on the first).
   * @throws the driver's error when LISTEN cannot start (the route answers 503)
   */
  async attach(subscriber: LiveSubscriber): Promise<void> {
    if (this.closed) throw new Error('The live hub is closed');
    await this.listen();
    if (this.subscribers.has(subscriber)) return;
    this.subscribers.add(subscriber);
    const key = JSON.stringify([subscriber.scope, subscriber.agencyId]);
    this.groupOf.set(subscriber, key);
    const group = this.groups.get(key);
    if (group) group.add(subscriber);
    else this.groups.set(key, new Set([subscriber]));
    this.perUser.set(subscriber.userId, this.countOf(subscriber.userId) + 1);
  }

  /** Removes a stream (nothing when it is not attached). */
  detach(subscriber: LiveSubscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    const key = this.groupOf.get(subscriber)!;
    this.groupOf.delete(subscriber);
    const group = this.groups.get(key)!;
    group.delete(subscriber);
    if (group.size === 0) this.groups.delete(key);
    const n = this.countOf(subscriber.userId) - 1;
    if (n > 0) this.perUser.set(subscriber.userId, n);
    else this.perUser.delete(subscriber.userId);
  }

  private listen(): Promise<void> {
    if (this.subscription) return Promise.resolve();
    this.starting ??= (async () => {
      // Session-ending changes first: a stream is never open without them being heard.
      const auth = this.authSubscription ?? (await this.deps.listen(AUTH_CHANNEL, (payload) => this.authChanged(payload), () => this.sessionsChanged('all')));
      if (this.closed) {
        await auth.close();
        return;
      }
      this.authSubscription = auth;
      const sub = await this.deps.listen(OUTBOX_CHANNEL, (payload) => this.announced(payload), () => this.caughtUp());
      if (this.closed) await sub.close();
      else this.subscription = sub;
    })().finally(() => (this.starting = null));
    return this.starting;
  }

  private authChanged(payload: string): void {
    const change = parseAuthChange(payload);
    if (change) this.sessionsChanged(change);
  }

  /**
   * Checks again, at once, the session of every stream a committed change concerns (on whichever
   * instance the change was made): a revoked token, a logout, a disabled or blocked account, a
   * suspended agency ends its streams with `signed_out` (docs/live-updates.md "When a stream ends").
   * After a lost LISTEN connection every stream is checked (changes in between were not heard).
   */
  sessionsChanged(change: AuthChange): void {
    if (this.subscribers.size === 0) return;
    try {
      this.onAuthChange?.(change);
    } catch (err) {
      this.onError(err as Error);
    }
    for (const s of [...this.subscribers]) {
      if (change === 'all' || ('userId' in change ? s.userId === change.userId : s.agencyId === change.agencyId)) s.recheck();
    }
  }

  private announced(payload: string): void {
    if (!/^\d{1,19}$/.test(payload)) return;
    this.pending.add(payload);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const ids = [...this.pending];
      this.pending.clear();
      this.enqueue(() => outboxRowsByRowIds(this.deps.db, ids));
    }, BATCH_MS);
  }

  /** After a lost LISTEN connection: the rows written meanwhile, from the last one delivered. */
  private caughtUp(): void {
    if (this.lastId === 0n) return;
    this.enqueue(() => outboxRowsAfter(this.deps.db, this.lastId.toString(), CATCH_UP_ROWS));
  }

  private enqueue(read: () => Promise<LiveOutboxRow[]>): void {
    this.chain = this.chain
      .then(async () => {
        if (this.subscribers.size === 0) return;
        await this.deliver(await read());
      })
      .catch((err: unknown) => this.onError(err as Error));
  }

  private async deliver(rows: LiveOutboxRow[]): Promise<void> {
    for (const row of rows) if (BigInt(row.id) > this.lastId) this.lastId = BigInt(row.id);
    const candidates = rows.map(liveCandidate).filter((c): c is LiveCandidate => c !== null);
    if (candidates.length === 0) return;
    // One visibility query per distinct recipient scope, not per stream.
    await Promise.all(
      [...this.groups.values()].map(async (group) => {
        // The streams open when the rows were read (one may close during the query).
        const members = [...group];
        const first = members[0]!;
        const events = await authorise(this.deps, candidates, first.scope, first.agencyId);
        if (events.length === 0) return;
        for (const s of members) if (this.subscribers.has(s)) s.deliver(events);
      }),
    );
  }

  /** Ends every stream and stops listening (the app closes). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const s of [...this.subscribers]) s.end();
    this.subscribers.clear();
    this.groups.clear();
    this.groupOf.clear();
    this.perUser.clear();
    await this.starting?.catch(() => undefined);
    const subs = [this.subscription, this.authSubscription];
    this.subscription = null;
    this.authSubscription = null;
    for (const sub of subs) if (sub) await sub.close();
  }
}

/**
 * The events of `candidates` a recipient may hear: the event's audience allows it (agency
 * included) and the recipient sees the job (the jobs module's visibility rule).
 * @returns the allowed events, in the candidates' order
 */
export async function authorise(deps: AppDeps, candidates: readonly LiveCandidate[], scope: JobScope, agencyId: number | null): Promise<LiveEvent[]> {
  const allowed = candidates.filter((c) => audienceAllows(c, scope, agencyId));
  if (allowed.length === 0) return [];
  const visible = new Set(await visibleJobUuids(deps.db, scope, [...new Set(allowed.map((c) => c.event.job_uuid))]));
  return allowed.filter((c) => visible.has(c.event.job_uuid)).map((c) => c.event);
}
