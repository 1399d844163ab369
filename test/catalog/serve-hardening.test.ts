/**
 * The catalog server under hostile input and at shutdown: an oversized head is answered 431 in
 * words the client reads, and `npm run serve` stops cleanly on SIGTERM.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
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

describe('a port already in use', () => {
  /** A port held by another listener for the length of `body`. */
  async function withTakenPort<T>(body: (port: number) => Promise<T>): Promise<T> {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      return await body((holder.address() as net.AddressInfo).port);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }
  const npm = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', ...args], { cwd: path.resolve(import.meta.dirname, '../..'), timeout: 120_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const freePort = async (): Promise<number> => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  };

  it('npm run serve: one line naming the port and --port, exit 1, no stack', async () => {
    const dir = await servedFolder();
    const result = await withTakenPort((port) => npm(['serve', '--', '--port', String(port), '--dir', dir]).then((r) => ({ ...r, port })));
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`npm run serve: port ${result.port} is already in use (127.0.0.1:${result.port}); pick another with --port N (0 picks a free one).`);
    expect(result.stdout).not.toMatch(/Serving/);
  });

  it('npm start with the simulator\'s port taken: one line naming --simulator-port, exit 1, the catalog port freed', async () => {
    const catalogPort = await freePort();
    const result = await withTakenPort((port) => npm(['start', '--', '--catalog-port', String(catalogPort), '--simulator-port', String(port)]).then((r) => ({ ...r, port })));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`npm start: the chat simulator: port ${result.port} is already in use (127.0.0.1:${result.port}); pick another with --simulator-port N (0 picks a free one).`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toMatch(/Catalog API/);
    expect(await portIsOpen(catalogPort)).toBe(false);
  });
});
