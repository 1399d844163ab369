/**
 * `npm run serve`: serve an already built dist/ (this builds nothing; run `npm run build`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseCli, portOf } from './cli/args.ts';
import { listenFailure } from './cli/listen-failure.ts';
import { siteUrlLine, startCatalogServer } from './cli/catalog-server.ts';
import { PROJECT_ROOT } from './cli/root.ts';
import { SHUTDOWN_GRACE_MS, stopOnSignals } from './cli/shutdown.ts';

const USAGE = `Usage: npm run serve -- [--port N] [--host H] [--dir DIR]

Serves a built catalog folder as a static host would (the _headers rules, ETags, JSON 404s).

  --port N     port (default env PORT, else 8080; 0 picks a free one)
  --host H     address to listen on (default 127.0.0.1)
  --dir DIR    the built folder (default dist/)
  -h, --help   this text`;

const values = parseCli(USAGE, {
  port: { type: 'string', default: process.env.PORT ?? '8080' },
  host: { type: 'string', default: '127.0.0.1' },
  dir: { type: 'string', default: path.join(PROJECT_ROOT, 'dist') },
});
const port = portOf('--port', values.port, USAGE);
if (!existsSync(path.join(values.dir, 'api', 'v1', 'index.json'))) {
  console.error(`Nothing built in ${values.dir} yet: run \`npm run build\` first (serving anyway).`);
}
let server;
try {
  server = await startCatalogServer({ dir: values.dir, port, host: values.host });
} catch (error) {
  const line = listenFailure(error, { host: values.host, port, flag: '--port', what: 'npm run serve' });
  if (line === null) throw error;
  console.error(line);
  process.exit(1);
}
console.log(`Serving ${values.dir} at ${server.url} (API: ${server.url}/api/v1/index.json)`);
const site = siteUrlLine(values.dir, 'rebuild with SITE_URL=https://… npm run build to change it');
if (site) console.log(site);
stopOnSignals(() => server.close(SHUTDOWN_GRACE_MS));
