// Link normalization as markdown-it does it (markdown-it/lib/index.mjs normalizeLink and
// normalizeLinkText), without its punycode step where that step changes nothing.
import type { MarkdownIt } from 'markdown-it';

const NON_ASCII = /[^\0-\x7F]/;

/**
 * markdown-it's normalizeLink and normalizeLinkText parse a link, pass its host through punycode
 * (toASCII, or toUnicode for the shown text) and format it again. Punycode returns an ASCII host
 * with no `@` unchanged (toUnicode also needs no `xn--` label to decode), and that is nearly
 * every host; for those the call, which splits and maps the host label by label, is skipped.
 * Any other host takes markdown-it's own path, so the result is the same for every URL.
 */
export function skipIdlePunycode(md: MarkdownIt): void {
  const { mdurl } = md.utils.lib;
  const normalizeLink = md.normalizeLink;
  const normalizeLinkText = md.normalizeLinkText;
  const idle = (host: string | null | undefined, toUnicode: boolean) =>
    !host || (!NON_ASCII.test(host) && !host.includes('@') && !(toUnicode && host.includes('xn--')));
  md.normalizeLink = (url: string) => {
    const parsed = mdurl.parse(url, true);
    if (!idle(parsed.hostname, false)) return normalizeLink(url);
    return mdurl.encode(mdurl.format(parsed));
  };
  md.normalizeLinkText = (url: string) => {
    const parsed = mdurl.parse(url, true);
    if (!idle(parsed.hostname, true)) return normalizeLinkText(url);
    // markdown-it adds `%` to what decode keeps encoded (markdown-it issue 720).
    return mdurl.decode(mdurl.format(parsed), mdurl.decode.defaultChars + '%');
  };
}
