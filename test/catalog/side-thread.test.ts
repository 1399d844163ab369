/**
 * The build's side thread (scripts/catalog/side-thread.ts): its parse results are parse.ts's own
 * for the same files, including the problems of broken ones; the bytes of search.json it answers
 * are the file the writer would have written on the main thread; a value the schema refuses comes
 * back as the build's usual located problem; a failed job rejects with its cause.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../scripts/catalog/load.ts';
import { buildCatalog } from '../../scripts/catalog/model.ts';
import { parseSource } from '../../scripts/catalog/parse.ts';
import { checkContent, sideShare } from '../../scripts/catalog/pipeline.ts';
import { searchDocuments } from '../../scripts/catalog/search/documents.ts';
import { searchFile, searchFileHeader } from '../../scripts/catalog/search/search-file.ts';
import { startSideThread, type SideThread } from '../../scripts/catalog/side-thread.ts';
import { createSite } from '../../scripts/catalog/site.ts';
import { FIXTURE, cleanupTemp, copyContent, tempDir } from './helpers.ts';

afterAll(cleanupTemp);

async function fixtureCatalog() {
  const { docs } = checkContent(await loadContent(FIXTURE));
  return buildCatalog(docs, createSite(undefined));
}

async function withThread<T>(use: (thread: SideThread) => Promise<T>): Promise<T> {
  const thread = startSideThread();
  try {
    return await use(thread);
  } finally {
    await thread.close();
  }
}

describe('the side thread', () => {
  it('parses files as parse.ts does on this thread: the same values (dates, key order), the same problems', async () => {
    const dir = await copyContent();
    // A broken file of each kind the parser reports, beside the fixture's good ones.
    await writeFile(path.join(dir, 'services', 'unclosed.md'), '---\ntitle: "open\nslug: unclosed\n---\nbody\n');
    await writeFile(path.join(dir, 'services', 'latin1.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x74, 0x3a, 0x20, 0xe9, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]));
    // An unquoted date is a Date to js-yaml (validation refuses it later, but parsing keeps it).
    await writeFile(path.join(dir, 'insights', 'fecha.md'), '---\ntitle: Fecha\nslug: fecha\nupdated: 2024-05-01\n---\nCuerpo.\n');
    await mkdir(path.join(dir, 'stray'), { recursive: true });
    await writeFile(path.join(dir, 'stray', 'note.md'), '---\ntitle: x\n---\n');
    const here = await loadContent(dir, parseSource);
    const rels = (await loadContent(dir)).map((src) => src.rel);
    const there = await withThread((thread) => thread.parse(dir, rels));
    expect(there).toHaveLength(here.length);
    expect(there.some((r) => r.doc && Object.values(r.doc.data).some((v) => v instanceof Date))).toBe(true);
    for (let i = 0; i < here.length; i++) {
      expect(isDeepStrictEqual(there[i], here[i]), rels[i]).toBe(true);
      if (here[i]!.doc) expect(Object.keys(there[i]!.doc!.data)).toEqual(Object.keys(here[i]!.doc!.data));
    }
    expect(there.flatMap((r) => r.issues.map((i) => i.code)).sort()).toEqual(['encoding_error', 'unknown_file', 'yaml_error']);
  });

  it('gives loadContent, for the files handed to it, the results in the order of the list', async () => {
    const dir = await copyContent();
    const here = await loadContent(dir, parseSource);
    const shares: number[] = [];
    const handedOff = await withThread((thread) =>
      loadContent(dir, parseSource, {
        count: (total) => {
          shares.push(total);
          return total - 3;
        },
        parse: (rels) => thread.parse(dir, rels),
      }),
    );
    expect(shares).toEqual([here.length]);
    expect(isDeepStrictEqual(handedOff, here)).toBe(true);
    expect(sideShare(here.length)).toBe(0);
    expect(sideShare(10_000)).toBe(4_500);
  });

  it('rejects a parse whose file cannot be read with the error as thrown', async () => {
    const dir = await tempDir();
    await expect(withThread((thread) => thread.parse(dir, ['services/missing.md']))).rejects.toMatchObject({ code: 'ENOENT', message: expect.stringContaining('missing.md') });
  });

  it('answers the bytes of search.json as the main thread would write them', async () => {
    const catalog = await fixtureCatalog();
    const request = { header: searchFileHeader(catalog), docs: searchDocuments(catalog) };
    const reply = await withThread((thread) => thread.search(request));
    expect(reply.issues).toEqual([]);
    const expected = `${JSON.stringify(searchFile(request.header, request.docs))}\n`;
    expect(Buffer.from(reply.bytes!).toString('utf8')).toBe(expected);
    expect(request.docs.length).toBeGreaterThan(10);
  });

  it('answers a search.json its schema refuses as problems naming the file and the field, and no bytes', async () => {
    const catalog = await fixtureCatalog();
    const reply = await withThread((thread) => thread.search({ header: { ...searchFileHeader(catalog), url: 'not an address' }, docs: searchDocuments(catalog) }));
    expect(reply.bytes).toBeUndefined();
    expect(reply.issues.length).toBeGreaterThan(0);
    for (const found of reply.issues) expect(found).toMatchObject({ file: 'dist/api/v1/search.json', field: 'url', code: 'output_invalid' });
    expect(reply.issues.map((i) => i.message)).toContain('must match pattern "^https?://" (schema search)');
  });

  it('rejects a job that throws with its cause, and goes on with the next', async () => {
    const catalog = await fixtureCatalog();
    const docs = searchDocuments(catalog);
    await withThread(async (thread) => {
      await expect(thread.search({ header: searchFileHeader(catalog), docs: [...docs, docs[0]!] })).rejects.toThrow(`MiniSearch: duplicate ID ${docs[0]!.id}`);
      await expect(thread.search({ header: searchFileHeader(catalog), docs })).resolves.toMatchObject({ issues: [] });
    });
  });

  it('closes cleanly when it was never asked anything, and refuses work after', async () => {
    const thread = startSideThread();
    await expect(thread.close()).resolves.toBeUndefined();
    await expect(thread.parse(FIXTURE, ['organization.md'])).rejects.toThrow(/side thread stopped/);
  });
});
