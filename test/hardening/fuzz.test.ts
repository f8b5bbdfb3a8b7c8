/**
 * The fuzz tier (docs/security.md "Fuzz tier"): walks GET /api/openapi.json and sends every
 * operation generated bad input as two agencies and several roles; fails on any 5xx, any error
 * outside the envelope, any foreign record in a response, and any change after a 4xx.
 * The operations are read from the document, so a new one is probed from the day it is added.
 * Short in `npm test` (FUZZ_DURATION_S, default 25 s, after one promised pass in which every
 * operation is sent at least once); long with `npm run fuzz` (600 s, after as many passes as there
 * are actors, so every operation is sent as every role). A test fails when an operation of the
 * document was never sent (or, in the long run, not as every role). FUZZ_SEED replays a run. The workflow engine is configured, against the local server that speaks n8n's API
 * (test/jobs/workflow-engine/fake-n8n.ts): unconfigured, its endpoint answers its documented 503
 * "Workflow engine not configured", a state of the deployment that no input changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { loadOperations, type Operation } from '../fuzz/operations.ts';
import { runFuzz } from '../fuzz/runner.ts';
import { buildFuzzWorld, type FuzzWorld } from '../fuzz/world.ts';
import { startFakeN8n, type FakeN8n } from '../jobs/workflow-engine/fake-n8n.ts';

const durationS = Number(process.env.FUZZ_DURATION_S ?? 25);
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
/** The long run (`npm run fuzz`) promises every operation as every role; the short one, each operation once. */
const everyRole = durationS >= 120;
/** Operations of the document the loop does not send, each with where it is tested instead. */
const NOT_FUZZED: Record<string, string> = {
  'GET /api/events/stream': 'the live stream never ends, so an injected request never returns: test/jobs/live/live-stream.test.ts',
};

describe('fuzz tier over the OpenAPI document', () => {
  let t: TestApp;
  let world: FuzzWorld;
  let ops: Operation[];
  let n8n: FakeN8n;
  beforeAll(async () => {
    n8n = await startFakeN8n();
    t = await buildTestApp({ CARETAKER_WORKFLOW_ENGINE_URL: n8n.url, CARETAKER_WORKFLOW_ENGINE_API_KEY: n8n.apiKey });
    world = await buildFuzzWorld(t);
    ops = await loadOperations(t);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await n8n?.close();
  });

  it(`no 5xx, no non-envelope error, no foreign record, no change after a 4xx (seed ${seed}, ${durationS} s)`, async () => {
    expect(ops.length).toBeGreaterThan(50);
    const report = await runFuzz(t, world, ops, seed, durationS * 1000, everyRole ? world.actors.length : 1);
    if (process.env.FUZZ_VERBOSE || report.failures.length > 0) {
      console.log(JSON.stringify({ seed, requests: report.requests, operations: report.operations, byStatus: report.byStatus }, null, 1));
    }
    expect(report.failures.slice(0, 20)).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
    // Coverage: every operation was sent (in the long run, as every actor).
    const short = [...report.coverage].filter(([, actors]) => actors.size < (everyRole ? world.actors.length : 1)).map(([op, actors]) => `${op} (${actors.size})`);
    expect(short).toEqual([]);
  }, (durationS + 600) * 1000);

  it('walks every operation of the document but the named exceptions', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    const walked = new Set(ops.map((op) => `${op.method} ${op.path}`));
    expect(documented.filter((op) => !walked.has(op) && !(op in NOT_FUZZED))).toEqual([]);
    expect(Object.keys(NOT_FUZZED).filter((op) => walked.has(op) || !documented.includes(op))).toEqual([]);
  });
});
