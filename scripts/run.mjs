/**
 * Runs an entry point of the project as compiled JavaScript, compiling it first when it is
 * missing or older than any file it is made of. Every npm script goes through here, so an edit
 * to a .ts file takes effect on the next run without a manual step, and no run pays for
 * compiling TypeScript at start-up (tsx did, about 0.3 s per run).
 *
 *   node scripts/run.mjs <entry> [args…]      run an entry (see ENTRIES), compiling it if stale
 *   node scripts/run.mjs --compile [entry…]   compile entries (all by default): `npm run prepare`
 *   node scripts/run.mjs --package [--pack]   build the publishable package into lib/ (scripts/package.mjs);
 *                                             --pack: and swap the published package.json in (prepack)
 *   node scripts/run.mjs --restore            put the repository's package.json back (postpack)
 *
 * Each entry is bundled by esbuild into one ES module, packages included: one file to read and
 * no module resolution at start-up (measured faster than bundling only the project's own code,
 * and than tsc's file-per-module output). A CommonJS entry instead runs through V8's code cache
 * (scripts/code-cache.mjs), its stack traces mapped when first formatted (scripts/stack-map.mjs). The bundles live in node_modules/.cache/compiled/
 * (never committed; `npm ci` starts them afresh), each beside a manifest of its inputs with their
 * modification times and sizes: checking freshness is one stat per project file plus one for
 * node_modules/.package-lock.json, which npm rewrites whenever a package changes.
 *
 * With RUN_USAGE_FILE set, the process writes its resource usage (CPU time, peak RSS) there
 * as JSON when it exits: npm run bench:build measures whole processes with it.
 *
 * This file is plain JavaScript because it is what runs before anything is compiled. The tests
 * run the TypeScript sources directly (vitest); test/cli/run.test.ts covers this launcher.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runWithCodeCache } from './code-cache.mjs';
import { mapStackTraces } from './stack-map.mjs';

const ROOT = path.resolve(path.dirname(realpathSync(fileURLToPath(import.meta.url))), '..');

/** Entry name → its TypeScript source (or options, see EntryOptions). Entry points are only ever run, never imported. */
export const ENTRIES = {
  // CommonJS, for V8's code cache (as `simulator` below): a build's start is most of a small one.
  build: { source: 'scripts/build.ts', format: 'cjs' },
  serve: 'scripts/serve.ts',
  mcp: 'scripts/mcp.ts',
  // Its start is a user's wait (docs/performance.md, `startup`): CommonJS, so that it runs through
  // V8's code cache (scripts/code-cache.mjs). zxcvbn's dictionaries (800 KB, built into tables
  // when loaded: about 70 ms of CPU) are needed only by a fixture with production's password
  // rules: its stand-in loads them on first use.
  simulator: { source: 'scripts/simulator.ts', format: 'cjs', replace: { zxcvbn: 'scripts/package-shims/zxcvbn.cjs' } },
  start: 'scripts/start.ts',
  'deploy-config': 'scripts/deploy-config.ts',
  types: 'scripts/gen-types.ts',
  'bench-build': 'scripts/bench/build.ts',
  'bench-floor': 'scripts/bench/floor.ts',
  'bench-sim': 'scripts/bench/simulator.ts',
  'bench-serve': 'scripts/bench/serve.ts',
  'fuzz-catalog': 'scripts/fuzz/catalog.ts',
  'fuzz-simulator': 'scripts/fuzz/simulator.ts',
};

/**
 * Worker threads' modules, each bundled beside the entry points as NAME.mjs and compiled with
 * whichever entry runs, since any entry may start them (scripts/catalog/worker-entry.ts loads
 * them from there). Not commands: they are never run on their own.
 */
export const WORKERS = {
  'catalog-write-worker': 'scripts/catalog/write-worker.ts',
  'catalog-watch-worker': 'scripts/catalog/watch-worker.ts',
  'catalog-side-worker': 'scripts/catalog/side-worker.ts',
};

/** Changes whenever the compile options below change, so every bundle is rebuilt once. */
const FORMAT = 'esbuild-esm-node20-bundled-5';
/** npm rewrites it on every install, update or removal of a package. */
const PACKAGES_STAMP = 'node_modules/.package-lock.json';

/**
 * Packages' JSON data files → the fields of each record the code reads; the bundles keep only
 * those. emoji-datasource's emoji.json is 1.3 MB, of which the engine reads 0.24 MB (names and
 * code points). Its type declaration (simulator/engine/emoji/emoji-datasource.d.ts) lists the
 * same fields, so code reading any other field fails the type check; a test keeps the two lists
 * equal.
 */
export const PACKAGE_DATA_FIELDS = {
  'emoji-datasource/emoji.json': ['unified', 'short_name', 'short_names', 'has_img_google', 'has_img_twitter'],
};

/** ES module bundles get a `require` of their own: packages written as CommonJS call it for Node's built-ins. */
const REQUIRE_SHIM = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";
/**
 * A CommonJS bundle has no import.meta: its modules' import.meta.url is the bundle's own address,
 * which is where they look for their worker threads' bundles (scripts/catalog/worker-entry.ts).
 */
const CJS_IMPORT_META_URL = '__bundleUrl';
const CJS_IMPORT_META = "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;";

/**
 * An entry is its TypeScript source, or a source with options:
 *   format      'esm' (the default, written as NAME.mjs) or 'cjs' (NAME.cjs);
 *   executable  starts with a `#!/usr/bin/env node` line (a package's bin);
 *   link        project source → the specifier the bundle imports it by, instead of carrying a
 *               copy of it (another bundle of the same build);
 *   replace     package → a stand-in file under the root the bundle carries instead (replacePackages).
 * @typedef {{ source: string, format?: 'esm' | 'cjs', executable?: boolean, link?: Record<string, string>, replace?: Record<string, string> }} EntryOptions
 * @typedef {{ root: string, outdir: string, entries: Record<string, string | EntryOptions>, sourcemaps?: boolean }} Project
 * @typedef {{ format: string, inputs: [string, [number, number] | null][] }} Manifest
 */

/** @param {Project} project @param {string} name @returns {EntryOptions} */
function entryOptions(project, name) {
  const entry = project.entries[name];
  if (!entry) throw new Error(`unknown entry "${name}" (entries: ${Object.keys(project.entries).join(', ')})`);
  return typeof entry === 'string' ? { source: entry } : entry;
}

/**
 * Where the bundles go. A node_modules that is a link to another checkout's (hoisted
 * dependencies) would otherwise share one set of bundles between the two, each compiled from
 * whichever checkout ran last: a checkout then gets a folder of its own under it.
 */
function bundleFolder(/** @type {string} */ root) {
  const modules = path.join(root, 'node_modules');
  const base = path.join(modules, '.cache', 'compiled');
  let linked = false;
  try {
    linked = lstatSync(modules).isSymbolicLink();
  } catch {
    // No node_modules yet: the usual place.
  }
  return linked ? path.join(base, `checkout-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`) : base;
}

/** @type {Project} */
export const PROJECT = { root: ROOT, outdir: bundleFolder(ROOT), entries: { ...ENTRIES, ...WORKERS } };

/** @param {Project} project @param {string} name */
export function bundlePath(project, name) {
  return path.join(project.outdir, `${name}.${entryOptions(project, name).format === 'cjs' ? 'cjs' : 'mjs'}`);
}

/** @param {Project} project @param {string} name */
function manifestPath(project, name) {
  return path.join(project.outdir, `${name}.inputs.json`);
}

/** @param {string} file @returns {[number, number] | null} */
function stamp(file) {
  try {
    const st = statSync(file);
    return [st.mtimeMs, st.size];
  } catch {
    return null;
  }
}

/** True when the bundle exists and no input changed since it was made. */
export function isFresh(/** @type {Project} */ project, /** @type {string} */ name) {
  /** @type {Manifest} */
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(project, name), 'utf8'));
  } catch {
    return false;
  }
  if (manifest.format !== FORMAT || !stamp(bundlePath(project, name))) return false;
  // A file missing then and now (a project without packages) is no change either.
  return manifest.inputs.every(([rel, then]) => {
    const now = stamp(path.join(project.root, rel));
    return now === then || (now !== null && then !== null && now[0] === then[0] && now[1] === then[1]);
  });
}

/** Write beside, then rename: a concurrent run reads the old file or the new one, never half. */
function writeAtomically(/** @type {string} */ file, /** @type {string | Uint8Array} */ data) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** @type {import('esbuild').Plugin} */
const keepReadFieldsOnly = {
  name: 'keep-read-fields-only',
  setup(build) {
    const fieldsOf = (/** @type {string} */ file) => {
      const posix = file.split(path.sep).join('/');
      const key = Object.keys(PACKAGE_DATA_FIELDS).find((data) => posix.endsWith(`/node_modules/${data}`));
      return key === undefined ? undefined : PACKAGE_DATA_FIELDS[/** @type {keyof typeof PACKAGE_DATA_FIELDS} */ (key)];
    };
    build.onLoad({ filter: /\.json$/ }, (args) => {
      const fields = fieldsOf(args.path);
      if (!fields) return undefined;
      /** @type {Record<string, unknown>[]} */
      const records = JSON.parse(readFileSync(args.path, 'utf8'));
      const kept = records.map((record) => Object.fromEntries(fields.map((field) => [field, record[field]])));
      // As a string JSON.parse reads, not a JavaScript literal: V8 compiles a 0.24 MB array
      // literal at every start (about 7 ms of CPU for emoji.json), and parses the JSON in 2.
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(kept))});`, loader: 'js' };
    });
  },
};

/** @param {string} root @param {Record<string, string>} links @returns {import('esbuild').Plugin} */
function linkInsteadOfBundling(root, links) {
  const specifiers = new Map(Object.entries(links).map(([source, specifier]) => [path.join(root, source), specifier]));
  return {
    name: 'link-instead-of-bundling',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const specifier = specifiers.get(path.resolve(args.resolveDir, args.path));
        return specifier === undefined ? undefined : { path: specifier, external: true };
      });
    },
  };
}

/**
 * Packages an entry takes from a stand-in file instead of bundling them (`replace`: specifier →
 * file under the root); the stand-in's own `require` of the same name stays a real require.
 * @param {string} root @param {Record<string, string>} replacements @returns {import('esbuild').Plugin}
 */
function replacePackages(root, replacements) {
  const files = new Map(Object.entries(replacements).map(([specifier, file]) => [specifier, path.join(root, file)]));
  const filter = new RegExp(`^(${[...files.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
  return {
    name: 'replace-packages',
    setup(build) {
      build.onResolve({ filter }, (args) => {
        const file = files.get(args.path);
        if (file === undefined) return undefined;
        return args.importer === file ? { path: args.path, external: true } : { path: file };
      });
    },
  };
}

/**
 * Compile entries into the project's outdir. Throws an Error whose message lists esbuild's
 * diagnostics when the sources do not compile. Resolves to each entry's inputs (paths under the
 * project's root, packages' files included).
 * @param {Project} project @param {string[]} names @returns {Promise<Record<string, string[]>>}
 */
export async function compile(project, names) {
  const { build } = await import('esbuild');
  mkdirSync(project.outdir, { recursive: true });
  /** @type {Record<string, string[]>} */
  const inputs = {};
  await Promise.all(names.map(async (name) => {
    const { source, format = 'esm', executable = false, link, replace } = entryOptions(project, name);
    const banner = [executable ? '#!/usr/bin/env node' : '', format === 'esm' ? REQUIRE_SHIM : CJS_IMPORT_META].filter(Boolean).join('\n');
    let result;
    try {
      result = await build({
        absWorkingDir: project.root,
        entryPoints: { [name]: source },
        outdir: project.outdir,
        outExtension: { '.js': format === 'cjs' ? '.cjs' : '.mjs' },
        bundle: true,
        platform: 'node',
        format,
        target: 'node20',
        ...(banner ? { banner: { js: banner } } : {}),
        ...(format === 'cjs' ? { define: { 'import.meta.url': CJS_IMPORT_META_URL } } : {}),
        sourcemap: project.sourcemaps === false ? false : 'linked',
        sourcesContent: false,
        metafile: true,
        plugins: [keepReadFieldsOnly, ...(link ? [linkInsteadOfBundling(project.root, link)] : []), ...(replace ? [replacePackages(project.root, replace)] : [])],
        write: false,
        logLevel: 'silent',
      });
    } catch (error) {
      const errors = /** @type {{ errors?: { text: string, location?: { file: string, line: number, column: number } }[] }} */ (error).errors ?? [];
      const lines = errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text));
      throw new Error(`${source} does not compile:\n${lines.join('\n') || String(error)}`, { cause: error });
    }
    for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
    inputs[name] = Object.keys(result.metafile.inputs);
    // The project's own files are checked one by one; packages through npm's stamp.
    const own = inputs[name].filter((rel) => !rel.split('/').includes('node_modules'));
    /** @type {Manifest} */
    const manifest = { format: FORMAT, inputs: [...own, PACKAGES_STAMP].map((rel) => [rel, stamp(path.join(project.root, rel))]) };
    writeAtomically(manifestPath(project, name), `${JSON.stringify(manifest)}\n`);
  }));
  return inputs;
}

/** Compile errors are the user's to read: their message, exit 1, no stack of this launcher. */
async function compileOrExit(/** @type {string[]} */ names) {
  try {
    await compile(PROJECT, names);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

async function main() {
  const [first = '--help', ...rest] = process.argv.slice(2);
  if (first === '--package' || first === '--restore') {
    const { buildPackage, restoreSwapped, swapManifestForPacking } = await import('./package.mjs');
    try {
      if (first === '--restore') return await restoreSwapped();
      await buildPackage(compile);
      if (rest.includes('--pack')) await swapManifestForPacking();
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
    return;
  }
  if (first === '--compile') {
    const names = rest.length > 0 ? rest : Object.keys(PROJECT.entries);
    await compileOrExit(names);
    console.log(`Compiled ${names.length} entry point(s) into ${path.relative(process.cwd(), PROJECT.outdir)}`);
    return;
  }
  if (!(first in ENTRIES)) {
    const help = first === '--help' || first === '-h';
    (help ? console.log : console.error)(`Usage: node scripts/run.mjs <entry> [args…] | --compile [entry…] | --package [--pack] | --restore\nEntries: ${Object.keys(ENTRIES).join(', ')}`);
    if (!help) process.exit(2);
    return;
  }
  const stale = [first, ...Object.keys(WORKERS)].filter((name) => !isFresh(PROJECT, name));
  if (stale.length > 0) await compileOrExit(stale);
  const usageFile = process.env.RUN_USAGE_FILE;
  if (usageFile) {
    // For benchmarks: this process's own CPU time and peak memory, read after it exits.
    process.on('exit', () => writeFileSync(usageFile, JSON.stringify(process.resourceUsage())));
  }
  // The command's project is this checkout, whatever node_modules links to (scripts/cli/root.ts).
  process.env.TEAM_CHAT_PROJECT_ROOT = ROOT;
  const bundle = bundlePath(PROJECT, first);
  process.argv.splice(1, 2, bundle);
  // Stack traces then name the .ts sources, lines and columns.
  mapStackTraces(bundle);
  if (entryOptions(PROJECT, first).format === 'cjs') {
    runWithCodeCache(bundle);
    return;
  }
  await import(pathToFileURL(bundle).href);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
