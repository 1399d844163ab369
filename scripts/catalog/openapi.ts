/**
 * openapi.json (OpenAPI 3.1): the endpoint table plus the response schemas of schemas/catalog,
 * moved under components with their file references rewritten, and the slug enums taken from
 * the content being built.
 */
import { ENDPOINTS } from './endpoints.ts';
import { cmp } from './issues.ts';
import type { Catalog } from './model.ts';
import { schemaRegistry, type JsonSchema } from './schemas.ts';
import { API_VERSION, apiUrl, pageUrl } from './site.ts';

const FILE_SUFFIX = '.schema.json';

function titleOf(schema: unknown, fallback: string): string {
  const t = (schema as { title?: unknown } | undefined)?.title;
  return typeof t === 'string' ? t : fallback;
}

/** `defs.schema.json#/$defs/slug`, `#/$defs/slug` (inside defs) and `faq.schema.json` → components. */
function componentRef(ref: string, schemas: ReadonlyMap<string, JsonSchema>, inFile: string): string {
  const [file, fragment = ''] = ref.split('#');
  const name = file ? file.slice(0, -FILE_SUFFIX.length) : inFile;
  const target = schemas.get(name);
  if (!target) throw new Error(`openapi: unresolvable $ref ${ref} in ${inFile}`);
  const def = fragment.match(/^\/\$defs\/(.+)$/)?.[1];
  if (def) return `#/components/schemas/${titleOf((target.$defs as Record<string, unknown>)[def], def)}`;
  return `#/components/schemas/${titleOf(target, name)}`;
}

function rewrite(node: unknown, schemas: ReadonlyMap<string, JsonSchema>, inFile: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, schemas, inFile));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' || k === '$id' || k === '$defs') continue;
    out[k] = k === '$ref' && typeof v === 'string' ? componentRef(v, schemas, inFile) : rewrite(v, schemas, inFile);
  }
  return out;
}

function components(): Record<string, unknown> {
  const { schemas } = schemaRegistry();
  const out: Record<string, unknown> = {};
  for (const [name, schema] of schemas) {
    if (name.startsWith('frontmatter-')) continue;
    if (name === 'defs') {
      for (const [def, s] of Object.entries(schema.$defs as Record<string, unknown>)) out[titleOf(s, def)] = rewrite(s, schemas, name);
      continue;
    }
    out[titleOf(schema, name)] = rewrite(schema, schemas, name);
    // A schema's own $defs (search.schema.json's) become components too: its `#/$defs/…` refs point there.
    for (const [def, s] of Object.entries((schema.$defs ?? {}) as Record<string, unknown>)) out[titleOf(s, def)] = rewrite(s, schemas, name);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => cmp(a, b)));
}

export function openapiDocument(c: Catalog): Record<string, unknown> {
  const { schemas } = schemaRegistry();
  const slugs = {
    service: c.services.map((s) => s.fm.slug),
    sector: c.sectors.map((s) => s.fm.slug),
    insight: c.insights.map((s) => s.fm.slug),
  };
  const paths: Record<string, unknown> = {};
  for (const e of ENDPOINTS) {
    const json = (schema: string) => ({
      'application/json': { schema: { $ref: `#/components/schemas/${titleOf(schemas.get(schema), schema)}` } },
    });
    const responses: Record<string, unknown> = {
      '200': { description: e.summary, content: json(e.schema) },
      // A static host answers 404 for any path it has no file for, a misspelt one included.
      '404': { description: e.slugOf ? 'No resource has that slug' : 'No such file (a misspelt path)', content: json('error-404') },
    };
    const parameters = e.slugOf
      ? [{ name: 'slug', in: 'path', required: true, description: 'The same identifier the website uses in its page address.', schema: { type: 'string', enum: slugs[e.slugOf] } }]
      : undefined;
    // `security: []`: public, said explicitly, so that no client expects credentials.
    paths[e.path] = { get: { operationId: e.operationId, summary: e.summary, security: [], ...(parameters ? { parameters } : {}), responses } };
  }
  const org = c.organization.fm;
  return {
    openapi: '3.1.0',
    info: {
      title: `${org.name}: content catalog`,
      version: API_VERSION,
      description: 'Public, read-only JSON catalog of the published website content. No authentication; every operation is a GET.',
      license: org.content_license ?? { name: `All rights reserved (${org.name})`, url: pageUrl(c.site, '/') },
    },
    servers: [{ url: apiUrl(c.site, '').replace(/\/$/, '') }],
    paths,
    components: { schemas: reachable(components(), paths) },
  };
}

/** Only the schemas the operations lead to, directly or through other schemas. */
function reachable(schemas: Record<string, unknown>, paths: Record<string, unknown>): Record<string, unknown> {
  const PREFIX = '#/components/schemas/';
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) {
        const name = v.slice(PREFIX.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(v);
      }
    }
  };
  visit(paths);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}
