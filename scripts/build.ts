/**
 * `npm run build`: content/ → dist/ (the JSON API under dist/api/v1 plus the agent files).
 *   --content <dir>   content folder (default content/)
 *   --out <dir>       output folder (default dist/)
 *   --site-url <url>  the website's base address (default: env SITE_URL, else the organization's site)
 *   --watch           rebuild on change; a failed rebuild keeps the last good dist/
 *   --serve           with --watch: also serve dist/ (--port, env PORT, default 8080)
 * Exit code 1 when the content has problems; they are all listed, sorted by file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCatalog } from './catalog/pipeline.ts';
import { watchCatalog } from './catalog/watch.ts';
import { startCatalogServer } from './serve.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    content: { type: 'string', default: path.join(root, 'content') },
    out: { type: 'string', default: path.join(root, 'dist') },
    'site-url': { type: 'string', default: process.env.SITE_URL },
    watch: { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const options = {
  contentDir: path.resolve(values.content),
  outDir: path.resolve(values.out),
  siteUrl: values['site-url'],
  log: (line: string) => console.log(line),
  report: (text: string) => console.error(text),
};

if (values.watch) {
  await watchCatalog(options, { report: (line) => console.error(line) });
  if (values.serve) {
    const server = await startCatalogServer({ dir: options.outDir, port: Number(values.port), host: values.host });
    console.log(`Serving ${server.url}/api/v1/index.json`);
  }
  console.log(`Watching ${path.relative(process.cwd(), options.contentDir) || '.'} for changes (Ctrl-C to stop)`);
} else {
  const result = await buildCatalog(options);
  if (!result.ok) {
    console.error(`${path.relative(process.cwd(), options.outDir) || options.outDir} left untouched.`);
    process.exitCode = 1;
  }
}
