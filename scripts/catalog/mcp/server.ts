/**
 * The catalog as MCP tools and resources (the official SDK), over a built dist/:
 * - search_catalog: ranked full-text search with filters (the one search implementation);
 * - get_resource / list_resources: one resource by kind and slug, or every one of a kind;
 * - recommend_services: "which service fits this need", the best services with url and json_url;
 * - resources: every JSON file of the API and every Markdown twin, by its public address.
 * A wrong kind, slug, sector or service line is answered with a tool error that names the nearest
 * valid value, so an agent can correct itself.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, ReadResourceRequestSchema, McpError, ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SEARCH_KINDS } from '../search/engine.ts';
import { RESOURCE_KINDS, type BuiltCatalog, type CatalogSnapshot, type ResourceKind } from './built-catalog.ts';
import { nearest } from './nearest.ts';

export const SERVER_NAME = 'catalog';

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });
const failure = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

class ToolInputError extends Error {}

function suggest(what: string, value: string, valid: readonly string[]): never {
  const near = nearest(value, valid);
  const all = valid.length <= 20 ? ` Valid: ${valid.join(', ')}.` : ' list_resources gives every one.';
  throw new ToolInputError(`Unknown ${what} "${value}".${near ? ` Did you mean "${near}"?` : ''}${all}`);
}

function checkFilters(snap: CatalogSnapshot, filters: { sector?: string | undefined; service_line?: string | undefined }): void {
  if (filters.sector !== undefined && !snap.sectors.includes(filters.sector)) suggest('sector', filters.sector, snap.sectors);
  if (filters.service_line !== undefined && !snap.serviceLines.includes(filters.service_line)) suggest('service line', filters.service_line, snap.serviceLines);
}

/** Runs a tool body; a wrong argument or a missing build becomes a tool error the agent reads. */
function tool<A>(catalog: BuiltCatalog, body: (snap: CatalogSnapshot, args: A) => unknown): (args: A) => CallToolResult {
  return (args) => {
    try {
      return json(body(catalog.current(), args));
    } catch (error) {
      return failure((error as Error).message);
    }
  };
}

const summaryOf = (kind: ResourceKind, r: Record<string, unknown>): Record<string, unknown> =>
  kind === 'faq'
    ? { id: r.id, question: r.question, url: r.url, json_url: r.json_url }
    : { slug: r.slug, title: r.title, description: r.summary ?? r.description, url: r.url, json_url: r.json_url };

export function createCatalogMcpServer(catalog: BuiltCatalog, version: string): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version }, { capabilities: { resources: {} } });
  const kind = z.enum(RESOURCE_KINDS).describe(`The kind of resource: ${RESOURCE_KINDS.join(', ')}.`);
  const filters = {
    sector: z.string().min(1).optional().describe('Only what concerns this sector (a sector slug, e.g. servicios-profesionales).'),
    service_line: z.string().min(1).optional().describe('Only services of this line (captacion or sistemas) and what belongs to them.'),
  };

  server.registerTool(
    'search_catalog',
    {
      title: 'Search the catalog',
      description:
        'Ranked full-text search over the whole catalog (services, sectors, articles, areas, pages and FAQs): titles, summaries, answers, FAQ questions and bodies. Spanish content; accents and word forms do not matter ("automatizacion" finds "automatización" and "automatizar"). Each result has url (the web page, to cite) and json_url (its JSON).',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for, in Spanish or plain keywords.'),
        kinds: z.array(z.enum(SEARCH_KINDS)).optional().describe(`Only these kinds: ${SEARCH_KINDS.join(', ')}.`),
        ...filters,
        limit: z.number().int().min(1).max(50).default(10).describe('How many results, best first (default 10).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(catalog, (snap, args: { query: string; kinds?: (typeof SEARCH_KINDS)[number][]; sector?: string; service_line?: string; limit: number }) => {
      checkFilters(snap, args);
      const results = snap.search.search(args.query, { kinds: args.kinds, sector: args.sector, service_line: args.service_line }, args.limit);
      return { query: args.query, count: results.length, results };
    }),
  );

  server.registerTool(
    'get_resource',
    {
      title: 'Get one resource',
      description: 'One resource in full, by kind and slug (for a FAQ, its id from faqs.json or search results): everything the catalog knows about it, with url and json_url.',
      inputSchema: { kind, slug: z.string().min(1).describe('The slug, as in the page address (e.g. meta-ads), or a FAQ id.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(catalog, (snap, args: { kind: ResourceKind; slug: string }) => {
      const items = snap.byKind.get(args.kind) ?? new Map();
      const found = items.get(args.slug);
      if (!found) suggest(`${args.kind} slug`, args.slug, [...items.keys()]);
      return found;
    }),
  );

  server.registerTool(
    'list_resources',
    {
      title: 'List a kind',
      description: 'Every resource of one kind, in the catalog\'s order: slug (or FAQ id), title, description, url and json_url.',
      inputSchema: { kind },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(catalog, (snap, args: { kind: ResourceKind }) => {
      const items = [...(snap.byKind.get(args.kind)?.values() ?? [])].map((r) => summaryOf(args.kind, r));
      return { kind: args.kind, count: items.length, items };
    }),
  );

  server.registerTool(
    'recommend_services',
    {
      title: 'Which service fits this need',
      description:
        'Given a need or problem in plain words, the services that best answer it, best first, each with url (the service page, to cite), json_url and the catalog pages that led to it.',
      inputSchema: {
        need: z.string().min(1).max(1000).describe('The need, problem or goal, in the client\'s words.'),
        ...filters,
        limit: z.number().int().min(1).max(20).default(3).describe('How many services (default 3).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(catalog, (snap, args: { need: string; sector?: string; service_line?: string; limit: number }) => {
      checkFilters(snap, args);
      const services = snap.search.recommendServices(args.need, { sector: args.sector, service_line: args.service_line }, args.limit);
      return { need: args.need, count: services.length, services };
    }),
  );

  // Resources: the files of the build, listed and read through the SDK's low-level handlers so
  // the list follows each rebuild (McpServer's own registry is fixed at registration).
  server.server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: catalog.current().files.map((f) => ({ uri: f.uri, name: f.rel, mimeType: f.mimeType })),
  }));
  server.server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const snap = catalog.current();
    const file = snap.fileByUri.get(request.params.uri);
    if (!file) {
      const near = nearest(request.params.uri, snap.fileByUri.keys());
      throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri}.${near ? ` Did you mean ${near}?` : ''}`);
    }
    return { contents: [{ uri: file.uri, mimeType: file.mimeType, text: catalog.readFile(file) }] };
  });
  return server;
}
