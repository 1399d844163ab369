/**
 * The catalog's MCP server over streamable HTTP on a port (used by `npm run mcp -- --http` and the
 * tests): node:http around the SDK's transport, at /mcp.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { openBuiltCatalog, type BuiltCatalog } from '../catalog/mcp/built-catalog.ts';
import { createCatalogMcpServer } from '../catalog/mcp/server.ts';
import { PROJECT_ROOT } from './root.ts';

export const MCP_VERSION = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
export const MCP_PATH = '/mcp';

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Streamable HTTP, stateless: every POST gets a fresh protocol server over the shared catalog,
 * so there is no session to keep or expire. On a loopback address, requests must name a
 * loopback Host (the SDK's DNS-rebinding protection): a web page elsewhere cannot reach it.
 */
export async function startMcpHttpServer(options: { dist: string; port: number; host?: string; catalog?: BuiltCatalog }): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const catalog = options.catalog ?? openBuiltCatalog(options.dist);
  let allowedHosts: string[] | undefined;
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== MCP_PATH) {
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(`${JSON.stringify({ error: 'not_found', message: `The MCP endpoint is ${MCP_PATH}` })}\n`);
      return;
    }
    const server = createCatalogMcpServer(catalog, MCP_VERSION);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        console.error('mcp:', error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(`${JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null })}\n`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  if (LOOPBACK.has(host)) allowedHosts = ['127.0.0.1', 'localhost', '[::1]'].flatMap((h) => [h, `${h}:${port}`]);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      }),
  };
}
