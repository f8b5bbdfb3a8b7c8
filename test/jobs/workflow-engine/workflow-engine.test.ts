import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { n8nExecution, n8nWorkflow, startFakeN8n, type FakeN8n } from './fake-n8n.ts';

const PATH = '/api/workflow-engine/workflows';

describe('workflow engine (spec 4.15) against a local n8n-speaking server', () => {
  let t: TestApp;
  let n8n: FakeN8n;
  let w: Awaited<ReturnType<typeof standardWorld>>;

  beforeAll(async () => {
    n8n = await startFakeN8n();
    t = await buildTestApp({
      CARETAKER_WORKFLOW_ENGINE_URL: `${n8n.url}/`,
      CARETAKER_WORKFLOW_ENGINE_API_KEY: n8n.apiKey,
      CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS: '400',
    });
    w = await standardWorld(t);
  });
  afterAll(async () => {
    await t?.close();
    await n8n?.close();
  });
  beforeEach(() => {
    n8n.mode = 'ok';
    n8n.pageCap = 250;
    n8n.requests = [];
    n8n.workflows = [
      n8nWorkflow('wfA1', 'New job -> notify contractor', true, ['jobs']),
      n8nWorkflow('wfB2', 'SLA breach -> e-mail branch', true, ['sla', 'email']),
      n8nWorkflow('wfC3', 'Invoice paid -> accounting', false),
    ];
    n8n.executions = [
      n8nExecution(105, 'wfA1', 'success', '2026-11-21T08:50:00.000Z'),
      n8nExecution(104, 'wfA1', 'error', '2026-11-21T08:40:00.000Z'),
      n8nExecution(103, 'wfB2', 'success', '2026-11-21T08:30:00.000Z'),
      n8nExecution(102, 'wfA1', 'running', '2026-11-21T08:20:00.000Z'),
      n8nExecution(101, 'wfA1', 'success', '2026-11-21T08:10:00.000Z'),
      n8nExecution(100, 'wfB2', 'waiting', '2026-11-21T08:00:00.000Z'),
    ];
  });

  it('lists workflows with only the documented fields, sending the API key and the limit', async () => {
    const res = await w.adminA.client.get(`${PATH}?action=list`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Workflows retrieved' });
    expect(body.data.next_cursor).toBeNull();
    expect(body.data.workflows).toHaveLength(3);
    expect(body.data.workflows[0]).toEqual({
      id: 'wfA1', name: 'New job -> notify contractor', active: true,
      created_at: '2026-10-01T08:00:00.000Z', updated_at: '2026-11-20T16:30:00.000Z', tags: [{ id: 'tag0', name: 'jobs' }],
    });
    expect(JSON.stringify(body)).not.toContain('secret-path');
    expect(n8n.requests).toEqual([{ path: '/api/v1/workflows', query: { limit: '50', excludePinnedData: 'true' }, apiKey: n8n.apiKey }]);
  });

  it('pages with limit and cursor, passing the engine cursor through', async () => {
    const first = (await w.adminA.client.get(`${PATH}?action=list&limit=2`)).json().data;
    expect(first.workflows.map((x: { id: string }) => x.id)).toEqual(['wfA1', 'wfB2']);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (await w.adminA.client.get(`${PATH}?action=list&limit=2&cursor=${first.next_cursor}`)).json().data;
    expect(second).toMatchObject({ workflows: [{ id: 'wfC3', active: false, tags: [] }], next_cursor: null });
    expect(n8n.requests[1]!.query).toEqual({ limit: '2', cursor: first.next_cursor, excludePinnedData: 'true' });
  });

  it('lists active workflows with active=true', async () => {
    const res = await w.sysops.client.get(`${PATH}?action=active`);
    expect(res.json().data.workflows.map((x: { id: string }) => x.id)).toEqual(['wfA1', 'wfB2']);
    expect(n8n.requests[0]!.query).toEqual({ limit: '50', active: 'true', excludePinnedData: 'true' });
  });

  it('gets one workflow with its node count; an unknown id is 404', async () => {
    const res = await w.adminA.client.get(`${PATH}?action=get&id=wfB2`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Workflow retrieved', data: { workflow: { id: 'wfB2', name: 'SLA breach -> e-mail branch', node_count: 2, tags: [{ name: 'sla' }, { name: 'email' }] } } });
    expect(res.json().data.workflow.nodes).toBeUndefined();
    const missing = await w.adminA.client.get(`${PATH}?action=get&id=nope`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, error: 'Workflow not found' });
  });

  it('lists executions, filtered by workflow id and status, paginated (running ones only when asked for, as n8n does)', async () => {
    const all = (await w.adminA.client.get(`${PATH}?action=executions&limit=4`)).json();
    expect(all.message).toBe('Executions retrieved');
    expect(all.data.executions).toHaveLength(4);
    expect(all.data.executions[0]).toEqual({
      id: '105', workflow_id: 'wfA1', status: 'success', finished: true, mode: 'webhook',
      started_at: '2026-11-21T08:50:00.000Z', stopped_at: '2026-11-21T08:50:01.500Z', retry_of: null, wait_till: null,
    });
    const next = (await w.adminA.client.get(`${PATH}?action=executions&limit=4&cursor=${all.data.next_cursor}`)).json().data;
    expect(all.data.executions.map((e: { id: string }) => e.id)).toEqual(['105', '104', '103', '101']);
    expect(next.executions.map((e: { id: string }) => e.id)).toEqual(['100']);
    const ofA = (await w.adminA.client.get(`${PATH}?action=executions&id=wfA1&status=success`)).json().data;
    expect(ofA.executions.map((e: { id: string }) => e.id)).toEqual(['105', '101']);
    expect(n8n.requests.at(-1)!.query).toMatchObject({ workflowId: 'wfA1', status: 'success', limit: '50' });
  });

  it('derives statistics over every page, for all workflows or one', async () => {
    n8n.pageCap = 2;
    const res = await w.adminA.client.get(`${PATH}?action=stats`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Execution statistics retrieved',
      data: {
        stats: {
          workflow_id: null,
          executions_counted: 6,
          by_status: { success: 3, error: 1, crashed: 0, canceled: 0, waiting: 1, running: 1, new: 0, unknown: 0 },
          success_rate: 0.75,
          first_started_at: '2026-11-21T08:00:00.000Z',
          last_started_at: '2026-11-21T08:50:00.000Z',
          truncated: false,
        },
      },
    });
    // three pages of finished and waiting executions, then the running ones asked for separately
    expect(n8n.requests).toHaveLength(4);
    expect(n8n.requests[3]!.query).toMatchObject({ status: 'running' });
    const one = (await w.adminA.client.get(`${PATH}?action=stats&id=wfB2`)).json().data.stats;
    expect(one).toMatchObject({ workflow_id: 'wfB2', executions_counted: 2, success_rate: 1, by_status: { success: 1, waiting: 1 } });
    const none = (await w.adminA.client.get(`${PATH}?action=stats&id=wfC3`)).json().data.stats;
    expect(none).toMatchObject({ executions_counted: 0, success_rate: null, first_started_at: null });
  });

  it('stops statistics after a bounded number of pages and says so', async () => {
    n8n.pageCap = 1;
    n8n.executions = Array.from({ length: 25 }, (_, i) => n8nExecution(1000 - i, 'wfA1', i % 5 === 0 ? 'error' : 'success', new Date(Date.UTC(2026, 10, 21, 8, 0, 0) - i * 60_000).toISOString()));
    const stats = (await w.adminA.client.get(`${PATH}?action=stats`)).json().data.stats;
    expect(stats).toMatchObject({ executions_counted: 20, truncated: true, by_status: { success: 16, error: 4 }, success_rate: 0.8 });
    expect(n8n.requests).toHaveLength(21);
  });

  it('derives the status of an execution from an engine that sends none', async () => {
    const { status: _s, ...old } = n8nExecution(7, 'wfA1', 'error', '2026-11-21T08:00:00.000Z');
    n8n.executions = [old];
    expect((await w.adminA.client.get(`${PATH}?action=executions`)).json().data.executions[0].status).toBe('error');
  });

  it('answers 400 for a bad action, a parameter the action does not take, a missing id, a bad limit', async () => {
    const cases: Array<[string, string]> = [
      ['', 'action'],
      ['action=delete', 'action'],
      ['action=get', 'id'],
      ['action=list&id=wfA1', 'id'],
      ['action=stats&cursor=abc', 'cursor'],
      ['action=list&status=error', 'status'],
      ['action=list&limit=0', 'limit'],
      ['action=list&limit=201', 'limit'],
      ['action=get&id=..%2F..%2Fadmin', 'id'],
      ['action=list&other=1', 'other'],
    ];
    for (const [query, name] of cases) {
      const res = await w.adminA.client.get(`${PATH}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${name}` });
    }
    expect(n8n.requests).toHaveLength(0);
  });

  it('answers 502 in the envelope when the engine hangs, answers garbage, a wrong shape, 500, or rejects the key', async () => {
    const cases: Array<[FakeN8n['mode'], string]> = [
      ['hang', 'The workflow engine did not answer in time'],
      ['garbage', 'The workflow engine sent an unexpected response'],
      ['wrong-shape', 'The workflow engine sent an unexpected response'],
      ['error500', 'The workflow engine answered with status 500'],
    ];
    for (const [mode, error] of cases) {
      n8n.mode = mode;
      const started = Date.now();
      const res = await w.adminA.client.get(`${PATH}?action=list`);
      expect(res.statusCode, mode).toBe(502);
      expect(res.json()).toEqual({ success: false, error });
      if (mode === 'hang') expect(Date.now() - started).toBeLessThan(3000);
    }
    n8n.mode = 'ok';
    n8n.apiKey = 'rotated-key';
    try {
      const res = await w.adminA.client.get(`${PATH}?action=stats`);
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('The workflow engine rejected the API key');
    } finally {
      n8n.apiKey = 'test-n8n-key';
    }
  });

  it('answers 502 when nothing listens at the configured address', async () => {
    const dead = await startFakeN8n();
    const url = dead.url;
    await dead.close();
    const other = await buildTestApp({ CARETAKER_WORKFLOW_ENGINE_URL: url, CARETAKER_WORKFLOW_ENGINE_API_KEY: 'k' });
    try {
      const admin = await userClient(other, { role: 'sysops' });
      const res = await admin.client.get(`${PATH}?action=list`);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ success: false, error: 'The workflow engine is unreachable' });
    } finally {
      await other.close();
    }
  });

  it('needs authentication and page.settings.configuration', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${PATH}?action=list` })).statusCode).toBe(401);
    const res = await w.agentA1.client.get(`${PATH}?action=list`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: 'You do not have permission to perform this action' });
    expect(n8n.requests).toHaveLength(0);
  });
});

describe('workflow engine not configured', () => {
  it('answers 503 Workflow engine not configured', async () => {
    const t = await buildTestApp();
    try {
      const admin = await userClient(t, { role: 'sysops' });
      const res = await admin.client.get(`${PATH}?action=list`);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ success: false, error: 'Workflow engine not configured' });
    } finally {
      await t.close();
    }
  });

  it('refuses a half or bad configuration at start', () => {
    expect(() => loadConfig({ CARETAKER_WORKFLOW_ENGINE_URL: 'http://n8n.local' })).toThrow(/CARETAKER_WORKFLOW_ENGINE_API_KEY/);
    expect(() => loadConfig({ CARETAKER_WORKFLOW_ENGINE_API_KEY: 'k' })).toThrow(/CARETAKER_WORKFLOW_ENGINE_URL/);
    expect(() => loadConfig({ CARETAKER_WORKFLOW_ENGINE_URL: 'ftp://n8n.local', CARETAKER_WORKFLOW_ENGINE_API_KEY: 'k' })).toThrow(/must use http/);
    expect(() => loadConfig({ CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS: '10' })).toThrow(/CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS/);
    expect(loadConfig({ CARETAKER_WORKFLOW_ENGINE_URL: 'https://n8n.local/base/', CARETAKER_WORKFLOW_ENGINE_API_KEY: 'k' }).workflowEngine)
      .toEqual({ url: 'https://n8n.local/base', apiKey: 'k', timeoutMs: 5000 });
  });
});
