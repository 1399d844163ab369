// A quicker first look for links in a paragraph, before linkify-it's own (linkify-it/index.mjs
// pretest), which markdown-it's linkify rule (rules_core/linkify.mjs) asks of every paragraph.
import type { MarkdownIt } from 'markdown-it';

/**
 * Every match of linkify-it's pretest (its regex of schemas, host-like text and `@`) holds a `:`,
 * `/`, `.` or `@`, or the word `localhost` (schemas `http:` … `//`, hosts `www.`, `.1.`, `.tld`):
 * text with none of them, most text, is turned down by a plain search. The pretest's own regex
 * tries its leading look-around at every position of every paragraph.
 */
export const LINK_MAYBE = /[:/.@]|localhost/i;

export function quickLinkifyPretest(md: MarkdownIt): void {
  const linkify = md.linkify;
  const pretest = linkify.pretest.bind(linkify);
  linkify.pretest = (text: string) => LINK_MAYBE.test(text) && pretest(text);
}
