/**
 * The in-process copy of the blacklist that every request is checked against first, before any
 * database work (docs/security.md promise 28). It reloads from the database when older than
 * `config.blacklist.refreshS` or when told a change happened: locally through `invalidate()`, and
 * on every other instance through Redis pub/sub on `<prefix>blacklist` when REDIS_URL is set.
 * Addresses are matched with ipaddr.js (IPv4, IPv6, CIDR ranges of both; IPv4-mapped IPv6
 * addresses count as IPv4). The client address is `request.ip`: the socket's, unless
 * CARETAKER_TRUST_PROXY names the proxies whose X-Forwarded-For is believed.
 */
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import type { AppDeps } from '../../app-deps.ts';
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

export class BlacklistGuard {
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  private subscriber: Redis | null = null;
  private readonly channel: string;
  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.channel = `${deps.config.redisPrefix}blacklist`;
  }

  /** Subscribes to changes made by other instances (Redis only). */
  async start(): Promise<void> {
    if (!this.deps.redis || this.subscriber) return;
    const sub = this.deps.redis.duplicate();
    sub.on('error', () => undefined);
    sub.on('message', () => this.invalidate());
    await sub.subscribe(this.channel).catch(() => undefined);
    this.subscriber = sub;
  }

  /** Closes the subscription. */
  async stop(): Promise<void> {
    const sub = this.subscriber;
    this.subscriber = null;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }

  /** Forgets the cached copy; the next check reloads it. */
  invalidate(): void {
    this.snapshot = null;
  }

  /** Invalidates here and tells every other instance (after a committed change). */
  async changed(): Promise<void> {
    this.invalidate();
    if (this.deps.redis) await this.deps.redis.publish(this.channel, String(Date.now())).catch(() => undefined);
  }

  private async current(): Promise<Snapshot> {
    const now = this.deps.clock.now().getTime();
    const s = this.snapshot;
    if (s && Date.now() - s.loadedAt < this.deps.config.blacklist.refreshS * 1000 && now < s.nextExpiry) return s;
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load(): Promise<Snapshot> {
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
    this.snapshot = snap;
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
