/**
 * `build --watch`: rebuilds on change; a broken edit reports issues and keeps the last good dist/;
 * nothing unexpected ends the process without a word.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { BuildResult } from '../../scripts/catalog/pipeline.ts';
import { watchCatalog } from '../../scripts/catalog/watch.ts';
import { ROOT, cleanupTemp, copyContent, tempDir } from './helpers.ts';
import { expectSameAsFullBuild } from './watch-helpers.ts';

afterAll(cleanupTemp);

it('rebuilds after a change, and a failed rebuild keeps serving the last good output', async () => {
  const content = await copyContent();
  const dist = path.join(await tempDir(), 'dist');
  const results: BuildResult[] = [];
  const reports: string[] = [];
  let notify: () => void = () => {};
  /** Resolves at the first build after now that satisfies `pred` (chokidar may report one save twice). */
  const buildWhere = (pred: (r: BuildResult) => boolean) => {
    const since = results.length;
    return new Promise<void>((resolve) => {
      const check = (): void => (results.slice(since).some(pred) ? resolve() : void (notify = check));
      check();
    });
  };
  const watcher = await watchCatalog(
    { contentDir: content, outDir: dist, sourceDateEpoch: '' },
    { report: (l) => reports.push(l), debounceMs: 50, onBuild: (r) => (results.push(r), notify()) },
  );
  try {
    expect(results.map((r) => r.ok)).toEqual([true]);
    const file = path.join(content, 'services/meta-ads.md');
    const original = await readFile(file, 'utf8');

    let built = buildWhere((r) => r.ok);
    await writeFile(file, original.replace('title: "Meta Ads"', 'title: "Meta Ads y más"'));
    await built;
    expect(JSON.parse(await readFile(path.join(dist, 'api/v1/services/meta-ads.json'), 'utf8')).title).toBe('Meta Ads y más');

    built = buildWhere((r) => !r.ok);
    await writeFile(file, original.replace('order: 2', 'order: "dos"'));
    await built;
    expect(reports.at(-2)).toMatch(/content\/services\/meta-ads\.md:\d+:8: order: must be an integer/);
    expect(reports.at(-1)).toBe('Keeping the last good build.');
    expect(JSON.parse(await readFile(path.join(dist, 'api/v1/services/meta-ads.json'), 'utf8')).title).toBe('Meta Ads y más');
  } finally {
    await watcher.close();
  }
});

it('build --watch never dies silently: an unexpected error is printed and the next change still rebuilds', async () => {
  const content = await copyContent();
  const dir = await tempDir();
  // Something in the process throws after start-up, outside any build: once as an exception,
  // once as a rejected promise (what a stream error without a listener or a stray promise does).
  const boom = path.join(dir, 'boom.mjs');
  await writeFile(boom, "setTimeout(() => { throw new Error('boom from a callback'); }, 1500);\nsetTimeout(() => { void Promise.reject(new Error('boom from a promise')); }, 1600);\n");
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', boom, path.join(ROOT, 'scripts/build.ts'), '--watch', '--content', content, '--out', path.join(dir, 'dist')], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  const until = async (pred: () => boolean, what: string): Promise<void> => {
    for (let waited = 0; !pred(); waited += 50) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} while waiting for ${what}:\n${stdout}\n${stderr}`);
      if (waited > 20_000) throw new Error(`timed out waiting for ${what}:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await until(() => stdout.includes('Watching'), 'the first build');
    await until(() => stderr.includes('boom from a promise'), 'both errors');
    expect(stderr).toMatch(/Unexpected error \(still watching\): Error: boom from a callback\n\s+at /);
    expect(stderr).toContain('Unexpected error (still watching): Error: boom from a promise');
    const builds = (stdout.match(/^(Built|Rebuilt) /gm) ?? []).length;
    const file = path.join(content, 'services/meta-ads.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('title: "Meta Ads"', 'title: "Meta Ads 2"'));
    await until(() => (stdout.match(/^(Built|Rebuilt) /gm) ?? []).length > builds, 'the rebuild after an edit');
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill('SIGTERM');
  }
});

// A stop (Ctrl-C, a service manager's SIGTERM) that lands during the save and pass after an
// edit: the process finishes them and exits 0, leaving dist/ a full build's, no temporary file.
it.each([['SIGTERM', 5], ['SIGINT', 40]] as const)('a %s %i ms after an edit finishes the pass, then exits cleanly', async (signal, delayMs) => {
  const content = await copyContent();
  const dist = path.join(await tempDir(), 'dist');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build.ts'), '--watch', '--content', content, '--out', dist], { cwd: ROOT });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (let waited = 0; !stdout.includes('Watching'); waited += 50) {
      if (child.exitCode !== null || waited > 20_000) throw new Error(`no first build:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const file = path.join(content, 'services/meta-ads.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('title: "Meta Ads"', 'title: "Meta Ads 2"'));
    await new Promise((r) => setTimeout(r, delayMs));
    child.kill(signal);
    expect(await exited, stdout).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  expect(stdout).toContain('Stopping: finishing the pass under way');
  await expectSameAsFullBuild(content, dist);
  expect(await readFile(path.join(dist, 'api/v1/services/meta-ads.json'), 'utf8')).toContain('"title":"Meta Ads 2"');
}, 60_000);
