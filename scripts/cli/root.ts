/**
 * The project's root folder (where package.json is). Not found from the compiled bundle's own
 * address: the bundles live under node_modules/.cache/, and a node_modules that is a link to
 * another checkout's (hoisted dependencies in a workspace) would make every command build and
 * serve that other checkout. In order:
 *
 * 1. the launcher's word: scripts/run.mjs, which every npm command goes through, sets
 *    TEAM_CHAT_PROJECT_ROOT to the folder above its own real path (a checkout's scripts/ is
 *    never linked);
 * 2. this module's own address, when it is a source file of the project (vitest, tsx);
 * 3. the nearest package.json above the working directory (npm runs scripts from the package's
 *    folder).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT_VARIABLE = 'TEAM_CHAT_PROJECT_ROOT';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export function projectRoot(env: NodeJS.ProcessEnv = process.env, moduleFile = fileURLToPath(import.meta.url), cwd = process.cwd()): string {
  const given = env[ROOT_VARIABLE];
  if (given) return path.resolve(given);
  if (!moduleFile.split(path.sep).includes('node_modules')) return findRoot(path.dirname(moduleFile));
  return findRoot(cwd);
}

export const PROJECT_ROOT = projectRoot();
