/**
 * The project a command works on is the checkout it was started in, also when that checkout's
 * node_modules is a link to another checkout's (hoisted dependencies): scripts/cli/root.ts, and
 * scripts/run.mjs, which passes its own folder down and keeps each checkout's bundles apart.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, realpath, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, ROOT_VARIABLE } from '../../scripts/cli/root.ts';
import { ROOT, cleanupTemp, tempDir } from '../catalog/helpers.ts';

const run = promisify(execFile);
afterAll(cleanupTemp);

describe('projectRoot', () => {
  it.each([
    ['the launcher\'s word first', { [ROOT_VARIABLE]: '/srv/clone' }, path.join(ROOT, 'node_modules/.cache/compiled/build.mjs'), '/', '/srv/clone'],
    ['a source file: the package.json above it', {}, path.join(ROOT, 'scripts/cli/root.ts'), '/', ROOT],
    ['a bundle under node_modules: the package.json above the working directory', {}, '/elsewhere/node_modules/.cache/compiled/build.mjs', path.join(ROOT, 'scripts/catalog'), ROOT],
  ])('%s', (_name, env, moduleFile, cwd, expected) => {
    expect(projectRoot(env, moduleFile, cwd)).toBe(expected);
  });
});

describe('a checkout whose node_modules links to another checkout\'s', () => {
  it('npm run build builds its own content/ into its own dist/', async () => {
    const clone = path.join(await tempDir('linked-checkout-'), 'clone');
    const { stdout: listed } = await run('git', ['ls-files', '-z', '--', 'package.json', 'tsconfig.json', 'scripts', 'simulator', 'schemas', 'types', 'content'], { cwd: ROOT, maxBuffer: 64 << 20 });
    for (const rel of listed.split('\0').filter(Boolean)) {
      const exists = await stat(path.join(ROOT, rel)).then(() => true, () => false);
      if (!exists) continue;
      await mkdir(path.dirname(path.join(clone, rel)), { recursive: true });
      await copyFile(path.join(ROOT, rel), path.join(clone, rel));
    }
    await symlink(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
    // A mark only the clone's content has: its index must carry it.
    const org = path.join(clone, 'content/organization.md');
    const text = await readFile(org, 'utf8');
    await import('node:fs/promises').then((fs) => fs.writeFile(org, text.replace(/^name: .*$/m, 'name: "Clon enlazado"')));
    // Its bundles go to a folder of its own inside the shared node_modules: removed afterwards.
    const bundles = path.join(ROOT, 'node_modules/.cache/compiled', `checkout-${createHash('sha256').update(await realpath(clone)).digest('hex').slice(0, 12)}`);
    let stdout: string;
    try {
      ({ stdout } = await run(process.execPath, ['scripts/run.mjs', 'build'], { cwd: clone, env: { ...process.env, [ROOT_VARIABLE]: '' }, timeout: 120_000 }));
      expect((await stat(bundles)).isDirectory()).toBe(true);
    } finally {
      await rm(bundles, { recursive: true, force: true });
    }
    expect(stdout).toMatch(/→ dist\n/);
    const index = JSON.parse(await readFile(path.join(clone, 'dist/api/v1/index.json'), 'utf8'));
    expect(index.name).toBe('Clon enlazado');
  });
});
