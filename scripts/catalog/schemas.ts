/**
 * The JSON Schemas of schemas/catalog/ and their validators. Front matter and emitted files are
 * both checked against these same files, and the TypeScript types are generated from them.
 * The validators are ajv's, compiled ahead of time by `npm run types` into
 * schemas/generated/catalog/validators.ts (compiling them at every start was about 0.3 s of each build).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { validators } from '../../schemas/generated/catalog/validators.ts';
import { readSchemaFiles, SCHEMA_DIR, type JsonSchema } from './schema-files.ts';

export { SCHEMA_DIR, type JsonSchema };

/** A compiled schema: true when the value meets it; otherwise `errors` says where and why. */
export interface SchemaCheck {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface SchemaRegistry {
  /** Schema name (file name without `.schema.json`) → parsed schema. */
  schemas: ReadonlyMap<string, JsonSchema>;
  /** The validator of a schema, or of a list's envelope (`name#envelope`, envelopes.ts). */
  validator(name: string): SchemaCheck;
}

const compiled = validators as unknown as Record<string, SchemaCheck>;

function createRegistry(): SchemaRegistry {
  const schemas = readSchemaFiles();
  return {
    schemas,
    validator(name) {
      const fn = Object.hasOwn(compiled, name) ? compiled[name] : undefined;
      if (!fn) {
        throw new Error(schemas.has(name.replace(/#envelope$/, ''))
          ? `schema ${name} has no generated validator: run \`npm run types\``
          : `no schema named ${name} in schemas/catalog`);
      }
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
