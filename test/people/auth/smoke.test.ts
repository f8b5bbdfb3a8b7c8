import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';

describe('smoke: login, csrf, create and list a job, read the activity log', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('creates a job and lists it', async () => {
    const created = await w.agentA1.client.post('/api/jobs/manage', { title: 'Boiler not firing', priority: 2 });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.reference).toBe('JOB-000001');
    const listed = await w.agentA1.client.get('/api/jobs/manage');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().count).toBe(1);
    const log = await w.adminA.client.get('/api/admin/activity-log?action=job.create');
    expect(log.statusCode).toBe(200);
    expect(log.json().data[0].action).toBe('job.create');
  });
});
