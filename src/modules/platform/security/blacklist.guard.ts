/**
 * The in-process copy of the blacklist that every request is checked against first, before any
 * database work (docs/security.md promise 28). It reloads from the database when older than
 * `config.blacklist.refreshS` or when told a change happened: locally through `invalidate()`, and
 * on every other instance through Redis pub/sub on `<prefix>blacklist` when REDIS_URL is set (a
 * subscription that is down is logged, fails readiness, and the copy then reloads every second).
 * Addresses are matched with ipaddr.js (IPv4, IPv6, CIDR ranges of both; IPv4-mapped IPv6
 * addresses count as IPv4). The client address is `request.ip`: the socket's, unless
 * CARETAKER_TRUST_PROXY names the proxies whose X-Forwarded-For is believed.
 */
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import type { AppDeps } from '../../../app-deps.ts';
import { liveEntries } from './blacklist.repository.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Parses an address, IPv4-mapped IPv6 turned into IPv4; null when not an address. */
export function parseAddress(text: string): Address | null {
  try {
    return ipaddr.process(text);
  } catch {
    return null;
  }
}

/** Parses a CIDR range ("10.0.0.0/8", "2001:db8::/32"); null when not one. */
export function parseRange(text: string): [Address, number] | null {
  try {
    const [addr, bits] = ipaddr.parseCIDR(text);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [addr, bits];
  } catch {
    return null;
  }
}

/** Canonical text of an address (the stored `value` of an 'ip' entry). */
export function canonicalAddress(addr: Address): string {
  return addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toNormalizedString() : addr.toString();
}

interface Snapshot {
  ips: Set<string>;
  ranges: Array<[Address, number]>;
  accounts: Set<number>;
  /** Earliest expiry among the entries (a reload is due then). */
  nextExpiry: number;
  loadedAt: number;
}

/** Where the guard logs (the app's pino logger). */
export interface GuardLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How often the copy reloads at least while the Redis subscription is down, in milliseconds. */
export const UNSUBSCRIBED_REFRESH_MS = 1_000;

export class BlacklistGuard {
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  /** Moves on at each invalidate: a load begun before it neither serves later checks nor is kept. */
  private generation = 0;
  private subscriber: Redis | null = null;
  /** True while the Redis subscription to the change channel is live. */
  private subscribed = false;
  /** Why the subscription is down (null while live or without Redis). */
  private problem: string | null = null;
  private readonly channel: string;
  private readonly deps: AppDeps;
  private readonly log: GuardLog | undefined;

  constructor(deps: AppDeps, log?: GuardLog) {
    this.deps = deps;
    this.log = log;
    this.channel = `${deps.config.redisPrefix}blacklist`;
  }

  /**
   * Subscribes to changes made by other instances (Redis only), on a connection of its own that
   * is connected before it subscribes (the app's client refuses commands while disconnected) and
   * subscribes again after every reconnect. Resolves once the first attempt ended; a failure is
   * logged, shown by `subscriptionProblem()` (readiness), and retried at the next reconnect.
   */
  async start(): Promise<void> {
    const redis = this.deps.redis;
    if (!redis || this.subscriber) return;
    const sub = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null, enableAutoPipelining: false });
    this.subscriber = sub;
    this.problem = 'Blacklist change feed not subscribed yet';
    sub.on('message', (channel: string) => {
      if (channel === this.channel) this.invalidate();
    });
    sub.on('ready', () => void this.subscribe(sub));
    // An error on a live subscription is followed by 'close' when it matters; before, it says why.
    sub.on('error', (err: Error) => {
      if (!this.subscribed) this.down(`Redis error: ${err.message}`);
    });
    sub.on('close', () => this.down('Redis connection closed'));
    try {
      await sub.connect();
      await this.subscribe(sub);
    } catch (err) {
      this.down(`could not connect: ${(err as Error).message}`);
    }
  }

  private async subscribe(sub: Redis): Promise<void> {
    if (this.subscriber !== sub) return;
    try {
      await sub.subscribe(this.channel);
      if (!this.subscribed) this.log?.info({ channel: this.channel }, 'blacklist change feed subscribed');
      this.subscribed = true;
      this.problem = null;
      // Changes made while unsubscribed were not heard: reload.
      this.invalidate();
    } catch (err) {
      this.down(`SUBSCRIBE failed: ${(err as Error).message}`);
    }
  }

  /** Records a lost or failed subscription: logged once per outage, shown in readiness. */
  private down(reason: string): void {
    if (this.subscriber === null) return;
    const wasUp = this.subscribed || this.problem === 'Blacklist change feed not subscribed yet';
    this.subscribed = false;
    this.problem = `Blacklist change feed down (${reason})`;
    this.invalidate();
    if (wasUp) this.log?.error({ channel: this.channel, reason }, 'blacklist change feed down: changes on other instances are seen within a second by polling');
  }

  /**
   * Null while blocks made on other instances arrive through Redis (or without Redis); else why
   * not (GET /readyz answers 503 with it).
   */
  subscriptionProblem(): string | null {
    return this.deps.redis ? this.problem : null;
  }

  /** Closes the subscription. */
  async stop(): Promise<void> {
    const sub = this.subscriber;
    this.subscriber = null;
    this.subscribed = false;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }

  /** Forgets the cached copy; the next check reloads it. */
  invalidate(): void {
    this.snapshot = null;
    this.loading = null;
    this.generation++;
  }

  /** Invalidates here and tells every other instance (after a committed change). */
  async changed(): Promise<void> {
    this.invalidate();
    if (this.deps.redis) await this.deps.redis.publish(this.channel, String(Date.now())).catch(() => undefined);
  }

  private async current(): Promise<Snapshot> {
    const now = this.deps.clock.now().getTime();
    const s = this.snapshot;
    // Without a live subscription (Redis configured but the feed down) the copy is kept for at most
    // a second, so a change made on another instance still takes effect within a second.
    const maxAgeMs = this.deps.redis && !this.subscribed ? Math.min(UNSUBSCRIBED_REFRESH_MS, this.deps.config.blacklist.refreshS * 1000) : this.deps.config.blacklist.refreshS * 1000;
    if (s && Date.now() - s.loadedAt < maxAgeMs && now < s.nextExpiry) return s;
    if (!this.loading) {
      const loading = this.load().finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  private async load(): Promise<Snapshot> {
    const generation = this.generation;
    const now = this.deps.clock.now();
    const rows = await liveEntries(this.deps.db, now);
    const snap: Snapshot = { ips: new Set(), ranges: [], accounts: new Set(), nextExpiry: Number.POSITIVE_INFINITY, loadedAt: Date.now() };
    for (const r of rows) {
      if (r.expires_at) snap.nextExpiry = Math.min(snap.nextExpiry, new Date(r.expires_at).getTime());
      if (r.kind === 'account' && r.user_id !== null) snap.accounts.add(r.user_id);
      if (r.kind === 'ip' && r.value) snap.ips.add(r.value);
      if (r.kind === 'cidr' && r.value) {
        const range = parseRange(r.value);
        if (range) snap.ranges.push(range);
      }
    }
    // Read before a change that was announced meanwhile: answers the checks that asked, is not kept.
    if (generation === this.generation) this.snapshot = snap;
    return snap;
  }

  /** True when the address is blocked (by itself or a range). */
  async isAddressBlocked(ip: string): Promise<boolean> {
    const snap = await this.current();
    if (snap.ips.size === 0 && snap.ranges.length === 0) return false;
    const addr = parseAddress(ip);
    if (!addr) return false;
    if (snap.ips.has(canonicalAddress(addr))) return true;
    return snap.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match([net, bits] as never));
  }

  /** True when the account is blocked. */
  async isAccountBlocked(userId: number): Promise<boolean> {
    return (await this.current()).accounts.has(userId);
  }
}
