/**
 * `npm run serve`: serve an already built dist/ (this builds nothing; run `npm run build`).
 *   --port <n>   default env PORT, else 8080 (0 picks a free port)
 *   --host <h>   default 127.0.0.1
 *   --dir <d>    default dist/
 * Importing this module only exports startCatalogServer; the CLI runs when executed directly.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCatalogHandler } from './catalog/server.ts';

export interface CatalogServer {
  url: string;
  close(): Promise<void>;
}

export async function startCatalogServer(options: { dir: string; port: number; host?: string }): Promise<CatalogServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(createCatalogHandler(options.dir));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (isMain) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.PORT ?? '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      dir: { type: 'string', default: path.join(root, 'dist') },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer between 0 and 65535, got "${values.port}"`);
    process.exit(1);
  }
  if (!existsSync(path.join(values.dir, 'api', 'v1', 'index.json'))) {
    console.error(`Nothing built in ${values.dir} yet: run \`npm run build\` first (serving anyway).`);
  }
  const server = await startCatalogServer({ dir: values.dir, port, host: values.host });
  console.log(`Serving ${values.dir} at ${server.url} (API: ${server.url}/api/v1/index.json)`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
