/**
 * A journal entry's `request.params`: the request's parameters as dispatch read them, whatever
 * the client's encoding (urlencoded or multipart body, query string), so a test filters on
 * `params.topic` for zulip-js (multipart) and the Python client (urlencoded) alike. Values the
 * route declares JSON-typed are decoded as Zulip decodes them (`to=[9]` is the list [9]); files
 * are described (field, filename, content type, size), never kept.
 */
import type { RequestTrace } from '../http/dispatch.ts';
import { parseBody, toMap, type ParsedBody } from '../http/form-body.ts';
import type { ParamSpec, Route, UploadedFile } from '../http/route.ts';

/** What a journal entry keeps of a file part. */
export interface FileMeta {
  filename: string;
  content_type: string;
  size: number;
}

/**
 * A map the entry does not hold but reads again, when it is read, from what it keeps anyway: the
 * query string from its URL, an urlencoded form from its body, with the parser dispatch used. The
 * map dispatch made would otherwise outlive the young generation with the entry: holding the
 * parsed form of each of the last thousand requests doubled the collector's work per request.
 */
export const REREAD = 'reread';

/** The parameters an entry keeps: the maps dispatch parsed (strings, shared) or REREAD, files reduced to their metadata. */
export interface KeptParams {
  path: Readonly<Record<string, string>> | undefined;
  query: ReadonlyMap<string, string> | typeof REREAD | undefined;
  body: ReadonlyMap<string, string> | typeof REREAD | undefined;
  files: ReadonlyMap<string, FileMeta[]> | undefined;
  /** Characters held by the kept strings (what they cost the journal's byte budget). */
  weight: number;
}

const NO_FILES: ReadonlyMap<string, FileMeta[]> = new Map();

function describeFiles(files: ReadonlyMap<string, readonly UploadedFile[]> | undefined): ReadonlyMap<string, FileMeta[]> | undefined {
  if (files === undefined || files.size === 0) return undefined;
  const out = new Map<string, FileMeta[]>();
  for (const [field, sent] of files) {
    out.set(
      field,
      sent.map((f) => ({ filename: f.filename, content_type: f.contentType, size: f.bytes.length })),
    );
  }
  return out;
}

function mapWeight(map: ReadonlyMap<string, string> | undefined): number {
  let n = 0;
  if (map) for (const [k, v] of map) n += k.length + v.length;
  return n;
}

/** The request an entry keeps, as the parameters are read again from it. */
export interface KeptRequest {
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  /** The whole body dispatch read; undefined when the entry does not hold all of it. */
  body: string | Uint8Array | undefined;
}

/**
 * What an entry keeps of the parameters dispatch found, or null when it found none. `request` is
 * what the entry holds of the request (its whole body, or none): the query string and an
 * urlencoded form are then read again from it when the entry is read (REREAD).
 */
export function keepParams(trace: RequestTrace, request?: KeptRequest): KeptParams | null {
  const { path, query, body } = trace;
  if (path === undefined && query === undefined && body === undefined) return null;
  const files = describeFiles(trace.files);
  let weight = mapWeight(query) + mapWeight(body);
  if (path) for (const k in path) weight += k.length + path[k]!.length;
  if (files) for (const [field, sent] of files) weight += field.length + sent.reduce((n, f) => n + f.filename.length + f.content_type.length + 16, 0);
  const rereadQuery = request !== undefined && query !== undefined && query.size > 0;
  // A multipart body is parsed asynchronously (and its files are not kept): its fields stay held.
  const rereadBody =
    request !== undefined && body !== undefined && body.size > 0 && files === undefined && request.body !== undefined && !isMultipart(request.headers);
  return { path, query: rereadQuery ? REREAD : query, body: rereadBody ? REREAD : body, files, weight };
}

const isMultipart = (headers: KeptRequest['headers']): boolean => (headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');

/** `kept` with the maps it reads again read from `request`, parsed as dispatch parsed them. */
export function rereadParams(kept: KeptParams, request: KeptRequest): KeptParams {
  if (kept.query !== REREAD && kept.body !== REREAD) return kept;
  const queryStart = request.url.indexOf('?');
  const query = kept.query === REREAD ? toMap(request.url.slice(queryStart + 1)) : kept.query;
  const body = kept.body === REREAD ? (parseBody({ headers: request.headers, body: request.body as Buffer | string }) as ParsedBody).fields : kept.body;
  return { ...kept, query, body };
}

/** The declared spec of each parameter name (aliases included) of a route. */
function specsByName(route: Route | null): Map<string, ParamSpec> {
  const out = new Map<string, ParamSpec>();
  if (!route) return out;
  for (const spec of route.params) {
    out.set(spec.name, spec);
    for (const alias of spec.aliases ?? []) out.set(alias, spec);
  }
  return out;
}

/**
 * One raw value as the route reads it: strings stay strings, JSON-typed parameters are JSON-decoded
 * (a value that is not JSON stays the text sent: dispatch refused it, and the test sees what came).
 */
function decoded(spec: ParamSpec | undefined, raw: string, fromPath: boolean): unknown {
  if (spec === undefined || spec.type === 'string' || spec.type === 'file') return raw;
  if (fromPath) return spec.type === 'int' && /^\d+$/.test(raw) ? Number(raw) : raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * The entry's `request.params`: path segments, then the query string, then the form body (Zulip
 * reads the body first, so a name in both shows the body's value), then the file fields as lists
 * of their files' metadata.
 */
export function recordParams(kept: KeptParams | null, route: Route | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!kept) return out;
  const specs = specsByName(route);
  if (kept.path) for (const name in kept.path) out[name] = decoded(specs.get(name), kept.path[name]!, true);
  if (kept.query && kept.query !== REREAD) for (const [name, raw] of kept.query) out[name] = decoded(specs.get(name), raw, false);
  if (kept.body && kept.body !== REREAD) for (const [name, raw] of kept.body) out[name] = decoded(specs.get(name), raw, false);
  for (const [field, files] of kept.files ?? NO_FILES) out[field] = files;
  return out;
}
