/**
 * Route matching: the table compiled once (static paths in a map, parameterised ones as anchored
 * regexes), and the URL a request line names looked up in it, %-escapes decoded as Django does.
 */
import type { Route } from './route.ts';

export const API_PREFIX = '/api/v1';

/** Where a route's path starts: under /api/v1, or at the site root (file downloads). */
export function routePrefix(route: Route): string {
  return route.outsideApi ? '' : API_PREFIX;
}

export interface CompiledPattern {
  pattern: string;
  regex: RegExp | null;
  names: string[];
  byMethod: Map<string, Route>;
  /** Methods in route-definition order, HEAD appended after GET's presence (Django's order). */
  allowed: string[];
}

export interface RouteTable {
  staticPaths: Map<string, CompiledPattern>;
  dynamic: CompiledPattern[];
}

/** Compile the table once: static paths in a map, parameterised ones as anchored regexes. */
export function compileRoutes(routes: readonly Route[]): RouteTable {
  const byPattern = new Map<string, CompiledPattern>();
  // A route answers at its path and at each alias path alike.
  for (const [path, route] of routes.flatMap((r) => [r.path, ...(r.aliasPaths ?? [])].map((p) => [p, r] as const))) {
    let entry = byPattern.get(path);
    if (!entry) {
      const names: string[] = [];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        const spec = route.params.find((p) => p.name === name && p.in === 'path');
        if (!spec) throw new Error(`route ${route.method} ${path}: path parameter ${name} is not declared`);
        if (spec.type === 'int') return '(\\d+)';
        return spec.spansSegments ? '(.+)' : '([^/]+)';
      });
      entry = {
        pattern: path,
        regex: names.length > 0 ? new RegExp(`^${source}$`) : null,
        names,
        byMethod: new Map(),
        allowed: [],
      };
      byPattern.set(path, entry);
    }
    if (entry.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${path}`);
    entry.byMethod.set(route.method, route);
    entry.allowed.push(route.method);
  }
  const all = [...byPattern.values()];
  for (const e of all) if (e.byMethod.has('GET')) e.allowed.push('HEAD');
  return {
    staticPaths: new Map(all.filter((e) => !e.regex).map((e) => [e.pattern, e])),
    dynamic: all.filter((e) => e.regex),
  };
}

function matchPath(table: RouteTable, path: string): UrlMatch {
  const fixed = table.staticPaths.get(path);
  if (fixed) return { entry: fixed, params: {} };
  for (const entry of table.dynamic) {
    const m = entry.regex!.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    entry.names.forEach((name, i) => {
      params[name] = m[i + 1]!;
    });
    return { entry, params };
  }
  return null;
}

/**
 * The path as Django routes it: %-escapes decoded first (PATH_INFO), so `/users/%31%30` is
 * user 10 and `/users/iago%40zulip.com` an email. Escapes that are not UTF-8 stay as written
 * (Django's repercent_broken_unicode), so they reach a route as text instead of failing.
 */
export function decodePath(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.toUpperCase();
      }
    });
  }
}

export type UrlMatch = { entry: CompiledPattern; params: Readonly<Record<string, string>> } | null;

/**
 * The route pattern a URL reaches (under /api/v1, or at the site root), and its path parameters.
 * The server asks for a request's traits before it reads the body and dispatches it after, and
 * clients repeat URLs: the last URL's match is kept (it depends on the URL alone).
 */
export function matchUrl(tables: RouteTables, url: string): UrlMatch {
  if (url === tables.lastUrl) return tables.lastMatch;
  const queryStart = url.indexOf('?');
  // Zulip's URL patterns are exact: `/users/` is not `/users`.
  const decoded = decodePath(queryStart < 0 ? url : url.slice(0, queryStart));
  const match = decoded.startsWith(`${API_PREFIX}/`) ? matchPath(tables.api, decoded.slice(API_PREFIX.length)) : matchPath(tables.site, decoded);
  tables.lastUrl = url;
  tables.lastMatch = match;
  return match;
}

/** Routes under /api/v1, and the few served from the site root (file downloads). */
export interface RouteTables {
  api: RouteTable;
  site: RouteTable;
  lastUrl: string | undefined;
  lastMatch: UrlMatch;
}

/** The two tables of a route list: under /api/v1, and at the site root. */
export function compileTables(routes: readonly Route[]): RouteTables {
  return {
    api: compileRoutes(routes.filter((r) => !r.outsideApi)),
    site: compileRoutes(routes.filter((r) => r.outsideApi)),
    lastUrl: undefined,
    lastMatch: null,
  };
}
