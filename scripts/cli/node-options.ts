/**
 * The Node options an npm script of this project gives node before scripts/run.mjs
 * (`exec node --max-semi-space-size=32 scripts/run.mjs simulator` → `--max-semi-space-size=32`).
 * They are set in package.json, where a user's command gets them; the benchmarks read them from
 * there so that the processes they measure run as that command does, not as a copy of it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './root.ts';

/** The options of script `name`, which must read `[exec] node [--option…] scripts/run.mjs …`. */
export function nodeOptionsOf(scripts: Readonly<Record<string, string>>, name: string): string[] {
  const script = scripts[name];
  if (script === undefined) throw new Error(`package.json has no script "${name}"`);
  const words = script.trim().split(/\s+/);
  const nodeAt = words[0] === 'exec' ? 1 : 0;
  const runAt = words.indexOf('scripts/run.mjs');
  if (words[nodeAt] !== 'node' || runAt < nodeAt) {
    throw new Error(`package.json script "${name}" is not \`[exec] node [--option…] scripts/run.mjs …\`: ${script}`);
  }
  const options = words.slice(nodeAt + 1, runAt);
  const stray = options.find((word) => !word.startsWith('--'));
  if (stray !== undefined) throw new Error(`package.json script "${name}": "${stray}" before scripts/run.mjs is not a Node option`);
  return options;
}

/** The Node options of this project's npm script `name`. */
export function projectNodeOptions(name: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return nodeOptionsOf(manifest.scripts, name);
}
