/**
 * docs/simulator-api.md is the endpoint reference: it must list every route of the route table,
 * and nothing else, so a new route cannot ship undocumented and a removed one cannot linger.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../simulator/http/routes/index.ts';
import { ROOT } from '../catalog/helpers.ts';

/** `METHOD /path` for every row of the doc's route tables: `| GET, POST | \`/path\` … | auth | … |`. */
export function documentedRoutes(markdown: string): { key: string; auth: string }[] {
  const rows: { key: string; auth: string }[] = [];
  for (const [, methods, pathCell, auth] of markdown.matchAll(/^\| ([A-Z, ]+) \| `([^`]+)`[^|]* \| (\w+) \|/gm)) {
    for (const method of methods!.split(', ')) rows.push({ key: `${method} ${pathCell}`, auth: auth! });
  }
  return rows;
}

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('docs/simulator-api.md', () => {
  it('reads the rows of a table as the doc writes them', () => {
    const rows = documentedRoutes('| GET, POST | `/a/{id}` (also `/b`) | user | x |\n| PATCH | `/c` (site root) | none | y |\n');
    expect(rows).toEqual([{ key: 'GET /a/{id}', auth: 'user' }, { key: 'POST /a/{id}', auth: 'user' }, { key: 'PATCH /c', auth: 'none' }]);
  });

  it('lists every route of the table, with its auth, and no route that is not in it', async () => {
    const documented = documentedRoutes(await readFile(path.join(ROOT, 'docs/simulator-api.md'), 'utf8'));
    const byKey = new Map<string, Set<string>>();
    for (const { key, auth } of documented) byKey.set(key, (byKey.get(key) ?? new Set()).add(auth));
    // A row to paste for each route the doc lacks.
    const missing = routes.filter((r) => !byKey.get(keyOf(r))?.has(r.auth)).map((r) => `| ${r.method} | \`${r.path}\` | ${r.auth} | ${r.summary ?? ''} |`);
    expect(missing).toEqual([]);
    const served = new Set(routes.map(keyOf));
    expect(documented.map((d) => d.key).filter((key) => !served.has(key))).toEqual([]);
  });
});
