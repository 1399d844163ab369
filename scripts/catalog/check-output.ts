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
import { performance } from 'node:perf_hooks';
import type { Outputs } from './emit.ts';
import { issue, type Issue } from './issues.ts';
import { envelopeName, envelopeOf, type Envelope } from './envelopes.ts';
import { schemaRegistry } from './schemas.ts';
import { pointerToField } from './validate.ts';

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
    if (out.schema === SEARCH_SCHEMA) {
      const value = out.value;
      if (value !== null && typeof value === 'object' && passed.get(value)?.has(SEARCH_SCHEMA)) continue;
      if (searchIndexPasses(value, registry.validator(SEARCH_SCHEMA))) {
        passed.set(value as object, (passed.get(value as object) ?? new Set()).add(SEARCH_SCHEMA));
        continue;
      }
      // Something is wrong: the whole schema names every problem, exactly as it always has.
    }
    const envelope = out.compose ? envelopeFor(out.schema) : null;
    if (!envelope) {
      checkWhole(file, out.schema, out.value, '');
      continue;
    }
    const value = out.value as Record<string, unknown>;
    checkWhole(file, envelopeName(out.schema), value, '');
    for (const [prop, part] of envelope.parts) {
      const field = value[prop];
      if (part.array && Array.isArray(field)) field.forEach((item, i) => checkWhole(file, part.schema, item, `${prop}[${i}]`));
      else if (!part.array) checkWhole(file, part.schema, field, prop);
    }
  }
  return issues;
}

/**
 * The same check and the same issues, file by file, giving the event loop back every `sliceMs`:
 * the build runs it while its writer threads already write and compress the outputs (into a
 * fresh folder, which replaces dist/ only if the check passes).
 */
export async function checkOutputsInSlices(outputs: Outputs, passed = new WeakMap<object, Set<string>>(), sliceMs = 10): Promise<Issue[]> {
  const issues: Issue[] = [];
  let sliceStart = performance.now();
  for (const entry of outputs) {
    issues.push(...checkOutputs(new Map([entry]), passed));
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return issues;
}

const SEARCH_SCHEMA = 'search';

/**
 * search.json against its schema without walking its term list through the validator: that list
 * is most of the file (every term of the catalog, with a count per field and document) and
 * checking it through the compiled schema was 0.6 s of a 10,000-document build. The file is
 * checked by the schema with an empty term list in its place, and the term list here, against
 * exactly what schemas/catalog/search.schema.json asks of it (`index.index`: pairs of a
 * non-empty term and field id → document id → integer count ≥ 1, tested as Ajv tests them).
 * True only when both pass; on false the caller checks the whole file with the schema, so the
 * problems are reported as before, at their place.
 */
export function searchIndexPasses(value: unknown, validate: (v: unknown) => boolean): boolean {
  if (!isRecord(value) || !isRecord(value.index) || !Array.isArray(value.index.index)) return false;
  if (!termsWellFormed(value.index.index)) return false;
  return validate({ ...value, index: { ...value.index, index: [] } });
}

function termsWellFormed(terms: readonly unknown[]): boolean {
  for (const entry of terms) {
    if (!Array.isArray(entry) || entry.length !== 2) return false;
    const [term, fields] = entry as [unknown, unknown];
    if (typeof term !== 'string' || term.length < 1 || !isRecord(fields)) return false;
    // Values only: the keys are unconstrained, and making a string of each document number
    // (as for…in does) was most of this loop's time.
    for (const docs of Object.values(fields)) {
      if (!isRecord(docs)) return false;
      for (const count of Object.values(docs)) {
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return false;
      }
    }
  }
  return true;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const envelopes = new Map<string, Envelope | null>();

/** The schema's envelope (envelopes.ts), worked out once per process; null when it has none. */
function envelopeFor(name: string): Envelope | null {
  let envelope = envelopes.get(name);
  if (envelope === undefined) {
    const schema = schemaRegistry().schemas.get(name);
    envelope = schema ? envelopeOf(schema) : null;
    envelopes.set(name, envelope);
  }
  return envelope;
}
