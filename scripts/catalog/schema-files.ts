/**
 * The JSON Schemas of schemas/catalog/, parsed: the single source of truth that the TypeScript
 * types, the generated validators (validator-code.ts) and openapi.json are all made from.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../cli/root.ts';

export const SCHEMA_DIR = path.join(PROJECT_ROOT, 'schemas', 'catalog');
const SUFFIX = '.schema.json';

export type JsonSchema = Record<string, unknown>;

/** Schema name (file name without `.schema.json`) → parsed schema, in name order. */
export function readSchemaFiles(dir = SCHEMA_DIR): Map<string, JsonSchema> {
  const schemas = new Map<string, JsonSchema>();
  for (const name of readdirSync(dir).filter((f) => f.endsWith(SUFFIX)).sort()) {
    schemas.set(name.slice(0, -SUFFIX.length), JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as JsonSchema);
  }
  return schemas;
}
