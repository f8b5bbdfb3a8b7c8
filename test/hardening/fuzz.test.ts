/**
 * The fuzz tier (docs/security.md "Fuzz tier"): walks GET /api/openapi.json and sends every
 * operation generated bad input as two agencies and several roles; fails on any 5xx, any error
 * outside the envelope, any foreign record in a response, and any change after a 4xx.
 * Short in `npm test` (FUZZ_DURATION_S, default 25 s); long with `npm run fuzz` (600). FUZZ_SEED
 * replays a run. The workflow engine is configured, against the local server that speaks n8n's API
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
    const report = await runFuzz(t, world, ops, seed, durationS * 1000);
    if (process.env.FUZZ_VERBOSE || report.failures.length > 0) {
      console.log(JSON.stringify({ seed, requests: report.requests, operations: report.operations, byStatus: report.byStatus }, null, 1));
    }
    expect(report.failures.slice(0, 20)).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
  }, (durationS + 300) * 1000);
});
