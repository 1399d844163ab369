/**
 * The configurations of `npm run deploy-config` on real servers: nginx (with Debian's
 * brotli_static module) and Caddy, started on loopback ports with the generated config over a
 * `--precompress` build, answer like `npm run serve` for every kind of file, an unknown slug, the
 * files that are not to be served, and each encoding. ETags differ by design (the servers derive
 * theirs from the file's time and size) and are not compared. Skips, saying so, when a server is
 * not installed (.ci/run installs both).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caddyConfig, nginxConfig } from '../../scripts/catalog/deploy-config.ts';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { startCatalogServer, type CatalogServer } from '../../scripts/cli/catalog-server.ts';
import { FIXTURE, cleanupTemp, tempDir } from './helpers.ts';

const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const nginxReady = has('nginx') && existsSync(BROTLI_MODULE);
const caddyReady = has('caddy');
if (!nginxReady) console.warn('deploy-servers: nginx with libnginx-mod-http-brotli-static is not installed; its comparison skips (apt-get install nginx libnginx-mod-http-brotli-static)');
if (!caddyReady) console.warn('deploy-servers: caddy is not installed; its comparison skips (apt-get install caddy)');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(port: number, p: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, headers: { ...headers, Connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`port ${port} never opened: ${log()}`);
}

function decoded(a: Answer): Buffer {
  const coding = a.headers['content-encoding'];
  return coding === 'br' ? brotliDecompressSync(a.body) : coding === 'gzip' ? gunzipSync(a.body) : a.body;
}

const PATHS = [
  '/api/v1/index.json',
  '/api/v1/services/meta-ads.json',
  '/api/v1/bundle.json',
  '/api/v1/services/no-existe.json',
  '/api/v1/index.json/extra',
  '/api/v1/services/meta-ads.json/',
  '/api/v1/index.json.br',
  '/servicios/meta-ads.md',
  '/servicios/meta-ads.md.gz',
  '/llms.txt',
  '/llms-full.txt',
  '/sitemap.xml',
  '/robots.txt',
  '/_headers',
  '/no-existe',
];
const ENCODINGS: Record<string, Record<string, string>> = { identity: {}, gzip: { 'Accept-Encoding': 'gzip' }, br: { 'Accept-Encoding': 'br' } };
const SAME = ['content-type', 'access-control-allow-origin', 'access-control-allow-methods', 'access-control-expose-headers', 'cache-control', 'x-content-type-options'] as const;

let dist: string;
let work: string;
let serve: CatalogServer;
let servePort: number;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = await tempDir('deploy-servers-');
  dist = path.join(work, 'dist');
  const built = await buildCatalog({ contentDir: FIXTURE, outDir: dist, sourceDateEpoch: '', precompress: true });
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  serve = await startCatalogServer({ dir: dist, port: 0 });
  servePort = Number(new URL(serve.url).port);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await serve?.close();
  await cleanupTemp();
});

async function startServer(kind: 'nginx' | 'caddy'): Promise<number> {
  const port = await freePort();
  const dir = path.join(work, kind);
  await mkdir(dir, { recursive: true });
  let child: ChildProcess;
  if (kind === 'nginx') {
    await writeFile(path.join(dir, 'site.conf'), nginxConfig({ root: dist, listen: `127.0.0.1:${port}` }));
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir};`).join(' ');
    await writeFile(
      path.join(dir, 'nginx.conf'),
      `load_module ${BROTLI_MODULE};\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  ${temp}\n  include ${dir}/site.conf;\n}\n`,
    );
    child = spawn('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off; master_process off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    await writeFile(path.join(dir, 'Caddyfile'), caddyConfig({ root: dist, listen: `127.0.0.1:${port}` }));
    // Caddy's own admin endpoint would take port 2019, shared by every instance: off.
    await writeFile(path.join(dir, 'Caddyfile'), `{\n  admin off\n  auto_https off\n}\n${caddyConfig({ root: dist, listen: `127.0.0.1:${port}` })}`);
    child = spawn('caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } });
  }
  children.push(child);
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  await waitForPort(port, child, () => log);
  return port;
}

describe.each([
  ['nginx', nginxReady],
  ['caddy', caddyReady],
] as const)('%s with the generated configuration', (kind, ready) => {
  let port: number;
  beforeAll(async () => {
    if (ready) port = await startServer(kind);
  });

  it.skipIf(!ready).each(PATHS.flatMap((p) => Object.keys(ENCODINGS).map((e) => [p, e] as const)))('%s (%s) answers as npm run serve does', async (p, encoding) => {
    const headers = ENCODINGS[encoding] as Record<string, string>;
    const [theirs, ours] = [await get(port, p, headers), await get(servePort, p, headers)];
    expect(theirs.status, 'status').toBe(ours.status);
    for (const name of SAME) expect(theirs.headers[name], name).toBe(ours.headers[name]);
    if (ours.status === 200) {
      expect(theirs.headers['content-encoding'], 'content-encoding').toBe(ours.headers['content-encoding']);
      expect(theirs.headers.vary, 'vary').toBe(ours.headers.vary);
    }
    expect(decoded(theirs).equals(decoded(ours)), 'body').toBe(true);
  });

  it.skipIf(!ready)('GET / leads to the API index', async () => {
    const [theirs, ours] = [await get(port, '/', {}), await get(servePort, '/', {})];
    expect(theirs.status).toBe(ours.status);
    expect(theirs.headers.location).toBe(ours.headers.location);
  });
});
