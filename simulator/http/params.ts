/**
 * Zulip's typed-parameter decoding (zerver/lib/typed_endpoint.py): every value arrives as a string; JSON-typed
 * parameters are decoded and then checked strictly, with Zulip's error templates; the first
 * failing parameter (in declaration order) is the one reported.
 */
import { ChatError } from '../engine/errors.ts';
import { codePointLength } from '../engine/text.ts';
import type { ParamSpec, UploadedFile } from './route.ts';

export { codePointLength };

/** A spec's check as dispatch calls it: with the value decoded for the spec's type. */
type Validate = (value: unknown, name: string) => unknown;

function parseJson(raw: string, name: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw ChatError.badRequest(`${name} is not valid JSON`);
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * The numeric literals of a JSON text, in order, outside strings. JSON.parse turns `5.0` into
 * the integer 5; Python keeps it a float, which Zulip then refuses as "not an integer".
 */
function numberTokens(raw: string): string[] {
  const out: string[] = [];
  const re = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (const m of raw.matchAll(re)) if (m[0][0] !== '"') out.push(m[0]);
  return out;
}

const INTEGER_LITERAL = /^-?\d+$/;

/** For a parsed array, which items were written as integers (only meaningful for number items). */
function integerLiterals(raw: string, value: unknown[]): boolean[] {
  const tokens = numberTokens(raw);
  let t = 0;
  return value.map((item) => (typeof item === 'number' ? INTEGER_LITERAL.test(tokens[t++] ?? '') : false));
}

/** Decode one raw string value according to the spec; throws ChatError with Zulip's wording. */
export function decodeParam(spec: ParamSpec, raw: string): unknown {
  const name = spec.name;
  let value: unknown;
  switch (spec.type) {
    case 'string':
      value = raw;
      if (spec.maxLength !== undefined && codePointLength(raw) > spec.maxLength) {
        throw ChatError.badRequest(`${name} is too long (limit: ${spec.maxLength} characters)`);
      }
      break;
    case 'int': {
      value = parseJson(raw, name);
      if (!isInt(value) || !INTEGER_LITERAL.test(raw.trim())) throw ChatError.badRequest(`${name} is not an integer`);
      break;
    }
    case 'float': {
      value = parseJson(raw, name);
      if (typeof value !== 'number') throw ChatError.badRequest(`${name} is not a float`);
      break;
    }
    case 'bool': {
      value = parseJson(raw, name);
      if (typeof value !== 'boolean') throw ChatError.badRequest(`${name} is not a boolean`);
      break;
    }
    case 'json':
      value = parseJson(raw, name);
      break;
    case 'json_object':
      value = parseJson(raw, name);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw ChatError.badRequest(`${name} is not a dict`);
      }
      break;
    case 'json_array':
      value = parseJson(raw, name);
      if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
      break;
    case 'int_array': {
      value = parseJson(raw, name);
      if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
      const literal = integerLiterals(raw, value);
      value.forEach((item, i) => {
        if (!isInt(item) || !literal[i]) throw ChatError.badRequest(`${name}[${i}] is not an integer`);
      });
      break;
    }
    case 'string_array': {
      value = parseJson(raw, name);
      if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
      value.forEach((item, i) => {
        if (typeof item !== 'string') throw ChatError.badRequest(`${name}[${i}] is not a string`);
      });
      break;
    }
    case 'int_array_or_string_array': {
      value = parseJson(raw, name);
      if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
      const literal = integerLiterals(raw, value);
      const allInts = value.every((v, i) => isInt(v) && literal[i]);
      const allStrings = value.every((v) => typeof v === 'string');
      if (!allInts && !allStrings) {
        // Zulip tries list[str] then list[int]; the first failing item of the int reading is reported.
        const i = value.findIndex((v, j) => !isInt(v) || !literal[j]);
        throw ChatError.badRequest(`${name}[${i}] is not an integer`);
      }
      break;
    }
    case 'int_or_string': {
      // Zulip's `Json[str] | Json[int]`: JSON first (a bare word is not valid JSON), then the
      // string branch, then the integer branch; the first branch's complaint is the one shown.
      value = parseJson(raw, name);
      if (typeof value === 'string') break;
      if (!isInt(value) || !INTEGER_LITERAL.test(raw.trim())) throw ChatError.badRequest(`${name} is not a string`);
      break;
    }
  }
  if (spec.oneOf && !spec.oneOf.includes(value as string | number)) throw ChatError.badRequest(`Invalid ${name}`);
  if (spec.validate) value = (spec.validate as Validate)(value, name);
  return value;
}

export interface RawParams {
  /** Path parameters by name (already matched). */
  path: Readonly<Record<string, string>>;
  query: ReadonlyMap<string, string>;
  body: ReadonlyMap<string, string>;
  /** The file parts of a multipart body, by field name, in the order sent. */
  files?: ReadonlyMap<string, UploadedFile[]>;
}

/** A file parameter's value: see ParamType `file`. */
function fileParam(spec: ParamSpec, raw: RawParams): UploadedFile[] {
  const files = raw.files ?? new Map<string, UploadedFile[]>();
  if (spec.anyField) return [...files.values()].map((sent) => sent[sent.length - 1]!);
  return files.get(spec.name) ?? [];
}

const NO_ALIASES: readonly string[] = [];

/**
 * Decode every declared parameter (declaration order) and collect the names it consumed,
 * for `ignored_parameters_unsupported`.
 */
export function decodeParams(specs: readonly ParamSpec[], raw: RawParams, used: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    if (spec.type === 'file') {
      const files = fileParam(spec, raw);
      if (spec.required && files.length === 0) throw ChatError.missingArgument(spec.name);
      out[spec.name] = files;
      continue;
    }
    let found: string | undefined;
    let foundName: string | undefined;
    if (spec.in === 'path') {
      found = raw.path[spec.name];
      foundName = spec.name;
    } else {
      // The name, then its aliases (no list made of them: this runs for every parameter of every request).
      found = lookup(spec, raw, spec.name);
      if (found !== undefined) foundName = spec.name;
      for (const candidate of spec.aliases ?? NO_ALIASES) {
        const v = lookup(spec, raw, candidate);
        if (v === undefined) continue;
        if (found !== undefined) throw ChatError.confusingVar(foundName!, candidate);
        found = v;
        foundName = candidate;
      }
      if (foundName !== undefined) used.add(foundName);
    }
    if (found === undefined) {
      if (spec.required) throw ChatError.missingArgument(spec.name);
      out[spec.name] = spec.default;
      continue;
    }
    // Django's <int:…> converter reads path digits as a base-10 integer (leading zeros and all).
    if (spec.in === 'path' && spec.type === 'int' && /^\d+$/.test(found)) {
      const n = Number(found);
      if (!Number.isSafeInteger(n)) throw ChatError.badRequest(`${spec.name} is not an integer`);
      out[spec.name] = spec.validate ? (spec.validate as Validate)(n, spec.name) : n;
      continue;
    }
    out[spec.name] = decodeParam(spec, found);
  }
  return out;
}

function lookup(spec: ParamSpec, raw: RawParams, name: string): string | undefined {
  if (spec.in === 'query') return raw.query.get(name);
  if (spec.in === 'body') return raw.body.get(name);
  // Zulip reads the form body first, then the query string.
  return raw.body.get(name) ?? raw.query.get(name);
}
