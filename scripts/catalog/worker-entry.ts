/**
 * Starting a worker thread whose code is a TypeScript module of this project, from wherever the
 * caller runs:
 *
 * - compiled (every npm command: scripts/run.mjs bundles each entry point into one file), the
 *   worker is a bundle of its own beside the caller's (run.mjs's WORKERS), named `<name>.mjs`;
 * - from the sources (vitest), Node 20 cannot load the .ts module in a thread (no TypeScript
 *   loader of its own, and a worker's execArgv cannot carry `--import`), so it is bundled here
 *   with esbuild, as run.mjs would, once per process, and the thread runs that text. Registering
 *   tsx in each thread instead was tried: it made every build in the tests slower by its start-up.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const bundled = new Map<string, string>();

/**
 * `callerUrl`: the caller's import.meta.url; `name`: the worker's bundle name in run.mjs;
 * `source`: its module, relative to the caller's source.
 */
export function startWorker(callerUrl: string, name: string, source: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, callerUrl), options);
  const file = fileURLToPath(new URL(source, callerUrl));
  let code = bundled.get(file);
  if (code === undefined) {
    // Through createRequire, so that run.mjs's bundles never carry esbuild: this path is for the sources only.
    const esbuild = createRequire(callerUrl)('esbuild') as typeof import('esbuild');
    // A CommonJS bundle has no import.meta: its modules' address is the worker's source file
    // (scripts/cli/root.ts finds the project from it, as it does from any source file).
    const define = { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) };
    const result = esbuild.buildSync({ entryPoints: [file], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent', define });
    code = result.outputFiles[0]?.text ?? '';
    bundled.set(file, code);
  }
  return new Worker(code, { ...options, eval: true });
}
