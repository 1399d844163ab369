/**
 * The path a request target names, decoded, or null when the target is not one a static server
 * can answer (RFC 9112 section 3.2): neither an origin-form path (`/a/b?q`) nor an absolute http(s) URL,
 * a path starting with `//` (which URL parsers read as a host), bad percent-encoding, or a NUL.
 * The caller answers null with 400: the client's mistake, not the server's.
 */
export function targetPath(target: string | undefined): string | null {
  const raw = target ?? '/';
  let pathname: string;
  if (raw.startsWith('/') && !raw.startsWith('//')) {
    const end = raw.search(/[?#]/);
    pathname = end < 0 ? raw : raw.slice(0, end);
  } else if (/^https?:\/\//i.test(raw)) {
    try {
      pathname = new URL(raw).pathname;
    } catch {
      return null;
    }
  } else {
    return null;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  return decoded.includes('\0') ? null : decoded;
}
