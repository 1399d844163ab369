/**
 * openapi.json (OpenAPI 3.1): the endpoint table plus the response schemas of schemas/catalog,
 * moved under components with their file references rewritten, and the slug enums taken from
 * the content being built.
 */
import { ENDPOINTS } from './endpoints.ts';
import { cmp } from './issues.ts';
import type { Catalog } from './model.ts';
import { schemaRegistry, type JsonSchema } from './schemas.ts';
import { API_VERSION, apiUrl } from './site.ts';

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
    const responses: Record<string, unknown> = { '200': { description: e.summary, content: json(e.schema) } };
    if (e.slugOf) responses['404'] = { description: 'No resource has that slug', content: json('error-404') };
    const parameters = e.slugOf
      ? [{ name: 'slug', in: 'path', required: true, description: 'The same identifier the website uses in its page address.', schema: { type: 'string', enum: slugs[e.slugOf] } }]
      : undefined;
    paths[e.path] = { get: { operationId: e.operationId, summary: e.summary, ...(parameters ? { parameters } : {}), responses } };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${c.organization.fm.name}: content catalog`,
      version: API_VERSION,
      description: 'Public, read-only JSON catalog of the published website content. No authentication; every operation is a GET.',
    },
    servers: [{ url: apiUrl(c.site, '').replace(/\/$/, '') }],
    paths,
    components: { schemas: components() },
  };
}
