/**
 * End to end on the real content: build content/ into a temp folder, serve it on an ephemeral
 * port and check every endpoint of the spec over HTTP. The slug table below is the spec's
 * contract, written out by hand on purpose: the content must provide exactly these.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { startCatalogServer, type CatalogServer } from '../../scripts/cli/catalog-server.ts';
import { schemaRegistry } from '../../scripts/catalog/schemas.ts';
import { CONTENT, ROOT, cleanupTemp, tempDir } from './helpers.ts';

const SPEC_SLUGS = {
  services: ['sistema-de-captacion', 'meta-ads', 'landing-y-conversion', 'crm-y-seguimiento', 'autoridad-comercial', 'diagnostico-operativo', 'optimizacion-de-procesos', 'ia-y-automatizacion', 'integraciones-y-sistemas', 'operacion-y-mejora-continua', 'infraestructura-segura'],
  sectors: ['servicios-tecnicos-e-instalaciones', 'inmobiliario-y-gestion-de-activos', 'automocion-y-movilidad', 'seguridad-facilities-y-parkings', 'servicios-profesionales'],
  insights: ['cuando-no-usar-ia', 'automatizacion-rpa-agente-o-software', 'medir-un-proceso-antes-de-automatizarlo'],
} as const;

const FIXED = ['index', 'status', 'organization', 'services', 'sectors', 'areas', 'insights', 'faqs', 'pages', 'bundle', 'openapi'];
const LISTS = ['services', 'sectors', 'areas', 'insights', 'faqs', 'pages'] as const;

let server: CatalogServer;
let dist: string;
const api = (p: string): string => `${server.url}/api/v1/${p}`;
const getJson = async <T = Record<string, unknown>>(p: string): Promise<T> => (await fetch(api(p))).json() as Promise<T>;

beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  const result = await buildCatalog({ contentDir: CONTENT, outDir: dist, sourceDateEpoch: '' });
  if (!result.ok) throw new Error(`content/ does not build:\n${result.issues.map((i) => `${i.file}: ${i.field}: ${i.message}`).join('\n')}`);
  server = await startCatalogServer({ dir: dist, port: 0 });
});
afterAll(async () => {
  await server?.close();
  await cleanupTemp();
});

describe('every endpoint of the spec', () => {
  it.each(FIXED)('/%s.json answers 200 with JSON, CORS and an ETag', async (name) => {
    const res = await fetch(api(`${name}.json`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(await res.json()).toBeTypeOf('object');
  });

  const details = Object.entries(SPEC_SLUGS).flatMap(([kind, slugs]) => slugs.map((slug) => [kind, slug] as const));
  it.each(details)('/%s/%s.json answers 200 with that resource', async (kind, slug) => {
    const res = await fetch(api(`${kind}/${slug}.json`));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { slug: string; url: string; json_url: string };
    expect(body.slug).toBe(slug);
    expect(body.json_url).toMatch(new RegExp(`/api/v1/${kind}/${slug}\\.json$`));
    expect(body.url).toMatch(/^https:\/\//);
  });

  it.each(Object.keys(SPEC_SLUGS))('/%s.json lists exactly the slugs of the spec', async (kind) => {
    const list = await getJson<{ items: { slug: string }[] }>(`${kind}.json`);
    expect(list.items.map((i) => i.slug).sort()).toEqual([...SPEC_SLUGS[kind as keyof typeof SPEC_SLUGS]].sort());
  });

  it.each([
    ['services/nope.json'], ['sectors/nope.json'], ['insights/nope.json'], ['areas/valencia.json'], ['nothing.json'], ['v2/index.json'],
  ])('an unknown /api/v1/%s answers 404 with a JSON body', async (p) => {
    const res = await fetch(api(p));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body).toEqual({ error: 'not_found', message: `No resource at /api/v1/${p}`, status: 404 });
    expect(schemaRegistry().validator('error-404')(body)).toBe(true);
  });

  it.each(LISTS)('/%s.json has count equal to items.length and a url on every item', async (name) => {
    const list = await getJson<{ count: number; items: { url: string; json_url?: string }[] }>(`${name}.json`);
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.count).toBe(list.items.length);
    for (const item of list.items) expect(item.url).toMatch(/^https:\/\/tramontanaconsultores\.es\//);
    // Pages link to their JSON only where one exists; every other entry has its own JSON address.
    if (name !== 'pages') for (const item of list.items) expect(item.json_url).toMatch(/^https:\/\/tramontanaconsultores\.es\/api\/v1\//);
  });

  it('every FAQ has a question, an answer and its page of origin', async () => {
    const faqs = await getJson<{ items: { question: string; answer: string; page: { kind: string; slug: string; title: string; url: string } }[] }>('faqs.json');
    for (const f of faqs.items) {
      expect(f.question.length).toBeGreaterThan(0);
      expect(f.answer.length).toBeGreaterThan(0);
      expect(f.page).toEqual({ kind: expect.any(String), slug: expect.any(String), title: expect.any(String), url: expect.stringMatching(/^https:\/\//) });
    }
  });

  it('the bundle holds the whole catalog, and index.json says how many requests it replaces', async () => {
    const bundle = await getJson<Record<string, unknown[]> & { organization: { name: string } }>('bundle.json');
    for (const key of ['services', 'sectors', 'coverage', 'articles', 'faqs', 'pages']) expect(bundle[key]?.length, key).toBeGreaterThan(0);
    expect(bundle.services).toHaveLength(11);
    expect(bundle.organization.name).toBe('Tramontana Consultores');
    const index = await getJson<{ bundle: { replaces_requests: number } }>('index.json');
    // organization + 6 lists + 11 services + 5 sectors + 3 insights
    expect(index.bundle.replaces_requests).toBe(26);
  });

  it('every resource in the bundle has a url', async () => {
    const bundle = await getJson<Record<string, unknown>>('bundle.json');
    const missing: string[] = [];
    for (const [key, value] of Object.entries(bundle)) {
      const items = Array.isArray(value) ? value : typeof value === 'object' ? [value] : [];
      for (const item of items as { url?: string }[]) if (!item.url) missing.push(key);
    }
    expect(missing).toEqual([]);
  });
});

describe('HTTP behaviour', () => {
  it('answers 304 to If-None-Match with the current ETag, and 200 to a stale one', async () => {
    const first = await fetch(api('services/meta-ads.json'));
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(api('services/meta-ads.json'), { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const weak = await fetch(api('services/meta-ads.json'), { headers: { 'If-None-Match': `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await fetch(api('services/meta-ads.json'), { headers: { 'If-None-Match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it('keeps ETags across a rebuild with the same bytes, and follows the swapped folder', async () => {
    const before = (await fetch(api('bundle.json'))).headers.get('etag');
    const rebuilt = await buildCatalog({ contentDir: CONTENT, outDir: dist, sourceDateEpoch: '' });
    expect(rebuilt.ok).toBe(true);
    const after = await fetch(api('bundle.json'));
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).toBe(before);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(api('index.json'), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  it('answers a CORS preflight', async () => {
    const res = await fetch(api('index.json'), { method: 'OPTIONS', headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s under /api with 405 and a JSON body', async (method) => {
    const res = await fetch(api('services.json'), { method, body: method === 'DELETE' ? undefined : '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toEqual({ error: 'method_not_allowed', message: `${method} is not allowed: this API is read-only (GET, HEAD, OPTIONS)`, status: 405 });
  });

  it.each([
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml; charset=utf-8'],
    ['/robots.txt', 'text/plain; charset=utf-8'],
    ['/index.md', 'text/markdown; charset=utf-8'],
    ['/servicios/meta-ads.md', 'text/markdown; charset=utf-8'],
  ])('serves %s as %s', async (p, type) => {
    const res = await fetch(`${server.url}${p}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
  });

  it('does not serve the host configuration or escape the folder', async () => {
    expect((await fetch(`${server.url}/_headers`)).status).toBe(404);
    expect((await fetch(`${server.url}/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
  });
});

describe('npm run serve', () => {
  it('serves a built folder on the given port, prints its URL and where the url fields point, and leads / to the index', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/serve.ts'), '--port', '0', '--dir', dist], { cwd: ROOT });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const m = out.match(/at (http:\/\/127\.0\.0\.1:\d+)/);
          if (m?.[1] && out.includes('The url fields point at https://tramontanaconsultores.es/ (rebuild with SITE_URL=')) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/api/v1/status.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok', api_version: '1.0.0' });
      const root = await fetch(`${url}/`);
      expect(root.url).toBe(`${url}/api/v1/index.json`);
      expect(await root.json()).toMatchObject({ api_version: '1.0.0' });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
