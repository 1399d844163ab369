/**
 * The catalog server as a static host: precompressed twins negotiated on Accept-Encoding, byte
 * ranges per RFC 9110, odd request targets, and symbolic links that try to leave dist/. Requests
 * go through node:http or a raw socket, not fetch, which would add and undo its own encoding.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { schemaRegistry } from '../../scripts/catalog/schemas.ts';
import { startCatalogServer, type CatalogServer } from '../../scripts/cli/catalog-server.ts';
import { FIXTURE, cleanupTemp, tempDir } from './helpers.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let server: CatalogServer;
let dist: string;
let outside: string;
const DETAIL = '/api/v1/services/meta-ads.json';
let detail: Buffer;

function get(p: string, headers: Record<string, string> = {}, method = 'GET', agent?: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${p}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One request written byte for byte, for targets no HTTP client would send. */
function raw(requestLine: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(`${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  const work = await tempDir();
  dist = path.join(work, 'dist');
  outside = path.join(work, 'outside');
  const result = await buildCatalog({ contentDir: FIXTURE, outDir: dist, sourceDateEpoch: '', precompress: true });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  detail = await readFile(path.join(dist, DETAIL));
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.json'), '{"secret":true}\n');
  await symlink(outside, path.join(dist, 'api/v1/escape'));
  await symlink(path.join(outside, 'secret.json'), path.join(dist, 'api/v1/leak.json'));
  await symlink('services/meta-ads.json', path.join(dist, 'api/v1/alias.json'));
  await symlink('../../_headers', path.join(dist, 'api/v1/headers.json'));
  server = await startCatalogServer({ dir: dist, port: 0 });
});
afterAll(async () => {
  await server?.close();
  await cleanupTemp();
});

describe('precompressed twins, negotiated', () => {
  const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const;
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['x-gzip', 'gzip'],
    ['BR;Q=0.9, identity;q=0.1', 'br'],
  ] as const)('Accept-Encoding: %s → %s, decoding to the file, with its own ETag and length', async (accept, coding) => {
    const res = await get(DETAIL, { 'Accept-Encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decoders[coding](res.body).equals(detail)).toBe(true);
    const plain = await get(DETAIL);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(res.headers.etag).not.toBe(plain.headers.etag);
  });

  it.each([[undefined], ['identity'], ['br;q=0, gzip;q=0'], ['deflate'], ['gzip;q=0.5, identity'], ['br;q=bogus']])(
    'Accept-Encoding: %s → the file as it is, still with Vary',
    async (accept) => {
      const res = await get(DETAIL, accept === undefined ? {} : { 'Accept-Encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.body.equals(detail)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(detail.length);
    },
  );

  it('answers 304 to the ETag of the encoding it would send, and 200 to the ETag of another', async () => {
    const br = await get(DETAIL, { 'Accept-Encoding': 'br' });
    const again = await get(DETAIL, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toBe('Accept-Encoding');
    const other = await get(DETAIL, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(br.headers.etag) });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it('answers HEAD with the length of the encoding it would send and no body', async () => {
    const head = await get(DETAIL, { 'Accept-Encoding': 'br' }, 'HEAD');
    const full = await get(DETAIL, { 'Accept-Encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  it('compresses Markdown and text too, and sends the twins only through negotiation', async () => {
    expect((await get('/servicios/meta-ads.md', { 'Accept-Encoding': 'br' })).headers['content-encoding']).toBe('br');
    expect((await get('/llms-full.txt', { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get(`${DETAIL}.br`)).status).toBe(404);
    expect((await get('/llms.txt.gz')).status).toBe(404);
  });

  it('never sends a twin that does not decode to the current file: it compresses the file instead', async () => {
    const file = path.join(dist, 'api/v1/insights/medir-antes.json');
    const good = await readFile(`${file}.br`);
    await writeFile(`${file}.br`, await readFile(path.join(dist, `${DETAIL}.br`)));
    const res = await get('/api/v1/insights/medir-antes.json', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).equals(await readFile(file))).toBe(true);
    expect(res.body.equals(good)).toBe(true);
  });
});

describe('a build without twins (the default): compressed on the fly, as with them', () => {
  let plain: CatalogServer;
  beforeAll(async () => {
    const out = path.join(await tempDir(), 'dist');
    const result = await buildCatalog({ contentDir: FIXTURE, outDir: out, sourceDateEpoch: '' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    plain = await startCatalogServer({ dir: out, port: 0 });
  });
  afterAll(() => plain?.close());

  const both = async (p: string, headers: Record<string, string>, method = 'GET'): Promise<[Answer, Answer]> => {
    const fromPlain = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(`${plain.url}${p}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    return [fromPlain, await get(p, headers, method)];
  };
  const same = ['content-type', 'content-encoding', 'vary', 'etag', 'content-length', 'content-range', 'cache-control', 'access-control-allow-origin'] as const;

  it.each([
    [DETAIL, { 'Accept-Encoding': 'br' }],
    [DETAIL, { 'Accept-Encoding': 'gzip' }],
    [DETAIL, { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' }],
    [DETAIL, {}],
    [DETAIL, { 'Accept-Encoding': 'br', Range: 'bytes=2-9' }],
    ['/servicios/meta-ads.md', { 'Accept-Encoding': 'br' }],
    ['/llms-full.txt', { 'Accept-Encoding': 'gzip' }],
    ['/api/v1/bundle.json', { 'Accept-Encoding': 'br, gzip' }],
    ['/sitemap.xml', { 'Accept-Encoding': 'gzip' }],
    ['/_headers', { 'Accept-Encoding': 'gzip' }],
  ] as [string, Record<string, string>][])('%s %j: the same status, headers and bytes as from the twins', async (p, headers) => {
    const [a, b] = await both(p, headers);
    expect(a.status).toBe(b.status);
    for (const name of same) expect(a.headers[name], name).toBe(b.headers[name]);
    expect(a.body.equals(b.body)).toBe(true);
  });

  it('answers 304 to the ETag of the encoding it made, and HEAD with its length', async () => {
    const [br] = await both(DETAIL, { 'Accept-Encoding': 'br' });
    const [again] = await both(DETAIL, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    const [head] = await both(DETAIL, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
    expect(head.body.length).toBe(0);
  });
});

describe('byte ranges (RFC 9110 section 14)', () => {
  const len = (): number => detail.length;
  it.each([
    ['bytes=0-0', 0, 0],
    ['bytes=0-9', 0, 9],
    ['bytes=10-', 10, -1],
    ['bytes=-5', -5, -1],
    ['bytes=3-99999999', 3, -1],
    ['bytes=-99999999', 0, -1],
    [' bytes = 2-4 ,', 2, 4],
  ])('%s → 206 with that slice and its Content-Range', async (range, from, to) => {
    const start = from < 0 ? len() + from : from;
    const end = to < 0 ? len() + to : to;
    const res = await get(DETAIL, { Range: range, 'Accept-Encoding': 'br' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${len()}`);
    expect(Number(res.headers['content-length'])).toBe(end - start + 1);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(detail.subarray(start, end + 1))).toBe(true);
  });

  it.each([['bytes=5-2'], ['bytes=abc'], ['items=0-5'], ['bytes=0-1,4-5'], ['bytes='], ['bytes=1-2-3'], ['bytes=--1']])(
    '%s is ignored: 200 with the whole file',
    async (range) => {
      const res = await get(DETAIL, { Range: range });
      expect(res.status).toBe(200);
      expect(res.headers['content-range']).toBeUndefined();
      expect(res.body.equals(detail)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(detail.length);
    },
  );

  it.each([['bytes=-0'], ['bytes=999999-'], ['bytes=999999-1000000']])('%s → 416 with Content-Range: bytes */length', async (range) => {
    const res = await get(DETAIL, { Range: range });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${len()}`);
    expect(res.body.length).toBe(0);
  });

  it('keeps a keep-alive connection in step after bad ranges', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = [];
      for (const range of ['bytes=5-2', 'bytes=999999-', 'bytes=-5', 'bytes=abc']) answers.push(await get(DETAIL, { Range: range }, 'GET', agent));
      const last = await get('/api/v1/status.json', {}, 'GET', agent);
      expect(answers.map((a) => a.status)).toEqual([200, 416, 206, 200]);
      expect(JSON.parse(last.body.toString('utf8'))).toMatchObject({ status: 'ok' });
    } finally {
      agent.destroy();
    }
  });

  it('honours If-Range: a stale ETag gets the whole file', async () => {
    const etag = String((await get(DETAIL)).headers.etag);
    expect((await get(DETAIL, { Range: 'bytes=0-3', 'If-Range': etag })).status).toBe(206);
    const stale = await get(DETAIL, { Range: 'bytes=0-3', 'If-Range': '"stale"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(detail)).toBe(true);
  });

  it('advertises byte ranges on files', async () => {
    expect((await get(DETAIL)).headers['accept-ranges']).toBe('bytes');
  });
});

describe('odd request targets', () => {
  it.each([['GET // HTTP/1.1'], ['GET http://[ HTTP/1.1'], ['GET //etc/passwd HTTP/1.1'], ['GET * HTTP/1.1'], ['GET /%zz HTTP/1.1'], ['GET /index.md%00 HTTP/1.1']])(
    '%s → 400, nothing internal',
    async (line) => {
      const res = await raw(line);
      expect(res.status).toBe(400);
      expect(res.text).not.toMatch(/Invalid URL|Error|at \S+\.ts|node:/);
    },
  );

  it.each([['GET /api/v1/%zz HTTP/1.1'], ['GET /api/v1/%00.json HTTP/1.1']])('%s → 400 with the JSON error body', async (line) => {
    const res = await raw(line);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/content-type: application\/json; charset=utf-8/i);
    const body = JSON.parse(res.text.slice(res.text.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ error: 'bad_request', message: 'The request target is not a valid path', status: 400 });
    expect(schemaRegistry().validator('error-400')(body)).toBe(true);
  });

  it.each([
    ['/api/v1/index.json/extra'],
    ['/api/v1/services/meta-ads.json/'],
    ['/api/v1/services/meta-ads.json/x.json'],
    ['/api/v1/'],
    [`/api/v1/${'x'.repeat(4000)}`],
    [`/api/v1/${'a/'.repeat(2000)}b.json`],
  ])('%s → the JSON 404, never a 5xx', async (p) => {
    const res = await get(p);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body.toString('utf8'));
    expect(body).toEqual({ error: 'not_found', message: `No resource at ${p}`, status: 404 });
    expect(schemaRegistry().validator('error-404')(body)).toBe(true);
  });

  it('a target over 8 KB → 414 with a JSON body under /api/, text elsewhere', async () => {
    const api = await get(`/api/v1/${'x'.repeat(15_000)}`);
    expect(api.status).toBe(414);
    expect(JSON.parse(api.body.toString('utf8'))).toEqual({ error: 'uri_too_long', message: 'The request target is longer than 8192 characters', status: 414 });
    const other = await get(`/${'y'.repeat(9000)}`);
    expect(other.status).toBe(414);
    expect(other.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('GET / leads to the API index', async () => {
    const res = await get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/api/v1/index.json');
    expect((await get(String(res.headers.location))).status).toBe(200);
  });

  it('an absolute-form target is served by its path', async () => {
    const res = await raw('GET http://localhost/api/v1/status.json HTTP/1.1');
    expect(res.status).toBe(200);
  });
});

describe('symbolic links', () => {
  it.each([['/api/v1/escape/secret.json'], ['/api/v1/leak.json'], ['/api/v1/headers.json']])(
    '%s leads outside dist/ (or to host configuration): the JSON 404',
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body.toString('utf8'))).toEqual({ error: 'not_found', message: `No resource at ${p}`, status: 404 });
      expect(res.body.toString('utf8')).not.toContain('"secret":true');
    },
  );

  it('a link that stays inside dist/ is served like the file it names', async () => {
    const res = await get('/api/v1/alias.json');
    expect(res.status).toBe(200);
    expect(res.body.equals(detail)).toBe(true);
  });
});
