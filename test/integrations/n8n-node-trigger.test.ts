/**
 * The n8n node package's trigger (integrations/n8n, docs/integrations.md "n8n"): activation
 * subscribes the node's URL through the webhooks API, a real delivery from Caretaker's delivery
 * task starts the workflow, forged, altered and stale deliveries are answered 401 (signed with
 * Caretaker's own signer), deactivation deletes the endpoint. Also the Code-node recipe of
 * docs/webhooks.md "n8n", run as written on a real signed delivery.
 */
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers, periodicTasks } from '../../src/main/background.ts';
import { dispatchPendingEvents } from '../../src/events/index.ts';
import { signatures } from '../../src/modules/messaging/webhooks/webhooks.delivery.ts';
import { Caretaker } from '../../integrations/n8n/nodes/Caretaker/Caretaker.node.ts';
import { CaretakerTrigger } from '../../integrations/n8n/nodes/CaretakerTrigger/CaretakerTrigger.node.ts';
import { buildTestApp, createAgency, createBranch, userClient, type Client, type TestApp } from '../helpers/app.ts';
import { startReceiver } from '../messaging/webhooks/receiver.ts';
import { execute, serveTrigger, type ActiveTrigger, type Harness } from './n8n-harness.ts';

describe('n8n node: the Caretaker trigger subscribes, verifies Standard Webhooks signatures and unsubscribes', () => {
  let t: TestApp;
  let h: Harness;
  let admin: Client;
  let branchUuid: string;
  let trigger: ActiveTrigger;
  const triggerNode = new CaretakerTrigger();

  /** Creates a job through the action node, then runs the fan-out and the delivery task once. */
  async function jobCreatedAndDelivered(title: string) {
    const [job] = await execute(h, new Caretaker(), { resource: 'job', operation: 'create', title, priority: 2, additionalFields: { branch_uuid: branchUuid } });
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    await periodicTasks().find((p) => p.name === 'webhooks.deliver')!.run(t.deps);
    return job!.json as { uuid: string; reference: string };
  }

  /** POSTs a delivery signed by Caretaker's signer with `secrets` at `at` (body as given). */
  async function post(body: string, secrets: string[], at = new Date(), signedBody = body) {
    const id = `msg_${crypto.randomUUID()}`;
    const res = await fetch(trigger.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures(secrets, id, at, signedBody) },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true', CARETAKER_WEBHOOKS_TIMEOUT_MS: '5000' });
    // Deliveries are stamped with the app's clock and checked against the real one.
    t.clock.set(new Date());
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const agency = await createAgency(t.db, 'Northwind Lettings');
    branchUuid = (await createBranch(t.db, agency.id, 'Leeds')).uuid;
    const a = await userClient(t, { role: 'admin', agencyId: agency.id });
    admin = a.client;
    h = { credentials: { baseUrl: address, apiToken: a.token }, sent: [] };
    trigger = await serveTrigger(h, triggerNode, { events: ['job.created', 'sla.breached'] });
  });
  afterAll(async () => {
    await trigger?.close();
    await t?.close();
  });

  it('on activation subscribes its webhook URL to the chosen events and keeps the secret', async () => {
    const hooks = trigger.hooks();
    expect(await triggerNode.webhookMethods.default.checkExists.call(hooks)).toBe(false);
    expect(await triggerNode.webhookMethods.default.create.call(hooks)).toBe(true);
    expect(trigger.staticData).toEqual({ endpointUuid: expect.any(String), secret: expect.stringMatching(/^whsec_/) });
    const endpoint = (await admin.get(`/api/webhooks/endpoints/${trigger.staticData.endpointUuid as string}`)).json().data;
    expect(endpoint).toMatchObject({ url: trigger.url, events: ['job.created', 'sla.breached'], enabled: true, description: 'n8n: SLA breaches to Teams' });
    expect(await triggerNode.webhookMethods.default.checkExists.call(hooks)).toBe(true);
  });

  it("starts the workflow with a real delivery signed by Caretaker's delivery task", async () => {
    const job = await jobCreatedAndDelivered('Boiler not firing');
    expect(trigger.answers).toEqual([{ status: 200, body: '{"message":"Workflow was started"}' }]);
    expect(trigger.runs).toHaveLength(1);
    expect(trigger.runs[0]![0]!.json).toMatchObject({ type: 'job.created', data: { job_uuid: job.uuid, reference: job.reference }, webhook_id: expect.stringMatching(/^msg_/) });
    const deliveries = (await admin.get('/api/webhooks/deliveries')).json().data;
    expect(deliveries[0]).toMatchObject({ event: 'job.created', status: 'succeeded', last_response_code: 200 });
  });

  it('answers 401 to forged, altered, stale and unsigned deliveries and starts nothing; accepts a rotation overlap', async () => {
    const secret = trigger.staticData.secret as string;
    const body = JSON.stringify({ type: 'sla.breached', timestamp: new Date().toISOString(), data: { job_uuid: crypto.randomUUID(), clock: 'resolution' } });
    const runs = trigger.runs.length;
    expect(await post(body, ['whsec_' + Buffer.alloc(32, 7).toString('base64')])).toEqual({ status: 401, body: { error: 'No matching signature' } });
    expect(await post(body.replace('resolution', 'response'), [secret], new Date(), body)).toEqual({ status: 401, body: { error: 'No matching signature' } });
    expect(await post(body, [secret], new Date(Date.now() - 10 * 60_000))).toEqual({ status: 401, body: { error: 'The webhook-timestamp is more than 5 minutes from now' } });
    const unsigned = await fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(401);
    expect(trigger.runs).toHaveLength(runs);
    // During a rotation Caretaker signs with the new and the old secret: the old one still passes.
    expect(await post(body, ['whsec_' + Buffer.alloc(32, 9).toString('base64'), secret])).toEqual({ status: 200, body: { message: 'Workflow was started' } });
    expect(await post(body, [secret])).toMatchObject({ status: 200 });
    expect(trigger.runs).toHaveLength(runs + 2);
  });

  it('on deactivation deletes the endpoint and forgets the secret; a later delivery is refused', async () => {
    const hooks = trigger.hooks();
    const uuid = trigger.staticData.endpointUuid as string;
    const secret = trigger.staticData.secret as string;
    expect(await triggerNode.webhookMethods.default.delete.call(hooks)).toBe(true);
    expect((await admin.get(`/api/webhooks/endpoints/${uuid}`)).statusCode).toBe(404);
    expect(trigger.staticData).toEqual({});
    expect(await triggerNode.webhookMethods.default.checkExists.call(hooks)).toBe(false);
    // Deleting twice (the endpoint already gone) still succeeds.
    trigger.staticData.endpointUuid = uuid;
    expect(await triggerNode.webhookMethods.default.delete.call(hooks)).toBe(true);
    expect((await post('{"type":"job.created","timestamp":"2026-11-21T09:00:00.000Z","data":{}}', [secret])).status).toBe(401);
  });

  it('the Code-node recipe of docs/webhooks.md, run as written, passes a real delivery and stops an altered one', async () => {
    const rx = await startReceiver();
    try {
      const created = (await admin.post('/api/webhooks/endpoints', { url: `${rx.url}/webhook/caretaker`, events: ['job.created'] })).json().data as { secret: string };
      const job = await jobCreatedAndDelivered('Dripping tap');
      const delivery = rx.received.find((r) => r.body.includes(job.uuid))!;
      const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
      const recipe = /<!-- code-node-signature-recipe -->\n```js\n([\s\S]*?)```/.exec(doc)![1]!;
      expect(recipe).toContain("const SECRET = 'whsec_...';");
      const code = recipe.replace("'whsec_...'", JSON.stringify(created.secret));
      // A Code node's JavaScript runs as the body of an async function with $input (and require
      // where n8n allows the module); the Webhook node's item is { headers, params, query, body }.
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
      const run = (body: unknown) =>
        new AsyncFunction('$input', 'require', code)(
          { all: () => [{ json: { headers: delivery.headers, params: {}, query: {}, body, webhookUrl: `${rx.url}/webhook/caretaker`, executionMode: 'production' } }] },
          (name: string) => (name === 'crypto' ? crypto : undefined),
        );
      const parsed = JSON.parse(delivery.body) as { data: { reference: string } };
      expect(await run(parsed)).toEqual([{ json: { ...parsed, webhook_id: delivery.headers['webhook-id'] } }]);
      await expect(run({ ...parsed, data: { ...parsed.data, reference: 'JOB-999999' } })).rejects.toThrow('Caretaker webhook signature is not valid');
    } finally {
      await rx.close();
    }
  });
});
