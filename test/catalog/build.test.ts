/**
 * The whole build on the fixture content: files on disk, schemas, OpenAPI, drafts, determinism,
 * and what a broken content folder does (issues naming file and field, previous dist/ intact).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { schemaRegistry } from '../../scripts/catalog/schemas.ts';
import { CONTENT, FIXTURE, ROOT, cleanupTemp, copyContent, edit, put, readJson, readTree, tempDir } from './helpers.ts';
import { schemaFor } from './outputs.ts';

const run = promisify(execFile);
let dist: string;
let tree: Map<string, Buffer>;
let summary: { files: number; bytes: number; ms?: number };
const text = (rel: string): string => tree.get(rel)?.toString('utf8') ?? '';

beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  const result = await buildCatalog({ contentDir: FIXTURE, outDir: dist, sourceDateEpoch: '' });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  summary = { files: result.files, bytes: result.bytes };
  tree = await readTree(dist);
});
afterAll(cleanupTemp);

describe('a clean build', () => {
  it('emits the API, the twins and the agent files', () => {
    expect([...tree.keys()]).toEqual(expect.arrayContaining([
      '_headers', 'llms.txt', 'llms-full.txt', 'robots.txt', 'sitemap.xml', 'index.md',
      'contacto.md', 'servicios/meta-ads.md', 'sectores/servicios-profesionales.md',
      'insights/medir-antes.md', 'zonas/valencia.md',
      'api/v1/index.json', 'api/v1/status.json', 'api/v1/organization.json', 'api/v1/bundle.json', 'api/v1/openapi.json',
      'api/v1/services.json', 'api/v1/sectors.json', 'api/v1/areas.json', 'api/v1/insights.json', 'api/v1/faqs.json', 'api/v1/pages.json',
      'api/v1/services/meta-ads.json', 'api/v1/services/diagnostico-operativo.json',
      'api/v1/sectors/servicios-profesionales.json', 'api/v1/insights/medir-antes.json',
    ]));
  });

  it('reports the files and bytes it wrote', () => {
    expect(summary).toEqual({ files: tree.size, bytes: [...tree.values()].reduce((n, b) => n + b.length, 0) });
  });

  it('every emitted JSON file validates against its schema', () => {
    const registry = schemaRegistry();
    const checked: string[] = [];
    for (const [rel, bytes] of tree) {
      const schema = schemaFor(rel);
      if (!schema || schema === 'openapi') continue;
      const validate = registry.validator(schema);
      expect(validate(JSON.parse(bytes.toString('utf8'))), `${rel}: ${JSON.stringify(validate.errors)}`).toBe(true);
      checked.push(rel);
    }
    // 2 services + 1 sector + 1 insight + 6 lists + organization, index, status, bundle, search
    expect(checked).toHaveLength(15);
  });

  it('openapi.json is a valid OpenAPI 3.1 document with the spec operations and content slugs', async () => {
    const doc = JSON.parse(text('api/v1/openapi.json'));
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const ops = Object.values(doc.paths as Record<string, { get: { operationId: string } }>).map((p) => p.get.operationId);
    expect(ops.sort()).toEqual(['getBundle', 'getInsightsBySlug', 'getOrganization', 'getRoot', 'getSearchIndex', 'getSectorsBySlug', 'getServicesBySlug', 'getStatus', 'listAreas', 'listFaqs', 'listInsights', 'listPages', 'listSectors', 'listServices']);
    expect(doc.paths['/services/{slug}.json'].get.parameters[0].schema.enum).toEqual(['meta-ads', 'diagnostico-operativo']);
    expect(doc.paths['/services/{slug}.json'].get.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error404');
  });

  it('openapi.json is clean under Redocly\'s strictest recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: text('api/v1/openapi.json'), absoluteRef: '/api/v1/openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
    const doc = JSON.parse(text('api/v1/openapi.json'));
    for (const [route, item] of Object.entries(doc.paths as Record<string, { get: { security: unknown; responses: Record<string, unknown> } }>)) {
      expect(item.get.security, route).toEqual([]);
      expect(Object.keys(item.get.responses), route).toEqual(['200', '404']);
    }
    expect(doc.info.license).toEqual({ name: 'All rights reserved (Fixture Consultores)', url: 'https://tramontanaconsultores.es/' });
  });

  it('orders services by line then order, and carries provenance from the content', async () => {
    const services = await readJson<{ items: { slug: string; source: { path: string; sha256: string }; updated: string }[] }>(path.join(dist, 'api/v1/services.json'));
    expect(services.items.map((s) => s.slug)).toEqual(['meta-ads', 'diagnostico-operativo']);
    const bytes = await readFile(path.join(FIXTURE, 'services/meta-ads.md'));
    expect(services.items[0]?.source).toEqual({ path: 'content/services/meta-ads.md', sha256: createHash('sha256').update(bytes).digest('hex') });
    expect(services.items[0]?.updated).toBe('2026-01-10');
  });

  it('resolves references as slugs with titles and addresses', async () => {
    const s = await readJson<Record<string, unknown>>(path.join(dist, 'api/v1/services/meta-ads.json'));
    expect(s.related_services).toEqual([{ slug: 'diagnostico-operativo', title: 'Diagnóstico operativo', url: 'https://tramontanaconsultores.es/servicios/diagnostico-operativo/', json_url: 'https://tramontanaconsultores.es/api/v1/services/diagnostico-operativo.json' }]);
    expect(s.faqs).toEqual([{ id: expect.stringMatching(/^service\.meta-ads\.[0-9a-f]{10}$/), question: '¿Cuánto dura?', answer: 'Entre cuatro y seis semanas.' }]);
    expect(s.body_markdown).toContain('## Cómo trabajamos');
    expect(s.word_count).toBeGreaterThan(5);
    const sector = await readJson<{ services: { slug: string }[] }>(path.join(dist, 'api/v1/sectors/servicios-profesionales.json'));
    expect(sector.services.map((x) => x.slug)).toEqual(['meta-ads', 'diagnostico-operativo']);
  });

  it('says in index.json how many requests the bundle replaces, counted from the content', async () => {
    const index = await readJson<{ bundle: { replaces_requests: number }; resources: { name: string; total: number }[] }>(path.join(dist, 'api/v1/index.json'));
    // organization + 6 lists + 2 services + 1 sector + 1 insight
    expect(index.bundle.replaces_requests).toBe(11);
    expect(Object.fromEntries(index.resources.map((r) => [r.name, r.total]))).toEqual({ organization: 1, services: 2, sectors: 1, areas: 1, insights: 1, faqs: 4, pages: 7 });
  });

  it('leaves drafts out of every output', () => {
    for (const [rel, bytes] of tree) {
      const body = bytes.toString('utf8');
      expect(body, rel).not.toContain('borrador-secreto');
      expect(body, rel).not.toContain('Pregunta del borrador');
    }
  });

  it('lists only indexable pages and keeps the others out of llms.txt, twins and the sitemap', () => {
    const pages = JSON.parse(text('api/v1/pages.json')) as { count: number; items: { kind: string; slug: string; markdown_url: string }[] };
    expect(pages.items.map((p) => `${p.kind}:${p.slug}`)).toEqual(['page:inicio', 'page:contacto', 'service:meta-ads', 'service:diagnostico-operativo', 'sector:servicios-profesionales', 'insight:medir-antes', 'area:valencia']);
    expect(pages.count).toBe(pages.items.length);
    for (const file of ['llms.txt', 'llms-full.txt', 'sitemap.xml', 'api/v1/faqs.json', 'api/v1/bundle.json']) {
      expect(text(file), file).not.toContain('aviso-legal');
    }
    expect(tree.has('aviso-legal.md')).toBe(false);
    expect(text('robots.txt')).toContain('Disallow: /aviso-legal/');
    expect(text('robots.txt')).toContain('Sitemap: https://tramontanaconsultores.es/sitemap.xml');
  });

  it('writes llms.txt in the llmstxt.org shape, linking each page to its Markdown twin', () => {
    const llms = text('llms.txt');
    expect(llms).toMatch(/^# Fixture Consultores\n\n> Consultora de prueba/);
    expect(llms).toContain('- [Meta Ads](https://tramontanaconsultores.es/servicios/meta-ads.md): Campañas en Meta.');
    expect(text('llms-full.txt')).toContain('# Diagnóstico operativo');
    expect(text('index.md')).toMatch(/^# Fixture Consultores\n/);
  });

  it('puts pages and JSON endpoints in the sitemap with the content dates', () => {
    const sitemap = text('sitemap.xml');
    expect(sitemap).toContain('<loc>https://tramontanaconsultores.es/servicios/meta-ads/</loc>\n    <lastmod>2026-01-10</lastmod>');
    expect(sitemap).toContain('<loc>https://tramontanaconsultores.es/api/v1/services/meta-ads.json</loc>\n    <lastmod>2026-01-10</lastmod>');
  });

  it('takes the build time from the content, or from SOURCE_DATE_EPOCH', async () => {
    expect(JSON.parse(text('api/v1/status.json')).generated_at).toBe('2026-02-01T00:00:00.000Z');
    const other = path.join(await tempDir(), 'dist');
    await buildCatalog({ contentDir: FIXTURE, outDir: other, sourceDateEpoch: '1767225600' });
    expect((await readJson<{ generated_at: string }>(path.join(other, 'api/v1/status.json'))).generated_at).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each([
    [{ siteUrl: 'ftp://example.org' }, 'site_url'],
    [{ siteUrl: 'not a url' }, 'site_url'],
    [{ sourceDateEpoch: 'yesterday' }, 'SOURCE_DATE_EPOCH'],
    [{ sourceDateEpoch: '99999999999999999' }, 'SOURCE_DATE_EPOCH'],
  ])('refuses the setting %o, naming it', async (settings, field) => {
    const result = await buildCatalog({ contentDir: FIXTURE, outDir: path.join(await tempDir(), 'dist'), ...settings });
    expect(result).toEqual({ ok: false, issues: [expect.objectContaining({ file: '(config)', field, code: 'invalid_config' })] });
  });

  it('derives every address from the configured site URL', async () => {
    const other = path.join(await tempDir(), 'dist');
    await buildCatalog({ contentDir: FIXTURE, outDir: other, siteUrl: 'https://staging.example.org/', sourceDateEpoch: '' });
    const s = await readJson<{ url: string; json_url: string }>(path.join(other, 'api/v1/services/meta-ads.json'));
    expect(s).toMatchObject({ url: 'https://staging.example.org/servicios/meta-ads/', json_url: 'https://staging.example.org/api/v1/services/meta-ads.json' });
    const all = [...(await readTree(other)).values()].map((b) => b.toString('utf8')).join('\n');
    expect(all).not.toContain('tramontanaconsultores.es/');
  });

  it('writes fields in a fixed order whatever order the YAML uses', async () => {
    const content = await copyContent();
    await edit(content, 'services/meta-ads.md', '{ title: "Paso 1", description: "Primero." }', '{ description: "Primero.", title: "Paso 1" }');
    const other = path.join(await tempDir(), 'dist');
    await buildCatalog({ contentDir: content, outDir: other, sourceDateEpoch: '' });
    const s = await readJson<{ process_steps: Record<string, string>[] }>(path.join(other, 'api/v1/services/meta-ads.json'));
    expect(Object.keys(s.process_steps[0] ?? {})).toEqual(['title', 'description']);
  });

  it('is deterministic: a second build is byte-identical', async () => {
    const again = path.join(await tempDir(), 'dist');
    await buildCatalog({ contentDir: FIXTURE, outDir: again, sourceDateEpoch: '' });
    const second = await readTree(again);
    expect([...second.keys()]).toEqual([...tree.keys()]);
    for (const [rel, bytes] of tree) expect(second.get(rel)?.equals(bytes), rel).toBe(true);
  });
});

/** One row per kind of broken content: the change, then the issue it must produce. */
const BROKEN: readonly [string, (dir: string) => Promise<void>, { file: string; field: string; code: string }][] = [
  ['bad YAML', (d) => edit(d, 'sectors/servicios-profesionales.md', 'title: "Servicios profesionales"', 'title: "Servicios: [profesionales'), { file: 'content/sectors/servicios-profesionales.md', field: '(front matter)', code: 'yaml_error' }],
  ['a missing field', (d) => edit(d, 'insights/medir-antes.md', /^answer: .*\n/m, ''), { file: 'content/insights/medir-antes.md', field: 'answer', code: 'missing_field' }],
  ['a mistyped field', (d) => edit(d, 'services/diagnostico-operativo.md', 'order: 1', 'order: "primero"'), { file: 'content/services/diagnostico-operativo.md', field: 'order', code: 'wrong_type' }],
  ['a slug that does not match the file name', (d) => edit(d, 'areas/valencia.md', 'slug: "valencia"', 'slug: "valencia-ciudad"'), { file: 'content/areas/valencia.md', field: 'slug', code: 'slug_mismatch' }],
  ['a duplicate slug', async (d) => put(d, 'pages/contacto-2.md', (await readFile(path.join(d, 'pages/contacto.md'), 'utf8')).replace('/contacto/', '/contacto-2/')), { file: 'content/pages/contacto-2.md', field: 'slug', code: 'duplicate_slug' }],
  ['a dangling reference', (d) => edit(d, 'services/meta-ads.md', 'sectors: ["servicios-profesionales"]', 'sectors: ["hosteleria"]'), { file: 'content/services/meta-ads.md', field: 'sectors[0]', code: 'dangling_reference' }],
];

describe('a broken content folder', () => {
  let previous: string;
  let before: Map<string, Buffer>;
  beforeAll(async () => {
    previous = path.join(await tempDir(), 'dist');
    await buildCatalog({ contentDir: FIXTURE, outDir: previous, sourceDateEpoch: '' });
    before = await readTree(previous);
  });

  it.each(BROKEN)('with %s fails naming the file and field, and leaves dist/ untouched', async (_name, breakIt, expected) => {
    const content = await copyContent();
    await breakIt(content);
    const reported: string[] = [];
    const result = await buildCatalog({ contentDir: content, outDir: previous, report: (text) => reported.push(text) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toContainEqual(expect.objectContaining(expected));
    expect(reported.join('\n')).toMatch(new RegExp(`^  ${expected.file.replace(/[.]/g, '\\.')}:\\d+:\\d+: ${expected.field.replace(/[[\]().]/g, '\\$&')}: `, 'm'));
    const after = await readTree(previous);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [rel, bytes] of before) expect(after.get(rel)?.equals(bytes), rel).toBe(true);
  });

  it('the CLI lists every problem at once, root causes first, each at file:line:column, and exits 1', async () => {
    const content = await copyContent();
    for (const [, breakIt] of BROKEN) await breakIt(content);
    const cli = run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build.ts'), '--content', content, '--out', previous], { cwd: ROOT });
    const failure = await cli.then(() => null, (e: { code: number; stderr: string }) => e);
    expect(failure?.code).toBe(1);
    const lines = (failure?.stderr ?? '').split('\n').filter((l) => l.startsWith(`  ${content}/`)).map((l) => l.slice(`  ${content}/`.length));
    for (const [, , e] of BROKEN) {
      const file = e.file.slice('content/'.length);
      expect(lines.some((l) => new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+: ${e.field.replace(/[[\]().]/g, '\\$&')}: .*\\[${e.code}\\]$`).test(l)), `${e.file} ${e.field}`).toBe(true);
    }
    // The YAML error comes first; the rest stay in file order.
    expect(lines[0]).toMatch(/^sectors\/servicios-profesionales\.md:\d+:\d+: \(front matter\): has invalid YAML/);
    expect(lines.slice(1)).toEqual([...lines.slice(1)].sort());
    expect(failure?.stderr).toMatch(/^Build failed: \d+ problems in \d+ file\(s\):/);
    expect((await readTree(previous)).get('api/v1/index.json')?.equals(before.get('api/v1/index.json') ?? Buffer.alloc(0))).toBe(true);
  });
});

describe('problems an editor can act on', () => {
  const build = async (content: string, label?: string) => {
    const reported: string[] = [];
    const result = await buildCatalog({ contentDir: content, outDir: path.join(await tempDir(), 'dist'), report: (t) => reported.push(t), ...(label ? { contentLabel: label } : {}) });
    return { result, text: reported.join('\n') };
  };

  it('a YAML error in a file others refer to is reported alone, not with a dangling reference per referrer', async () => {
    const content = await copyContent(CONTENT);
    await edit(content, 'sectors/servicios-profesionales.md', /^title: "(.*)"$/m, 'title: "$1: [x');
    const { result, text } = await build(content);
    expect(result.ok ? [] : result.issues.map((i) => `${i.file} ${i.code}`)).toEqual(['content/sectors/servicios-profesionales.md yaml_error']);
    // The quote left open on line 3 (title), not line 5 where YAML gave up.
    expect(text).toContain('content/sectors/servicios-profesionales.md:3:8: (front matter): has invalid YAML front matter: a quoted value opens on line 3');
  });

  it('a changed slug comes first, with the references it breaks folded under it', async () => {
    const content = await copyContent(CONTENT);
    await edit(content, 'services/meta-ads.md', /^slug: .*$/m, 'slug: meta-adz');
    const { result, text } = await build(content);
    const issues = result.ok ? [] : result.issues;
    expect(issues[0]).toMatchObject({ file: 'content/services/meta-ads.md', code: 'slug_mismatch' });
    const rest = issues.slice(1);
    expect(rest.length).toBeGreaterThan(5);
    for (const i of rest) expect(i).toMatchObject({ code: 'dangling_reference', causedBy: 'content/services/meta-ads.md' });
    const lines = text.split('\n');
    expect(lines[1]).toMatch(/^ {2}content\/services\/meta-ads\.md:\d+:\d+: slug: is "meta-adz" but the file name says "meta-ads"/);
    expect(lines[2]).toBe(`    which breaks ${rest.length} references to "meta-ads", the name its file gives it:`);
    for (const line of lines.slice(3)) expect(line).toMatch(/^ {6}content\/.*\[dangling_reference\]$/);
    expect(lines).toHaveLength(3 + rest.length);
  });

  it('a page whose YAML is broken keeps its address when its path line is intact, or else the links to it say why they may dangle', async () => {
    const content = await copyContent(CONTENT);
    await edit(content, 'pages/contacto.md', /^title: "(.*)"$/m, 'title: "$1: [x');
    const intact = await build(content);
    expect(intact.result.ok ? [] : intact.result.issues.map((i) => i.code)).toEqual(['yaml_error']);
    await edit(content, 'pages/contacto.md', /^path: .*$/m, 'path: [');
    const lost = await build(content);
    const issues = lost.result.ok ? [] : lost.result.issues;
    expect(issues[0]).toMatchObject({ file: 'content/pages/contacto.md', code: 'yaml_error' });
    const rest = issues.slice(1);
    expect(rest.length).toBeGreaterThan(0);
    for (const i of rest) expect(i.message).toContain('or it is the address of content/pages/contacto.md, which could not be read: fix that first');
  });

  it('field problems carry the line and column of the field', async () => {
    const content = await copyContent();
    await edit(content, 'services/diagnostico-operativo.md', 'order: 1', 'order: "primero"');
    await edit(content, 'insights/medir-antes.md', /^answer: .*\n/m, '');
    await edit(content, 'areas/valencia.md', 'modality: "mixto"', 'modality: "mixto"\ncolour: red');
    const { result, text } = await build(content);
    const at = (file: string) => (result.ok ? undefined : result.issues.find((i) => i.file === `content/${file}`));
    const lineOf = async (file: string, needle: string) => (await readFile(path.join(content, file), 'utf8')).split('\n').findIndex((l) => l.startsWith(needle)) + 1;
    expect(at('services/diagnostico-operativo.md')).toMatchObject({ field: 'order', line: await lineOf('services/diagnostico-operativo.md', 'order:'), column: 8 });
    expect(at('areas/valencia.md')).toMatchObject({ field: 'colour', code: 'unknown_field', line: await lineOf('areas/valencia.md', 'colour:'), column: 1 });
    expect(at('insights/medir-antes.md')).toMatchObject({ field: 'answer', code: 'missing_field', line: 2, column: 1 });
    expect(text).toMatch(/^  content\/services\/diagnostico-operativo\.md:\d+:8: order: must be an integer, got string "primero" \[wrong_type\]$/m);
  });

  it('prints paths under the content folder as the user named it', async () => {
    const content = await copyContent();
    await put(content, 'areas/valencia.md', '');
    const { result, text } = await build(content, '../mi-sitio/contenido/');
    expect(result.ok ? [] : result.issues.map((i) => i.file)).toEqual(['content/areas/valencia.md']);
    expect(text).toContain('  ../mi-sitio/contenido/areas/valencia.md: (file): the file is empty [empty_file]');
  });

  it('refuses a file that is not valid UTF-8 instead of publishing U+FFFD', async () => {
    const content = await copyContent();
    const file = path.join(content, 'insights/medir-antes.md');
    const bytes = await readFile(file);
    const offset = bytes.indexOf('Medir');
    await writeFile(file, Buffer.concat([bytes.subarray(0, offset), Buffer.from([0xc1]), bytes.subarray(offset)]));
    const { result } = await build(content);
    expect(result.ok ? [] : result.issues).toEqual([expect.objectContaining({ file: 'content/insights/medir-antes.md', code: 'encoding_error', message: expect.stringContaining(`byte 0xC1 at offset ${offset}`) })]);
  });

  it('build --serve without --watch builds, then serves the result', async () => {
    const out = path.join(await tempDir(), 'dist');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build.ts'), '--content', FIXTURE, '--out', out, '--serve', '--port', '0'], { cwd: ROOT });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        child.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          const m = /Serving (http:\/\/[^/\s]+)/.exec(seen);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${seen}`)));
      });
      expect((await fetch(`${url}/api/v1/status.json`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
