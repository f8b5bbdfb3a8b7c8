/**
 * One HTTP(S) request to an outside service (push providers, receivers): a deadline on the whole
 * exchange, a cap on the response size, optional extra trusted CA certificates, and optional
 * refusal of targets on loopback, private, link-local and other non-public addresses (SSRF): every
 * address the name resolves to is checked, and the connection goes to a checked address, so a
 * DNS answer cannot change between the check and the connect.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

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
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Response body as UTF-8 text, cut at maxResponseBytes. */
  body: string;
}

/** The target resolved to an address the request may not reach. */
export class RefusedTargetError extends Error {
  constructor(host: string) {
    super(`refused: ${host} resolves to a non-public address`);
    this.name = 'RefusedTargetError';
  }
}

const BLOCKED = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) BLOCKED.addSubnet(net6, bits, 'ipv6');

/**
 * True when `address` (an IPv4 or IPv6 literal) is a public unicast address: not loopback,
 * private (RFC 1918, unique local), link-local, carrier-grade NAT, documentation, multicast or
 * reserved. IPv4-mapped IPv6 addresses are judged by their IPv4 part.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]!);
    if (/^::ffff:/i.test(address)) return false;
    return !BLOCKED.check(address, 'ipv6');
  }
  return !BLOCKED.check(address, 'ipv4');
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  return /^(::ffff:)?127\./i.test(address) || address === '::1';
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
 *         the socket's error when the connection fails
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
    const signal = AbortSignal.timeout(req.timeoutMs);
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
      res.on('error', (err) => reject(signal.aborted ? new Error(`timeout after ${req.timeoutMs} ms`) : err));
    });
    request.on('error', (err) => {
      const refused = (err as NodeJS.ErrnoException).code === 'EREFUSEDTARGET';
      reject(signal.aborted && !refused ? new Error(`timeout after ${req.timeoutMs} ms`) : refused ? new RefusedTargetError(host) : err);
    });
    request.end(req.body);
  });
}
