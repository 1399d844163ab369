/** Lines and columns of a failed build's problems: the field's node in the front matter. */
import { describe, expect, it } from 'vitest';
import { fieldPath, locateField, locateIssues } from '../../scripts/catalog/locate.ts';
import { issue } from '../../scripts/catalog/issues.ts';

const TEXT = `---
slug: "s"
title: 42
process_steps:
  - { title: a, description: b }
  - title: c
    colour: red
sectors: ["x", "y"]
contact:
  contact_page: "/nada/"
---
Cuerpo.
`;

describe('fieldPath', () => {
  it.each([
    ['title', ['title']],
    ['process_steps[1].title', ['process_steps', 1, 'title']],
    ['contact.contact_page', ['contact', 'contact_page']],
    ['sectors[0]', ['sectors', 0]],
    ['""', ['']],
  ])('%s', (field, path) => expect(fieldPath(field)).toEqual(path));
});

describe('locateField', () => {
  it.each([
    ['a value', 'title', false, { line: 3, column: 8 }],
    ['a list item', 'sectors[1]', false, { line: 8, column: 16 }],
    ['a field in a list of mappings', 'process_steps[1].title', false, { line: 6, column: 12 }],
    ['a nested mapping value', 'contact.contact_page', false, { line: 10, column: 17 }],
    ['an unknown field, at its key', 'process_steps[1].colour', true, { line: 7, column: 5 }],
    ['a missing field, at the mapping that lacks it', 'process_steps[1].description', false, { line: 6, column: 5 }],
    ['a missing top-level field, at the first field', 'summary', false, { line: 2, column: 1 }],
  ])('finds %s', (_name, field, atKey, position) => {
    expect(locateField(TEXT, field, atKey)).toEqual(position);
  });

  it('gives up (null) on a file without front matter', () => {
    expect(locateField('Texto.\n', 'title')).toBeNull();
  });
});

describe('locateIssues', () => {
  it('adds positions to front-matter issues only, reading each file once', () => {
    const reads: string[] = [];
    const located = locateIssues(
      [
        issue('content/services/s.md', 'title', 'wrong_type', 'must be a string'),
        issue('content/services/s.md', 'process_steps[1].colour', 'unknown_field'),
        issue('content/services/s.md', 'body', 'dangling_reference', 'links to /x/'),
        issue('(config)', 'site_url', 'invalid_config', 'bad'),
      ],
      (file) => (reads.push(file), TEXT),
    );
    expect(located.map((i) => (i.line === undefined ? null : `${i.line}:${i.column}`))).toEqual(['3:8', '7:5', null, null]);
    expect(reads).toEqual(['content/services/s.md']);
  });
});
