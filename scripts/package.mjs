/**
 * `npm run build:package` (and `prepack`, so `npm pack` and `npm publish` always ship a fresh
 * build): the published package, `team-chat-simulator`, made from scratch in lib/ (never
 * committed):
 *
 *   lib/index.cjs    the in-process API (simulator/index.ts) bundled with every package it uses,
 *                    so the package has no dependencies and installs offline
 *   lib/index.mjs    its ES module face, `export * from './index.cjs'`
 *   lib/cli.mjs      the `team-chat-simulator` command; it imports ./index.mjs, no second copy
 *   lib/types/       declarations of the public API, by tsc (tsconfig.package.json), marked
 *                    CommonJS by their own package.json because that is what they describe:
 *                    TypeScript then accepts them from ES modules and CommonJS files alike, under
 *                    every moduleResolution (node16 would refuse ES module declarations in a
 *                    CommonJS file)
 *   lib/THIRD_PARTY_LICENSES.txt   the notices of the bundled packages, which their licenses
 *                    require to travel with every copy
 *
 * The package's README is simulator/README.md: npm packs the README at the root, so prepack and
 * postpack swap it in and out there (scripts/package-readme.mjs), after this build.
 *
 * Why the code is CommonJS behind an ES module face: jest runs tests in its own CommonJS module
 * system, which on Node 20 cannot require an ES module, so one CommonJS build serves jest without
 * any configuration, and Node's `import` reads its export names from esbuild's annotation. One copy
 * of the code also means one copy of its classes (`instanceof FixtureError` holds whichever way
 * the package was loaded).
 *
 * The published package.json is the repository's without what only the repository needs
 * (`publishedManifest`: no scripts, so nothing runs at install and no install-scripts warning; no
 * devDependencies). npm packs the package.json on disk, so `prepack` swaps it for the published
 * one (`--package --pack`), keeping the repository's in lib/.packing/, and `postpack` puts it back
 * (`--restore`); a pack that died halfway is undone by the next build. `npm publish` would read
 * the repository's manifest again after postpack, so the package is published from its tarball
 * (`npm pack`, then `npm publish team-chat-simulator-<version>.tgz`), and `prepublishOnly` refuses
 * a publish from the folder.
 *
 * Bundling is scripts/run.mjs's compile(), the one place that knows how to build; this file only
 * says what goes into the package. Plain JavaScript, as run.mjs.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Not imported from run.mjs, which imports this module while it runs (a cycle would deadlock its
// top-level await): run.mjs hands its compile() to buildPackage().
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package's bundles, compiled as run.mjs compiles every entry point. */
export const PACKAGE = {
  root: ROOT,
  outdir: path.join(ROOT, 'lib'),
  entries: {
    // zxcvbn (800 KB of dictionaries, used only by production's password rules) is loaded from
    // beside the package when a fixture asks for those rules: scripts/package-shims/zxcvbn.cjs.
    index: { source: 'simulator/index.ts', format: /** @type {const} */ ('cjs'), replace: { zxcvbn: 'scripts/package-shims/zxcvbn.cjs' } },
    cli: { source: 'simulator/cli/team-chat-simulator.ts', executable: true, link: { 'simulator/index.ts': './index.mjs' } },
  },
  // A map would point at sources the package does not ship.
  sourcemaps: false,
};

const ESM_FACE = "// The package's code is ./index.cjs (see scripts/package.mjs); Node reads its export names.\nexport * from './index.cjs';\n";

/** tsc writes relative imports as the sources spell them, `./core.ts`; a published declaration names `./core.js`. */
export function publishedSpecifiers(/** @type {string} */ declaration) {
  return declaration.replace(/(['"])(\.{1,2}\/[^'"]*?)\.ts\1/g, '$1$2.js$1');
}

/**
 * A declaration that uses Node's types (Buffer, node:http) says so: TypeScript 6 and later load
 * no @types package unless something names it (`types` defaults to []), and a consumer should
 * not have to add `"types": ["node"]` for the package's sake.
 */
export function withNodeReference(/** @type {string} */ declaration) {
  const usesNode = /\bBuffer\b|\bNodeJS\.|from ['"]node:/.test(declaration.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''));
  return usesNode && !declaration.includes('/// <reference types="node"') ? `/// <reference types="node" />\n${declaration}` : declaration;
}

async function emitDeclarations() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.package.json')], { cwd: ROOT });
  } catch (error) {
    const { stdout = '', stderr = '' } = /** @type {{ stdout?: string, stderr?: string }} */ (error);
    throw new Error(`the package's declarations do not compile:\n${stdout}${stderr}`, { cause: error });
  }
  const dir = path.join(PACKAGE.outdir, 'types');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    await writeFile(file, withNodeReference(publishedSpecifiers(await readFile(file, 'utf8'))));
  }
}

/** The folder of the package a bundled file came from (`node_modules/@scope/name`), or undefined for the project's own. */
export function packageDirOf(/** @type {string} */ input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const length = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + length).join('/');
}

/** Every bundled package's name, version, license and license text, in name order. */
async function thirdPartyNotices(/** @type {string[]} */ inputs) {
  const dirs = [...new Set(inputs.map(packageDirOf).filter((dir) => dir !== undefined))];
  const packages = await Promise.all(dirs.map(async (dir) => {
    const abs = path.join(ROOT, dir);
    const manifest = JSON.parse(await readFile(path.join(abs, 'package.json'), 'utf8'));
    const licenseFile = (await readdir(abs)).sort().find((name) => /^licen[cs]e(\.|$)/i.test(name));
    const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
    const text = licenseFile
      ? (await readFile(path.join(abs, licenseFile), 'utf8')).trim()
      : `(the package ships no license file; its package.json says ${manifest.license}${author ? `, by ${author}` : ''})`;
    return { name: manifest.name, version: manifest.version, license: manifest.license, text };
  }));
  packages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const header = 'team-chat-simulator bundles the following packages into lib/index.cjs and lib/cli.mjs.\nEach one\'s license follows.\n';
  return [header, ...packages.map((p) => `\n==== ${p.name} ${p.version} (${p.license}) ====\n\n${p.text}\n`)].join('');
}

/** The manifest the package is published with: the repository's, without scripts and devDependencies. */
export function publishedManifest(/** @type {Record<string, unknown>} */ manifest) {
  const { scripts: _scripts, devDependencies: _devDependencies, ...published } = manifest;
  return published;
}

/** Where the repository's own files wait while npm packs the published ones in their place. */
const PACKING = path.join(PACKAGE.outdir, '.packing');

/** Put back every file swapped for packing (after a pack, or one that died halfway). */
export async function restoreSwapped() {
  let names;
  try {
    names = await readdir(PACKING);
  } catch {
    return;
  }
  for (const name of names) await rename(path.join(PACKING, name), path.join(ROOT, name));
  await rm(PACKING, { recursive: true, force: true });
}

/** Keep the repository's `name` (a top-level file) aside and write `text` in its place, until restoreSwapped(). */
export async function swapForPacking(/** @type {string} */ name, /** @type {string} */ text) {
  await mkdir(PACKING, { recursive: true });
  await rename(path.join(ROOT, name), path.join(PACKING, name));
  await writeFile(path.join(ROOT, name), text);
}

/** Swap the published manifest in for `npm pack` (prepack). */
export async function swapManifestForPacking() {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  await swapForPacking('package.json', `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
}

/** @param {(project: typeof PACKAGE, names: string[]) => Promise<Record<string, string[]>>} compile scripts/run.mjs's */
export async function buildPackage(compile) {
  await restoreSwapped();
  await rm(PACKAGE.outdir, { recursive: true, force: true });
  const inputs = await compile(PACKAGE, Object.keys(PACKAGE.entries));
  await Promise.all(Object.keys(PACKAGE.entries).map((name) => rm(path.join(PACKAGE.outdir, `${name}.inputs.json`))));
  await writeFile(path.join(PACKAGE.outdir, 'index.mjs'), ESM_FACE);
  await writeFile(path.join(PACKAGE.outdir, 'THIRD_PARTY_LICENSES.txt'), await thirdPartyNotices(Object.values(inputs).flat()));
  await emitDeclarations();
  console.log(`Built the package into ${path.relative(process.cwd(), PACKAGE.outdir) || '.'}`);
}
