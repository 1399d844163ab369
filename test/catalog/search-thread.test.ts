/**
 * The build's search thread (scripts/catalog/search/search-thread.ts): the bytes it answers are
 * the file the writer would have written on the main thread, a value the schema refuses comes
 * back as the build's usual located problem, and a failure in the thread rejects with its cause.
 */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../scripts/catalog/load.ts';
import { buildCatalog } from '../../scripts/catalog/model.ts';
import { checkContent } from '../../scripts/catalog/pipeline.ts';
import { searchDocuments } from '../../scripts/catalog/search/documents.ts';
import { searchFile, searchFileHeader } from '../../scripts/catalog/search/search-file.ts';
import { startSearchThread } from '../../scripts/catalog/search/search-thread.ts';
import { createSite } from '../../scripts/catalog/site.ts';
import { FIXTURE } from './helpers.ts';

async function fixtureCatalog() {
  const { docs } = checkContent(await loadContent(FIXTURE));
  return buildCatalog(docs, createSite(undefined));
}

describe('the search thread', () => {
  it('answers the bytes of search.json as the main thread would write them', async () => {
    const catalog = await fixtureCatalog();
    const request = { header: searchFileHeader(catalog), docs: searchDocuments(catalog) };
    const thread = startSearchThread();
    try {
      const reply = await thread.build(request);
      expect(reply.issues).toEqual([]);
      const expected = `${JSON.stringify(searchFile(request.header, request.docs))}\n`;
      expect(Buffer.from(reply.bytes!).toString('utf8')).toBe(expected);
      expect(request.docs.length).toBeGreaterThan(10);
    } finally {
      await thread.close();
    }
  });

  it('answers a value its schema refuses as a problem naming the file and the field, and no bytes', async () => {
    const catalog = await fixtureCatalog();
    const thread = startSearchThread();
    try {
      const reply = await thread.build({ header: { ...searchFileHeader(catalog), url: 'not an address' }, docs: searchDocuments(catalog) });
      expect(reply.bytes).toBeUndefined();
      expect(reply.issues.length).toBeGreaterThan(0);
      for (const found of reply.issues) expect(found).toMatchObject({ file: 'dist/api/v1/search.json', field: 'url', code: 'output_invalid' });
      expect(reply.issues.map((i) => i.message)).toContain('must match pattern "^https?://" (schema search)');
    } finally {
      await thread.close();
    }
  });

  it('rejects with the cause when the thread fails', async () => {
    const catalog = await fixtureCatalog();
    const docs = searchDocuments(catalog);
    const thread = startSearchThread();
    try {
      await expect(thread.build({ header: searchFileHeader(catalog), docs: [...docs, docs[0]!] })).rejects.toThrow(
        `the search index thread failed: MiniSearch: duplicate ID ${docs[0]!.id}`,
      );
    } finally {
      await thread.close();
    }
  });

  it('closes cleanly when it was never asked anything', async () => {
    const thread = startSearchThread();
    await expect(thread.close()).resolves.toBeUndefined();
  });
});
