/**
 * `npm run types` writes each shape once: a `$ref` to another schema file becomes an import of the
 * type generated from that file (scripts/gen-types.ts), not a copy of it. These read the committed
 * output, which `npm run check:types` holds equal to what the generator writes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const schemasDir = fileURLToPath(new URL('../../schemas/', import.meta.url));
const typesDir = fileURLToPath(new URL('../../schemas/generated/types/', import.meta.url));

/** Every `$ref` of a schema file that names another file: [schema, the referenced schema file]. */
function crossFileRefs(): [string, string][] {
  const out = new Set<string>();
  for (const rel of fg.sync('**/*.schema.json', { cwd: schemasDir })) {
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && !ref.startsWith('#')) {
        out.add(`${rel}\t${path.posix.normalize(path.posix.join(path.posix.dirname(rel), ref.split('#')[0]!))}`);
      }
      Object.values(node).forEach(walk);
    };
    walk(JSON.parse(readFileSync(path.join(schemasDir, rel), 'utf8')));
  }
  return [...out].sort().map((pair) => pair.split('\t') as [string, string]);
}

const typeFile = (schemaRel: string) => schemaRel.replace(/\.schema\.json$/, '.ts');
const declarations = (ts: string) => [...ts.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);

describe('generated types', () => {
  const refs = crossFileRefs();

  it('sees the schemas that reference others (user.schema.json from the responses)', () => {
    expect(refs).toContainEqual(['chat/responses/get-user.schema.json', 'chat/user.schema.json']);
  });

  it.each(refs)('%s imports the type of %s', (from, to) => {
    const ts = readFileSync(path.join(typesDir, typeFile(from)), 'utf8');
    let spec = path.posix.relative(path.posix.dirname(typeFile(from)), typeFile(to));
    if (!spec.startsWith('.')) spec = `./${spec}`;
    expect(ts).toMatch(new RegExp(`^import type \\{ [^}]+ \\} from '${spec.replace(/[.]/g, '\\.')}';$`, 'm'));
  });

  it('declares User and Message in their own files only', () => {
    const files = fg.sync('**/*.ts', { cwd: typesDir });
    const declaring = (name: string) => files.filter((f) => declarations(readFileSync(path.join(typesDir, f), 'utf8')).includes(name));
    expect(declaring('User')).toEqual(['chat/user.ts']);
    expect(declaring('Message')).toEqual(['chat/message.ts']);
  });
});
