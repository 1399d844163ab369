/**
 * Zulip's description is strict (tools/test-api validates every answer with no undocumented key
 * allowed), so the chat schemas are: every object with properties also says what other keys may
 * be (false, or a schema for maps), or an undocumented, misnamed or leftover field would pass the
 * contract unseen. An object type with no properties at all is as open, and a map's values must
 * be a schema, not `true` or `{}`. Predicates (if, not) describe no data, and the branches of a
 * closed object (oneOf, then, …) only narrow its properties, as does an allOf member beside a
 * $ref (a closed schema the member only adds requirements to); all those are left out, as are
 * the success envelope (a route's fields are merged into it, each held to its own schema) and
 * GET /events' items (each event is held to its type's schema). And a closed object may require
 * only the keys it declares (undeclaredRequired, below).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const SCHEMAS = fileURLToPath(new URL('../../schemas/chat/', import.meta.url));
const files = fg.sync('**/*.schema.json', { cwd: SCHEMAS, ignore: ['fixture.schema.json'] }).sort();
const OPEN_BY_DESIGN = new Set(['envelope.schema.json#/definitions/SuccessEnvelope', 'responses/get-events.schema.json#/properties/events/items']);
const PREDICATE_KEYS = new Set(['if', 'not']);

const BRANCH_KEYS = new Set(['oneOf', 'anyOf', 'allOf', 'then', 'else']);

/** `refinement`: a branch of a closed object (its oneOf, then, …), which narrows the closed properties and adds none. */
function openObjects(node: unknown, pointer: string, file: string, out: string[], refinement = false): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => openObjects(child, `${pointer}/${i}`, file, out, refinement));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  const where = `${file}#${pointer}`;
  const closed = schema.additionalProperties !== undefined || schema.patternProperties !== undefined;
  const extra = schema.additionalProperties;
  const openMap = extra === true || (extra !== null && typeof extra === 'object' && Object.keys(extra).length === 0);
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const shapeless = types.includes('object') && schema.properties === undefined;
  if (!refinement && !OPEN_BY_DESIGN.has(where) && (openMap || (!closed && (schema.properties !== undefined || shapeless)))) out.push(where);
  // An allOf beside a $ref narrows the referenced (closed) schema.
  const refined = Array.isArray(schema.allOf) && (schema.allOf as unknown[]).some((m) => m !== null && typeof m === 'object' && '$ref' in m);
  for (const [key, child] of Object.entries(schema)) {
    if (PREDICATE_KEYS.has(key)) continue;
    const branch = BRANCH_KEYS.has(key) && (closed || refinement || (key === 'allOf' && refined));
    openObjects(child, `${pointer}/${key}`, file, out, branch);
  }
}

/**
 * Required keys a closed object does not declare: a misnamed key (the documented name in
 * `properties`, another in `required`) makes the object unsatisfiable, so every response carrying
 * it would fail rather than point at the name. `allowed` is what the enclosing closed object
 * declares, for its branches (oneOf, then, …), which may require any of those keys.
 */
function undeclaredRequired(node: unknown, pointer: string, file: string, out: string[], allowed?: ReadonlySet<string>): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => undeclaredRequired(child, `${pointer}/${i}`, file, out, allowed));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  const own = schema.properties !== undefined ? Object.keys(schema.properties as object) : [];
  const here = schema.additionalProperties === false ? new Set([...(allowed ?? []), ...own]) : allowed && new Set([...allowed, ...own]);
  if (here && schema.patternProperties === undefined) {
    for (const key of (schema.required as string[] | undefined) ?? []) if (!here.has(key)) out.push(`${file}#${pointer} requires ${key}`);
  }
  for (const [key, child] of Object.entries(schema)) {
    if (BRANCH_KEYS.has(key) || PREDICATE_KEYS.has(key)) undeclaredRequired(child, `${pointer}/${key}`, file, out, here);
    else if (key === 'properties' || key === 'definitions' || key === 'patternProperties') {
      for (const [name, sub] of Object.entries(child as object)) undeclaredRequired(sub, `${pointer}/${key}/${name}`, file, out);
    } else if (key === 'items' || key === 'additionalProperties') undeclaredRequired(child, `${pointer}/${key}`, file, out);
  }
}

describe('schemas/chat are strict', () => {
  it.each(files)('%s: every object with properties closes them', (file) => {
    const out: string[] = [];
    openObjects(JSON.parse(readFileSync(`${SCHEMAS}${file}`, 'utf8')), '', file, out);
    expect(out).toEqual([]);
  });

  it.each(files)('%s: a closed object requires only keys it declares', (file) => {
    const out: string[] = [];
    undeclaredRequired(JSON.parse(readFileSync(`${SCHEMAS}${file}`, 'utf8')), '', file, out);
    expect(out).toEqual([]);
  });

  it('catches a required key the closed object names otherwise', () => {
    const out: string[] = [];
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['stream_id'],
      properties: { channel_id: {} },
      oneOf: [{ required: ['channel_id'] }, { required: ['topic'] }],
    };
    undeclaredRequired(schema, '', 'x', out);
    expect(out).toEqual(['x# requires stream_id', 'x#/oneOf/1 requires topic']);
  });

  it('catches an object left open', () => {
    const out: string[] = [];
    openObjects({ type: 'object', additionalProperties: false, properties: { inner: { type: 'object', properties: { a: {} } } } }, '', 'x', out);
    expect(out).toEqual(['x#/properties/inner']);
  });

  it('catches a shapeless object and a map open to any value', () => {
    const out: string[] = [];
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: { bare: { type: ['object', 'null'] }, map: { type: 'object', additionalProperties: true }, any: { type: 'object', additionalProperties: {} } },
    };
    openObjects(schema, '', 'x', out);
    expect(out).toEqual(['x#/properties/bare', 'x#/properties/map', 'x#/properties/any']);
  });

  it('lets an allOf member beside a $ref only add requirements', () => {
    const out: string[] = [];
    openObjects({ allOf: [{ $ref: 'user.schema.json' }, { type: 'object', required: ['is_active'] }] }, '', 'x', out);
    expect(out).toEqual([]);
    openObjects({ allOf: [{ type: 'object', properties: { a: {} } }, { type: 'object', required: ['a'] }] }, '', 'y', out);
    expect(out).toEqual(['y#/allOf/0', 'y#/allOf/1']);
  });
});
