/**
 * Opt-in: the workflow-engine endpoint against a real n8n (docs/workflow-engine.md, "Testing
 * against a real n8n"). Runs only when N8N_TEST_URL and N8N_TEST_API_KEY are set; it reads, it
 * never changes the instance. Checks the shapes and the behaviours the local server imitates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, userClient, type TestApp } from '../../helpers/app.ts';
import { skipWithout } from '../../helpers/skip.ts';

const URL_ = process.env.N8N_TEST_URL;
const KEY = process.env.N8N_TEST_API_KEY;
const PATH = '/api/workflow-engine/workflows';

describe.skipIf(skipWithout(URL_ && KEY, 'the real-n8n check needs N8N_TEST_URL and N8N_TEST_API_KEY'))('workflow engine against a real n8n (skipped: set N8N_TEST_URL and N8N_TEST_API_KEY to run)', () => {
  let t: TestApp;
  let get: (query: string) => Promise<{ statusCode: number; json(): any }>;

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_WORKFLOW_ENGINE_URL: URL_!, CARETAKER_WORKFLOW_ENGINE_API_KEY: KEY!, CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS: '10000' });
    const admin = await userClient(t, { role: 'sysops' });
    get = (query) => admin.client.get(`${PATH}?${query}`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists, pages with a stable page size, and reads one workflow', async () => {
    const first = await get('action=list&limit=1');
    expect(first.statusCode).toBe(200);
    const { workflows, next_cursor } = first.json().data;
    if (workflows.length === 0) return;
    const one = await get(`action=get&id=${workflows[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data.workflow.id).toBe(workflows[0].id);
    if (next_cursor) {
      const second = await get(`action=list&limit=2&cursor=${encodeURIComponent(next_cursor)}`);
      expect(second.statusCode).toBe(200);
      expect(second.json().data.workflows.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('lists executions and counts statistics, running ones included', async () => {
    expect((await get('action=executions&limit=5')).statusCode).toBe(200);
    expect((await get('action=executions&status=running')).statusCode).toBe(200);
    const stats = await get('action=stats');
    expect(stats.statusCode).toBe(200);
    expect(stats.json().data.stats.by_status).toHaveProperty('running');
  });

  it('answers a bad cursor with 400 and an unknown workflow with 404', async () => {
    expect((await get('action=list&cursor=bm90LWEtY3Vyc29y')).json()).toEqual({ success: false, error: 'Invalid or missing required parameter: cursor' });
    expect((await get('action=get&id=zzzzzzzzzzzzzzzz')).statusCode).toBe(404);
  });
});
