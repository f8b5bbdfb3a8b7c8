/**
 * The MCP server at POST /mcp (docs/integrations.md "AI assistants (MCP)"), driven by the SDK's own
 * Client over streamable HTTP against the app listening on a port: the tools' input schemas are
 * the routes' TypeBox schemas, answers keep to the caller's agency and permissions, a write does
 * nothing without `confirm: true`, and every call is in the activity log.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateJobBody, ListJobsQuery } from '../../src/modules/jobs/jobs/jobs.schemas.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { mcpWorld } from './mcp-world.ts';

let t: TestApp;
let base: string;
let world: Awaited<ReturnType<typeof mcpWorld>>['world'];
const open: Client[] = [];

/** An MCP client connected to /mcp with the bearer token. */
async function mcpAs(token: string): Promise<Client> {
  const client = new Client({ name: 'caretaker-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

/** The JSON answer of a tool call. */
function answerOf(result: unknown): { success?: boolean; data?: Record<string, unknown> & { uuid?: string }; message?: string; would?: string; changed?: string } {
  const content = (result as CallToolResult).content[0];
  if (content?.type !== 'text') throw new Error('no text content');
  return JSON.parse(content.text) as never;
}

async function jobCount(agencyId: number): Promise<number> {
  const row = await t.db.selectFrom('jobs').select((eb) => eb.fn.countAll<string>().as('n')).where('agency_id', '=', agencyId).executeTakeFirstOrThrow();
  return Number(row.n);
}

let emilyToken: string;
let otherTenantToken: string;
let contractorToken: string;
let emilysJob: { uuid: string; reference: string };
let homeUuid: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ world, base, emilyToken, oliverToken: otherTenantToken, contractorToken, emilysJob, homeUuid } = await mcpWorld(t));
});

afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
});

describe('MCP over streamable HTTP', () => {
  it('lists the tools with the routes\' own schemas, and the resources', async () => {
    const client = await mcpAs(world.adminA.token);
    expect(client.getServerVersion()?.name).toBe('caretaker');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['jobs_list', 'job_get', 'job_create', 'job_move', 'job_assign', 'job_add_note', 'tenants_find', 'tenant_create', 'contractors_find', 'contractor_create', 'properties_find', 'property_create', 'compliance_due', 'invoices_list']) {
      expect(byName.has(name), name).toBe(true);
    }
    const create = byName.get('job_create')!.inputSchema;
    expect(create.properties?.title).toEqual(JSON.parse(JSON.stringify(CreateJobBody.properties.title)));
    expect(create.required).toEqual(['title', 'priority']);
    expect(create.properties).toHaveProperty('confirm');
    expect(create.properties).not.toHaveProperty('csrf_token');
    const list = byName.get('jobs_list')!.inputSchema;
    expect(list.properties?.sla_state).toEqual(JSON.parse(JSON.stringify(ListJobsQuery.properties.sla_state)));
    expect(list.required).toBeUndefined();
    expect(list.properties).not.toHaveProperty('confirm');

    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((r) => r.uriTemplate)).toEqual(['caretaker://jobs/{uuid}', 'caretaker://properties/{uuid}/compliance']);
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual(['caretaker://sla/breaches/today']);
  });

  it('answers only in the caller\'s agency: another agency\'s admin cannot read the job', async () => {
    const own = answerOf(await (await mcpAs(world.adminA.token)).callTool({ name: 'job_get', arguments: { uuid: emilysJob.uuid } }));
    expect(own.data?.reference).toBe(emilysJob.reference);
    const other = await (await mcpAs(world.adminB.token)).callTool({ name: 'job_get', arguments: { uuid: emilysJob.uuid } });
    expect(other.isError).toBe(true);
    expect(answerOf(other).success).toBe(false);
  });

  it("a tenant's token does not see another tenant's job, by tool or by resource", async () => {
    const emily = await mcpAs(emilyToken);
    expect(answerOf(await emily.callTool({ name: 'job_get', arguments: { uuid: emilysJob.uuid } })).data?.title).toBe('Leak under the sink');
    const read = await emily.readResource({ uri: `caretaker://jobs/${emilysJob.uuid}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text).data.uuid).toBe(emilysJob.uuid);

    const oliver = await mcpAs(otherTenantToken);
    const got = await oliver.callTool({ name: 'job_get', arguments: { uuid: emilysJob.uuid } });
    expect(got.isError).toBe(true);
    const listed = answerOf(await oliver.callTool({ name: 'jobs_list', arguments: {} }));
    expect(JSON.stringify(listed)).not.toContain(emilysJob.uuid);
    await expect(oliver.readResource({ uri: `caretaker://jobs/${emilysJob.uuid}` })).rejects.toThrow(/not found/i);
  });

  it("a contractor's token cannot create jobs", async () => {
    const before = await jobCount(world.agencyA.id);
    const contractor = await mcpAs(contractorToken);
    const { tools } = await contractor.listTools();
    const result = await contractor.callTool({ name: 'job_create', arguments: { title: 'Not mine to raise', priority: 3, confirm: true } });
    expect(result.isError).toBe(true);
    expect(answerOf(result).success).toBe(false);
    expect(await jobCount(world.agencyA.id)).toBe(before);
    // The tools offered follow the caller's permission keys.
    expect(tools.some((tool) => tool.name === 'tenant_create')).toBe(false);
  });

  it('a write without confirm changes nothing and says what it would do; with confirm it is made', async () => {
    const agent = await mcpAs(world.agentA1.token);
    const before = await jobCount(world.agencyA.id);
    const dry = answerOf(await agent.callTool({ name: 'job_create', arguments: { title: 'Boiler not firing', priority: 2, address_uuid: homeUuid } }));
    expect(dry.would).toBe('POST /api/jobs/manage');
    expect(dry.changed).toBe('nothing');
    expect(await jobCount(world.agencyA.id)).toBe(before);

    const made = answerOf(await agent.callTool({ name: 'job_create', arguments: { title: 'Boiler not firing', priority: 2, address_uuid: homeUuid, confirm: true } }));
    expect(made.success).toBe(true);
    expect(await jobCount(world.agencyA.id)).toBe(before + 1);
    const note = answerOf(await agent.callTool({ name: 'job_add_note', arguments: { uuid: made.data!.uuid, body: 'Tenant home after 2pm', visibility: 'internal', confirm: true } }));
    expect(note.success).toBe(true);
  });

  it('records every call in the activity log', async () => {
    const admin = await mcpAs(world.adminA.token);
    await admin.callTool({ name: 'invoices_list', arguments: { limit: 5 } });
    await admin.readResource({ uri: `caretaker://properties/${homeUuid}/compliance` });
    await admin.readResource({ uri: 'caretaker://sla/breaches/today' });
    const rows = await t.db.selectFrom('activity_log').select(['action', 'resource_type', 'details', 'user_id', 'agency_id']).where('user_id', '=', world.adminA.user.id).where('action', 'like', 'mcp.%').orderBy('id').execute();
    const facts = rows.map((r) => ({ action: r.action, ...(typeof r.details === 'string' ? JSON.parse(r.details) : r.details) }));
    expect(facts).toContainEqual(expect.objectContaining({ action: 'mcp.tool_call', tool: 'invoices_list', status: 200 }));
    expect(facts).toContainEqual(expect.objectContaining({ action: 'mcp.resource_read', uri: `caretaker://properties/${homeUuid}/compliance`, status: 200 }));
    expect(facts).toContainEqual(expect.objectContaining({ action: 'mcp.resource_read', uri: 'caretaker://sla/breaches/today', status: 200 }));
    expect(rows.every((r) => r.agency_id === world.agencyA.id)).toBe(true);
    const dry = await t.db.selectFrom('activity_log').select('details').where('action', '=', 'mcp.tool_call').where('user_id', '=', world.agentA1.user.id).execute();
    expect(dry.map((r) => (typeof r.details === 'string' ? JSON.parse(r.details) : r.details))).toContainEqual({ tool: 'job_create', confirmed: false });
  });

  it('refuses a session cookie or no token: bearer tokens only', async () => {
    const res = await fetch(new URL('/mcp', base), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(res.status).toBe(401);
  });
});
