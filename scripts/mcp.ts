/**
 * `npm run mcp`: the built catalog as an MCP server (tools and resources) for agents and IDEs, on
 * stdio (the agent starts this process) or, with --http, the SDK's streamable HTTP transport.
 * It reads dist/ again whenever a rebuild changes it. Logs go to stderr: on stdio, stdout belongs
 * to the protocol.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openBuiltCatalog } from './catalog/mcp/built-catalog.ts';
import { createCatalogMcpServer } from './catalog/mcp/server.ts';
import { parseCli, portOf } from './cli/args.ts';
import { MCP_PATH, MCP_VERSION, startMcpHttpServer } from './cli/mcp-server.ts';
import { PROJECT_ROOT } from './cli/root.ts';

const USAGE = `Usage: npm run mcp [-- --http [--port N] [--host H]] [--dist DIR]

Serves the built catalog (dist/) to AI agents over the Model Context Protocol.
Tools: search_catalog, get_resource, list_resources, recommend_services.
Resources: every JSON file of the API and every Markdown twin.

  --http       streamable HTTP at http://HOST:PORT${MCP_PATH} instead of stdio
  --port N     port for --http (default env MCP_PORT, else 8765; 0 picks a free one)
  --host H     host for --http (default 127.0.0.1)
  --dist DIR   the built catalog to serve (default dist/)
  -h, --help   this text`;

const values = parseCli(USAGE, {
  http: { type: 'boolean', default: false },
  port: { type: 'string', default: process.env.MCP_PORT ?? '8765' },
  host: { type: 'string', default: '127.0.0.1' },
  dist: { type: 'string', default: path.join(PROJECT_ROOT, 'dist') },
});
const dist = path.resolve(values.dist);
if (!existsSync(path.join(dist, 'api', 'v1', 'bundle.json'))) {
  console.error(`Nothing built in ${dist} yet: run \`npm run build\` first (starting anyway; tools answer with this error until then).`);
}
if (values.http) {
  const port = portOf('--port', values.port, USAGE);
  const server = await startMcpHttpServer({ dist, port, host: values.host });
  console.error(`MCP server (streamable HTTP) for ${dist} at ${server.url}`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  const server = createCatalogMcpServer(openBuiltCatalog(dist), MCP_VERSION);
  await server.connect(new StdioServerTransport());
  console.error(`MCP server (stdio) for ${dist}`);
}
