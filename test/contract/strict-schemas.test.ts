/**
 * Zulip's description is strict (tools/test-api validates every answer with no undocumented key
 * allowed), so the chat schemas are: every object with properties also says what other keys may
 * be (false, or a schema for maps), or an undocumented, misnamed or leftover field would pass the
 * contract unseen. Predicates (if, not) describe no data, and the branches of a closed object
 * (oneOf, then, …) only narrow its properties; both
 * are left out, as are the success envelope (a route's fields are merged into it, each held
 * to its own schema) and GET /events' items (each event is held to its type's schema).
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
  if (schema.properties !== undefined && !closed && !refinement && !OPEN_BY_DESIGN.has(where)) out.push(where);
  for (const [key, child] of Object.entries(schema)) {
    if (PREDICATE_KEYS.has(key)) continue;
    openObjects(child, `${pointer}/${key}`, file, out, BRANCH_KEYS.has(key) && (closed || refinement));
  }
}

describe('schemas/chat are strict', () => {
  it.each(files)('%s: every object with properties closes them', (file) => {
    const out: string[] = [];
    openObjects(JSON.parse(readFileSync(`${SCHEMAS}${file}`, 'utf8')), '', file, out);
    expect(out).toEqual([]);
  });

  it('catches an object left open', () => {
    const out: string[] = [];
    openObjects({ type: 'object', additionalProperties: false, properties: { inner: { type: 'object', properties: { a: {} } } } }, '', 'x', out);
    expect(out).toEqual(['x#/properties/inner']);
  });
});
