/**
 * `caretaker mcp` (docs/integrations.md "AI assistants (MCP)"): the SDK's own Client starts the
 * command over stdio, as Claude Desktop or VS Code would, against the app listening on a port; the
 * command passes every message to POST /mcp with the token of CARETAKER_MCP_TOKEN.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { COMPILE_CACHE_ENV } from '../helpers/child-env.ts';
import { runCaretaker } from '../helpers/process.ts';
import { mcpWorld } from './mcp-world.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let t: TestApp;
let base: string;
const open: Client[] = [];

/** An MCP client that starts `caretaker mcp` with the token. */
async function stdioAs(token: string): Promise<Client> {
  const client = new Client({ name: 'caretaker-stdio-test', version: '1.0.0' });
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...COMPILE_CACHE_ENV, CARETAKER_MCP_TOKEN: token, LOG_LEVEL: 'silent' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'bin/caretaker.js'), 'mcp', '--url', base], env, cwd: ROOT, stderr: 'pipe' }));
  open.push(client);
  return client;
}

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content[0];
  return content?.type === 'text' ? content.text : '';
}

let world: Awaited<ReturnType<typeof mcpWorld>>['world'];
let emilysJob: { uuid: string; reference: string };
let oliverToken: string;
let contractorToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ world, base, emilysJob, oliverToken, contractorToken } = await mcpWorld(t));
});

afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
});

describe('caretaker mcp over stdio', () => {
  it('serves the tools and answers as the token\'s user; a write without confirm changes nothing', async () => {
    const agent = await stdioAs(world.agentA1.token);
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toContain('job_create');
    const got = JSON.parse(textOf(await agent.callTool({ name: 'job_get', arguments: { uuid: emilysJob.uuid } }))) as { data: { reference: string } };
    expect(got.data.reference).toBe(emilysJob.reference);

    const dry = JSON.parse(textOf(await agent.callTool({ name: 'job_create', arguments: { title: 'Dripping tap', priority: 4 } }))) as { changed: string };
    expect(dry.changed).toBe('nothing');
    const made = await t.db.selectFrom('jobs').select('id').where('title', '=', 'Dripping tap').execute();
    expect(made).toEqual([]);
    const logged = await t.db.selectFrom('activity_log').select('details').where('action', '=', 'mcp.tool_call').where('user_id', '=', world.agentA1.user.id).execute();
    expect(logged.length).toBeGreaterThanOrEqual(2);
  });

  it("a tenant's token does not see another tenant's job; a contractor's cannot create jobs", async () => {
    const oliver = await stdioAs(oliverToken);
    const refused = await oliver.callTool({ name: 'job_get', arguments: { uuid: emilysJob.uuid } });
    expect(refused.isError).toBe(true);
    await expect(oliver.readResource({ uri: `caretaker://jobs/${emilysJob.uuid}` })).rejects.toThrow(/-32002/);

    const contractor = await stdioAs(contractorToken);
    const create = await contractor.callTool({ name: 'job_create', arguments: { title: 'Contractor job', priority: 3, confirm: true } });
    expect(create.isError).toBe(true);
    expect(await t.db.selectFrom('jobs').select('id').where('title', '=', 'Contractor job').execute()).toEqual([]);
  });

  it('without CARETAKER_MCP_TOKEN it says what to set and exits 2', async () => {
    const run = await runCaretaker(['mcp', '--url', base], { CARETAKER_MCP_TOKEN: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CARETAKER_MCP_TOKEN');
  });

  it('a wrong token gets an error answer, not silence', async () => {
    const client = new Client({ name: 'caretaker-stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin/caretaker.js'), 'mcp', '--url', base],
      env: { PATH: process.env.PATH ?? '', ...COMPILE_CACHE_ENV, CARETAKER_MCP_TOKEN: 'not-a-token' },
      cwd: ROOT,
      stderr: 'pipe',
    });
    await expect(client.connect(transport)).rejects.toThrow(/401|token/i);
    await client.close();
  });
});
