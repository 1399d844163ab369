/**
 * The floor of `npm run bench:build`: the least any build of this content must do, as a whole
 * process of its own: find the files, read them, parse their front matter (gray-matter) and
 * write one JSON per document. It writes through the build's own sink (worker threads,
 * synchronous calls), so the ratio measures the pipeline's work, not a difference in how files
 * reach the disk. It writes every file, though, where the build links a file whose bytes are
 * unchanged from the dist/ it replaces (write-reuse.ts): the floor is one JSON written per
 * document, as the target was set.
 */
import path from 'node:path';
import fg from 'fast-glob';
import matter from 'gray-matter';
import { mapLimit } from '../catalog/concurrency.ts';
import { readFile } from '../catalog/io.ts';
import { prepareWrite } from '../catalog/write.ts';
import { parseCli, usageError } from '../cli/args.ts';

const USAGE = `Usage: npm run bench:floor -- --content DIR --out DIR

Reads every Markdown file of DIR, parses its front matter and writes one JSON per document:
the floor the catalog build is compared with (npm run bench:build runs it).

  --content DIR   content folder
  --out DIR       output folder (replaced)
  -h, --help      this text`;

/** Same bounded concurrency as the build's reads, so the floor is not handicapped by serial I/O. */
const IO_CONCURRENCY = 64;

const values = parseCli(USAGE, { content: { type: 'string' }, out: { type: 'string' } });
if (!values.content || !values.out) usageError('--content and --out are required', USAGE);
const contentDir = values.content;
const rels = (await fg('**/*.md', { cwd: contentDir, ignore: ['README.md'] })).sort();
const target = (rel: string): string => `${rel.replace(/[/.]/g, '_')}.json`;
const written = await prepareWrite(values.out, rels.map(target), { linkUnchanged: false }).commit(async (sink) => {
  await mapLimit(rels, IO_CONCURRENCY, async (rel) => {
    const parsed = matter(await readFile(path.join(contentDir, rel), 'utf8'), {});
    await sink.file(target(rel), JSON.stringify({ path: rel, data: parsed.data, body: parsed.content }));
  });
});
console.log(`Wrote ${written.files} files, ${written.bytes} bytes`);
