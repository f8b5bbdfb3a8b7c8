/** The MCP server for AI assistants (docs/integrations.md "AI assistants (MCP)"): POST /mcp and `caretaker mcp`. */
import type { StdioBridgeOptions } from './mcp.stdio.ts';

export { mcpRoutes } from './mcp.routes.ts';
export type { StdioBridgeOptions } from './mcp.stdio.ts';

/**
 * `caretaker mcp`: the stdio bridge of an assistant to an instance's POST /mcp (mcp.stdio.ts), loaded
 * when called. The server imports this module for `mcpRoutes`; a static re-export would load the
 * MCP SDK's transports and zod (about 75 modules) on every start, which POST /mcp itself loads only
 * at its first request (docs/operations.md "Starting").
 * @param options the instance's base URL and the bearer token the assistant acts with
 * @returns a promise settled when the assistant closes the connection
 */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const { runStdioBridge: run } = await import('./mcp.stdio.ts');
  return run(options);
}
