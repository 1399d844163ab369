/**
 * `build --watch` while a pass is running: a save's own files (detail JSON, Markdown twin and
 * their .br/.gz) reach dist/ before the pass ends, the pass never puts back what a newer save
 * wrote, a broken save writes nothing, and once every pass is done dist/ is a full build's.
 *
 * The pass is held at one of its stages by a test hook, so "a long pass" is a fact of the test,
 * not a matter of timing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { IncrementalResult, PassStage, SaveResult } from '../../scripts/catalog/incremental.ts';
import { watchCatalog, type CatalogWatcher } from '../../scripts/catalog/watch.ts';
import { cleanupTemp, copyContent, readTree, tempDir } from './helpers.ts';
import { append, expectSameAsFullBuild, holds } from './watch-helpers.ts';

afterAll(cleanupTemp);

const INSIGHT = 'insights/medir-antes.md';
const INSIGHT_JSON = 'api/v1/insights/medir-antes.json';
const SERVICE = 'services/meta-ads.md';
const SERVICE_JSON = 'api/v1/services/meta-ads.json';

/** A watcher whose passes can be held at a stage, with what it did recorded in order. */
async function heldWatcher(content: string, dist: string, inProcess: boolean) {
  const builds: IncrementalResult[] = [];
  const saves: { result: SaveResult; paths: readonly string[] }[] = [];
  const reports: string[] = [];
  const waiters: (() => void)[] = [];
  const changed = () => waiters.splice(0).forEach((w) => w());
  /** Resolves once `pred` holds (checked after every build, save and held stage). */
  const until = (pred: () => boolean) => new Promise<void>((resolve) => {
    const check = (): void => (pred() ? resolve() : void waiters.push(check));
    check();
  });
  let holdAt: PassStage | null = null;
  let held: PassStage | null = null;
  let release: () => void = () => {};
  const watcher: CatalogWatcher = await watchCatalog(
    { contentDir: content, outDir: dist, sourceDateEpoch: '', precompress: true },
    {
      report: (l) => reports.push(l),
      debounceMs: 30,
      inProcess,
      onBuild: (r) => (builds.push(r), changed()),
      onSave: (result, paths) => (saves.push({ result, paths }), changed()),
      hooks: {
        stage: (stage) => {
          if (stage !== holdAt) return;
          holdAt = null;
          held = stage;
          changed();
          return new Promise<void>((resolve) => (release = () => ((held = null), resolve())));
        },
      },
    },
  );
  return {
    watcher, builds, saves, reports, until,
    /** Hold the next pass when it reaches `stage`. */
    hold: (stage: PassStage) => void (holdAt = stage),
    isHeld: () => held !== null,
    release: () => release(),
    savedWith: (rel: string, done: boolean) => () => saves.some((s) => s.paths.includes(rel) && s.result.done === done),
  };
}

// The CLI's way (passes in a worker thread) and the same scheduling on one thread.
describe.each([['a pass worker', false], ['one thread', true]] as const)('with %s', (_name, inProcess) => {
  it('a save during a pass reaches its files before the pass ends; the pass keeps what the save wrote', async () => {
    const content = await copyContent();
    const dist = path.join(await tempDir(), 'dist');
    const w = await heldWatcher(content, dist, inProcess);
    try {
      // The pass of the first save is held before it writes the lists and the bundle.
      w.hold('writing');
      await append(content, INSIGHT, 'Primera frase nueva.');
      await w.until(w.isHeld);
      expect(holds(dist, INSIGHT_JSON, 'Primera frase nueva.')).toBe(true);
      const passesBefore = w.builds.length;

      // A file the held pass has not seen, and again the file it is building.
      await append(content, SERVICE, 'Una frase del servicio.');
      await w.until(w.savedWith(SERVICE, true));
      await append(content, INSIGHT, 'Segunda frase nueva.');
      await w.until(() => holds(dist, INSIGHT_JSON, 'Segunda frase nueva.'));
      expect(w.isHeld()).toBe(true);
      expect(w.builds.length).toBe(passesBefore);
      expect(holds(dist, SERVICE_JSON, 'Una frase del servicio.')).toBe(true);
      // The twins of the detail files and of the Markdown pages too.
      expect(brotliDecompressSync(readFileSync(path.join(dist, `${SERVICE_JSON}.br`))).toString()).toContain('Una frase del servicio.');
      expect(gunzipSync(readFileSync(path.join(dist, `${INSIGHT_JSON}.gz`))).toString()).toContain('Segunda frase nueva.');
      const twin = (await readTree(dist)).get('servicios/meta-ads.md')?.toString() ?? '';
      expect(twin).toContain('Una frase del servicio.');

      // The held pass was built from the first save only: when it writes, it leaves the newer files.
      let afterHeldPass = '';
      const pass = w.builds.length;
      void w.until(() => w.builds.length > pass).then(() => (afterHeldPass = readFileSync(path.join(dist, SERVICE_JSON), 'utf8') + readFileSync(path.join(dist, INSIGHT_JSON), 'utf8')));
      w.release();
      await w.until(() => w.builds.length > pass);
      expect(afterHeldPass).toContain('Una frase del servicio.');
      expect(afterHeldPass).toContain('Segunda frase nueva.');
      // The saves made during the held pass are built by the pass that follows it.
      await w.until(() => w.builds.length >= pass + 2);
      await w.watcher.idle();
      expect(w.builds.every((b) => b.ok)).toBe(true);
      await expectSameAsFullBuild(content, dist, true);
    } finally {
      await w.watcher.close();
    }
  });

  it('during a pass, a broken save writes nothing; new, deleted and renamed files wait for the next pass', async () => {
    const content = await copyContent();
    const dist = path.join(await tempDir(), 'dist');
    const w = await heldWatcher(content, dist, inProcess);
    try {
      const serviceBefore = readFileSync(path.join(dist, SERVICE_JSON), 'utf8');
      w.hold('emitted');
      await append(content, INSIGHT, 'Una frase más.');
      await w.until(w.isHeld);

      // Broken: the service's own file stays as the last good build wrote it.
      const service = await readFile(path.join(content, SERVICE), 'utf8');
      await writeFile(path.join(content, SERVICE), service.replace(/^order: .*$/m, 'order: "dos"'));
      await w.until(w.savedWith(SERVICE, false));
      expect(readFileSync(path.join(dist, SERVICE_JSON), 'utf8')).toBe(serviceBefore);

      // A new insight, and the other one renamed (file and slug): nothing of them until a pass.
      const insight = await readFile(path.join(content, INSIGHT), 'utf8');
      await writeFile(path.join(content, 'insights/otro.md'), insight.replace(/^slug: .*$/m, 'slug: "otro"').replace(/^title: .*$/m, 'title: "Otro"'));
      await w.until(w.savedWith('insights/otro.md', false));
      expect(existsSync(path.join(dist, 'api/v1/insights/otro.json'))).toBe(false);

      const pass = w.builds.length;
      w.release();
      // The held pass (the first save only) is good; the one after it has the broken service.
      await w.until(() => w.builds.length >= pass + 2);
      expect(w.builds.slice(pass, pass + 2).map((b) => b.ok)).toEqual([true, false]);
      expect(w.reports.join('\n')).toMatch(/services\/meta-ads\.md:\d+:\d+: order: must be an integer/);
      expect(readFileSync(path.join(dist, SERVICE_JSON), 'utf8')).toBe(serviceBefore);
      expect(existsSync(path.join(dist, 'api/v1/insights/otro.json'))).toBe(false);

      // Fixed, with a rename on top: the next pass brings everything to a full build's bytes.
      await writeFile(path.join(content, SERVICE), service);
      await rename(path.join(content, 'insights/otro.md'), path.join(content, 'insights/tercero.md'));
      const renamed = (await readFile(path.join(content, 'insights/tercero.md'), 'utf8')).replace('slug: "otro"', 'slug: "tercero"');
      await writeFile(path.join(content, 'insights/tercero.md'), renamed);
      // tercero.json can only come from the renamed file's last version, and otro.json goes once
      // the removal is seen (chokidar reports an unlink up to 100 ms late, in case the file comes
      // back); then every pass is let end.
      const exists = (slug: string) => existsSync(path.join(dist, `api/v1/insights/${slug}.json`));
      await w.until(() => w.builds.at(-1)?.ok === true && exists('tercero') && !exists('otro'));
      await w.watcher.idle();
      expect(w.reports).toContain('Fixed: the build is clean again.');
      await expectSameAsFullBuild(content, dist, true);
    } finally {
      await w.watcher.close();
    }
  });
});
