/**
 * The fuzz loop: walks the operations round-robin until the time budget is spent, sending each a
 * generated request as one of the actors, and records every broken promise. Seeded: request n
 * uses seed + n, so a failure is replayed with the same FUZZ_SEED.
 */
import fc from 'fast-check';
import type { TestApp } from '../helpers/app.ts';
import { objectOf, rawBody, valueFor } from './arbitraries.ts';
import { fingerprint } from './fingerprint.ts';
import type { Operation } from './operations.ts';
import { mintCsrf } from './tokens.ts';
import { FOREIGN_MARKER, reviveActors, type FuzzWorld } from './world.ts';

export interface Failure {
  n: number;
  op: string;
  actor: string;
  status: number;
  reason: string;
  url: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  operations: number;
  byStatus: Record<string, number>;
  failures: Failure[];
  /** Per operation (`METHOD /path`), the actors it was sent as. */
  coverage: Map<string, Set<string>>;
}

const sample = <T>(arb: fc.Arbitrary<T>, seed: number): T => fc.sample(arb, { seed, numRuns: 1 })[0]!;

/** encodeURIComponent that sends a lone surrogate as the raw bytes ED A0 80 instead of throwing. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => (/[\uD800-\uDFFF]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

function queryString(values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) q.append(k, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** Builds one request for the operation from seed n. */
function buildRequest(op: Operation, world: FuzzWorld, seed: number) {
  let url = op.path;
  op.pathParams.forEach((p, i) => {
    const value = sample(valueFor(p.schema, world, p.name), seed * 31 + i);
    url = url.replace(`{${p.name}}`, encodeSegment(typeof value === 'object' ? JSON.stringify(value) : String(value)));
  });
  url += queryString(sample(objectOf(op.query, world), seed * 17));
  let payload: string | Buffer | undefined;
  let type: string | undefined;
  if (op.body || op.multipart || ['POST', 'PUT', 'DELETE'].includes(op.method)) {
    const raw = sample(fc.boolean(), seed * 13) && sample(fc.boolean(), seed * 11);
    if (op.multipart || raw || !op.body) {
      const r = sample(rawBody, seed * 7);
      [payload, type] = [r.payload, r.type];
    } else {
      payload = JSON.stringify(sample(objectOf(op.body, world), seed * 5));
      type = 'application/json';
    }
  }
  return { url, payload, type };
}

/**
 * Runs the fuzz tier.
 * @param durationMs time budget, after the passes promised by `minPasses`
 * @param minPasses passes over every operation made whatever the budget (1: every operation is
 *   sent at least once; the number of actors: every operation as every actor, since each pass
 *   shifts the actor by one)
 */
export async function runFuzz(t: TestApp, world: FuzzWorld, ops: Operation[], seed: number, durationMs: number, minPasses = 1): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, operations: ops.length, byStatus: {}, failures: [], coverage: new Map(ops.map((op) => [`${op.method} ${op.path}`, new Set<string>()])) };
  const deadline = Date.now() + durationMs;
  const floor = ops.length * minPasses;
  let before = await fingerprint(t);
  for (let n = 0; n < floor || Date.now() < deadline; n++) {
    const op = ops[n % ops.length]!;
    const actor = world.actors[(n + Math.floor(n / ops.length)) % world.actors.length]!;
    const req = buildRequest(op, world, seed + n);
    const headers: Record<string, string> = { authorization: `Bearer ${actor.token}` };
    // Now and then a client X-Request-Id that is not a safe token (replaced, logged apart).
    if (n % 7 === 3) headers['x-request-id'] = ['x'.repeat(8_000), 'a b', '<id>', '', 'x'.repeat(129)][n % 5]!;
    if (req.type) headers['content-type'] = req.type;
    if (op.method !== 'GET' && n % 10 !== 0) headers['x-csrf-token'] = await mintCsrf(t, actor.tokenId);
    const res = await t.app.inject({ method: op.method as 'GET', url: req.url, headers, ...(req.payload !== undefined ? { payload: req.payload } : {}) });
    report.requests++;
    report.coverage.get(`${op.method} ${op.path}`)!.add(actor.name);
    report.byStatus[res.statusCode] = (report.byStatus[res.statusCode] ?? 0) + 1;
    const fail = (reason: string) =>
      report.failures.push({ n, op: `${op.method} ${op.path}`, actor: actor.name, status: res.statusCode, reason, url: req.url.slice(0, 300), body: String(req.payload ?? '').slice(0, 300) });
    if (res.statusCode >= 500) fail(`5xx: ${res.body.slice(0, 200)}`);
    if (res.statusCode >= 400) {
      let body: { success?: unknown; error?: unknown } | undefined;
      try {
        body = res.json();
      } catch {
        body = undefined;
      }
      if (!body || body.success !== false || typeof body.error !== 'string') fail(`non-envelope error: ${res.body.slice(0, 200)}`);
    } else if (actor.agency === 'A' && res.body.includes(FOREIGN_MARKER)) {
      fail('foreign record referenced in the response');
    }
    const after = await fingerprint(t);
    if (res.statusCode >= 400 && after !== before) fail('data changed after a 4xx');
    before = (await reviveActors(t, world)) ? await fingerprint(t) : after;
  }
  return report;
}
