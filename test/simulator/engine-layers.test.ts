/**
 * The engine's modules import downward only: `core.ts` (the Engine type and the shared read
 * helpers) sits below every resource module, and no chain of runtime imports comes back to where it
 * started. A circle would make load order matter and tie every resource module to every other.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const engineDir = fileURLToPath(new URL('../../simulator/engine/', import.meta.url));
const files = fg.sync('**/*.ts', { cwd: engineDir, ignore: ['**/*.d.ts'] }).sort();

/** Runtime imports only: `import type` is erased and cannot form a load-order circle. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(path.join(engineDir, file), 'utf8');
  const out: string[] = [];
  for (const m of source.matchAll(/^import\s+(type\s+)?[^;]*?\s+from\s+'(\.[^']+)';/gms)) {
    if (m[1]) continue;
    out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2]!)));
  }
  return out.filter((target) => files.includes(target));
}

const graph = new Map(files.map((f) => [f, runtimeImports(f)]));

/** The first import circle found by depth-first search, as a path that ends where it began. */
function findCircle(): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  function visit(file: string): string[] | null {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  }
  for (const file of files) {
    if (state.has(file)) continue;
    const found = visit(file);
    if (found) return found;
  }
  return null;
}

describe('simulator/engine layering', () => {
  it('sees the import graph (core.ts is imported by the resource modules)', () => {
    const importers = files.filter((f) => graph.get(f)!.includes('core.ts'));
    expect(importers).toEqual(expect.arrayContaining(['users/users.ts', 'channels/subscriptions.ts', 'messages/send.ts']));
  });

  it('core.ts imports nothing but state, types and leaf helpers', () => {
    expect(graph.get('core.ts')!.sort()).toEqual(['md5.ts', 'state.ts']);
  });

  it('has no circle of runtime imports', () => {
    expect(findCircle()).toBeNull();
  });
});
