/**
 * `npm start`: the main job on the embedded defaults. Builds the catalog from `content/`, serves
 * `dist/` and runs the chat simulator on the default fixture, side by side, until Ctrl-C.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCatalog } from './catalog/pipeline.ts';
import { startCatalogServer } from './serve.ts';
import { startSimulatorServer } from './simulator.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    'catalog-port': { type: 'string', default: process.env.PORT ?? '8080' },
    'simulator-port': { type: 'string', default: process.env.SIMULATOR_PORT ?? '9991' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: '1' },
  },
});

const built = await buildCatalog({
  contentDir: path.join(root, 'content'),
  outDir: path.join(root, 'dist'),
  siteUrl: process.env.SITE_URL,
  log: (line) => console.log(line),
  report: (text) => console.error(text),
});
if (!built.ok) {
  console.error('dist/ left untouched; fix the content above and run `npm start` again.');
  process.exit(1);
}

const catalog = await startCatalogServer({
  dir: path.join(root, 'dist'),
  port: Number(values['catalog-port']),
  host: values.host,
});
console.log(`Catalog API:    ${catalog.url}/api/v1/index.json`);

const simulator = await startSimulatorServer({
  port: Number(values['simulator-port']),
  host: values.host,
  seed: values.seed,
});
console.log('Press Ctrl-C to stop both servers.');

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  await Promise.allSettled([catalog.close(), simulator.close()]);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
