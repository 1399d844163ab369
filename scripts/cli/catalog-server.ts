/**
 * The catalog's HTTP server on a port (used by `npm run serve`, `build --serve` and `npm start`):
 * node:http around the request handler of catalog/server.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogHandler } from '../catalog/server.ts';

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
