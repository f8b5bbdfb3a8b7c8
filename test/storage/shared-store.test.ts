/**
 * Two app instances on one PostgreSQL database and one S3 bucket (several machines behind a load
 * balancer): a photo uploaded through one is downloaded through the other. PGlite is one
 * process's database, so this needs PostgreSQL (DATABASE_URL; CI's PostgreSQL run sets it).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.ts';
import { openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { pngBytes } from '../../src/seed/demo/sample-files.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/app.ts';
import { attachedRecordsWorld } from '../helpers/attached-records-world.ts';
import { s3TestEnv } from '../helpers/s3-server.ts';
import { form } from '../helpers/upload-form.ts';
import type { FastifyInstance } from 'fastify';
import { skipWithout } from '../helpers/skip.ts';

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'two instances sharing S3 files need PostgreSQL (set DATABASE_URL; CI\'s second run does): PGlite is a single-process database'))('two instances sharing files through S3 (needs PostgreSQL: PGlite is a single-process database)', () => {
  let a: TestApp;
  let b: { app: FastifyInstance; runtime: Runtime };
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;

  beforeAll(async () => {
    a = await buildTestApp(await s3TestEnv());
    // Instance B: same database and bucket, its own process state and its own (empty) local folder.
    const runtime = await openRuntime(a.config, { clock: a.clock, filesDir: await mkdtemp(path.join(tmpdir(), 'caretaker-b-')) });
    const app = await buildApp(runtime.deps, { logger: false });
    await app.ready();
    b = { app, runtime };
    w = await attachedRecordsWorld(a);
  });
  afterAll(async () => {
    await b?.app.close();
    await b?.runtime.close();
    await a?.close();
  });

  it('a photo uploaded through instance A downloads through instance B with the same bytes and hash', async () => {
    const png = pngBytes(12, 9);
    const up = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/photos`, form(png, 'boiler.png'));
    expect(up.statusCode).toBe(201);
    const onB = new Client(b.app, w.agentA1.token);
    const down = await onB.get(`/api/jobs/${w.job.uuid}/photos/${up.json().data.uuid}`);
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(png)).toBe(true);
    expect(down.headers.etag).toBe(`"${up.json().data.sha256}"`);
  });
});
