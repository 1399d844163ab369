/**
 * HTTP headers for dist/, in the `_headers` format Netlify and Cloudflare Pages read. The build
 * writes the file from these rules and the local server reads that same file back, so what you
 * see locally is what a static host sends.
 */

export interface HeaderRule {
  /** A path, or a path with `*` matching any run of characters (the hosts' "splat"). */
  pattern: string;
  headers: ReadonlyArray<readonly [name: string, value: string]>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const CACHE_CONTROL = 'public, max-age=300, must-revalidate';
export const API_METHODS = 'GET, HEAD, OPTIONS';

/** Content types of the non-JSON files, by extension (JSON is set once for all of /api/*). */
export const TEXT_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
};

/**
 * Hosts merge every matching rule and join repeated header names with a comma, so each header
 * is stated in exactly one rule: caching and CORS for everything, the JSON type for the API,
 * and a type per text file (listed one by one: wildcards in the middle of a path are not
 * supported by every host).
 */
export function headerRules(textFiles: readonly string[]): HeaderRule[] {
  const rules: HeaderRule[] = [
    {
      pattern: '/*',
      headers: [
        ['Access-Control-Allow-Origin', '*'],
        ['Cache-Control', CACHE_CONTROL],
        ['X-Content-Type-Options', 'nosniff'],
      ],
    },
    {
      pattern: '/api/*',
      headers: [
        ['Content-Type', JSON_TYPE],
        ['Access-Control-Allow-Methods', API_METHODS],
        ['Access-Control-Expose-Headers', 'ETag'],
      ],
    },
  ];
  for (const file of [...textFiles].sort()) {
    const ext = file.slice(file.lastIndexOf('.') + 1);
    const type = TEXT_TYPES[ext];
    if (type) rules.push({ pattern: `/${file}`, headers: [['Content-Type', type]] });
  }
  return rules;
}

export function formatHeadersFile(rules: readonly HeaderRule[]): string {
  return `${rules.map((r) => [r.pattern, ...r.headers.map(([k, v]) => `  ${k}: ${v}`)].join('\n')).join('\n')}\n`;
}

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: { pattern: string; headers: [string, string][] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      rules.push({ pattern: raw.trim(), headers: [] });
      continue;
    }
    const colon = raw.indexOf(':');
    const current = rules[rules.length - 1];
    if (colon > 0 && current) current.headers.push([raw.slice(0, colon).trim(), raw.slice(colon + 1).trim()]);
  }
  return rules;
}

function toRegExp(pattern: string): RegExp {
  const body = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`);
}

/**
 * Compile the rules once; the result maps a URL path to its headers. Rules apply in file order
 * and a repeated header name is joined with a comma, as the hosts do. Exact paths are looked up
 * in a map, so thousands of per-file rules cost nothing per request.
 */
export function headerMatcher(rules: readonly HeaderRule[]): (path: string) => Record<string, string> {
  const splats: { index: number; re: RegExp }[] = [];
  const exact = new Map<string, number[]>();
  rules.forEach((r, index) => {
    if (r.pattern.includes('*')) splats.push({ index, re: toRegExp(r.pattern) });
    else exact.set(r.pattern, [...(exact.get(r.pattern) ?? []), index]);
  });
  return (path) => {
    const hits = [...splats.filter((s) => s.re.test(path)).map((s) => s.index), ...(exact.get(path) ?? [])].sort((a, b) => a - b);
    const merged = new Map<string, [string, string]>();
    for (const index of hits) {
      for (const [name, value] of rules[index]?.headers ?? []) {
        const prev = merged.get(name.toLowerCase());
        merged.set(name.toLowerCase(), prev ? [prev[0], `${prev[1]}, ${value}`] : [name, value]);
      }
    }
    return Object.fromEntries(merged.values());
  };
}
