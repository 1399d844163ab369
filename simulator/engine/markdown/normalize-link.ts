// Link normalization as markdown-it does it (markdown-it/lib/index.mjs normalizeLink and
// normalizeLinkText), without the steps that change nothing for the links most messages hold.
import type { MarkdownIt } from 'markdown-it';

const NON_ASCII = /[^\0-\x7F]/;

/**
 * An http(s) URL that mdurl's parse and format give back unchanged: no space anywhere (so trim
 * keeps it), a host of ASCII labels of 1 to 63 letters, digits and `-` (each a valid hostname part,
 * with no `@`, `:` or port, so no auth, port or IPv6 handling applies), then nothing or a path,
 * query or fragment of printable ASCII, which parse splits and format joins in the same order.
 * The length bound keeps the host within mdurl's 255 characters.
 */
const PLAIN_HTTP_URL = /^https?:\/\/(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(?:[/?#][\x21-\x7E]*)?$/;
const MAX_PLAIN_URL = 255;

/**
 * markdown-it's normalizeLink and normalizeLinkText parse a link, pass its host through punycode
 * (toASCII, or toUnicode for the shown text) and format it again. Punycode returns an ASCII host
 * with no `@` unchanged (toUnicode also needs no `xn--` label to decode), and that is nearly
 * every host; for those the call, which splits and maps the host label by label, is skipped, and
 * a PLAIN_HTTP_URL skips parse and format too. Any other link takes markdown-it's own path, so
 * the result is the same for every URL.
 */
export function skipIdlePunycode(md: MarkdownIt): void {
  const { mdurl } = md.utils.lib;
  const normalizeLink = md.normalizeLink;
  const normalizeLinkText = md.normalizeLinkText;
  const idle = (host: string | null | undefined, toUnicode: boolean) =>
    !host || (!NON_ASCII.test(host) && !host.includes('@') && !(toUnicode && host.includes('xn--')));
  const plain = (url: string) => url.length <= MAX_PLAIN_URL && PLAIN_HTTP_URL.test(url);
  // markdown-it adds `%` to what decode keeps encoded (markdown-it issue 720).
  const keep = mdurl.decode.defaultChars + '%';
  md.normalizeLink = (url: string) => {
    if (plain(url)) return mdurl.encode(url);
    const parsed = mdurl.parse(url, true);
    if (!idle(parsed.hostname, false)) return normalizeLink(url);
    return mdurl.encode(mdurl.format(parsed));
  };
  md.normalizeLinkText = (url: string) => {
    // An `xn--` label anywhere may be in the host, which toUnicode would decode.
    if (plain(url) && !url.includes('xn--')) return mdurl.decode(url, keep);
    const parsed = mdurl.parse(url, true);
    if (!idle(parsed.hostname, true)) return normalizeLinkText(url);
    return mdurl.decode(mdurl.format(parsed), keep);
  };
}
