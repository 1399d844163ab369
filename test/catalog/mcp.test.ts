/**
 * The MCP server, driven by the SDK's own client over both transports (stdio: the real
 * `scripts/mcp.ts` process; streamable HTTP: startMcpHttpServer): tools listed with input
 * schemas, each tool called, resources listed and read, bad arguments answered with errors that
 * help, and a rebuild picked up without a restart.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { loadSearchIndex } from '../../scripts/catalog/search/engine.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../scripts/cli/mcp-server.ts';
import { CONTENT, FIXTURE, ROOT, cleanupTemp, copyContent, edit, readJson, tempDir } from './helpers.ts';

let dist: string;
let http: McpHttpServer;
const clients: Record<'stdio' | 'http', Client> = {} as Record<'stdio' | 'http', Client>;

beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  const result = await buildCatalog({ contentDir: CONTENT, outDir: dist, sourceDateEpoch: '' });
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3)));
  http = await startMcpHttpServer({ dist, port: 0 });
  clients.http = new Client({ name: 'test', version: '1.0.0' });
  await clients.http.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  clients.stdio = new Client({ name: 'test', version: '1.0.0' });
  await clients.stdio.connect(
    new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'scripts/mcp.ts'), '--dist', dist], cwd: ROOT, stderr: 'ignore' }),
  );
});
afterAll(async () => {
  await Promise.allSettled([clients.stdio?.close(), clients.http?.close()]);
  await http?.close();
  await cleanupTemp();
});

const call = async (transport: 'stdio' | 'http', name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; body: unknown }> => {
  const result = (await clients[transport].callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // an error message stays text
  }
  return { result, body };
};

describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
  it('lists the four tools, each with an input schema', async () => {
    const { tools } = await clients[transport].listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_resource', 'list_resources', 'recommend_services', 'search_catalog']);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('search_catalog')?.inputSchema.required).toEqual(['query']);
    expect(byName.get('get_resource')?.inputSchema.required?.sort()).toEqual(['kind', 'slug']);
    expect((byName.get('get_resource')?.inputSchema.properties?.kind as { enum: string[] }).enum).toEqual(['service', 'sector', 'insight', 'area', 'page', 'faq']);
    for (const t of tools) expect(t.description?.length, t.name).toBeGreaterThan(40);
  });

  it('search_catalog ranks exactly as the static index does, with filters', async () => {
    const { body } = await call(transport, 'search_catalog', { query: 'automatizacion', kinds: ['service', 'insight'], limit: 5 });
    const index = await readJson<{ index: Parameters<typeof loadSearchIndex>[0] }>(path.join(dist, 'api/v1/search.json'));
    const expected = loadSearchIndex(index.index).search('automatizacion', { kinds: ['service', 'insight'] }, 5);
    expect(body).toEqual({ query: 'automatizacion', count: expected.length, results: expected });
    expect(expected[0]?.slug).toBe('ia-y-automatizacion');
  });

  it('get_resource returns a resource in full, and list_resources a kind', async () => {
    const service = (await call(transport, 'get_resource', { kind: 'service', slug: 'meta-ads' })).body as Record<string, unknown>;
    const file = await readJson(path.join(dist, 'api/v1/services/meta-ads.json'));
    expect(service).toEqual(file);
    const list = (await call(transport, 'list_resources', { kind: 'sector' })).body as { count: number; items: { slug: string; url: string; json_url: string }[] };
    expect(list.count).toBe(5);
    expect(list.items[0]).toEqual({ slug: expect.any(String), title: expect.any(String), description: expect.any(String), url: expect.stringMatching(/^https:\/\//), json_url: expect.stringMatching(/\/api\/v1\/sectors\/.+\.json$/) });
    const faqs = (await call(transport, 'list_resources', { kind: 'faq' })).body as { items: { id: string }[] };
    const faq = (await call(transport, 'get_resource', { kind: 'faq', slug: faqs.items[0]?.id })).body as { question: string };
    expect(faq.question.length).toBeGreaterThan(0);
  });

  it('recommend_services names the services that fit, with url and json_url', async () => {
    const { body } = await call(transport, 'recommend_services', { need: 'conectar el ERP con el CRM sin copiar datos a mano' });
    const fit = body as { count: number; services: { slug: string; url: string; json_url: string; because: unknown[] }[] };
    expect(fit.count).toBe(3);
    expect(fit.services[0]?.slug).toBe('integraciones-y-sistemas');
    expect(fit.services[0]?.url).toBe('https://tramontanaconsultores.es/servicios/integraciones-y-sistemas/');
    expect(fit.services[0]?.json_url).toBe('https://tramontanaconsultores.es/api/v1/services/integraciones-y-sistemas.json');
  });

  it.each([
    ['get_resource', { kind: 'service', slug: 'meta-adds' }, /Unknown service slug "meta-adds"\. Did you mean "meta-ads"\?/],
    ['get_resource', { kind: 'insight', slug: 'cuando-usar-ia' }, /Did you mean "cuando-no-usar-ia"\?/],
    ['search_catalog', { query: 'ia', sector: 'inmobiliario' }, /Unknown sector "inmobiliario"\. Did you mean "inmobiliario-y-gestion-de-activos"\?/],
    ['recommend_services', { need: 'crm', service_line: 'sistema' }, /Unknown service line "sistema"\. Did you mean "sistemas"\?/],
  ])('%s %j → a tool error naming the nearest value', async (name, args, message) => {
    const { result } = await call(transport, name, args);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({ type: 'text', text: expect.stringMatching(message) });
  });

  it.each([
    ['get_resource', { kind: 'servicio', slug: 'meta-ads' }, /expected one of "service"\|"sector"\|"insight"\|"area"\|"page"\|"faq" at kind/],
    ['get_resource', { kind: 'service' }, /expected string, received undefined at slug/],
    ['search_catalog', { query: '' }, /at query/],
    ['search_catalog', { query: 'ia', limit: 0 }, /at limit/],
    ['list_resources', {}, /at kind/],
  ])('%s %j → an argument error naming the field', async (name, args, field) => {
    const { result } = await call(transport, name, args);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.type === 'text' ? result.content[0].text : '').toMatch(field);
  });

  it('lists every API JSON file and Markdown twin as a resource, and reads them', async () => {
    const { resources } = await clients[transport].listResources();
    const json = resources.filter((r) => r.mimeType === 'application/json');
    const md = resources.filter((r) => r.mimeType === 'text/markdown');
    expect(json.map((r) => r.name)).toEqual(expect.arrayContaining(['api/v1/index.json', 'api/v1/bundle.json', 'api/v1/search.json', 'api/v1/services/meta-ads.json']));
    expect(md.map((r) => r.name)).toEqual(expect.arrayContaining(['servicios/meta-ads.md', 'index.md']));
    expect(json.length + md.length).toBe(resources.length);
    expect(resources.some((r) => /\.(br|gz)$/.test(r.uri))).toBe(false);
    const twin = md.find((r) => r.name === 'servicios/meta-ads.md');
    expect(twin?.uri).toBe('https://tramontanaconsultores.es/servicios/meta-ads.md');
    const read = await clients[transport].readResource({ uri: twin?.uri ?? '' });
    expect(read.contents[0]).toEqual({ uri: twin?.uri, mimeType: 'text/markdown', text: await readFile(path.join(dist, 'servicios/meta-ads.md'), 'utf8') });
  });

  it('refuses an unknown resource with the nearest address', async () => {
    await expect(clients[transport].readResource({ uri: 'https://tramontanaconsultores.es/api/v1/services/meta-adds.json' })).rejects.toThrow(
      /No resource .*meta-adds\.json\. Did you mean https:\/\/tramontanaconsultores\.es\/api\/v1\/services\/meta-ads\.json\?/,
    );
  });
});

describe('a rebuilt dist/', () => {
  it('is picked up without a restart, and a missing build is a clear tool error', async () => {
    const content = await copyContent(FIXTURE);
    const other = path.join(await tempDir(), 'dist');
    const server = await startMcpHttpServer({ dist: other, port: 0 });
    const client = new Client({ name: 'test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const before = (await client.callTool({ name: 'list_resources', arguments: { kind: 'service' } })) as CallToolResult;
      expect(before.isError).toBe(true);
      expect(before.content[0]).toEqual({ type: 'text', text: expect.stringMatching(/No built catalog .*run `npm run build` first/) });
      expect((await buildCatalog({ contentDir: content, outDir: other, sourceDateEpoch: '' })).ok).toBe(true);
      const first = (await client.callTool({ name: 'get_resource', arguments: { kind: 'service', slug: 'meta-ads' } })) as CallToolResult;
      expect(first.content[0]?.type === 'text' && JSON.parse(first.content[0].text).title).toBe('Meta Ads');
      await edit(content, 'services/meta-ads.md', /^title: .*$/m, 'title: "Meta Ads renovado"');
      expect((await buildCatalog({ contentDir: content, outDir: other, sourceDateEpoch: '' })).ok).toBe(true);
      const second = (await client.callTool({ name: 'get_resource', arguments: { kind: 'service', slug: 'meta-ads' } })) as CallToolResult;
      expect(second.content[0]?.type === 'text' && JSON.parse(second.content[0].text).title).toBe('Meta Ads renovado');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('npm run mcp -- --help prints the usage', async () => {
    const { execFile } = await import('node:child_process');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mcp.ts'), '--help'], { cwd: ROOT }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(out).toMatch(/^Usage: npm run mcp/);
    expect(out).toContain('--http');
    expect(out).toContain('--dist DIR');
  });
});
