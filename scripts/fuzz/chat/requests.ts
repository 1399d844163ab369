/**
 * Fuzzed requests, generated from the route table: for any route, who sends it, which of its
 * declared parameters are sent and how (well typed, mistyped, malformed, oversized, missing),
 * what else is sent, and how it is encoded on the wire (as the Python client or zulip-js would,
 * or broken). A request is plain data, so fast-check can shrink it and print it.
 */
import fc, { type Arbitrary } from 'fast-check';
import { routePrefix } from '../../../simulator/http/dispatch.ts';
import type { ParamSpec, Route } from '../../../simulator/http/route.ts';
import type { Sequence } from './run.ts';
import { generators, type Generators } from './values.ts';
import { ACTORS, type Actor, type Pools } from './world.ts';

/**
 * How the fields travel:
 * - query: in the URL (GET from any client);
 * - form: application/x-www-form-urlencoded (the Python client);
 * - multipart: multipart/form-data (zulip-js's POSTs, uploads);
 * - latin1: a form body whose non-ASCII characters are single bytes (not UTF-8);
 * - json / text: a JSON or plain-text body, which Zulip does not read;
 * - untyped: a form body without a Content-Type.
 */
export const ENCODINGS = ['query', 'form', 'multipart', 'latin1', 'json', 'text', 'untyped'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface Field {
  name: string;
  value: string;
  /** Written into the query or form as it is (already %-encoded, possibly broken escapes). */
  raw?: true;
}

export interface FileField {
  field: string;
  filename: string;
  content: string;
  type?: string;
}

export interface FuzzRequest {
  /** The route it was made from (`POST /messages`), for the report. */
  route: string;
  actor: Actor;
  method: string;
  /** Path as sent, %-encoded, without the query string. */
  path: string;
  encoding: Encoding;
  fields: Field[];
  files: FileField[];
  headers: Record<string, string>;
}

/** How a client turns a value into text: the Python client JSON-encodes non-strings; zulip-js calls String() except on arrays (JSON) in POST bodies. */
type ClientStyle = 'python' | 'zulip-js';

function encodeValue(value: unknown, style: ClientStyle, inBody: boolean): string {
  if (typeof value === 'string') return value;
  if (style === 'python' || (inBody && Array.isArray(value))) return JSON.stringify(value) ?? 'null';
  return jsString(value);
}

/** JavaScript's String(), also for the prototype-less objects fast-check makes (String() throws on them). */
function jsString(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => (v === null || v === undefined ? '' : jsString(v))).join(',');
  if (value !== null && typeof value === 'object') return '[object Object]';
  return String(value);
}

/** What is sent for one declared parameter. */
type Sent =
  | { as: 'absent' }
  | { as: 'value'; value: unknown }
  | { as: 'text'; text: string }
  | { as: 'raw'; text: string };

/** Values of the wrong shape for any type: the parser must refuse them with Zulip's error. */
const HOSTILE_TEXT: Arbitrary<Sent> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'true',
    '1.0',
    '1e400',
    '-0',
    '0x10',
    '+5',
    ' 5 ',
    '9007199254740993',
    '-9007199254740993',
    '123456789012345678901234567890',
    '[1,',
    '{"a":',
    '"unterminated',
    'NaN',
    'Infinity',
    '[1.5]',
    '[[1]]',
    '["1"]',
    '[null]',
    '{}',
    '[]',
    '[{}]',
    '"string"',
    '\u0000',
    '\ud83d',
  ).map((text): Sent => ({ as: 'text', text })),
  fc.integer({ min: 1, max: 300 }).map((depth): Sent => ({ as: 'text', text: '['.repeat(depth) + ']'.repeat(depth) })),
  fc.integer({ min: 1, max: 2000 }).map((n): Sent => ({ as: 'text', text: `[${Array.from({ length: n }, (_, i) => i).join(',')}]` })),
  fc.constantFrom(1000, 10_000, 100_000).map((n): Sent => ({ as: 'text', text: 'x'.repeat(n) })),
  fc.constantFrom('%FF', '%C3%28', '%ED%A0%80', '%E2%82', '%', '%zz', '%00').map((text): Sent => ({ as: 'raw', text })),
  fc.jsonValue({ maxDepth: 4 }).map((value): Sent => ({ as: 'value', value })),
);

/**
 * One parameter: absent, well typed, or hostile. A request either sends most optional parameters
 * or a few (a few, when a route has sixty settings, is what lets it change some of them), and
 * either only well-typed values or hostile ones among them: one bad value among many would refuse
 * nearly every request before it does anything.
 */
/**
 * Parameters that turn a request into something else when sent at all (a mirrored message, a
 * forged time or sender, a widget): sent rarely, so that the ordinary request gets through too.
 */
const RARELY_SENT = /^(forged|sender|time|widget_content)$/;

function sentFor(spec: ParamSpec, gen: Generators, absentWeight: number, hostileWeight: number): Arbitrary<Sent> {
  const valid = gen.valid(spec).map((value): Sent => ({ as: 'value', value }));
  const absent = spec.required ? 1 : RARELY_SENT.test(spec.name) ? absentWeight * 8 : absentWeight;
  const choices = [
    { weight: absent, arbitrary: fc.constant<Sent>({ as: 'absent' }) },
    { weight: 16, arbitrary: valid },
  ];
  return hostileWeight > 0 ? fc.oneof(...choices, { weight: hostileWeight, arbitrary: HOSTILE_TEXT }) : fc.oneof(...choices);
}

const FILE: Arbitrary<FileField> = fc.record(
  {
    field: fc.constantFrom('file', 'file1', 'avatar', 'x'),
    filename: fc.oneof(fc.constantFrom('a.png', 'notes.txt', '../../etc/passwd', '', 'ñandú.gif', 'x'.repeat(300)), fc.string({ maxLength: 10 })),
    content: fc.oneof(fc.constantFrom('', '\x89PNG\r\n\x1a\n', 'GIF89a', 'hello'), fc.string({ maxLength: 50 })),
    type: fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'image/svg+xml', ''),
  },
  { requiredKeys: ['field', 'filename', 'content'] },
);

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'patch', 'FOO'];

/** Path mutations: what a buggy client or an attacker does to a good path. */
const PATH_MUTATIONS: ((path: string) => string)[] = [
  (p) => `${p}/`,
  (p) => p.replace('/api/v1/', '/api/v1//'),
  (p) => p.toUpperCase(),
  (p) => p.replace('/api/v1', ''),
  (p) => p.replace('/api/v1', '/api/v2'),
  (p) => p.replace('/api/v1', '/json'),
  (p) => `${p}/..`,
  (p) => `${p}/../../etc/passwd`,
  (p) => p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
  (p) => `${p}%00`,
  (p) => `${p}%FF`,
  (p) => `${p};x=1`,
  (p) => `${p}/${'a'.repeat(5000)}`,
  (p) => p.replace(/\/\d+/, '/-1'),
  (p) => p.replace(/\/\d+/, '/99999999999999999999999'),
  (p) => p.replace(/\/\d+/, '/0007'),
  (p) => p.replace(/\/\d+/, '/1.5'),
  (p) => `${p}#fragment`,
];

/** Names that are not the route's: unknown, another route's, Zulip's special ones. */
function extraFields(names: readonly string[]): Arbitrary<Field[]> {
  return fc.array(
    fc.record({
      name: fc.oneof(fc.constantFrom(...names), fc.constantFrom('client', 'method', 'api_key', '__proto__', 'constructor', ''), fc.string({ maxLength: 6 })),
      value: fc.oneof(fc.constantFrom('GET', 'PATCH', 'DELETE', 'patch', 'x', '1', 'true', '[]'), fc.string({ maxLength: 8 })),
    }),
    { maxLength: 2 },
  );
}

interface Mutation {
  method?: string;
  path?: number;
  encoding?: Encoding;
  accept?: string;
  contentType?: string;
}

const MUTATION: Arbitrary<Mutation> = fc.oneof(
  { weight: 30, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.constantFrom(...METHODS).map((method) => ({ method })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: PATH_MUTATIONS.length - 1 }).map((path) => ({ path })) },
  { weight: 2, arbitrary: fc.constantFrom<Encoding>(...ENCODINGS).map((encoding) => ({ encoding })) },
  { weight: 1, arbitrary: fc.constantFrom('text/html', 'text/html,application/json', '*/*').map((accept) => ({ accept })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded; charset=latin1', 'application/json', 'text/plain; charset=utf-8')
      .map((contentType) => ({ contentType })),
  },
);

/** A request made from one route of the table. */
function routeRequest(route: Route, gen: Generators, otherNames: readonly string[]): Arbitrary<FuzzRequest> {
  const pathSpecs = route.params.filter((p) => p.in === 'path');
  const fieldSpecs = route.params.filter((p) => p.in !== 'path' && p.type !== 'file');
  const takesFiles = route.params.some((p) => p.type === 'file');
  const optionalCount = fieldSpecs.filter((p) => !p.required).length;
  return fc
    .record({
      actor: fc.oneof({ weight: 12, arbitrary: fc.constantFrom<Actor>('owner', 'admin', 'moderator', 'member', 'other_member', 'guest', 'bot') }, { weight: 4, arbitrary: fc.constantFrom<Actor>(...ACTORS) }),
      segments: fc.tuple(...pathSpecs.map((spec) => gen.pathSegment(spec))),
      sent: fc.oneof(
        { weight: 3, arbitrary: fc.tuple(...fieldSpecs.map((spec) => sentFor(spec, gen, 6, 0))) },
        { weight: 3, arbitrary: fc.tuple(...fieldSpecs.map((spec) => sentFor(spec, gen, Math.max(12, 4 * optionalCount), 0))) },
        { weight: 2, arbitrary: fc.tuple(...fieldSpecs.map((spec) => sentFor(spec, gen, Math.max(12, 4 * optionalCount), 4))) },
      ),
      extras: fc.oneof({ weight: 5, arbitrary: fc.constant<Field[]>([]) }, { weight: 1, arbitrary: extraFields(otherNames) }),
      files: takesFiles ? fc.array(FILE, { minLength: 0, maxLength: 2 }) : fc.oneof({ weight: 20, arbitrary: fc.constant<FileField[]>([]) }, { weight: 1, arbitrary: fc.array(FILE, { maxLength: 1 }) }),
      style: fc.constantFrom<ClientStyle>('python', 'python', 'zulip-js'),
      mutation: MUTATION,
    })
    .map(({ actor, segments, sent, extras, files, style, mutation }) => {
      let i = 0;
      let path = `${routePrefix(route)}${route.path.replace(/\{\w+\}/g, () => segments[i++]!)}`;
      if (mutation.path !== undefined) path = PATH_MUTATIONS[mutation.path]!(path);
      const method = mutation.method ?? route.method;
      // The Python client puts a GET's parameters in the query string and everything else in a
      // form body; zulip-js sends POSTs as multipart and every other method in the query string.
      const natural: Encoding = files.length > 0 ? 'multipart' : style === 'python' ? (method === 'GET' ? 'query' : 'form') : method === 'POST' ? 'multipart' : 'query';
      const encoding = mutation.encoding ?? natural;
      const inBody = encoding !== 'query';
      const fields: Field[] = [];
      fieldSpecs.forEach((spec, k) => {
        const s = sent[k]!;
        if (s.as === 'absent') return;
        if (s.as === 'raw') fields.push({ name: spec.name, value: s.text, raw: true });
        else fields.push({ name: spec.name, value: s.as === 'text' ? s.text : encodeValue(s.value, style, inBody) });
      });
      fields.push(...extras);
      const headers: Record<string, string> = {};
      if (mutation.accept) headers.accept = mutation.accept;
      if (mutation.contentType) headers['content-type'] = mutation.contentType;
      return { route: `${route.method} ${route.path}`, actor, method, path, encoding, fields, files: encoding === 'multipart' ? files : [], headers };
    });
}

/** A request to a path no route declares. */
const strayRequest: Arbitrary<FuzzRequest> = fc.record({
  route: fc.constant('(no route)'),
  actor: fc.constantFrom<Actor>(...ACTORS),
  method: fc.constantFrom(...METHODS),
  path: fc.oneof(
    fc.constantFrom('/', '/api', '/api/v1', '/api/v1/', '//', '/api/v1/users/me/', '/user_uploads/', '/api/v1/%', '/api/v1/messages/%E2%82'),
    fc.webPath().map((p) => `/api/v1${p.startsWith('/') ? p : `/${p}`}`),
  ),
  encoding: fc.constantFrom<Encoding>(...ENCODINGS),
  fields: fc.constant<Field[]>([]),
  files: fc.constant<FileField[]>([]),
  headers: fc.constant({}),
});

export interface RequestSpace {
  request: Arbitrary<FuzzRequest>;
  /** Sequences of up to `maxLength` requests, a share of them over HTTP and a share audited (see run.ts). */
  sequence(maxLength: number, shares: { http: number; audit: number }): Arbitrary<Sequence>;
}

/** True for about `share` of the draws; shrinks towards false. */
function sometimes(share: number): Arbitrary<boolean> {
  if (share <= 0) return fc.constant(false);
  if (share >= 1) return fc.constant(true);
  return fc.integer({ min: 0, max: 9999 }).map((n) => n >= (1 - share) * 10_000);
}

export function requestSpace(routes: readonly Route[], pools: Pools, queueIds: readonly string[]): RequestSpace {
  const gen = generators(pools, queueIds);
  const names = [...new Set(routes.flatMap((r) => r.params.map((p) => p.name)))].sort();
  const perRoute = routes.map((route) => routeRequest(route, gen, names));
  const fromRoutes = (first: number, last: number) => fc.integer({ min: first, max: last }).chain((i) => perRoute[i]!);
  const request = fc.oneof({ weight: 40, arbitrary: fromRoutes(0, perRoute.length - 1) }, { weight: 1, arbitrary: strayRequest });
  // A sequence keeps mostly to a few neighbouring routes of the table (one resource's create,
  // change, read and delete are neighbours), so that it changes something and then uses it.
  const themed = fc
    .record({ first: fc.integer({ min: 0, max: perRoute.length - 1 }), width: fc.integer({ min: 1, max: 6 }) })
    .map(({ first, width }) => fc.oneof({ weight: 4, arbitrary: fromRoutes(first, Math.min(first + width, perRoute.length) - 1) }, { weight: 1, arbitrary: request }));
  return {
    request,
    sequence(maxLength, shares) {
      return fc.record({
        http: sometimes(shares.http),
        audit: sometimes(shares.audit),
        requests: themed.chain((theme) => fc.array(theme, { minLength: 1, maxLength })),
      });
    },
  };
}
