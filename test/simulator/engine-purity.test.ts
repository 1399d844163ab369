/**
 * The engine is pure (README): the same seed and the same calls give the same state,
 * in any runtime. Time comes from the injected clock and randomness from the seeded generator, so
 * no engine module may import a node:* API, read the wall clock or call Math.random.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const engineDir = fileURLToPath(new URL('../../simulator/engine/', import.meta.url));
const files = fg.sync('**/*.ts', { cwd: engineDir }).sort();

const FORBIDDEN: [string, RegExp][] = [
  ['a node:* import', /\bfrom\s+['"]node:|\bimport\(\s*['"]node:|\brequire\(\s*['"]node:/],
  ['Date.now()', /\bDate\.now\s*\(/],
  ['new Date() (the current time)', /\bnew\s+Date\s*\(\s*\)/],
  ['Math.random()', /\bMath\.random\s*\(/],
];

describe('simulator/engine purity', () => {
  it('finds the engine modules', () => {
    expect(files).toContain('engine.ts');
  });

  it.each(files)('%s uses no node:* import, wall clock or Math.random', async (file) => {
    const source = await readFile(path.join(engineDir, file), 'utf8');
    const found = FORBIDDEN.filter(([, pattern]) => pattern.test(source)).map(([what]) => what);
    expect(found).toEqual([]);
  });
});
