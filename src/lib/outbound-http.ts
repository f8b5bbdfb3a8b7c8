/**
 * One HTTP(S) request to an outside service (push providers, receivers): a deadline on the whole
 * exchange, a cap on the response size, optional extra trusted CA certificates, and optional
 * refusal of targets on loopback, private, link-local and other non-public addresses (SSRF): every
 * address the name resolves to is checked (IPv6 forms that embed an IPv4 address are judged by it),
 * and the connection goes to a checked address, so a DNS answer cannot change between the check
 * and the connect.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Deadline of the whole exchange in milliseconds. */
  timeoutMs: number;
  /** PEM certificates trusted in addition to the system ones. */
  extraCa?: string | undefined;
  /** Refuse non-public target addresses (see isPublicAddress). */
  refusePrivate?: boolean;
  /** With refusePrivate: still allow loopback addresses (development). */
  allowLoopback?: boolean;
  /** Largest response body kept, in bytes (default 64 KiB); the rest is dropped. */
  maxResponseBytes?: number;
  /** Ends the exchange early (a shutdown); it then rejects with CancelledRequestError. */
  signal?: AbortSignal | undefined;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Response body as UTF-8 text, cut at maxResponseBytes. */
  body: string;
}

/** The request was ended by its caller's signal (a shutdown), not by the target or the deadline. */
export class CancelledRequestError extends Error {
  constructor() {
    super('cancelled: the worker is shutting down');
    this.name = 'CancelledRequestError';
  }
}

/** The target resolved to an address the request may not reach. */
export class RefusedTargetError extends Error {
  constructor(host: string) {
    super(`refused: ${host} resolves to a non-public address`);
    this.name = 'RefusedTargetError';
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The IPv4 address at bits `from`..`from + 32` of an IPv6 address. */
function ipv4At(addr: ipaddr.IPv6, from: number): ipaddr.IPv4 {
  const bytes = addr.toByteArray();
  return new ipaddr.IPv4(bytes.slice(from / 8, from / 8 + 4));
}

/** True for 2000::/3, the IPv6 global unicast space. */
const GLOBAL_UNICAST: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];
/** ::/96 (IPv4-compatible, deprecated): the last 32 bits are an IPv4 address. */
const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];
/** 64:ff9b::/96, NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 target. */
const NAT64: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('64:ff9b::'), 96];

/**
 * The IPv4 addresses an IPv6 address stands for, every IPv4-embedding form unwrapped:
 * IPv4-mapped (::ffff:0:0/96) and RFC 6145 translated (::ffff:0:0:0/96), IPv4-compatible (::/96),
 * NAT64 (64:ff9b::/96), 6to4 (2002::/16, bits 16 to 48) and Teredo (2001::/32: the server at bits
 * 32 to 64 and the client, inverted, in the last 32 bits). Empty for a plain IPv6 address.
 */
export function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4[] {
  const range = addr.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [ipv4At(addr, 96)];
  if (range === '6to4') return [ipv4At(addr, 16)];
  if (range === 'teredo') {
    const client = ipv4At(addr, 96).octets.map((o) => o ^ 0xff);
    return [ipv4At(addr, 32), new ipaddr.IPv4(client)];
  }
  if (addr.match(NAT64)) return [ipv4At(addr, 96)];
  if (addr.match(IPV4_COMPATIBLE) && range !== 'unspecified' && range !== 'loopback') return [ipv4At(addr, 96)];
  return [];
}

/** Parses an IP literal (brackets allowed); null when it is not one. */
function parseAddress(address: string): Address | null {
  const text = address.replace(/^\[|\]$/g, '');
  if (net.isIP(text) === 0) return null;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/**
 * True when `address` (an IPv4 or IPv6 literal) is plain public unicast (docs/security.md
 * "Outbound requests"): an IPv4 address whose ipaddr.js range is `unicast` (not loopback, private,
 * link-local, carrier-grade NAT, documentation, benchmarking, multicast, broadcast or reserved); an
 * IPv6 address that embeds IPv4 (see embeddedIPv4) when every embedded IPv4 address is; any other
 * IPv6 address when it is global unicast (2000::/3) with range `unicast` (so no unique-local,
 * link-local, documentation, ORCHID, local-use NAT64 or other special range).
 */
export function isPublicAddress(address: string): boolean {
  const addr = parseAddress(address);
  if (!addr) return false;
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast';
  const v6 = addr as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded.length > 0) return embedded.every((v4) => v4.range() === 'unicast');
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** True for 127.0.0.0/8, ::1 and IPv6 forms that embed an IPv4 loopback address. */
export function isLoopbackAddress(address: string): boolean {
  const addr = parseAddress(address);
  if (!addr) return false;
  if (addr.kind() === 'ipv4') return addr.range() === 'loopback';
  const embedded = embeddedIPv4(addr as ipaddr.IPv6);
  return embedded.length > 0 ? embedded.every((v4) => v4.range() === 'loopback') : addr.range() === 'loopback';
}

/** True when a request may connect to `address` under the guard. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  return isPublicAddress(address) || (allowLoopback && isLoopbackAddress(address));
}

/** dns.lookup that fails when any resolved address is not allowed. */
const guardedLookup = (allowLoopback: boolean) => (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a.address, allowLoopback))) {
      return callback(Object.assign(new RefusedTargetError(hostname), { code: 'EREFUSEDTARGET' }), []);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * Sends one request and reads the response.
 * @returns status, headers and the (possibly cut) body; any status, 2xx or not
 * @throws RefusedTargetError for a refused target; Error('timeout after N ms') past the deadline;
 *         CancelledRequestError when `signal` ended it; the socket's error when the connection fails
 */
export function outboundRequest(req: OutboundRequest): Promise<OutboundResponse> {
  const target = new URL(req.url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (req.refusePrivate && net.isIP(host) !== 0 && !addressAllowed(host, req.allowLoopback ?? false)) {
    return Promise.reject(new RefusedTargetError(host));
  }
  const secure = target.protocol === 'https:';
  const maxBytes = req.maxResponseBytes ?? 65_536;
  return new Promise((resolve, reject) => {
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
    // Which of the two ended it: the caller's signal (a shutdown) or the deadline.
    const ended = (err: unknown) => (req.signal?.aborted ? new CancelledRequestError() : signal.aborted ? new Error(`timeout after ${req.timeoutMs} ms`) : err);
    const options: https.RequestOptions = {
      method: req.method,
      headers: { ...req.headers, ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) },
      signal,
      agent: false,
      ...(req.refusePrivate ? { lookup: guardedLookup(req.allowLoopback ?? false) as unknown as https.RequestOptions['lookup'] } : {}),
      ...(secure && req.extraCa ? { ca: [...tls.rootCertificates, req.extraCa] } : {}),
    };
    const request = (secure ? https : http).request(target, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
        size += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => reject(ended(err)));
    });
    request.on('error', (err) => {
      const refused = (err as NodeJS.ErrnoException).code === 'EREFUSEDTARGET';
      reject(refused ? new RefusedTargetError(host) : ended(err));
    });
    request.end(req.body);
  });
}
