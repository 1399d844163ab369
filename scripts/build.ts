/**
 * `npm run build`: content/ → dist/ (the JSON API under dist/api/v1 plus the agent files).
 * Exit code 1 when the content has problems (they are all listed, sorted by file), 2 for a
 * wrong invocation.
 */
import path from 'node:path';
import { buildCatalog } from './catalog/pipeline.ts';
import { watchCatalog } from './catalog/watch.ts';
import { parseCli, portOf } from './cli/args.ts';
import { siteUrlLine, startCatalogServer } from './cli/catalog-server.ts';
import { listenFailure } from './cli/listen-failure.ts';
import { SHUTDOWN_GRACE_MS, stopOnSignals } from './cli/shutdown.ts';
import { PROJECT_ROOT } from './cli/root.ts';

const USAGE = `Usage: npm run build -- [--content DIR] [--out DIR] [--site-url URL] [--precompress] [--watch] [--serve]

Compiles the Markdown content into the JSON API and the agent files. A build with problems
lists them all and leaves the previous output untouched.

  --content DIR    content folder (default content/)
  --out DIR        output folder (default dist/)
  --site-url URL   the website's base address (default env SITE_URL, else the organization's site)
  --precompress    also write .br and .gz twins of every text file, for servers that send them
                   as they are (nginx gzip_static/brotli_static, Caddy precompressed); most static
                   hosts compress on the fly, and npm run serve does when they are missing
  --watch          rebuild on every change; a failed rebuild keeps the last good output
  --serve          also serve the output (after the build, or while watching)
  --port N         port for --serve (default env PORT, else 8080; 0 picks a free one)
  --host H         address for --serve (default 127.0.0.1)
  -h, --help       this text`;

const values = parseCli(USAGE, {
  content: { type: 'string' },
  out: { type: 'string', default: path.join(PROJECT_ROOT, 'dist') },
  'site-url': { type: 'string', default: process.env.SITE_URL },
  precompress: { type: 'boolean', default: false },
  watch: { type: 'boolean', default: false },
  serve: { type: 'boolean', default: false },
  port: { type: 'string', default: process.env.PORT ?? '8080' },
  host: { type: 'string', default: '127.0.0.1' },
});
const port = values.serve ? portOf('--port', values.port, USAGE) : 0;

const contentDir = path.resolve(values.content ?? path.join(PROJECT_ROOT, 'content'));
const options = {
  contentDir,
  // Problems are printed under the folder's name as the user typed it (or as seen from here).
  contentLabel: values.content ?? (path.relative(process.cwd(), contentDir) || '.'),
  outDir: path.resolve(values.out),
  siteUrl: values['site-url'],
  precompress: values.precompress,
  log: (line: string) => console.log(line),
  report: (text: string) => console.error(text),
};

/** Start serving dist/; resolves to the server's stop. */
async function serve(): Promise<(graceMs: number) => Promise<unknown>> {
  let server;
  try {
    server = await startCatalogServer({ dir: options.outDir, port, host: values.host });
  } catch (error) {
    const line = listenFailure(error, { host: values.host, port, flag: '--port', what: 'npm run build -- --serve' });
    if (line === null) throw error;
    console.error(line);
    process.exit(1);
  }
  console.log(`Serving ${server.url}/api/v1/index.json`);
  const site = siteUrlLine(options.outDir, 'set --site-url or SITE_URL to change it');
  if (site) console.log(site);
  return (graceMs) => server.close(graceMs);
}

/** The command; a function, not top-level code, so that the bundle can be CommonJS (scripts/run.mjs). */
async function main(): Promise<void> {
  if (values.watch) {
    // A watcher must never die silently: whatever escapes (a server callback, a library's event
    // with no listener) is printed, and watching goes on. The next change rebuilds as usual.
    const unexpected = (error: unknown): void => {
      console.error(`Unexpected error (still watching): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    };
    process.on('uncaughtException', unexpected);
    process.on('unhandledRejection', unexpected);
    // Killed mid-pass, the process would leave dist/ half-updated and the pass's temporary files
    // behind: a stop (even during the first pass) lets the save and pass under way finish first,
    // then stops the server; a repeated signal is ignored (shutdown.ts).
    const watching = watchCatalog(options, { report: (line) => console.error(line) });
    let closeServer: ((graceMs: number) => Promise<unknown>) | undefined;
    stopOnSignals(async () => {
      console.log('Stopping: finishing the pass under way…');
      await (await watching).stop();
      await closeServer?.(SHUTDOWN_GRACE_MS);
    });
    await watching;
    if (values.serve) closeServer = await serve();
    console.log(`Watching ${path.relative(process.cwd(), options.contentDir) || '.'} for changes (Ctrl-C to stop)`);
  } else {
    const result = await buildCatalog(options);
    if (!result.ok) {
      console.error(`${path.relative(process.cwd(), options.outDir) || options.outDir} left untouched.`);
      process.exitCode = 1;
    } else if (values.serve) {
      const close = await serve();
      stopOnSignals(() => close(SHUTDOWN_GRACE_MS));
    }
  }
}

void main();
