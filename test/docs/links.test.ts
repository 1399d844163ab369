/**
 * Every relative link in README.md, simulator/README.md and docs/*.md names a file of the
 * repository, and every `#anchor` one of its headings, so moving a document or renaming a heading
 * cannot leave a dead link behind. Links to other sites, and the two documents other work adds
 * (docs/deploying.md, docs/python-bots.md) until they exist, are not checked.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../catalog/helpers.ts';

/** `[text](target)` outside fenced code blocks; targets with a scheme (https:, mailto:) are left out. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n.*?^```$/gms, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[^\n]*\n.*?^```$/gms, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

const DOCUMENTS = ['README.md', 'simulator/README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
/** Written on other branches; their links are checked once they are here. */
const PENDING = new Set(['docs/deploying.md', 'docs/python-bots.md']);

describe('relative links in the documentation', () => {
  it('finds links and anchors as GitHub renders them', () => {
    expect(relativeLinks('[a](docs/x.md) [b](https://e.org) [c](#d)\n```sh\n[e](f.md)\n```\n')).toEqual(['docs/x.md', '#d']);
    expect(anchorOf('HTTP limits, slow clients and stopping')).toBe('http-limits-slow-clients-and-stopping');
    expect(anchorOf('`--watch`')).toBe('--watch');
    expect(anchorOf('Counting instructions (`--instructions`)')).toBe('counting-instructions---instructions');
  });

  it.each(DOCUMENTS)('%s: every relative link resolves', (document) => {
    const source = path.join(ROOT, document);
    const broken: string[] = [];
    for (const link of relativeLinks(readFileSync(source, 'utf8'))) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? source : path.resolve(path.dirname(source), file);
      const name = path.relative(ROOT, target);
      if (PENDING.has(name) && !existsSync(target)) continue;
      if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
