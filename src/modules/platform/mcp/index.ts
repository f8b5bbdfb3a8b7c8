/** The MCP server for AI assistants (docs/integrations.md "AI assistants (MCP)"): POST /mcp and `caretaker mcp`. */
export { mcpRoutes } from './mcp.routes.ts';
export { runStdioBridge } from './mcp.stdio.ts';
