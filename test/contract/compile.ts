/**
 * The chat schemas compiled once per change, not once per test file: ajv's standalone code for
 * every schema (and the envelope's definitions) in one CommonJS module under
 * node_modules/.cache/chat-contract/, named by a hash of the schemas and of ajv's version. Vitest's
 * global setup writes it before the workers start; each worker then loads it in milliseconds
 * instead of generating the validators again (/register's alone takes seconds).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import fg from 'fast-glob';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMAS = path.join(ROOT, 'schemas');
const CACHE = path.join(ROOT, 'node_modules/.cache/chat-contract');
const require = createRequire(import.meta.url);
// A CommonJS module whose exports are the function itself, with `default` pointing to it too.
const standaloneCode = standaloneModule.default;

/** Changes whenever the options below or the module's layout change. */
const FORMAT = 'chat-contract-1';

/** Every chat schema by its $id (its path under schemas/). */
export interface SchemaSet {
  schemas: { id: string; text: string }[];
  hash: string;
}

export const AJV_OPTIONS: Options = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true };

/** Definitions the contract validates on their own, besides whole files. */
export const EXTRA_IDS = ['chat/envelope.schema.json#/definitions/SuccessEnvelope', 'chat/envelope.schema.json#/definitions/ErrorEnvelope', 'chat/envelope.schema.json#/definitions/MethodNotAllowed'];

export function readSchemas(): SchemaSet {
  const hash = createHash('sha256').update(FORMAT).update((require('ajv/package.json') as { version: string }).version);
  const schemas = fg.sync('chat/**/*.schema.json', { cwd: SCHEMAS }).sort().map((id) => {
    const text = readFileSync(path.join(SCHEMAS, id), 'utf8');
    hash.update(id).update('\0').update(text).update('\0');
    return { id, text };
  });
  return { schemas, hash: hash.digest('hex').slice(0, 16) };
}

export function newAjv(set: SchemaSet, source = false): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source } });
  // json-schema-to-typescript's keyword: the TypeScript type a schema stands for.
  ajv.addKeyword('tsType');
  for (const { id, text } of set.schemas) {
    const schema = JSON.parse(text) as { $id?: string };
    if (schema.$id !== id) throw new Error(`schemas/${id}: its $id must be "${id}" (got ${JSON.stringify(schema.$id)})`);
    ajv.addSchema(schema);
  }
  return ajv;
}

function modulePath(set: SchemaSet): string {
  return path.join(CACHE, `validators-${set.hash}.cjs`);
}

/** Write the compiled module for these schemas unless it is there already; answers its path. */
export function ensureCompiled(set: SchemaSet = readSchemas()): string {
  const target = modulePath(set);
  if (existsSync(target)) return target;
  const ajv = newAjv(set, true);
  const ids = [...set.schemas.map((s) => s.id), ...EXTRA_IDS];
  const names: Record<string, string> = {};
  ids.forEach((id, i) => {
    names[`v${i}`] = id;
  });
  const code = `${standaloneCode(ajv, names)}\nmodule.exports.ids = ${JSON.stringify(names)};\n`;
  mkdirSync(CACHE, { recursive: true });
  // Several workers may race to write it: each writes its own file and renames it into place.
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, code);
  renameSync(temp, target);
  // Modules of earlier schemas are of no further use.
  for (const file of readdirSync(CACHE)) {
    if (/^validators-[0-9a-f]+\.cjs$/.test(file) && path.join(CACHE, file) !== target) rmSync(path.join(CACHE, file), { force: true });
  }
  return target;
}

/** The compiled validators by $id, when the module for exactly these schemas exists; else null. */
export function loadCompiled(set: SchemaSet): Map<string, ValidateFunction> | null {
  const target = modulePath(set);
  if (!existsSync(target)) return null;
  const mod = require(target) as Record<string, ValidateFunction> & { ids: Record<string, string> };
  return new Map(Object.entries(mod.ids).map(([name, id]) => [id, mod[name]!]));
}
