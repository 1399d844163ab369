/**
 * The project's root folder (where package.json is), found from this module's own address. The
 * entry points run either from their TypeScript sources or compiled into one file elsewhere
 * (scripts/run.mjs), so no fixed number of `..` steps would be right in both.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
