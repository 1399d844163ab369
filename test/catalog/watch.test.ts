/** `build --watch`: rebuilds on change; a broken edit reports issues and keeps the last good dist/. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { BuildResult } from '../../scripts/catalog/pipeline.ts';
import { watchCatalog } from '../../scripts/catalog/watch.ts';
import { cleanupTemp, copyContent, tempDir } from './helpers.ts';

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
