/**
 * Addresses. The site's base address is build configuration (SITE_URL / --site-url); every URL
 * in the output is absolute and derived here, so changing the base changes them all.
 */

/** The organization's own website: the default when no SITE_URL is given. */
export const DEFAULT_SITE_URL = 'https://tramontanaconsultores.es';
export const API_PREFIX = '/api/v1';
export const API_VERSION = '1.0.0';

export interface Site {
  /** Scheme + host (+ optional base path), no trailing slash. */
  base: string;
}

/** Accepts `https://example.org`, `https://example.org/`, `https://example.org/sub/`. */
export function createSite(raw: string | undefined): Site {
  const value = (raw ?? '').trim() || DEFAULT_SITE_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`site URL "${value}" is not an absolute URL (expected e.g. ${DEFAULT_SITE_URL})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`site URL "${value}" must use http or https`);
  }
  if (url.search || url.hash) throw new Error(`site URL "${value}" must not carry a query or fragment`);
  return { base: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** A page path (`/servicios/meta-ads/`) as an absolute URL. */
export function pageUrl(site: Site, path: string): string {
  return `${site.base}${path}`;
}

/** A file under the API base (`services/meta-ads.json`) as an absolute URL. */
export function apiUrl(site: Site, rel: string): string {
  return `${site.base}${API_PREFIX}/${rel}`;
}

/**
 * Where the Markdown twin of a page lives, relative to dist/: the page address without its
 * trailing slash plus `.md` (`/servicios/meta-ads/` → `servicios/meta-ads.md`; the home page `/` →
 * `index.md`). One file beside its siblings rather than `<page>/index.md`, so a large site does not
 * pay for a folder per page; every twin is listed by address in llms.txt and pages.json anyway.
 */
export function twinFile(path: string): string {
  return path === '/' ? 'index.md' : `${path.slice(1, -1)}.md`;
}

export function markdownUrl(site: Site, path: string): string {
  return `${site.base}/${twinFile(path)}`;
}
