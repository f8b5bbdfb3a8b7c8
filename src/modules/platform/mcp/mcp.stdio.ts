/**
 * `caretaker mcp`: the MCP server over stdio for assistants that start a local command (Claude
 * Desktop, VS Code). It holds no tools itself: it passes each JSON-RPC message to a running
 * Caretaker's POST /mcp with the bearer token of CARETAKER_MCP_TOKEN and writes the answer back,
 * so the HTTP server decides everything (docs/integrations.md "AI assistants (MCP)").
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioBridgeOptions {
  /** The Caretaker base URL (`http://127.0.0.1:3000`). */
  baseUrl: string;
  /** A bearer token of the user the assistant acts as. */
  token: string;
}

/**
 * Runs the bridge until stdin closes.
 * @returns a promise settled when the assistant closes the connection
 */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(new URL('/mcp', options.baseUrl), { requestInit: { headers: { authorization: `Bearer ${options.token}` } } });
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    // The assistant closing its end of stdin ends the bridge.
    process.stdin.once('end', () => resolve());
  });
  remote.onmessage = (message) => {
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === 'string') remote.setProtocolVersion(result.protocolVersion);
    void local.send(message);
  };
  remote.onerror = (error) => process.stderr.write(`caretaker mcp: ${error.message}\n`);
  local.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => {
      const id = (message as { id?: string | number }).id;
      const text = error instanceof Error ? error.message : String(error);
      process.stderr.write(`caretaker mcp: ${text}\n`);
      // A request the server could not answer gets an error, so the assistant is not left waiting.
      if (id !== undefined) void local.send({ jsonrpc: '2.0', id, error: { code: -32000, message: text } } as JSONRPCMessage);
    });
  };
  await remote.start();
  await local.start();
  await closed;
  await remote.close();
}
