/**
 * The JSON Schemas of schemas/catalog/, loaded and compiled once per process (compiling is the
 * expensive part of ajv; validating is cheap). Front matter and emitted files are both checked
 * against these same files, and the TypeScript types are generated from them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fastFormats } from 'ajv-formats/dist/formats.js';
import { PROJECT_ROOT } from '../cli/root.ts';

export const SCHEMA_DIR = path.join(PROJECT_ROOT, 'schemas', 'catalog');
const SUFFIX = '.schema.json';

export type JsonSchema = Record<string, unknown>;

export interface SchemaRegistry {
  /** Schema name (file name without `.schema.json`) → parsed schema. */
  schemas: ReadonlyMap<string, JsonSchema>;
  validator(name: string): ValidateFunction;
  /** Compile a schema derived at run time (kept under `name` for later `validator` calls). */
  add(name: string, schema: JsonSchema): ValidateFunction;
}

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

function createRegistry(): SchemaRegistry {
  const schemas = new Map<string, JsonSchema>();
  for (const name of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(SUFFIX)).sort()) {
    schemas.set(name.slice(0, -SUFFIX.length), JSON.parse(readFileSync(path.join(SCHEMA_DIR, name), 'utf8')) as JsonSchema);
  }
  const ajv = new Ajv2020({ allErrors: true, strict: true, schemas: [...schemas.values()] });
  addFormats(ajv);
  // The full RFC 3986 `uri` regex was a hot spot on large sites; the fast form still requires a
  // scheme and no spaces, and our schemas pin `^https?://` on top of it. Dates stay full (they
  // reject 2026-02-31).
  ajv.addFormat('uri', fastFormats.uri);
  const compiled = new Map<string, ValidateFunction>();
  return {
    schemas,
    validator(name) {
      let fn = compiled.get(name);
      if (!fn) {
        const schema = schemas.get(name);
        if (!schema) throw new Error(`no schema named ${name} in schemas/catalog`);
        fn = ajv.getSchema(schema.$id as string);
        if (!fn) throw new Error(`schema ${name} did not compile`);
        compiled.set(name, fn);
      }
      return fn;
    },
    add(name, schema) {
      const fn = ajv.compile(schema);
      compiled.set(name, fn);
      return fn;
    },
  };
}

let registry: SchemaRegistry | undefined;

/** The process-wide registry, created on first use. */
export function schemaRegistry(): SchemaRegistry {
  registry ??= createRegistry();
  return registry;
}

export type { ErrorObject };
