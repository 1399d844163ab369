/**
 * The catalog server under hostile input and at shutdown: an oversized head is answered 431 in
 * words the client reads, and `npm run serve` stops cleanly on SIGTERM.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCatalogServer } from '../../scripts/cli/catalog-server.ts';
import { portIsOpen, startScript } from '../npm-script.ts';
import { bodyOf, bytes, exchange, headersOf, statusOf } from '../raw-http.ts';
import { cleanupTemp, tempDir } from './helpers.ts';

afterAll(cleanupTemp);

async function servedFolder(): Promise<string> {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'api', 'v1'), { recursive: true });
  await writeFile(path.join(dir, 'api', 'v1', 'index.json'), '{"ok":true}\n');
  return dir;
}

describe('catalog server: request heads', () => {
  it('a 16 MB header is answered 431, which the client reads, then the connection closes', async () => {
    const server = await startCatalogServer({ dir: await servedFolder(), port: 0 });
    try {
      const port = Number(new URL(server.url).port);
      const res = await exchange(port, ['GET /api/v1/index.json HTTP/1.1\r\nHost: test\r\nX-Big: ', ...bytes(16 * 1024 * 1024), '\r\n\r\n']);
      expect(res.error).toBeUndefined();
      expect(statusOf(res.response)).toBe(431);
      expect(headersOf(res.response).connection).toBe('close');
      expect(bodyOf(res.response)).toBe('Request header fields too large\n');
      expect(res.ended).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('npm run serve and SIGTERM', () => {
  it('stops, closes idle keep-alive connections, exits 0 and frees the port', async () => {
    const running = await startScript('serve', ['--port', '0', '--dir', await servedFolder()], [/at http:\/\/127\.0\.0\.1:(\d+) /]);
    try {
      const port = Number(running.found[0]);
      // A keep-alive connection left idle after its answer must not hold the stop up.
      const idle = exchange(port, ['GET /api/v1/index.json HTTP/1.1\r\nHost: test\r\n\r\n'], { keepOpen: true, timeoutMs: 15_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      running.child.kill('SIGTERM');
      const [answer, exit] = await Promise.all([idle, running.exited]);
      expect(statusOf(answer.response)).toBe(200);
      expect(answer.ended).toBe(true);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await portIsOpen(port)).toBe(false);
    } finally {
      running.cleanUp();
    }
  });
});
