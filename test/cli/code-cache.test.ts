/**
 * scripts/code-cache.mjs and scripts/stack-map.mjs: how scripts/run.mjs runs a CommonJS entry
 * (`npm run simulator`). A start reuses the code an earlier start compiled, only while that code
 * is the bundle's; a cache that is stale, damaged or cannot be written changes nothing a user
 * sees; stack traces still name the .ts sources.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled).
import { bundlePath, compile } from '../../scripts/run.mjs';
import { ROOT, cleanupTemp, tempDir } from '../catalog/helpers.ts';

const run = promisify(execFile);
afterAll(cleanupTemp);

interface Project {
  root: string;
  outdir: string;
  entries: Record<string, { source: string; format: 'cjs' }>;
}

/** Runs a bundle as scripts/run.mjs runs a CommonJS entry; stderr's last line says whether V8 took the cache. */
const DRIVER = `
import { runWithCodeCache } from ${JSON.stringify(path.join(ROOT, 'scripts/code-cache.mjs'))};
import { mapStackTraces } from ${JSON.stringify(path.join(ROOT, 'scripts/stack-map.mjs'))};
const bundle = process.argv[1];
mapStackTraces(bundle);
console.error(runWithCodeCache(bundle) ? 'cached' : 'compiled');
`;

async function tinyProject(greeting = 'hello'): Promise<Project> {
  const root = await tempDir('code-cache-test-');
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src/greet.ts'), `export function greet(name: string): string {\n  if (name === 'boom') throw new Error('no greeting for boom');\n  return \`${greeting} \${name}\`;\n}\n`);
  await writeFile(path.join(root, 'src/hello.ts'), "import { greet } from './greet.ts';\nconsole.log(greet(process.argv[2] ?? 'world'));\n");
  const project: Project = { root, outdir: path.join(root, 'out'), entries: { hello: { source: 'src/hello.ts', format: 'cjs' } } };
  await compile(project, ['hello']);
  return project;
}

/** The one code cache beside the bundle (the driver's runs all have the same Node options). */
async function cacheOf(bundle: string): Promise<string> {
  const caches = (await readdir(path.dirname(bundle))).filter((f) => f.startsWith(`${path.basename(bundle)}.`) && f.endsWith('.v8-cache'));
  expect(caches).toHaveLength(1);
  return path.join(path.dirname(bundle), caches[0]!);
}

async function start(project: Project, name = 'ana'): Promise<{ stdout: string; how: string }> {
  const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', DRIVER, bundlePath(project, 'hello'), name]);
  return { stdout, how: stderr.trim().split('\n').at(-1)! };
}

describe("a CommonJS entry through V8's code cache", () => {
  it('the first start compiles and leaves the cache; the next one takes it and does the same', async () => {
    const project = await tinyProject();
    expect(await start(project)).toEqual({ stdout: 'hello ana\n', how: 'compiled' });
    await expect(readFile(await cacheOf(bundlePath(project, 'hello')))).resolves.toBeDefined();
    expect(await start(project)).toEqual({ stdout: 'hello ana\n', how: 'cached' });
    expect(await start(project, 'bo')).toEqual({ stdout: 'hello bo\n', how: 'cached' });
  });

  it('a bundle compiled anew never runs the old code, even at the same size and time, and its cache is made again', async () => {
    const project = await tinyProject('hello');
    const bundle = bundlePath(project, 'hello');
    await start(project);
    const old = await readFile(await cacheOf(bundle));
    // The same length of text: V8's own check of a cache compares only the source's length.
    await writeFile(path.join(project.root, 'src/greet.ts'), (await readFile(path.join(project.root, 'src/greet.ts'), 'utf8')).replace('hello', 'howdy'));
    await compile(project, ['hello']);
    expect(await start(project)).toEqual({ stdout: 'howdy ana\n', how: 'compiled' });
    const remade = await readFile(await cacheOf(bundle));
    expect(remade.subarray(0, 32).equals(old.subarray(0, 32))).toBe(false);
    const key = createHash('sha256').update(`${process.version} ${process.arch}\n`).update(await readFile(bundle)).update(remade.subarray(36)).digest();
    expect(remade.subarray(0, 32).equals(key)).toBe(true);
    expect(await start(project)).toEqual({ stdout: 'howdy ana\n', how: 'cached' });
  });

  it.each([
    ['garbage', (): Buffer => Buffer.from('not a code cache at all')],
    ['its header, then garbage', (good: Buffer): Buffer => Buffer.concat([good.subarray(0, 36), Buffer.alloc(good.length - 36, 7)])],
    // V8 checks no checksum of cached code in a release build: it would run this.
    ['one byte of its code changed', (good: Buffer): Buffer => {
      const damaged = Buffer.from(good);
      const at = 36 + Math.floor((good.length - 36) / 2);
      damaged[at] = damaged[at]! ^ 0xff;
      return damaged;
    }],
  ])('a damaged cache (%s) is ignored and replaced', async (_, damage) => {
    const project = await tinyProject();
    const bundle = bundlePath(project, 'hello');
    await start(project);
    const good = await readFile(await cacheOf(bundle));
    const damaged = damage(good);
    await writeFile(await cacheOf(bundle), damaged);
    expect(await start(project)).toEqual({ stdout: 'hello ana\n', how: 'compiled' });
    expect(await start(project)).toEqual({ stdout: 'hello ana\n', how: 'cached' });
  });

  it('a cache that cannot be written changes nothing: no message, no file left behind', async () => {
    const project = await tinyProject();
    const bundle = bundlePath(project, 'hello');
    // A folder where the cache would go: neither readable as a file nor replaceable by one,
    // whoever runs the test (a read-only folder does not stop root).
    await start(project);
    const cache = await cacheOf(bundle);
    await rm(cache);
    await mkdir(cache);
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', DRIVER, bundle, 'ana']);
    expect({ stdout, stderr }).toEqual({ stdout: 'hello ana\n', stderr: 'compiled\n' });
    expect((await readdir(project.outdir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await rm(cache, { recursive: true });
  });

  it('an ES module bundle, imported as run.mjs imports one, names the .ts source of an uncaught error too', async () => {
    const project = await tinyProject();
    const esm = { ...project, entries: { hello: { source: 'src/hello.ts' } } };
    await compile(esm, ['hello']);
    const bundle = bundlePath(esm, 'hello');
    expect(bundle.endsWith('.mjs')).toBe(true);
    const driver = `
import { pathToFileURL } from 'node:url';
import { mapStackTraces } from ${JSON.stringify(path.join(ROOT, 'scripts/stack-map.mjs'))};
const bundle = process.argv[1];
mapStackTraces(bundle);
await import(pathToFileURL(bundle).href);
`;
    expect((await run(process.execPath, ['--input-type=module', '-e', driver, bundle, 'ana'])).stdout).toBe('hello ana\n');
    const failed = await run(process.execPath, ['--input-type=module', '-e', driver, bundle, 'boom']).then(
      () => ({ stderr: '' }),
      (e: { stderr: string }) => e,
    );
    expect(failed.stderr).toContain('Error: no greeting for boom');
    expect(failed.stderr).toContain(`at greet (${path.join(project.root, 'src/greet.ts')}:2:30)`);
  });

  it('an uncaught error names the .ts source, line and column, cached or not', async () => {
    const project = await tinyProject();
    // The first run compiles and leaves the cache at exit; the second runs from it.
    for (let i = 0; i < 2; i++) {
      const failed = await run(process.execPath, ['--input-type=module', '-e', DRIVER, bundlePath(project, 'hello'), 'boom']).then(
        () => ({ stderr: '' }),
        (e: { stderr: string }) => e,
      );
      expect(failed.stderr).toContain('Error: no greeting for boom');
      expect(failed.stderr).toContain(`at greet (${path.join(project.root, 'src/greet.ts')}:2:30)`);
      expect(failed.stderr).toContain(`at ${path.join(project.root, 'src/hello.ts')}:2:`);
    }
  });
});
