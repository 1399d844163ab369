/**
 * `npm start`: the main job on the embedded defaults. Builds the catalog from `content/`, serves
 * `dist/` and runs the chat simulator on the default fixture, side by side, until Ctrl-C.
 */
import path from 'node:path';
import { DEFAULT_SEED } from '../simulator/index.ts';
import { buildCatalog } from './catalog/pipeline.ts';
import { parseCli, portOf } from './cli/args.ts';
import { siteUrlLine, startCatalogServer, type CatalogServer } from './cli/catalog-server.ts';
import { listenFailure } from './cli/listen-failure.ts';
import { PROJECT_ROOT } from './cli/root.ts';
import { SHUTDOWN_GRACE_MS, stopOnSignals } from './cli/shutdown.ts';
import { startSimulatorServer } from '../simulator/cli/server.ts';

const USAGE = `Usage: npm start -- [--catalog-port N] [--simulator-port N] [--host H] [--seed S]

Builds the catalog from content/ into dist/, serves it, and runs the chat simulator beside it.

  --catalog-port N     catalog server port (default env PORT, else 8080)
  --simulator-port N   simulator port (default env SIMULATOR_PORT, else 9991)
  --host H             address both listen on (default 127.0.0.1)
  --seed S             the simulator's seed: fixes its API keys (default ${DEFAULT_SEED}, as npm run simulator)
  -h, --help           this text

Environment: SITE_URL sets the website address the catalog links to.`;

const values = parseCli(USAGE, {
  'catalog-port': { type: 'string', default: process.env.PORT ?? '8080' },
  'simulator-port': { type: 'string', default: process.env.SIMULATOR_PORT ?? '9991' },
  host: { type: 'string', default: '127.0.0.1' },
  seed: { type: 'string', default: String(DEFAULT_SEED) },
});
const catalogPort = portOf('--catalog-port', values['catalog-port'], USAGE);
const simulatorPort = portOf('--simulator-port', values['simulator-port'], USAGE);

const built = await buildCatalog({
  contentDir: path.join(PROJECT_ROOT, 'content'),
  outDir: path.join(PROJECT_ROOT, 'dist'),
  siteUrl: process.env.SITE_URL,
  log: (line) => console.log(line),
  report: (text) => console.error(text),
});
if (!built.ok) {
  console.error('dist/ left untouched; fix the content above and run `npm start` again.');
  process.exit(1);
}

const dist = path.join(PROJECT_ROOT, 'dist');
// Both ports are taken before either address is printed: a port in use is one line and exit 1,
// with nothing left listening.
let catalog: CatalogServer | undefined;
try {
  catalog = await startCatalogServer({ dir: dist, port: catalogPort, host: values.host });
} catch (error) {
  exitOnListenFailure(error, catalogPort, '--catalog-port', 'the catalog');
}
let simulator: Awaited<ReturnType<typeof startSimulatorServer>>;
try {
  simulator = await startSimulatorServer({ port: simulatorPort, host: values.host, seed: values.seed });
} catch (error) {
  await catalog.close();
  exitOnListenFailure(error, simulatorPort, '--simulator-port', 'the chat simulator');
}
console.log(`Catalog API:    ${catalog.url}/api/v1/index.json`);
const site = siteUrlLine(dist, 'set SITE_URL to change it');
if (site) console.log(site);
console.log('Press Ctrl-C to stop both servers.');

stopOnSignals(() => Promise.all([catalog.close(SHUTDOWN_GRACE_MS), simulator.close(SHUTDOWN_GRACE_MS)]));

function exitOnListenFailure(error: unknown, port: number, flag: string, what: string): never {
  const line = listenFailure(error, { host: values.host, port, flag, what: `npm start: ${what}` });
  console.error(line ?? (error instanceof Error ? error.message : String(error)));
  process.exit(1);
}
