/**
 * The incremental build behind `build --watch`: after every kind of change, the output tree is
 * byte-identical to a full build of the same content, only changed files are rewritten, and a
 * broken change writes nothing.
 */
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncrementalBuild, type IncrementalBuild } from '../../scripts/catalog/incremental.ts';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { cleanupTemp, copyContent, edit, readTree, tempDir } from './helpers.ts';

afterAll(cleanupTemp);

let content: string;
let dist: string;
let builder: IncrementalBuild;
const reports: string[] = [];

async function fullBuildTree(): Promise<Map<string, Buffer>> {
  const out = path.join(await tempDir(), 'dist');
  const result = await buildCatalog({ contentDir: content, outDir: out, sourceDateEpoch: '', precompress: true });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return readTree(out);
}

async function expectSameAsFullBuild(): Promise<void> {
  const [incremental, full] = [await readTree(dist), await fullBuildTree()];
  expect([...incremental.keys()]).toEqual([...full.keys()]);
  for (const [rel, bytes] of full) expect(incremental.get(rel)?.equals(bytes), rel).toBe(true);
}

const mtimes = async (): Promise<Map<string, number>> => {
  const out = new Map<string, number>();
  for (const rel of (await readTree(dist)).keys()) out.set(rel, (await stat(path.join(dist, rel))).mtimeMs);
  return out;
};

beforeAll(async () => {
  content = await copyContent();
  dist = path.join(await tempDir(), 'dist');
  // With twins, the harder case: every rewrite must rewrite them too (the default is tested below).
  builder = createIncrementalBuild({ contentDir: content, outDir: dist, sourceDateEpoch: '', precompress: true, report: (t) => reports.push(t) });
  const first = await builder.run(null);
  expect(first.ok).toBe(true);
});

describe('after each change, the same bytes as a full build', () => {
  it('a changed body rewrites that document\'s files and the files that hold them, and nothing else', async () => {
    const before = await mtimes();
    await edit(content, 'insights/medir-antes.md', /\n## /, '\nUna frase nueva.\n\n## ');
    const result = await builder.run(['insights/medir-antes.md']);
    expect(result).toMatchObject({ ok: true, firstOutputMs: expect.any(Number) });
    await expectSameAsFullBuild();
    const after = await mtimes();
    const rewritten = [...after].filter(([rel, t]) => before.get(rel) !== t).map(([rel]) => rel).sort();
    // The lists carry each item's source hash, so they change too, and the search index holds the
    // body; the other services, sectors and twins do not. Each file with its .br and .gz.
    const files = ['api/v1/bundle.json', 'api/v1/insights.json', 'api/v1/insights/medir-antes.json', 'api/v1/pages.json', 'api/v1/search.json', 'insights/medir-antes.md', 'llms-full.txt'];
    expect(rewritten).toEqual(files.flatMap((f) => [f, `${f}.br`, `${f}.gz`]).sort());
  });

  it('a changed title reaches every file that links to it', async () => {
    await edit(content, 'services/diagnostico-operativo.md', /^title: .*$/m, 'title: "Diagnóstico a fondo"');
    expect((await builder.run(['services/diagnostico-operativo.md'])).ok).toBe(true);
    await expectSameAsFullBuild();
    expect(await readFile(path.join(dist, 'api/v1/services/meta-ads.json'), 'utf8')).toContain('Diagnóstico a fondo');
  });

  it('a new document, a deleted one and a renamed one', async () => {
    const insight = await readFile(path.join(content, 'insights/medir-antes.md'), 'utf8');
    await writeFile(path.join(content, 'insights/otro.md'), insight.replace(/^slug: .*$/m, 'slug: "otro"').replace(/^title: .*$/m, 'title: "Otro"'));
    expect((await builder.run(['insights/otro.md'])).ok).toBe(true);
    await expectSameAsFullBuild();

    await rename(path.join(content, 'insights/otro.md'), path.join(content, 'insights/tercero.md'));
    await edit(content, 'insights/tercero.md', 'slug: "otro"', 'slug: "tercero"');
    expect((await builder.run(['insights/otro.md', 'insights/tercero.md'])).ok).toBe(true);
    await expectSameAsFullBuild();

    await rm(path.join(content, 'insights/tercero.md'));
    expect((await builder.run(['insights/tercero.md'])).ok).toBe(true);
    await expectSameAsFullBuild();
  });

  it('a change to the organization', async () => {
    await edit(content, 'organization.md', /^description: "/m, 'description: "Ahora: ');
    expect((await builder.run(['organization.md'])).ok).toBe(true);
    await expectSameAsFullBuild();
  });

  it('a broken change writes nothing and reports; fixing it clears it without a restart', async () => {
    const before = await readTree(dist);
    const file = path.join(content, 'services/meta-ads.md');
    const good = await readFile(file, 'utf8');
    await writeFile(file, good.replace('order: 2', 'order: "dos"'));
    const broken = await builder.run(['services/meta-ads.md']);
    expect(broken.ok).toBe(false);
    expect(reports.at(-1)).toMatch(/content\/services\/meta-ads\.md:\d+:8: order: must be an integer/);
    const after = await readTree(dist);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [rel, bytes] of before) expect(after.get(rel)?.equals(bytes), rel).toBe(true);

    await writeFile(file, good.replace('title: "Meta Ads"', 'title: "Meta Ads, arreglado"'));
    expect((await builder.run(['services/meta-ads.md'])).ok).toBe(true);
    await expectSameAsFullBuild();
  });

  it('an edit that breaks a reference or a body link writes nothing, not even the document\'s own files', async () => {
    const before = await readTree(dist);
    const rel = 'insights/medir-antes.md';
    const good = await readFile(path.join(content, rel), 'utf8');
    for (const [broken, message] of [
      [good.replace('related_services: ["diagnostico-operativo"]', 'related_services: ["diagnostico-operativo", "no-existe"]'), /related_services\[1\]: refers to service "no-existe", which does not exist/],
      [`${good}\nVer [otra página](/no-existe/).\n`, /body: links to \/no-existe\/, which is not a page of the site/],
    ] as const) {
      await writeFile(path.join(content, rel), broken);
      expect((await builder.run([rel])).ok).toBe(false);
      expect(reports.at(-1)).toMatch(message);
      const after = await readTree(dist);
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [file, bytes] of before) expect(after.get(file)?.equals(bytes), file).toBe(true);
    }
    await writeFile(path.join(content, rel), good);
    expect((await builder.run([rel])).ok).toBe(true);
    await expectSameAsFullBuild();
  });

  it('while another file is broken, an edit to a good one waits: dist/ stays the last good build until both are clean', async () => {
    const before = await readTree(dist);
    const brokenFile = path.join(content, 'services/meta-ads.md');
    const good = await readFile(brokenFile, 'utf8');
    await writeFile(brokenFile, good.replace(/^order: .*$/m, 'order: "dos"'));
    expect((await builder.run(['services/meta-ads.md'])).ok).toBe(false);
    await edit(content, 'insights/medir-antes.md', /\n## /, '\nOtra frase mientras meta-ads está roto.\n\n## ');
    expect((await builder.run(['insights/medir-antes.md'])).ok).toBe(false);
    const after = await readTree(dist);
    for (const [file, bytes] of before) expect(after.get(file)?.equals(bytes), file).toBe(true);

    await writeFile(brokenFile, good);
    expect((await builder.run(['services/meta-ads.md'])).ok).toBe(true);
    await expectSameAsFullBuild();
    expect(await readFile(path.join(dist, 'insights/medir-antes.md'), 'utf8')).toContain('Otra frase mientras meta-ads está roto.');
  });

  it('a save without a change writes nothing', async () => {
    const before = await mtimes();
    const result = await builder.run(['services/meta-ads.md']);
    expect(result).toMatchObject({ ok: true, changed: 0 });
    expect(await mtimes()).toEqual(before);
  });
});

describe('without precompress (the default)', () => {
  it('a changed body rewrites the same files, without twins, and matches a full build', async () => {
    const ownContent = await copyContent();
    const ownDist = path.join(await tempDir(), 'dist');
    const plain = createIncrementalBuild({ contentDir: ownContent, outDir: ownDist, sourceDateEpoch: '' });
    expect((await plain.run(null)).ok).toBe(true);
    await edit(ownContent, 'insights/medir-antes.md', /\n## /, '\nOtra frase.\n\n## ');
    expect((await plain.run(['insights/medir-antes.md'])).ok).toBe(true);
    const full = path.join(await tempDir(), 'dist');
    expect((await buildCatalog({ contentDir: ownContent, outDir: full, sourceDateEpoch: '' })).ok).toBe(true);
    const [mine, theirs] = [await readTree(ownDist), await readTree(full)];
    expect([...mine.keys()].filter((rel) => /\.(br|gz)$/.test(rel))).toEqual([]);
    expect([...mine.keys()]).toEqual([...theirs.keys()]);
    for (const [rel, bytes] of theirs) expect(mine.get(rel)?.equals(bytes), rel).toBe(true);
  });
});
