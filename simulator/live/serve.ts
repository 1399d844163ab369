/**
 * The live page: GET / serves a read-only view of the simulated organization, its script and
 * style under /__simulator/live/. The files hold no secret (the page asks the control API for the
 * watcher's credentials, live/watcher.ts), but they are served under the control API's access
 * rule all the same: a page that cannot get credentials is of no use to anyone.
 *
 * Every answer carries a Content-Security-Policy allowing only this origin (no inline script or
 * style, no frames), an ETag with `Cache-Control: no-cache` (a browser revalidates and gets 304),
 * and nosniff.
 */
import { createHash } from 'node:crypto';
import { checkControlAccess, type ControlOptions } from '../control/dispatch.ts';
import { ControlError } from '../control/errors.ts';
import { CONTROL_PREFIX } from '../control/routes.ts';
import type { RawRequest } from '../http/dispatch.ts';
import type { RawResponse } from '../http/envelope.ts';
import { LIVE_CSS, LIVE_FAVICON, LIVE_HTML, LIVE_JS } from './assets.ts';

/** Where the page's files are served (the HTML at the root). */
export const LIVE_ASSET_PREFIX = `${CONTROL_PREFIX}/live`;

export const LIVE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': LIVE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

interface Asset {
  type: string;
  text: string;
  length: number;
  etag: string;
}

function asset(type: string, text: string): Asset {
  const etag = `"${createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 22)}"`;
  return { type, text, length: Buffer.byteLength(text, 'utf8'), etag };
}

/** The page's files by path, with their lengths and ETags worked out when the page is first asked for, not at every start. */
const ASSET_SOURCES = new Map<string, () => Asset>([
  ['/', () => asset('text/html; charset=utf-8', LIVE_HTML)],
  [`${LIVE_ASSET_PREFIX}/live.js`, () => asset('text/javascript; charset=utf-8', LIVE_JS)],
  [`${LIVE_ASSET_PREFIX}/live.css`, () => asset('text/css; charset=utf-8', LIVE_CSS)],
  [`${LIVE_ASSET_PREFIX}/favicon.svg`, () => asset('image/svg+xml', LIVE_FAVICON)],
]);
const ASSETS = new Map<string, Asset>();

function assetAt(path: string): Asset | undefined {
  let known = ASSETS.get(path);
  if (known === undefined) {
    const make = ASSET_SOURCES.get(path);
    if (make === undefined) return undefined;
    known = make();
    ASSETS.set(path, known);
  }
  return known;
}

/** The URL up to its query or fragment (asked of every request: a walk, not a regular expression). */
function pathOf(url: string): string {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 0x3f || code === 0x23) return url.slice(0, i);
  }
  return url;
}

const REALM_EMOJI_PREFIX = `${LIVE_ASSET_PREFIX}/realm-emoji/`;
/** Realm emoji as the page shows them: the simulator keeps no image, so a badge with the name. */
const REALM_EMOJI = new RegExp(`^${LIVE_ASSET_PREFIX}/realm-emoji/([A-Za-z0-9_+-]{1,60})\\.svg$`);

function realmEmojiBadge(name: string): string {
  const letters = name.replace(/[^A-Za-z0-9]/g, '').slice(0, 2).toUpperCase() || '?';
  let hue = 0;
  for (const ch of name) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>${name}</title><rect width="32" height="32" rx="7" fill="hsl(${hue} 55% 38%)"/><text x="16" y="21" text-anchor="middle" font-family="sans-serif" font-size="14" font-weight="700" fill="#fff">${letters}</text></svg>\n`;
}

function fileFor(path: string): Asset | undefined {
  const known = assetAt(path);
  if (known) return known;
  const emoji = REALM_EMOJI.exec(path);
  return emoji ? asset('image/svg+xml', realmEmojiBadge(emoji[1]!)) : undefined;
}

/** Whether the request is for the live page or one of its files. */
export function isLivePagePath(url: string): boolean {
  const path = pathOf(url);
  return ASSET_SOURCES.has(path) || (path.startsWith(REALM_EMOJI_PREFIX) && REALM_EMOJI.test(path));
}

function textResponse(status: number, text: string, headers: Record<string, string> = {}): RawResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS, ...headers }, body: `${text}\n` };
}

export function createLivePage(options: ControlOptions): (req: RawRequest) => RawResponse {
  return (req) => {
    const file = fileFor(pathOf(req.url))!;
    const method = req.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') return textResponse(405, `${method} is not allowed here: the live page is read-only (GET, HEAD)`, { allow: 'GET, HEAD' });
    try {
      checkControlAccess(req, options);
    } catch (error) {
      if (error instanceof ControlError) return textResponse(error.status, error.message.replace('The control API', 'The live page, like the control API,'));
      throw error;
    }
    const headers = { 'content-type': file.type, 'cache-control': 'no-cache', etag: file.etag, ...SECURITY_HEADERS };
    const known = req.headers['if-none-match'];
    if (known !== undefined && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
      return { status: 304, headers, body: '' };
    }
    if (method === 'HEAD') return { status: 200, headers: { ...headers, 'content-length': String(file.length) }, body: '' };
    return { status: 200, headers, body: file.text };
  };
}
