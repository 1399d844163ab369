/**
 * The precompressed twins on disk (`--precompress`): every JSON, Markdown and text file has a
 * `.br` and a `.gz` that decode to exactly its bytes, nothing else has one, no catalog file points
 * at them, and rewriting the twins of one file gives the bytes a full build gives. Without the
 * option the build writes none.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { compress, ENCODINGS, LARGE_FILE_BYTES, precompressing, writeTwinsBeside } from '../../scripts/catalog/precompress.ts';
import { prepareWrite, type WriteSink } from '../../scripts/catalog/write.ts';
import { FIXTURE, cleanupTemp, readTree, tempDir } from './helpers.ts';

let dist: string;
let tree: Map<string, Buffer>;

beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  const result = await buildCatalog({ contentDir: FIXTURE, outDir: dist, sourceDateEpoch: '', precompress: true });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  tree = await readTree(dist);
});
afterAll(cleanupTemp);

const originals = (): string[] => [...tree.keys()].filter((rel) => !/\.(br|gz)$/.test(rel));

describe('precompressed twins', () => {
  it('are written only with precompress: the default build has the same files, no twin among them', async () => {
    const plain = path.join(await tempDir(), 'dist');
    expect((await buildCatalog({ contentDir: FIXTURE, outDir: plain, sourceDateEpoch: '' })).ok).toBe(true);
    const files = await readTree(plain);
    expect([...files.keys()].filter((rel) => /\.(br|gz)$/.test(rel))).toEqual([]);
    expect([...files.keys()].sort()).toEqual(originals().sort());
    for (const [rel, bytes] of files) expect(bytes.equals(tree.get(rel) as Buffer), rel).toBe(true);
  });

  it('are byte-identical between two builds', async () => {
    const again = path.join(await tempDir(), 'dist');
    expect((await buildCatalog({ contentDir: FIXTURE, outDir: again, sourceDateEpoch: '', precompress: true })).ok).toBe(true);
    const other = await readTree(again);
    expect([...other.keys()]).toEqual([...tree.keys()]);
    for (const [rel, bytes] of tree) expect(other.get(rel)?.equals(bytes), rel).toBe(true);
  });

  it('every JSON, Markdown and text file has a .br and a .gz twin holding exactly its bytes', () => {
    const compressible = originals().filter((rel) => /\.(json|md|txt|xml)$/.test(rel));
    expect(compressible).toEqual(expect.arrayContaining(['api/v1/bundle.json', 'llms-full.txt', 'sitemap.xml', 'servicios/meta-ads.md']));
    for (const rel of compressible) {
      const bytes = tree.get(rel) as Buffer;
      expect(brotliDecompressSync(tree.get(`${rel}.br`) as Buffer).equals(bytes), `${rel}.br`).toBe(true);
      expect(gunzipSync(tree.get(`${rel}.gz`) as Buffer).equals(bytes), `${rel}.gz`).toBe(true);
    }
  });

  it('the host configuration has no twin, and every twin belongs to a file', () => {
    expect(tree.has('_headers.br')).toBe(false);
    expect(tree.has('_headers.gz')).toBe(false);
    const twins = [...tree.keys()].filter((rel) => /\.(br|gz)$/.test(rel));
    expect(twins.length).toBe(2 * (originals().length - 1));
    for (const twin of twins) expect(tree.has(twin.slice(0, -3)), twin).toBe(true);
  });

  it('the gzip header carries no timestamp', () => {
    const gz = tree.get('api/v1/index.json.gz') as Buffer;
    expect(gz.readUInt32LE(4)).toBe(0);
  });

  it('no index, sitemap, llms file or header rule names a twin', () => {
    for (const rel of ['api/v1/index.json', 'api/v1/bundle.json', 'sitemap.xml', 'llms.txt', 'llms-full.txt', '_headers', 'robots.txt']) {
      expect(tree.get(rel)?.toString('utf8'), rel).not.toMatch(/\.(br|gz)\b/);
    }
  });

  it('writeTwinsBeside rewrites one file\'s twins to the bytes of a full build', async () => {
    const file = path.join(dist, 'api/v1/services/meta-ads.json');
    await writeFile(`${file}.br`, 'stale');
    await writeFile(`${file}.gz`, 'stale');
    await writeTwinsBeside(file);
    expect((await readFile(`${file}.br`)).equals(tree.get('api/v1/services/meta-ads.json.br') as Buffer)).toBe(true);
    expect((await readFile(`${file}.gz`)).equals(tree.get('api/v1/services/meta-ads.json.gz') as Buffer)).toBe(true);
  });

  it.each([
    ['a small', 4000],
    ['a large', 40_000],
  ])('%s streamed file\'s twins decode to its text, do not depend on how the text was cut, and equal the twins of the same bytes written whole', async (_, items) => {
    const text = Array.from({ length: items }, (_, i) => `{"n":${i},"título":"Automatización ${i % 97}"}`).join(',');
    const streamed = async (size: number): Promise<Map<string, Buffer>> => {
      const files = new Map<string, Buffer>();
      const sink: WriteSink = {
        file: async (rel, data) => void files.set(rel, Buffer.from(data)),
        stream: (rel) => {
          let all = '';
          return { write: async (piece) => void (all += piece), end: async () => void files.set(rel, Buffer.from(all, 'utf8')) };
        },
      };
      const withTwins = precompressing(sink);
      const stream = withTwins.stream('big.json');
      for (let at = 0; at < text.length; at += size) await stream.write(text.slice(at, at + size));
      await stream.end();
      await withTwins.flush();
      return files;
    };
    const [whole, small, odd] = [await streamed(text.length), await streamed(300), await streamed(70_001)];
    expect(brotliDecompressSync(whole.get('big.json.br') as Buffer).toString('utf8')).toBe(text);
    expect(gunzipSync(whole.get('big.json.gz') as Buffer).toString('utf8')).toBe(text);
    for (const other of [small, odd]) {
      for (const rel of ['big.json', 'big.json.br', 'big.json.gz']) expect(other.get(rel)?.equals(whole.get(rel) as Buffer), rel).toBe(true);
    }
    for (const e of ENCODINGS) expect((await compress(Buffer.from(text, 'utf8'), e)).equals(whole.get(`big.json${e.suffix}`) as Buffer), e.suffix).toBe(true);
  });

  it('the compression settings change at LARGE_FILE_BYTES, and twins on both sides decode to their file', async () => {
    const at = (size: number): Buffer => Buffer.from('{"a":"Automatización"}'.repeat(Math.ceil(size / 10)).slice(0, size), 'latin1');
    const below = at(LARGE_FILE_BYTES - 1);
    const above = at(LARGE_FILE_BYTES);
    const [brBelow, gzBelow, brAbove, gzAbove] = await Promise.all([below, above].flatMap((b) => ENCODINGS.map((e) => compress(b, e))));
    expect(brotliDecompressSync(brBelow as Buffer).equals(below)).toBe(true);
    expect(gunzipSync(gzBelow as Buffer).equals(below)).toBe(true);
    expect(brotliDecompressSync(brAbove as Buffer).equals(above)).toBe(true);
    expect(gunzipSync(gzAbove as Buffer).equals(above)).toBe(true);
    // gzip's header records the level's speed: 0 (a middle level) below, 4 (fastest) from the threshold.
    expect([gzBelow?.[8], gzAbove?.[8]]).toEqual([0, 4]);
  });

  it.each([
    ['a small', 1000],
    ['a large', LARGE_FILE_BYTES],
  ])('the writer threads give %s file the twins compress() gives', async (_, size) => {
    const out = path.join(await tempDir(), 'out');
    const bytes = Buffer.from('{"título":"Automatización de procesos"}'.repeat(Math.ceil(size / 30)), 'utf8');
    await prepareWrite(out, ['f.json', 'f.json.br', 'f.json.gz']).commit(async (sink) => sink.fileWithTwins?.('f.json', bytes));
    expect((await readFile(path.join(out, 'f.json'))).equals(bytes)).toBe(true);
    for (const e of ENCODINGS) expect((await readFile(path.join(out, `f.json${e.suffix}`))).equals(await compress(bytes, e)), e.suffix).toBe(true);
  });

  it.each([
    ['a small', 1000, 0],
    ['a large', 3 * LARGE_FILE_BYTES, 0],
    ['a large', 3 * LARGE_FILE_BYTES, 1],
    // Its compressors start late and far behind, in the batch that also ends the file.
    ['a just large enough', LARGE_FILE_BYTES + 5000, 1],
  ])('the writer threads give %s streamed file the twins compress() gives, however it is cut (%#)', async (_, size, cut) => {
    const out = path.join(await tempDir(), 'out');
    const text = Array.from({ length: Math.ceil(size / 40) }, (_, i) => `{"n":${i},"título":"Automatización ${i % 97}"}`).join(',');
    const piece = cut === 0 ? 1000 : 70_001;
    await prepareWrite(out, ['f.json', 'f.json.br', 'f.json.gz']).commit(async (sink) => {
      const stream = precompressing(sink).stream('f.json');
      for (let at = 0; at < text.length; at += piece) await stream.write(text.slice(at, at + piece));
      await stream.end();
    });
    const bytes = Buffer.from(text, 'utf8');
    expect((await readFile(path.join(out, 'f.json'))).equals(bytes)).toBe(true);
    for (const e of ENCODINGS) expect((await readFile(path.join(out, `f.json${e.suffix}`))).equals(await compress(bytes, e)), e.suffix).toBe(true);
  });
});
