/** Whole-set checks, driven through checkContent (parse → drafts → validate → link-check). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../scripts/catalog/load.ts';
import { checkContent } from '../../scripts/catalog/pipeline.ts';
import { siteLinks } from '../../scripts/catalog/link-check.ts';
import { FIXTURE, cleanupTemp, copyContent, edit, put } from './helpers.ts';

afterAll(cleanupTemp);

async function issuesOf(mutate: (dir: string) => Promise<void>) {
  const dir = await copyContent();
  await mutate(dir);
  return checkContent(await loadContent(dir)).issues;
}

describe('link-check', () => {
  it('passes the fixture and logs each draft it leaves out', async () => {
    const lines: string[] = [];
    const { docs, issues } = checkContent(await loadContent(FIXTURE), (l) => lines.push(l));
    expect(issues).toEqual([]);
    expect(docs.map((d) => d.file)).not.toContain('content/services/borrador-secreto.md');
    expect(lines).toEqual(['Draft left out of every output: content/services/borrador-secreto.md']);
  });

  it.each([
    [
      'a dangling service reference',
      (d: string) => edit(d, 'services/meta-ads.md', 'related_services: ["diagnostico-operativo"]', 'related_services: ["diagnostico-operativo", "no-existe"]'),
      { file: 'content/services/meta-ads.md', field: 'related_services[1]', code: 'dangling_reference', message: 'refers to service "no-existe", which does not exist' },
    ],
    [
      'a reference to a draft',
      (d: string) => edit(d, 'areas/valencia.md', '"meta-ads", ', '"borrador-secreto", '),
      { file: 'content/areas/valencia.md', field: 'services_available[0]', code: 'dangling_reference', message: expect.stringContaining('is a draft (content/services/borrador-secreto.md)') },
    ],
    [
      'a coverage area that does not exist',
      (d: string) => edit(d, 'organization.md', 'coverage: ["valencia"]', 'coverage: ["valencia", "lima"]'),
      { file: 'content/organization.md', field: 'coverage[1]', code: 'dangling_reference' },
    ],
    [
      'a contact page that does not exist',
      (d: string) => edit(d, 'organization.md', 'contact_page: "/contacto/"', 'contact_page: "/hablemos/"'),
      { file: 'content/organization.md', field: 'contact.contact_page', code: 'dangling_reference' },
    ],
    [
      'a body link to a page that does not exist',
      (d: string) => edit(d, 'sectors/servicios-profesionales.md', 'Texto del sector.', 'Ver [precios](/precios/).'),
      { file: 'content/sectors/servicios-profesionales.md', field: 'body', code: 'dangling_reference', message: 'links to /precios/, which is not a page of the site' },
    ],
    [
      'a duplicate slug',
      async (d: string) => put(d, 'services/meta-ads-2.md', (await readFile(path.join(d, 'services/meta-ads.md'), 'utf8'))),
      { file: 'content/services/meta-ads-2.md', field: 'slug', code: 'duplicate_slug', message: '"meta-ads" is already used by content/services/meta-ads.md' },
    ],
    [
      'two pages with one address',
      (d: string) => edit(d, 'pages/aviso-legal.md', 'path: "/aviso-legal/"', 'path: "/contacto/"'),
      { file: 'content/pages/contacto.md', field: 'path', code: 'duplicate_path', message: '/contacto/ is already the address of content/pages/aviso-legal.md' },
    ],
    [
      'a repeated FAQ on one page',
      (d: string) => edit(d, 'pages/contacto.md', 'faqs:\n', 'faqs:\n  - question: "¿Cómo empiezo?"\n    answer: "Otra vez."\n'),
      { file: 'content/pages/contacto.md', field: 'faqs[1].question', code: 'duplicate_faq' },
    ],
    [
      'two services at one position of a line',
      (d: string) => edit(d, 'services/meta-ads.md', 'service_line: "captacion"\norder: 2', 'service_line: "sistemas"\norder: 1'),
      { file: 'content/services/meta-ads.md', field: 'order', code: 'invalid_value', message: 'position 1 of line "sistemas" is already taken by content/services/diagnostico-operativo.md' },
    ],
    [
      'a service line declared twice',
      (d: string) => edit(d, 'organization.md', 'id: "sistemas"', 'id: "captacion"'),
      { file: 'content/organization.md', field: 'service_lines', code: 'invalid_value', message: 'must declare each service line once; missing "sistemas"' },
    ],
    [
      'a missing organization',
      async (d: string) => (await import('node:fs/promises')).rm(path.join(d, 'organization.md')),
      { file: 'content/organization.md', field: '(file)', code: 'missing_file' },
    ],
  ])('reports %s', async (_name, mutate, expected) => {
    expect(await issuesOf(mutate)).toContainEqual(expect.objectContaining(expected));
  });

  it('does not call an invalid organization.md missing', async () => {
    const issues = await issuesOf((d) => edit(d, 'organization.md', 'founded: "2019"', 'founded: 2019'));
    expect(issues).toEqual([expect.objectContaining({ file: 'content/organization.md', field: 'founded', code: 'wrong_type' })]);
  });

  it('does not report references to a file that exists but is itself invalid', async () => {
    const issues = await issuesOf((d) => edit(d, 'services/diagnostico-operativo.md', 'duration: "3 semanas"\n', ''));
    expect(issues).toEqual([expect.objectContaining({ file: 'content/services/diagnostico-operativo.md', field: 'duration', code: 'missing_field' })]);
  });

  it('extracts only site-relative page links from a body', () => {
    const body = 'a [x](/servicios/a/) [y](/contacto/#f) [z](https://x.org/) [w](/logo.png) [v](//cdn.x/) [u](/sectores/b/?q=1)';
    expect(siteLinks(body)).toEqual(['/contacto/', '/sectores/b/', '/servicios/a/']);
  });
});
