/**
 * The writer (atomic swap, byte count, every announced file exactly once), the JSON assembler
 * (same bytes as JSON.stringify) and the serializer (same bytes, shared parts rendered once).
 */
import { lstat, readdir, mkdir, symlink, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutFile, Outputs } from '../../scripts/catalog/emit.ts';
import { JsonCache } from '../../scripts/catalog/json.ts';
import { writeOutputs } from '../../scripts/catalog/serialize.ts';
import { prepareWrite, writeAtomically, type WriteSink } from '../../scripts/catalog/write.ts';
import { cleanupTemp, readTree, tempDir } from './helpers.ts';

afterAll(cleanupTemp);

describe('writeAtomically', () => {
  it('replaces the previous folder whole, counts every byte and leaves no temporary folder', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'stale.txt'), 'old');
    const files = ['a.json', 'x/y/z.md', 'x/big.txt'];
    const big = Array.from({ length: 3000 }, (_, i) => `línea ${i}\n`);
    const stats = await writeAtomically(out, files, (rel) => (rel === 'x/big.txt' ? big : [`${rel}\n`]));
    const tree = await readTree(out);
    expect([...tree.keys()]).toEqual(['a.json', 'x/big.txt', 'x/y/z.md']);
    expect(tree.get('x/big.txt')?.toString('utf8')).toBe(big.join(''));
    expect(stats).toEqual({ files: 3, bytes: [...tree.values()].reduce((n, b) => n + b.length, 0) });
    expect(await readdir(parent)).toEqual(['dist']);
  });

  it('leaves the previous folder untouched when rendering fails midway', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'previous');
    const failing = writeAtomically(out, ['a.txt', 'b.txt'], (rel) => {
      if (rel === 'b.txt') throw new Error('render failed');
      return ['a'];
    });
    await expect(failing).rejects.toThrow('render failed');
    expect(await readFile(path.join(out, 'keep.txt'), 'utf8')).toBe('previous');
    expect(await readdir(parent)).toEqual(['dist']);
  });
});

describe('a write over a previous folder', () => {
  const inodes = async (dir: string): Promise<Map<string, number>> => {
    const tree = await readTree(dir);
    return new Map(await Promise.all([...tree.keys()].map(async (rel) => [rel, (await lstat(path.join(dir, rel))).ino] as [string, number])));
  };
  /** Pieces of about `size` characters each (several appends to the writer), Spanish text. */
  const pieces = (text: string, size: number): string[] => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

  it('keeps the files whose bytes are unchanged and writes the others in full', async () => {
    const base = Array.from({ length: 12000 }, (_, i) => `artículo ${i}: captación\n`).join('');
    const versions: [string, string][] = [
      ['same.json', 'same.json'],
      ['changed.json', 'changed.json!'],
      ['stream/same.txt', base],
      ['stream/start.txt', `X${base.slice(1)}`],
      ['stream/middle.txt', `${base.slice(0, 150000)}Ñ${base.slice(150001)}`],
      ['stream/longer.txt', `${base}más`],
      ['stream/shorter.txt', base.slice(0, -3)],
    ];
    const files = versions.map(([rel]) => rel);
    const write = (pick: 0 | 1) => writeAtomically(path.join(parent, 'dist'), files, (rel) => {
      const text = pick === 0 ? (rel.startsWith('stream/') ? base : rel) : (versions.find(([r]) => r === rel)?.[1] ?? '');
      return rel.startsWith('stream/') ? pieces(text, 20000) : [text];
    });
    const parent = await tempDir();
    await write(0);
    const before = await inodes(path.join(parent, 'dist'));
    const stats = await write(1);
    const out = path.join(parent, 'dist');
    const tree = await readTree(out);
    for (const [rel, text] of versions) expect(tree.get(rel)?.toString('utf8'), rel).toBe(text);
    expect(stats.bytes).toBe([...tree.values()].reduce((n, b) => n + b.length, 0));
    const after = await inodes(out);
    const kept = files.filter((rel) => after.get(rel) === before.get(rel));
    expect(kept).toEqual(['same.json', 'stream/same.txt']);
    expect(await readdir(parent)).toEqual(['dist']);
  });

  it('writes a file whose previous version is a symbolic link, never the link', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(parent, 'elsewhere.txt'), 'a.txt\n');
    await symlink(path.join(parent, 'elsewhere.txt'), path.join(out, 'a.txt'));
    await writeAtomically(out, ['a.txt'], (rel) => [`${rel}\n`]);
    expect((await lstat(path.join(out, 'a.txt'))).isFile()).toBe(true);
    expect(await readFile(path.join(out, 'a.txt'), 'utf8')).toBe('a.txt\n');
  });

  it('gives the bytes of a fresh write for any previous and new text', async () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'ñ', 'é', '€', '😀', '\n'), { maxLength: 40 }).map((cs) => cs.join(''));
    await fc.assert(fc.asyncProperty(fc.array(text, { maxLength: 4 }), fc.array(text, { maxLength: 4 }), text, async (previous, next, whole) => {
      const parent = await tempDir();
      const out = path.join(parent, 'dist');
      await writeAtomically(out, ['s.txt', 'w.txt'], (rel) => (rel === 's.txt' ? ['', ...previous, ''] : [previous.join('')]));
      await writeAtomically(out, ['s.txt', 'w.txt'], (rel) => (rel === 's.txt' ? ['', ...next, ''] : [whole]));
      expect(await readFile(path.join(out, 's.txt'), 'utf8')).toBe(next.join(''));
      expect(await readFile(path.join(out, 'w.txt'), 'utf8')).toBe(whole);
    }), { numRuns: 8 });
  });
});

describe('prepareWrite', () => {
  it('discarding a prepared write leaves the previous folder and no temporary folder', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'previous');
    const pending = prepareWrite(out, ['a/b/c.md', 'a/d/e.md', 'api/v1/x.json']);
    await pending.discard();
    expect(await readdir(parent)).toEqual(['dist']);
    expect(await readdir(out)).toEqual(['keep.txt']);
  });
});

describe('JsonCache', () => {
  it('assembles exactly the bytes JSON.stringify gives, for any JSON object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (value) => {
        const cache = new JsonCache();
        expect([...cache.chunks(value)].join('')).toBe(JSON.stringify(value));
        expect(cache.of(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 200 },
    );
  });

  it('stringifies a shared object once for all its declared uses, then forgets it', () => {
    const cache = new JsonCache();
    const item = { slug: 'a' };
    cache.share(item, 3);
    const first = cache.of(item);
    item.slug = 'changed after stringify';
    expect([...cache.chunks({ items: [item, item] })].join('')).toBe(`{"items":[${first},${first}]}`);
    // The third use was the last one: a fourth call sees the object as it is now.
    expect(cache.of(item)).toBe('{"slug":"changed after stringify"}');
  });

  it('does not remember objects that were not declared shared', () => {
    const cache = new JsonCache();
    const item = { slug: 'a' };
    cache.of(item);
    item.slug = 'b';
    expect(cache.of(item)).toBe('{"slug":"b"}');
  });
});

/** An object whose every stringification is counted, so "once" can be checked from outside. */
function counted(value: Record<string, unknown>, calls: Map<string, number>): Record<string, unknown> {
  return { ...value, toJSON: () => (calls.set(String(value.slug), (calls.get(String(value.slug)) ?? 0) + 1), value) };
}

describe('writeOutputs', () => {
  it('writes every output with the same bytes as rendering each file on its own, rendering shared parts once', async () => {
    const calls = new Map<string, number>();
    const a = counted({ slug: 'a', body: 'ñ'.repeat(10) }, calls);
    const b = counted({ slug: 'b', body: 'x' }, calls);
    const area = counted({ slug: 'z' }, calls);
    let twinRenders = 0;
    const outputs: Outputs = new Map<string, OutFile>([
      ['api/items/a.json', { kind: 'json', schema: null, value: a }],
      ['api/items/b.json', { kind: 'json', schema: null, value: b }],
      ['api/areas.json', { kind: 'json', schema: null, value: { count: 1, items: [area] }, compose: true }],
      ['api/bundle.json', { kind: 'json', schema: null, value: { name: 'n', items: [a, b], coverage: [area], empty: [] }, compose: true }],
      ['p/a/index.md', { kind: 'text', render: () => { twinRenders += 1; return ['# A\n']; } }],
      ['p/b/index.md', { kind: 'text', render: () => ['# B\n'] }],
      ['full.txt', { kind: 'text', render: () => ['head\n', { include: 'p/a/index.md' }, '---\n', { include: 'p/b/index.md' }], compose: true }],
      ['robots.txt', { kind: 'text', render: () => ['one piece'] }],
    ]);
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    const stats = await prepareWrite(out, [...outputs.keys()]).commit((sink) => writeOutputs(outputs, sink));
    const tree = await readTree(out);
    const expected = new Map<string, string>([
      ['api/items/a.json', `${JSON.stringify(a)}\n`],
      ['api/items/b.json', `${JSON.stringify(b)}\n`],
      ['api/areas.json', `${JSON.stringify({ count: 1, items: [area] })}\n`],
      ['api/bundle.json', `${JSON.stringify({ name: 'n', items: [a, b], coverage: [area], empty: [] })}\n`],
      ['p/a/index.md', '# A\n'],
      ['p/b/index.md', '# B\n'],
      ['full.txt', 'head\n# A\n---\n# B\n'],
      ['robots.txt', 'one piece'],
    ]);
    expect(Object.fromEntries([...tree].map(([k, v]) => [k, v.toString('utf8')]))).toEqual(Object.fromEntries(expected));
    expect(stats).toEqual({ files: expected.size, bytes: [...tree.values()].reduce((n, v) => n + v.length, 0) });
    // One stringification per object while writing (building `expected` made two more each), one twin render.
    expect(twinRenders).toBe(1);
    expect(Object.fromEntries(calls)).toEqual({ a: 1 + 2, b: 1 + 2, z: 1 + 2 });
  });
});

describe('the write sink', () => {
  it.each([
    ['a file it was not told about', (sink: WriteSink) => sink.file('other.txt', 'x'), 'other.txt was not announced'],
    ['the same file twice', async (sink: WriteSink) => { await sink.file('a.txt', 'x'); await sink.file('a.txt', 'y'); }, 'a.txt written twice'],
    ['a file left unwritten', (sink: WriteSink) => sink.file('a.txt', 'x'), 'not written: b/c.txt'],
    ['a stream never ended', async (sink: WriteSink) => { await sink.file('a.txt', 'x'); await sink.stream('b/c.txt').write('part'); }, 'stream never ended'],
  ])('refuses %s and leaves the previous folder untouched', async (_name, produce, message) => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'previous');
    await expect(prepareWrite(out, ['a.txt', 'b/c.txt']).commit(async (sink) => { await produce(sink); })).rejects.toThrow(message);
    expect(await readdir(out)).toEqual(['keep.txt']);
    expect(await readdir(parent)).toEqual(['dist']);
  });

  it('writes a streamed part as a file of its own from the same bytes, whichever thread makes its folder, fresh or over a previous write', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    // Two files in one folder (made before the threads start), two folders of one file each (each made by one thread).
    const parts: [string, string][] = [
      ['items/a.json', 'ñandú '.repeat(5000)],
      ['items/b.json', '{"b":1}'],
      ['one/x.md', '# X\n'],
      ['two/y.md', 'ü'.repeat(70_000)],
    ];
    const files = ['all.txt', ...parts.map(([rel]) => rel)];
    const expected = new Map<string, string>([
      ['all.txt', `head\n${parts.map(([, text]) => `${text}|`).join('')}`],
      ...parts.map(([rel, text]): [string, string] => [rel, rel.endsWith('.json') ? `${text}\n` : text]),
    ]);
    for (let write = 0; write < 2; write++) {
      const stats = await prepareWrite(out, files).commit(async (sink) => {
        const stream = sink.stream('all.txt');
        expect(stream.writeAlsoAs).toBeTypeOf('function');
        await stream.write('head\n');
        for (const [rel, text] of parts) {
          await stream.writeAlsoAs!(text, rel, rel.endsWith('.json'));
          await stream.write('|');
        }
        await stream.end();
      });
      const tree = await readTree(out);
      expect(Object.fromEntries([...tree].map(([k, v]) => [k, v.toString('utf8')]))).toEqual(Object.fromEntries(expected));
      expect(stats).toEqual({ files: files.length, bytes: [...tree.values()].reduce((n, v) => n + v.length, 0) });
    }
  });

  it('reports a file the system refuses to create, and leaves the previous folder untouched', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'previous');
    // `x` is both a file and the folder of `x/y.txt`: whichever comes second cannot be made.
    const failing = writeAtomically(out, ['x/y.txt', 'x'], (rel) => [rel]);
    await expect(failing).rejects.toThrow(/EEXIST|ENOTDIR|EISDIR/);
    expect(await readdir(out)).toEqual(['keep.txt']);
    expect(await readdir(parent)).toEqual(['dist']);
  });

  it('closes a stream left open by a failed render and leaves no temporary folder', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    const failing = prepareWrite(out, ['big.txt', 'x/a.txt']).commit(async (sink) => {
      const stream = sink.stream('big.txt');
      await stream.write('a'.repeat(3 << 20));
      throw new Error('render failed');
    });
    await expect(failing).rejects.toThrow('render failed');
    expect(await readdir(parent)).toEqual([]);
  });
});
