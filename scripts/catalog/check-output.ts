/**
 * Stage 6 (pure): every emitted JSON file is checked against its schema before anything is
 * written, so a generator bug can never publish a file that breaks the contract.
 *
 * Most objects appear in two files (a service in its detail file and in bundle.json; an area in
 * areas.json and in the bundle). Each object is checked once against each schema it must meet:
 * a list or the bundle is checked as its envelope (the schema with its item references relaxed)
 * plus each item against the item schema, remembered by object identity. Same verdict as checking
 * every file whole, half the work on a large site.
 */
import type { Outputs } from './emit.ts';
import { issue, type Issue } from './issues.ts';
import { schemaRegistry, type JsonSchema } from './schemas.ts';
import { pointerToField } from './validate.ts';

/** A schema's top-level `$ref`s (also as array items), by property: which parts can be memoized. */
interface Envelope {
  parts: Map<string, { schema: string; array: boolean }>;
}

const SUFFIX = '.schema.json';

/**
 * `passed` remembers, by object, the schemas each object met; `watch` keeps it across rebuilds,
 * so objects carried over unchanged from the last build are not checked again.
 */
export function checkOutputs(outputs: Outputs, passed = new WeakMap<object, Set<string>>()): Issue[] {
  const registry = schemaRegistry();
  const issues: Issue[] = [];

  function checkWhole(file: string, schema: string, value: unknown, at: string): void {
    if (value !== null && typeof value === 'object' && passed.get(value)?.has(schema)) return;
    const check = registry.validator(schema);
    if (check(value)) {
      if (value !== null && typeof value === 'object') passed.set(value, (passed.get(value) ?? new Set()).add(schema));
      return;
    }
    for (const e of check.errors ?? []) {
      const missing = e.keyword === 'required' ? `/${String((e.params as { missingProperty?: string }).missingProperty)}` : '';
      const inner = pointerToField(`${e.instancePath}${missing}`);
      const field = !at ? inner || '(root)' : !inner ? at : inner.startsWith('[') ? `${at}${inner}` : `${at}.${inner}`;
      issues.push(issue(`dist/${file}`, field, 'output_invalid', `${e.message ?? 'is invalid'} (schema ${schema})`));
    }
  }

  for (const [file, out] of outputs) {
    if (out.kind !== 'json' || out.schema === null) continue;
    const envelope = out.compose ? envelopeOf(out.schema) : null;
    if (!envelope) {
      checkWhole(file, out.schema, out.value, '');
      continue;
    }
    const value = out.value as Record<string, unknown>;
    checkWhole(file, `${out.schema}#envelope`, value, '');
    for (const [prop, part] of envelope.parts) {
      const field = value[prop];
      if (part.array && Array.isArray(field)) field.forEach((item, i) => checkWhole(file, part.schema, item, `${prop}[${i}]`));
      else if (!part.array) checkWhole(file, part.schema, field, prop);
    }
  }
  return issues;
}

const envelopes = new Map<string, Envelope | null>();

/**
 * The schema with every property that is a reference to another schema file (or an array of
 * them) relaxed to "any value", compiled once under a sibling $id so its other relative
 * references still resolve; null when the schema has no such property.
 */
function envelopeOf(name: string): Envelope | null {
  if (envelopes.has(name)) return envelopes.get(name) ?? null;
  const registry = schemaRegistry();
  const schema = registry.schemas.get(name) as JsonSchema & { properties?: Record<string, JsonSchema> };
  const parts = new Map<string, { schema: string; array: boolean }>();
  const properties: Record<string, JsonSchema> = {};
  for (const [prop, sub] of Object.entries(schema.properties ?? {})) {
    const items = sub.items as JsonSchema | undefined;
    const ref = (items?.$ref ?? sub.$ref) as string | undefined;
    if (ref && !ref.includes('#') && ref.endsWith(SUFFIX)) {
      parts.set(prop, { schema: ref.slice(0, -SUFFIX.length), array: Boolean(items) });
      properties[prop] = items ? { ...sub, items: {} } : {};
    } else {
      properties[prop] = sub;
    }
  }
  // Registered as `${name}#envelope`, the name checkOutputs validates the envelope under.
  if (parts.size > 0) registry.add(`${name}#envelope`, { ...schema, $id: String(schema.$id).replace(SUFFIX, `.envelope${SUFFIX}`), properties });
  const result = parts.size === 0 ? null : { parts };
  envelopes.set(name, result);
  return result;
}
