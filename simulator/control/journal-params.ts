/**
 * A journal entry's `request.params`: the request's parameters as dispatch read them, whatever
 * the client's encoding (urlencoded or multipart body, query string), so a test filters on
 * `params.topic` for zulip-js (multipart) and the Python client (urlencoded) alike. Values the
 * route declares JSON-typed are decoded as Zulip decodes them (`to=[9]` is the list [9]); files
 * are described (field, filename, content type, size), never kept.
 */
import type { RequestTrace } from '../http/dispatch.ts';
import type { ParamSpec, Route, UploadedFile } from '../http/route.ts';

/** What a journal entry keeps of a file part. */
export interface FileMeta {
  filename: string;
  content_type: string;
  size: number;
}

/** The parameters an entry keeps: the maps dispatch parsed (strings, shared), files reduced to their metadata. */
export interface KeptParams {
  path: Readonly<Record<string, string>> | undefined;
  query: ReadonlyMap<string, string> | undefined;
  body: ReadonlyMap<string, string> | undefined;
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

/** What an entry keeps of the parameters dispatch found, or null when it found none. */
export function keepParams(trace: RequestTrace): KeptParams | null {
  const { path, query, body } = trace;
  if (path === undefined && query === undefined && body === undefined) return null;
  const files = describeFiles(trace.files);
  let weight = mapWeight(query) + mapWeight(body);
  if (path) for (const k in path) weight += k.length + path[k]!.length;
  if (files) for (const [field, sent] of files) weight += field.length + sent.reduce((n, f) => n + f.filename.length + f.content_type.length + 16, 0);
  return { path, query, body, files, weight };
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
  if (kept.query) for (const [name, raw] of kept.query) out[name] = decoded(specs.get(name), raw, false);
  if (kept.body) for (const [name, raw] of kept.body) out[name] = decoded(specs.get(name), raw, false);
  for (const [field, files] of kept.files ?? NO_FILES) out[field] = files;
  return out;
}
