/**
 * Property-based fuzzing of the build through its front matter (fast-check): one content file of
 * a valid catalog gets random YAML types and shapes (a field set to any value, removed or added,
 * the whole front matter replaced, YAML-hostile text spliced in), and the whole build runs. The
 * property: the build succeeds with valid output, or fails with every problem located (a content
 * file and a field; a line for YAML errors and field problems), never throws, never blames its own output, and never
 * changes dist/ when it fails.
 *
 * Used by test/catalog/fuzz.test.ts (a seeded sample) and `npm run fuzz:catalog` (long runs).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import matter from 'gray-matter';
import { stringify } from 'yaml';
import { buildCatalog } from '../catalog/pipeline.ts';

export type Mutation =
  | { op: 'set'; key: string; at: number; value: unknown }
  | { op: 'delete'; key: string }
  | { op: 'add'; key: string; value: unknown }
  | { op: 'replace'; value: unknown }
  | { op: 'splice'; at: number; text: string };

export interface FuzzCase {
  /** Content file to break, relative to the content folder. */
  file: string;
  mutation: Mutation;
}

/** YAML scalars and shapes of every kind, including the ones editors type by accident. */
const yamlValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('', ' ', 'null', '~', 'yes', 'no', 'on', '0x1F', '1e309', '-.inf', '.nan', '2026-02-31', '2026-01-01', '/contacto/', 'meta-ads', 'captacion'),
    fc.integer(),
    fc.double(),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => Number(n)),
    fc.boolean(),
    fc.constant(null),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Text that YAML reads as structure: splicing it in anywhere tends to break the syntax. */
const hostile = fc.constantFrom(':', ': ', '- ', '[', ']', '{', '}', '"', "'", '#', '&a ', '*a', '!!binary ', '? ', '|', '>', '\t', '\n  ', '\n---\n', '%YAML 1.2\n', '\\', '\u0000', '\uFEFF', '@', '`');

export function fuzzCases(files: readonly string[], keysOf: (file: string) => readonly string[]): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...files).chain((file) => {
    const keys = keysOf(file);
    const key = fc.constantFrom(...keys);
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key, at: fc.nat(3), value: yamlValue }),
      fc.record({ op: fc.constant('delete' as const), key }),
      fc.record({ op: fc.constant('add' as const), key: fc.string({ maxLength: 10 }), value: yamlValue }),
      fc.record({ op: fc.constant('replace' as const), value: yamlValue }),
      fc.record({ op: fc.constant('splice' as const), at: fc.nat(), text: fc.array(hostile, { minLength: 1, maxLength: 3 }).map((t) => t.join('')) }),
    );
    return mutation.map((m) => ({ file, mutation: m }));
  });
}

/** The file's text after the mutation: front matter rewritten as YAML, or text spliced in. */
export function mutate(original: string, mutation: Mutation): string {
  const { data, content } = matter(original, {});
  const front = (value: unknown): string => `---\n${stringify(value, { keepUndefined: false })}---\n${content}`;
  switch (mutation.op) {
    case 'set': {
      const current = data[mutation.key];
      // Into a list item when there is one (process_steps[1] = …), else the field itself.
      if (Array.isArray(current) && current.length > 0) {
        const items = [...current];
        items[mutation.at % items.length] = mutation.value;
        return front({ ...data, [mutation.key]: items });
      }
      return front({ ...data, [mutation.key]: mutation.value });
    }
    case 'delete': {
      const { [mutation.key]: _gone, ...rest } = data;
      return front(rest);
    }
    case 'add':
      return front({ ...data, [mutation.key]: mutation.value });
    case 'replace':
      return front(mutation.value);
    case 'splice': {
      const end = original.indexOf('\n---', 3);
      const at = 4 + (mutation.at % Math.max(1, end - 4));
      return `${original.slice(0, at)}${mutation.text}${original.slice(at)}`;
    }
  }
}

async function treeDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const files = entries.map((e) => path.join(e.parentPath, e.name)).sort();
  for (const file of files) hash.update(`${path.relative(dir, file)}\0`).update(await readFile(file)).update('\0');
  return hash.digest('hex');
}

/** Problems of a field in the front matter: they must say on which line it is. */
const FIELD_CODES = new Set(['missing_field', 'unknown_field', 'wrong_type', 'invalid_value', 'slug_mismatch']);

/** What a case did: every way in which it broke the property, empty when it held. */
export interface CaseOutcome {
  ok: boolean;
  violations: string[];
}

/**
 * Run one case against a content folder (restored afterwards) and an output folder holding the
 * last good build. Never throws for a build's sake: a throw is itself a violation.
 */
export async function runCase(contentDir: string, outDir: string, c: FuzzCase): Promise<CaseOutcome> {
  const file = path.join(contentDir, c.file);
  const original = await readFile(file, 'utf8');
  const before = await treeDigest(outDir);
  const violations: string[] = [];
  let ok = false;
  try {
    await writeFile(file, mutate(original, c.mutation));
    const result = await buildCatalog({ contentDir, outDir, sourceDateEpoch: '' });
    ok = result.ok;
    if (!result.ok) {
      if (result.issues.length === 0) violations.push('failed without a problem');
      for (const i of result.issues) {
        const where = `${i.file}:${i.line ?? '?'}: ${i.field}: ${i.message} [${i.code}]`;
        if (i.code === 'output_invalid') violations.push(`the build emitted an invalid file: ${where}`);
        if (!i.file.startsWith('content/')) violations.push(`not located in a content file: ${where}`);
        if (!i.field) violations.push(`no field: ${where}`);
        if (i.line === undefined && (i.code === 'yaml_error' || FIELD_CODES.has(i.code))) violations.push(`no line: ${where}`);
      }
      if ((await treeDigest(outDir)) !== before) violations.push('a failed build changed dist/');
    }
  } catch (error) {
    violations.push(`the build threw: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await writeFile(file, original);
  }
  return { ok, violations };
}

/** The content files of a folder and the top-level front-matter keys of each. */
export async function contentKeys(contentDir: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const rel of (await readdir(contentDir, { recursive: true })).filter((f) => f.endsWith('.md') && f !== 'README.md').sort()) {
    const posix = rel.split(path.sep).join('/');
    out.set(posix, Object.keys(matter(await readFile(path.join(contentDir, rel), 'utf8'), {}).data));
  }
  return out;
}
