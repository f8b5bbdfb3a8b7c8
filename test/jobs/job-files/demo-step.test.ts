import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffType } from '../../../src/lib/sniff.ts';
import { baseStep } from '../../../src/seed/demo/base.ts';
import { createDemoContext } from '../../../src/seed/demo/load.ts';
import { jobFilesStep } from '../../../src/seed/demo/job-files.ts';
import { LocalFileStore } from '../../../src/storage/file-store.ts';
import { sha256Hex } from '../../../src/lib/crypto.ts';
import { buildTestApp, login, Client, type TestApp } from '../../helpers/app.ts';
import { hashPassword } from '../../../src/lib/passwords.ts';

describe('demo step: notes, photos and documents, calendar dates', () => {
  let t: TestApp;
  let store: LocalFileStore;
  const now = new Date('2026-11-21T09:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp();
    store = new LocalFileStore(await mkdtemp(path.join(tmpdir(), 'caretaker-demo-files-')));
    const passwordHash = await hashPassword('caretaker-demo');
    await t.db.transaction().execute(async (trx) => {
      const ctx = createDemoContext(trx, { seed: 7, now, passwordHash, files: store });
      // The base step creates the organisation and 1,000 jobs in every status.
      await baseStep(ctx);
      await jobFilesStep(ctx);
    });
  });
  afterAll(async () => t?.close());

  it('writes internal and shared notes, real photos and PDFs with their SHA-256, and scheduled visits', async () => {
    const notes = await t.db.selectFrom('job_notes').select(['visibility']).execute();
    expect(notes.length).toBeGreaterThan(200);
    expect(new Set(notes.map((n) => n.visibility))).toEqual(new Set(['internal', 'tenant', 'contractor', 'both']));
    const files = await t.db.selectFrom('job_files').selectAll().execute();
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      const data = await store.get(f.storage_key);
      expect(sha256Hex(data)).toBe(f.sha256.trim());
      expect((await sniffType(data))?.mime).toBe(f.mime);
    }
    const visited = await t.db.selectFrom('jobs').select(['scheduled_for', 'status_id']).where('status_id', 'in', [5, 6, 7, 8, 9]).execute();
    expect(visited.every((j) => j.scheduled_for !== null)).toBe(true);
    const upcoming = visited.filter((j) => j.status_id === 5 && new Date(j.scheduled_for!).getTime() > now.getTime());
    expect(upcoming.length).toBeGreaterThanOrEqual(12);
  });

  it('the demo agent sees them through the API', async () => {
    t.clock.set(now);
    // SysOps see both agencies' calendars, where the step guarantees at least 12 upcoming visits.
    const sysops = new Client(t.app, await login(t.app, 'sysops@caretaker.test', 'caretaker-demo'));
    const cal = await sysops.get('/api/calendar?from_date=2026-11-21&to_date=2026-12-31');
    expect(cal.json().count).toBeGreaterThanOrEqual(12);
    const agent = new Client(t.app, await login(t.app, 'agent@northwind.test', 'caretaker-demo'));
    expect((await agent.get('/api/calendar?from_date=2026-11-21&to_date=2026-12-31')).json().count).toBeGreaterThan(0);
    const job = await t.db.selectFrom('job_notes as n').innerJoin('jobs as j', 'j.id', 'n.job_id').select('j.uuid').executeTakeFirstOrThrow();
    const list = await sysops.get(`/api/jobs/${job.uuid}/notes`);
    expect(list.statusCode).toBe(200);
    expect(list.json().count).toBeGreaterThan(0);
  });
});
