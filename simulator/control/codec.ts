/**
 * The engine's state as JSON and back: Maps, Sets, bytes, `undefined` and the numbers JSON cannot
 * write (±Infinity, NaN, -0) become tagged objects (`{"$": "map", "entries": [[key, value], …]}`),
 * so that decoding gives back the very same structure, key types and iteration order included.
 * A plain object that happens to have a `$` key is wrapped (`{"$": "object", "value": …}`).
 *
 * An object held in several places (the state shares group-setting values, the event queues share
 * message payloads) is written once; its other places hold `{"$": "ref", "to": pointer}`, the JSON
 * pointer of that first place in the document, so decoding gives one object again and a change
 * through one place shows through the others, as before. Anything that is not data (functions,
 * class instances other than Map, Set and Uint8Array) is refused with its path.
 */

export class CodecError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(`${pointer || '(root)'}: ${message}`);
    this.name = 'CodecError';
  }
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const SPECIAL_NUMBERS: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

function specialNumberName(n: number): string | null {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0';
  return null;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A JSON pointer's reference token (RFC 6901). */
function token(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function encode(value: unknown): Json {
  const placed = new Map<object, string>();
  const walk = (v: unknown, at: string): Json => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number': {
        const name = specialNumberName(v);
        return name === null ? v : { $: 'number', value: name };
      }
      case 'undefined':
        return { $: 'undefined' };
      case 'object':
        break;
      default:
        throw new CodecError(`a ${typeof v} is not data`, at);
    }
    if (v === null) return null;
    const first = placed.get(v);
    if (first !== undefined) return { $: 'ref', to: first };
    placed.set(v, at);
    if (Array.isArray(v)) {
      const out: Json[] = [];
      for (let i = 0; i < v.length; i++) out.push(walk(v[i], `${at}/${i}`));
      return out;
    }
    if (v instanceof Map) {
      const entries: Json[] = [];
      let i = 0;
      for (const [k, item] of v) {
        entries.push([walk(k, `${at}/entries/${i}/0`), walk(item, `${at}/entries/${i}/1`)]);
        i++;
      }
      return { $: 'map', entries };
    }
    if (v instanceof Set) {
      const values: Json[] = [];
      let i = 0;
      for (const item of v) values.push(walk(item, `${at}/values/${i++}`));
      return { $: 'set', values };
    }
    if (v instanceof Uint8Array) return { $: 'bytes', base64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
    if (!isPlainObject(v)) throw new CodecError(`a ${(v as { constructor?: { name?: string } }).constructor?.name ?? 'class'} instance is not data`, at);
    const wrapped = '$' in v;
    const base = wrapped ? `${at}/value` : at;
    const out: { [key: string]: Json } = {};
    for (const [k, item] of Object.entries(v)) setOwn(out, k, walk(item, `${base}/${token(k)}`));
    return wrapped ? { $: 'object', value: out } : out;
  };
  return walk(value, '');
}

/** An own data property, whatever the key: `out[k] = …` with `__proto__` would set the prototype instead. */
function setOwn(out: object, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

export function decode(json: unknown): unknown {
  const placed = new Map<string, unknown>();
  const walk = (v: unknown, at: string): unknown => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
      throw new CodecError(`unexpected ${typeof v}`, at);
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      placed.set(at, out);
      v.forEach((item, i) => out.push(walk(item, `${at}/${i}`)));
      return out;
    }
    const o = v as Record<string, unknown>;
    if (!('$' in o)) return fillObject({}, o, at, at);
    switch (o.$) {
      case 'ref': {
        if (typeof o.to !== 'string' || !placed.has(o.to)) throw new CodecError('a ref must point ("to") at an object placed before it', at);
        return placed.get(o.to);
      }
      case 'map': {
        if (!Array.isArray(o.entries)) throw new CodecError('a map needs "entries": [[key, value], …]', at);
        const out = new Map<unknown, unknown>();
        placed.set(at, out);
        o.entries.forEach((entry: unknown, i) => {
          if (!Array.isArray(entry) || entry.length !== 2) throw new CodecError('a map entry is [key, value]', `${at}/entries/${i}`);
          out.set(walk(entry[0], `${at}/entries/${i}/0`), walk(entry[1], `${at}/entries/${i}/1`));
        });
        return out;
      }
      case 'set': {
        if (!Array.isArray(o.values)) throw new CodecError('a set needs "values": […]', at);
        const out = new Set<unknown>();
        placed.set(at, out);
        o.values.forEach((item: unknown, i) => out.add(walk(item, `${at}/values/${i}`)));
        return out;
      }
      case 'bytes': {
        if (typeof o.base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(o.base64)) throw new CodecError('bytes need "base64": a Base64 string', at);
        const out = new Uint8Array(Buffer.from(o.base64, 'base64'));
        placed.set(at, out);
        return out;
      }
      case 'number':
        if (typeof o.value !== 'string' || !(o.value in SPECIAL_NUMBERS)) throw new CodecError('a number is "NaN", "Infinity", "-Infinity" or "-0"', at);
        return SPECIAL_NUMBERS[o.value];
      case 'undefined':
        return undefined;
      case 'object':
        if (o.value === null || typeof o.value !== 'object' || Array.isArray(o.value)) throw new CodecError('"value" must be an object', at);
        return fillObject({}, o.value as Record<string, unknown>, at, `${at}/value`);
      default:
        throw new CodecError(`unknown tag ${JSON.stringify(o.$)}`, at);
    }
  };
  const fillObject = (out: Record<string, unknown>, from: Record<string, unknown>, at: string, base: string): Record<string, unknown> => {
    placed.set(at, out);
    for (const [k, item] of Object.entries(from)) setOwn(out, k, walk(item, `${base}/${token(k)}`));
    return out;
  };
  return walk(json, '');
}
