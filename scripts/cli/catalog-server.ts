/**
 * The catalog's HTTP server on a port (used by `npm run serve`, `build --serve` and `npm start`):
 * the request handler of catalog/server.ts in the node:http server the simulator uses too
 * (hardening.ts: oversized heads, slow clients, connection cap).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createHardenedServer, type Refusal, type ServerLimits } from '../../simulator/http/hardening.ts';
import { createCatalogHandler } from '../catalog/server.ts';

export interface CatalogServer {
  url: string;
  /** graceMs 0 (default): close every connection now; otherwise let requests in flight finish first. */
  close(graceMs?: number): Promise<void>;
}

/** What the server refuses itself (head too large, too slow, malformed, too many connections). */
function refusal(status: number, message: string): Refusal {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: `${message}\n` };
}

export async function startCatalogServer(options: {
  dir: string;
  port: number;
  host?: string;
  limits?: Partial<ServerLimits>;
}): Promise<CatalogServer> {
  const host = options.host ?? '127.0.0.1';
  const hardened = createHardenedServer(createCatalogHandler(options.dir), { limits: options.limits, refusal });
  const { server } = hardened;
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
    close: (graceMs = 0) => hardened.close(graceMs),
  };
}

/**
 * The start-up line saying where the built `url` fields point (index.json's site_url), which is
 * the website, not this server, and how to change it; null when nothing is built yet.
 */
export function siteUrlLine(dir: string, howToChange: string): string | null {
  try {
    const index = JSON.parse(readFileSync(path.join(dir, 'api', 'v1', 'index.json'), 'utf8')) as { site_url?: unknown };
    if (typeof index.site_url !== 'string') return null;
    return `The url fields point at ${index.site_url} (${howToChange}).`;
  } catch {
    return null;
  }
}
