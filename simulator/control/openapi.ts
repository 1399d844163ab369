/**
 * The control API's OpenAPI 3.1 description, derived from the control route table (routes.ts)
 * and the schemas of schemas/control (moved under components, their `#/definitions/…` references
 * rewritten), so the document always says what the server does.
 */
import schema from '../../schemas/control/control.schema.json' with { type: 'json' };
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlRoute } from './routes.ts';

export const CONTROL_API_VERSION = '1.0.0';

type Json = Record<string, unknown>;

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/definitions/', '#/components/schemas/') : rewrite(v);
  }
  return out;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (s: Json): Json => ({ 'application/json': { schema: s } });

function operation(route: ControlRoute): Json {
  const responses: Json = {};
  const r = route.response;
  responses[String(r.status)] =
    r.status === 204 ? { description: r.description } : { description: r.description, content: json(r.schema ? ref(r.schema) : { type: 'object' }) };
  for (const [status, when] of Object.entries(route.errors ?? {})) responses[status] = { description: when, content: json(ref('ControlError')) };
  responses['403'] = {
    description: 'The control API is closed to this client: not on loopback (unless the simulator allows remote control), a Host that is not a loopback name, or a web page of another origin (FORBIDDEN).',
    content: json(ref('ControlError')),
  };
  const parameters: Json[] = [];
  for (const [name, description] of Object.entries(route.pathParams ?? {})) {
    parameters.push({ name, in: 'path', required: true, description, schema: { type: 'integer', minimum: 1 } });
  }
  for (const q of route.query ?? []) parameters.push({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema });
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: ['control'],
    // No credentials: the control API is guarded by where requests come from, not by who sends them.
    security: [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: route.body.required, description: route.body.description, content: json(ref(route.body.schema)) } }
      : {}),
    responses,
  };
}

export function controlOpenApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const route of CONTROL_ROUTES) {
    const item = (paths[`${CONTROL_PREFIX}${route.path}`] ??= {});
    item[route.method.toLowerCase()] = operation(route);
  }
  const components: Json = {};
  for (const [name, definition] of Object.entries(schema.definitions)) components[name] = rewrite(definition);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Team chat simulator: control API',
      version: CONTROL_API_VERSION,
      description:
        "Test and demo controls of the chat simulator, outside Zulip's API: reset, snapshots, the outbox, faults and the request journal. Answered on loopback only unless the simulator is started to allow remote control.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:9991', description: 'npm run simulator, on its default port' }],
    tags: [{ name: 'control', description: 'The simulator as a test instrument.' }],
    paths,
    components: { schemas: components },
  };
}
