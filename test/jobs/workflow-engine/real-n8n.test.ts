/**
 * Opt-in: the workflow-engine endpoint against a real n8n (docs/workflow-engine.md, "Testing
 * against a real n8n"). Runs only when N8N_TEST_URL and N8N_TEST_API_KEY are set; it reads, it
 * never changes the instance. Checks the shapes and the behaviours the local server imitates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers, periodicTasks } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { buildTestApp, createAgency, createBranch, userClient, type TestApp } from '../../helpers/app.ts';
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

/**
 * Opt-in: the n8n node package (integrations/n8n, docs/integrations.md "n8n") in a real n8n. Also
 * needs the package installed in that n8n (`npm run build`, then installed as its README says)
 * and N8N_TEST_CARETAKER_NODE=1; the app listens on N8N_TEST_CARETAKER_PORT (default 3977) and n8n
 * reaches it at N8N_TEST_CARETAKER_URL (default http://127.0.0.1:<port>). A workflow of the
 * trigger (job.created) and two actions (Job → Get, Job → Add Note) is created and activated
 * through n8n's public API: activation subscribes the webhook, a new job's delivery runs the
 * workflow, which notes the job; deactivation deletes the endpoint. It creates and then deletes
 * one credential and one workflow in the instance.
 */
describe.skipIf(skipWithout(URL_ && KEY && process.env.N8N_TEST_CARETAKER_NODE, 'the n8n node check needs N8N_TEST_URL, N8N_TEST_API_KEY and N8N_TEST_CARETAKER_NODE=1'))(
  'the Caretaker n8n nodes in a real n8n (skipped: set N8N_TEST_URL, N8N_TEST_API_KEY and N8N_TEST_CARETAKER_NODE=1 to run)',
  () => {
    let t: TestApp;
    let admin: Awaited<ReturnType<typeof userClient>>;
    let branchUuid: string;
    const created: { credential?: string; workflow?: string } = {};
    const n8n = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${URL_!.replace(/\/+$/, '')}/api/v1${path}`, {
        method,
        headers: { 'X-N8N-API-KEY': KEY!, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`n8n ${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : {}) as Record<string, any>;
    };
    const deliver = async () => {
      await dispatchPendingEvents(t.deps, backgroundHandlers());
      await periodicTasks().find((p) => p.name === 'webhooks.deliver')!.run(t.deps);
    };

    beforeAll(async () => {
      t = await buildTestApp({ CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true', CARETAKER_WEBHOOKS_TIMEOUT_MS: '10000' });
      t.clock.set(new Date());
      const port = Number(process.env.N8N_TEST_CARETAKER_PORT ?? 3977);
      await t.app.listen({ port, host: '0.0.0.0' });
      const agency = await createAgency(t.db, 'Northwind Lettings');
      branchUuid = (await createBranch(t.db, agency.id, 'Leeds')).uuid;
      admin = await userClient(t, { role: 'admin', agencyId: agency.id });
      const baseUrl = process.env.N8N_TEST_CARETAKER_URL ?? `http://127.0.0.1:${port}`;
      created.credential = (await n8n('POST', '/credentials', { name: 'Caretaker (test)', type: 'caretakerApi', data: { baseUrl, apiToken: admin.token } })).id;
    });
    afterAll(async () => {
      if (created.workflow) await n8n('DELETE', `/workflows/${created.workflow}`).catch(() => undefined);
      if (created.credential) await n8n('DELETE', `/credentials/${created.credential}`).catch(() => undefined);
      await t?.close();
    });

    it('activation subscribes; a new job runs trigger, Get and Add Note; deactivation unsubscribes', async () => {
      const credentials = { caretakerApi: { id: created.credential, name: 'Caretaker (test)' } };
      const workflow = await n8n('POST', '/workflows', {
        name: 'Caretaker node test: note new jobs',
        settings: { executionOrder: 'v1' },
        nodes: [
          { id: 't', name: 'Caretaker Trigger', type: 'n8n-nodes-caretaker.caretakerTrigger', typeVersion: 1, position: [0, 0], webhookId: crypto.randomUUID(), parameters: { events: ['job.created'] }, credentials },
          { id: 'g', name: 'Get Job', type: 'n8n-nodes-caretaker.caretaker', typeVersion: 1, position: [220, 0], parameters: { resource: 'job', operation: 'get', jobUuid: '={{ $json.data.job_uuid }}' }, credentials },
          { id: 'n', name: 'Add Note', type: 'n8n-nodes-caretaker.caretaker', typeVersion: 1, position: [440, 0], parameters: { resource: 'job', operation: 'addNote', jobUuid: '={{ $json.uuid }}', body: '=Seen by n8n: {{ $json.reference }}', visibility: 'internal' }, credentials },
        ],
        connections: {
          'Caretaker Trigger': { main: [[{ node: 'Get Job', type: 'main', index: 0 }]] },
          'Get Job': { main: [[{ node: 'Add Note', type: 'main', index: 0 }]] },
        },
      });
      created.workflow = workflow.id;
      await n8n('POST', `/workflows/${workflow.id}/activate`);
      // n8n 2.40 answers the activation before its trigger's webhook hooks have run (seen against
      // n8n 2.40.7: the endpoint appears a moment later), and the same for the deactivation.
      const endpointCount = async () => (await admin.client.get('/api/webhooks/endpoints')).json().count as number;
      await expect.poll(endpointCount, { timeout: 30_000, interval: 250 }).toBe(1);
      const endpoints = (await admin.client.get('/api/webhooks/endpoints')).json();
      expect(endpoints.data[0]).toMatchObject({ events: ['job.created'], enabled: true, description: 'n8n: Caretaker node test: note new jobs' });

      const job = (await admin.client.post('/api/jobs/manage', { title: 'Boiler not firing', priority: 1, branch_uuid: branchUuid })).json().data;
      await deliver();
      await expect
        .poll(async () => (await admin.client.get(`/api/jobs/${job.uuid}/notes`)).json().data.map((n: { body: string }) => n.body), { timeout: 60_000, interval: 1000 })
        .toContain(`Seen by n8n: ${job.reference}`);

      await n8n('POST', `/workflows/${workflow.id}/deactivate`);
      await expect.poll(endpointCount, { timeout: 30_000, interval: 250 }).toBe(0);
    });
  },
);
