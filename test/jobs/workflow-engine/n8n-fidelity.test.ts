/**
 * The workflow-engine client against the behaviours of a real n8n 2.x that its documentation does
 * not state (docs/workflow-engine.md, "How n8n behaves"); the local server reproduces each one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
const withLimit = (c: string, _l: number) => c;
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { ALL_SCOPES, n8nExecution, n8nWorkflow, startFakeN8n, workflowId, type FakeN8n } from './fake-n8n.ts';

const PATH = '/api/workflow-engine/workflows';
const A = workflowId('notifyContractor');
const B = workflowId('slaBreachMail');
const C = workflowId('invoicePaid');

describe('the workflow engine as a real n8n behaves', () => {
  let t: TestApp;
  let n8n: FakeN8n;
  let w: Awaited<ReturnType<typeof standardWorld>>;

  beforeAll(async () => {
    n8n = await startFakeN8n();
    t = await buildTestApp({ CARETAKER_WORKFLOW_ENGINE_URL: n8n.url, CARETAKER_WORKFLOW_ENGINE_API_KEY: n8n.apiKey, CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS: '2000' });
    w = await standardWorld(t);
  });
  afterAll(async () => {
    await t?.close();
    await n8n?.close();
  });
  beforeEach(() => {
    n8n.mode = 'ok';
    n8n.scopes = [...ALL_SCOPES];
    n8n.requests = [];
    n8n.workflows = [n8nWorkflow(A, 'New job -> notify contractor', true), n8nWorkflow(B, 'SLA breach -> e-mail', true), n8nWorkflow(C, 'Invoice paid', false)];
    n8n.executions = [
      n8nExecution(2213, A, 'success', '2026-11-21T08:50:00.000Z'),
      n8nExecution(2212, A, 'running', '2026-11-21T08:45:00.000Z'),
      n8nExecution(2211, B, 'error', '2026-11-21T08:40:00.000Z'),
    ];
  });

  it('counts running executions in stats although n8n leaves them out of an unfiltered list', async () => {
    const listed = (await w.adminA.client.get(`${PATH}?action=executions`)).json().data.executions;
    expect(listed.map((e: { id: string }) => e.id)).toEqual(['2213', '2211']);
    const running = (await w.adminA.client.get(`${PATH}?action=executions&status=running`)).json().data.executions;
    expect(running.map((e: { id: string }) => e.id)).toEqual(['2212']);
    const stats = (await w.adminA.client.get(`${PATH}?action=stats`)).json().data.stats;
    expect(stats).toMatchObject({ executions_counted: 3, by_status: { success: 1, error: 1, running: 1 } });
  });

  it('keeps the asked page size on later pages although n8n takes it from the cursor', async () => {
    const first = (await w.adminA.client.get(`${PATH}?action=list&limit=1`)).json().data;
    expect(first.workflows).toHaveLength(1);
    const second = (await w.adminA.client.get(`${PATH}?action=list&limit=5&cursor=${encodeURIComponent(first.next_cursor)}`)).json().data;
    expect(second.workflows.map((x: { id: string }) => x.id)).toEqual([B, C]);
    const e1 = (await w.adminA.client.get(`${PATH}?action=executions&limit=1`)).json().data;
    const e2 = (await w.adminA.client.get(`${PATH}?action=executions&limit=5&cursor=${encodeURIComponent(e1.next_cursor)}`)).json().data;
    expect(e2.executions.map((e: { id: string }) => e.id)).toEqual(['2211']);
    expect(withLimit('not-base64-json', 5)).toBe('not-base64-json');
  });

  it('reports an HTML 404 (n8n starting, wrong base URL, public API off) as unavailable, not as a missing workflow', async () => {
    n8n.mode = 'starting';
    for (const query of [`action=get&id=${A}`, 'action=list', 'action=executions']) {
      const res = await w.adminA.client.get(`${PATH}?${query}`);
      expect(res.statusCode, query).toBe(503);
      expect(res.json().error).toMatch(/^The workflow engine is unavailable or misconfigured/);
    }
    n8n.mode = 'ok';
    const missing = await w.adminA.client.get(`${PATH}?action=get&id=${workflowId('nope')}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, error: 'Workflow not found' });
  });

  it('asks n8n to leave pinned data out, so 11 MB of pinned test data does not break the list', async () => {
    const pinned = { Webhook: [{ json: { blob: 'x'.repeat(11 * 1_048_576) } }] };
    n8n.workflows[1] = n8nWorkflow(B, 'SLA breach -> e-mail', true, [], pinned);
    const res = await w.adminA.client.get(`${PATH}?action=list`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.workflows).toHaveLength(3);
    expect((await w.adminA.client.get(`${PATH}?action=get&id=${B}`)).statusCode).toBe(200);
    expect(n8n.requests.every((r) => r.query.excludePinnedData === 'true' || r.path === '/api/v1/executions')).toBe(true);
  });

  it('answers a bad cursor with 400 naming the cursor, as n8n refuses it', async () => {
    for (const action of ['list', 'executions']) {
      const res = await w.adminA.client.get(`${PATH}?action=${action}&cursor=bm90LWEtY3Vyc29y`);
      expect(res.statusCode, action).toBe(400);
      expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: cursor' });
    }
  });

  it('names the scope an API key lacks instead of calling the key rejected', async () => {
    n8n.scopes = ['workflow:list', 'workflow:read'];
    expect((await w.adminA.client.get(`${PATH}?action=list`)).statusCode).toBe(200);
    const res = await w.adminA.client.get(`${PATH}?action=executions`);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ success: false, error: "The workflow engine's API key lacks the execution:list scope" });
  });
});
