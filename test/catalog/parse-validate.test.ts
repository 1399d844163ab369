/**
 * The parse and validate stages on their own: what an editor sees for each kind of mistake,
 * and property tests that no input crashes them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, parseSource } from '../../scripts/catalog/parse.ts';
import { validateDoc } from '../../scripts/catalog/validate.ts';

const src = (rel: string, text: string) => ({ file: `content/${rel}`, rel, bytes: Buffer.from(text) });

const AREA = `---
slug: "valencia"
title: "Valencia"
summary: "Zona."
updated: "2026-01-12"
name: "Valencia"
area_type: "ciudad"
modality: "mixto"
services_available: ["meta-ads"]
---
Cuerpo.
`;

function check(rel: string, text: string) {
  const parsed = parseSource(src(rel, text));
  if (!parsed.doc) return parsed.issues;
  return validateDoc(parsed.doc).issues;
}

describe('parse', () => {
  it('splits front matter and body and hashes the file bytes', () => {
    const { doc, issues } = parseSource(src('areas/valencia.md', AREA));
    expect(issues).toEqual([]);
    expect(doc).toMatchObject({ kind: 'area', fileSlug: 'valencia', body: 'Cuerpo.', file: 'content/areas/valencia.md' });
    expect(doc?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(doc?.data.title).toBe('Valencia');
  });

  it.each([
    ['bad YAML', 'areas/x.md', '---\ntitle: "unterminated\nslug: x\n---\n', 'yaml_error', '(front matter)'],
    ['front matter that is a list', 'areas/x.md', '---\n- a\n- b\n---\n', 'not_an_object', '(front matter)'],
    ['a file outside the known folders', 'blog/x.md', '---\ntitle: x\n---\n', 'unknown_file', '(file)'],
    ['a nested file', 'services/old/x.md', '---\ntitle: x\n---\n', 'unknown_file', '(file)'],
  ])('reports %s as an issue, not an exception', (_name, rel, text, code, field) => {
    const { doc, issues } = parseSource(src(rel, text));
    expect(doc).toBeNull();
    expect(issues).toEqual([expect.objectContaining({ file: `content/${rel}`, code, field })]);
  });

  it('names the YAML problem and where it is in the file', () => {
    const { issues } = parseSource(src('areas/x.md', '---\nslug: x\ntitle: [unclosed\nname: y\n---\n'));
    expect(issues).toEqual([expect.objectContaining({ code: 'yaml_error', message: 'has invalid YAML front matter: missed comma between flow collection entries', line: 4, column: 1 })]);
  });

  it.each([
    ['a double quote left open', '---\nslug: x\ntitle: "Valencia\nsummary: "Una ciudad"\nname: y\n---\n', 3, 8, 5],
    ['a single quote left open', "---\nslug: x\ntitle: 'Valencia\nsummary: 'Una ciudad'\nname: y\n---\n", 3, 8, 5],
    ['a quote left open in a list', '---\nslug: x\ntags:\n  - "uno\n  - "dos"\nname: y\n---\n', 4, 5, 5],
  ])('%s is reported where it opens, with the line where YAML gave up', (_name, text, line, column, gaveUp) => {
    const { issues } = parseSource(src('areas/x.md', text));
    expect(issues).toEqual([expect.objectContaining({ code: 'yaml_error', line, column })]);
    expect(issues[0]?.message).toMatch(new RegExp(`^has invalid YAML front matter: a quoted value opens on line ${line} and does not close on that line, so YAML read on and failed at line ${gaveUp}, column \\d+: `));
  });

  it('a YAML error after quotes that all close on their line is reported where YAML found it', () => {
    const { issues } = parseSource(src('areas/x.md', '---\nslug: "x"\ntitle: \'it\'\'s "here"\'\nname: "a \\" b"\nlist: [1\nother: y\n---\n'));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).not.toMatch(/a quoted value opens/);
    expect(issues[0]?.line).toBeGreaterThanOrEqual(5);
  });

  it.each([
    ['an empty file', '', 'empty_file', 'the file is empty'],
    ['a file of blank lines', '\n  \n\n', 'empty_file', 'the file is empty'],
    ['a file without front matter', '# Título\n\nTexto.\n', 'missing_front_matter', /^has no front matter: the file must start with a line "---"/],
    ['an empty front matter', '---\n---\nTexto.\n', 'missing_front_matter', /^has an empty front matter/],
  ])('says what is wrong with %s in one issue, not one per missing field', (_name, text, code, message) => {
    const { doc, issues } = parseSource(src('areas/x.md', text));
    expect(doc).toBeNull();
    expect(issues).toEqual([expect.objectContaining({ file: 'content/areas/x.md', code, message: typeof message === 'string' ? message : expect.stringMatching(message) })]);
  });

  it('refuses a file that is not valid UTF-8, naming the byte, its offset and line', () => {
    const bytes = Buffer.concat([Buffer.from('---\nslug: x\ntitle: "caf'), Buffer.from([0xe9]), Buffer.from('"\n---\n')]);
    const { doc, issues } = parseSource({ file: 'content/areas/x.md', rel: 'areas/x.md', bytes });
    expect(doc).toBeNull();
    expect(issues).toEqual([expect.objectContaining({ code: 'encoding_error', line: 3, column: 12,
      message: 'is not valid UTF-8: byte 0xE9 at offset 23 (line 3) cannot be decoded; save the file as UTF-8' })]);
  });

  it('finds the first bad byte after characters of every length, and accepts a real U+FFFD', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0x80]), (text, bad) => {
        const good = Buffer.from(`${text}\uFFFD`);
        expect(firstInvalidUtf8(good)).toBe(-1);
        expect(firstInvalidUtf8(Buffer.concat([good, Buffer.from(bad), Buffer.from('x')]))).toBe(good.length);
      }),
    );
  });
});

describe('validate', () => {
  it('accepts a complete area', () => {
    expect(check('areas/valencia.md', AREA)).toEqual([]);
  });

  it.each([
    ['a missing required field', AREA.replace('name: "Valencia"\n', ''), 'missing_field', 'name', /required but missing/],
    ['a mistyped field', AREA.replace('title: "Valencia"', 'title: 42'), 'wrong_type', 'title', /must be a string, got number 42/],
    ['an unquoted date', AREA.replace('updated: "2026-01-12"', 'updated: 2026-01-12'), 'wrong_type', 'updated', /unquoted date/],
    ['a badly formed date', AREA.replace('"2026-01-12"', '"12/01/2026"'), 'invalid_value', 'updated', /YYYY-MM-DD/],
    ['an impossible date', AREA.replace('"2026-01-12"', '"2026-02-31"'), 'invalid_value', 'updated', /YYYY-MM-DD/],
    ['a value outside its enum', AREA.replace('"mixto"', '"hibrido"'), 'invalid_value', 'modality', /must be one of "presencial", "remoto", "mixto"/],
    ['an unknown field', AREA.replace('name:', 'colour: "red"\nname:'), 'unknown_field', 'colour', /not a known field/],
    ['a wrong item type in a list', AREA.replace('["meta-ads"]', '["meta-ads", 7]'), 'wrong_type', 'services_available[1]', /must be a string/],
    ['a slug that does not match the file name', AREA.replace('slug: "valencia"', 'slug: "madrid"'), 'slug_mismatch', 'slug', /"madrid" but the file name says "valencia"/],
  ])('reports %s with its field', (_name, text, code, field, message) => {
    const issues = check('areas/valencia.md', text);
    expect(issues).toContainEqual(expect.objectContaining({ file: 'content/areas/valencia.md', code, field, message: expect.stringMatching(message) }));
  });

  it('lists every problem of a file at once', () => {
    const text = AREA.replace('name: "Valencia"\n', '').replace('title: "Valencia"', 'title: 42').replace('"mixto"', '"x"');
    const fields = check('areas/valencia.md', text).map((i) => i.field).sort();
    expect(fields).toEqual(['modality', 'name', 'title']);
  });

  it('points into nested lists', () => {
    const service = `---\nslug: s\ntitle: t\nsummary: s\nupdated: "2026-01-01"\nservice_line: captacion\norder: 1\naudience: a\nproblems: [a, b, c]\noutcomes: [a, b, c]\ndeliverables: [d]\nprocess_steps:\n  - { title: a, description: b }\n  - { title: a }\n  - { title: a, description: b }\nduration: d\nrelated_services: []\nsectors: []\n---\n`;
    expect(check('services/s.md', service)).toEqual([expect.objectContaining({ code: 'missing_field', field: 'process_steps[1].description' })]);
  });
});

describe('properties', () => {
  const yamlish = fc.oneof(
    fc.string(),
    fc.stringMatching(/^[a-z_]{1,8}: ?("[^"\n]{0,10}"|[0-9]{1,4}|\[[a-z, ]{0,10}\]|[-:{}[\]"'#&*!|>]{1,4})?$/),
  );
  const frontMatter = fc.array(yamlish, { maxLength: 12 }).map((lines) => `---\n${lines.join('\n')}\n---\nbody\n`);
  const paths = fc.constantFrom('services/a.md', 'sectors/a.md', 'insights/a.md', 'areas/a.md', 'pages/a.md', 'organization.md', 'x/a.md');

  it('arbitrary text never throws and yields either issues or a document', () => {
    fc.assert(
      fc.property(paths, fc.oneof(frontMatter, fc.string()), (rel, text) => {
        const parsed = parseSource(src(rel, text));
        expect(parsed.doc === null).toBe(parsed.issues.length > 0);
        if (parsed.doc) {
          const valid = validateDoc(parsed.doc);
          expect(valid.doc === null).toBe(valid.issues.length > 0);
          for (const i of valid.issues) expect(i.file).toBe(`content/${rel}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary front-matter values never crash validation and every issue names a field', () => {
    fc.assert(
      fc.property(paths.filter((p) => p !== 'x/a.md'), fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 })), (rel, data) => {
        const doc = { file: `content/${rel}`, kind: rel.split('/')[0]!.replace(/s$/, '').replace('organization.md', 'organization') as never, fileSlug: 'a', data, body: '', sha256: '0'.repeat(64) };
        const { doc: ok, issues } = validateDoc(doc);
        expect(ok === null).toBe(issues.length > 0);
        for (const i of issues) expect(i.field.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
