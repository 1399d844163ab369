/**
 * scripts/run.mjs, the launcher behind every npm script: it compiles an entry point when it is
 * missing or stale and runs the compiled JavaScript. Also the contract every command shares:
 * `--help` prints the usage, a wrong invocation prints it on stderr and exits 2.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled).
import { ENTRIES, PACKAGE_DATA_FIELDS, PROJECT, bundlePath, compile, isFresh } from '../../scripts/run.mjs';
import { ROOT, cleanupTemp, tempDir } from '../catalog/helpers.ts';

const run = promisify(execFile);
afterAll(cleanupTemp);

interface Project {
  root: string;
  outdir: string;
  entries: Record<string, string>;
}

async function tinyProject(): Promise<Project> {
  const root = await tempDir('run-test-');
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src/greet.ts'), "export const greet = (name: string): string => `hello ${name}`;\n");
  await writeFile(path.join(root, 'src/hello.ts'), "import { greet } from './greet.ts';\nconsole.log(greet(process.argv[2] ?? 'world'));\n");
  return { root, outdir: path.join(root, 'out'), entries: { hello: 'src/hello.ts' } };
}

describe('compiling on demand', () => {
  it('compiles an entry with what it imports, then reports it fresh', async () => {
    const project = await tinyProject();
    expect(isFresh(project, 'hello')).toBe(false);
    await compile(project, ['hello']);
    expect(isFresh(project, 'hello')).toBe(true);
    const { stdout } = await run(process.execPath, [bundlePath(project, 'hello'), 'ana']);
    expect(stdout).toBe('hello ana\n');
  });

  it('an edit to any imported .ts file makes the entry stale, and the next compile picks it up', async () => {
    const project = await tinyProject();
    await compile(project, ['hello']);
    const file = path.join(project.root, 'src/greet.ts');
    await writeFile(file, "export const greet = (name: string): string => `hola ${name}`;\n");
    // Same size, so only the modification time tells: make sure it moved.
    await utimes(file, new Date(), new Date(Date.now() + 2000));
    expect(isFresh(project, 'hello')).toBe(false);
    await compile(project, ['hello']);
    expect((await run(process.execPath, [bundlePath(project, 'hello'), 'ana'])).stdout).toBe('hola ana\n');
  });

  it('an entry can be CommonJS, or an executable that imports another bundle instead of carrying a copy of it', async () => {
    const project: { root: string; outdir: string; entries: Record<string, unknown> } = await tinyProject();
    project.entries = {
      greet: { source: 'src/greet.ts', format: 'cjs' },
      hello: { source: 'src/hello.ts', executable: true, link: { 'src/greet.ts': './greet.cjs' } },
    };
    await compile(project, ['greet', 'hello']);
    expect(bundlePath(project, 'greet')).toMatch(/greet\.cjs$/);
    const hello = await readFile(bundlePath(project, 'hello'), 'utf8');
    expect(hello).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(hello).toContain('from "./greet.cjs"');
    expect(hello).not.toContain('hello ${');
    expect((await run(process.execPath, [bundlePath(project, 'hello'), 'ana'])).stdout).toBe('hello ana\n');
  });

  it('a source that does not compile is reported with its file, line and column', async () => {
    const project = await tinyProject();
    await writeFile(path.join(project.root, 'src/greet.ts'), 'export const greet = (name: string => name;\n');
    await expect(compile(project, ['hello'])).rejects.toThrow(/src\/hello\.ts does not compile:\nsrc\/greet\.ts:1:\d+: /);
  });
});

describe("trimming packages' data to the fields the code reads", () => {
  const EMOJI = 'emoji-datasource/emoji.json';

  it('a bundle keeps only the listed fields of each record', async () => {
    const project = await tinyProject();
    const data = path.join(project.root, 'node_modules', EMOJI);
    await mkdir(path.dirname(data), { recursive: true });
    const record = { unified: '1F419', short_name: 'octopus', short_names: ['octopus'], has_img_google: true, has_img_twitter: true, category: 'Animals & Nature', sheet_x: 12 };
    await writeFile(data, JSON.stringify([record]));
    await writeFile(path.join(project.root, 'src/emoji.ts'), `import emoji from '${EMOJI}' with { type: 'json' };\nconsole.log(JSON.stringify(emoji));\n`);
    project.entries = { emoji: 'src/emoji.ts' };
    await compile(project, ['emoji']);
    const { stdout } = await run(process.execPath, [bundlePath(project, 'emoji')]);
    expect(JSON.parse(stdout)).toEqual([{ unified: '1F419', short_name: 'octopus', short_names: ['octopus'], has_img_google: true, has_img_twitter: true }]);
    // Kept as JSON text for JSON.parse, which V8 reads several times faster than it compiles a literal.
    expect(await readFile(bundlePath(project, 'emoji'), 'utf8')).toMatch(/JSON\.parse\('\[\{"unified":"1F419"/);
  });

  it("lists exactly the emoji fields the engine's type declaration lets it read", async () => {
    // The declaration makes reading any other field a type error; the bundles keep this list.
    const declaration = await readFile(path.join(ROOT, 'simulator/engine/emoji/emoji-datasource.d.ts'), 'utf8');
    const declared = [...declaration.matchAll(/^\s+(\w+): [^;]+;$/gm)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(0);
    expect([...(PACKAGE_DATA_FIELDS as Record<string, string[]>)[EMOJI]!].sort()).toEqual(declared.sort());
  });
});

describe('the entry points', () => {
  const names = Object.keys(ENTRIES as Record<string, unknown>);

  it('are never imported by other modules (importing one would run its command)', async () => {
    const sources = Object.values(ENTRIES as Record<string, string | { source: string }>).map((s) => path.join(ROOT, typeof s === 'string' ? s : s.source));
    const files = (await readdir(ROOT, { recursive: true }))
      .filter((f) => /\.(ts|mjs)$/.test(f) && !f.includes('node_modules') && /^(scripts|simulator|test)\//.test(f))
      .map((f) => path.join(ROOT, f));
    const importers: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        if (sources.includes(path.resolve(path.dirname(file), m[1] as string))) importers.push(`${path.relative(ROOT, file)} → ${m[1]}`);
      }
    }
    expect(importers).toEqual([]);
  });

  it.each(names)('%s: --help prints the usage; an unknown flag prints it on stderr and exits 2, without a stack trace', async (name) => {
    const launcher = path.join(ROOT, 'scripts/run.mjs');
    const help = await run(process.execPath, [launcher, name, '--help'], { cwd: ROOT });
    expect(help.stdout).toMatch(/^Usage: npm (start|run [a-z:]+)/);
    const bogus = await run(process.execPath, [launcher, name, '--bogus'], { cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^Unknown option '--bogus'/);
    expect(bogus.stderr).toContain('\n\nUsage: ');
    expect(bogus.stderr).not.toMatch(/^\s+at /m);
    expect(isFresh(PROJECT, name)).toBe(true);
  });
});
