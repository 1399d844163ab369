// A quicker first look for links in a paragraph, before linkify-it's own (linkify-it/index.mjs
// pretest), which markdown-it's linkify rule (rules_core/linkify.mjs) asks of every paragraph.
import type { MarkdownIt, StateCore, Token } from 'markdown-it';

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

/**
 * markdown-it's linkify rule asks that pretest of each paragraph's whole text (code spans, link
 * labels, mentions and emoji included) and then linkify-it's `test` of each text run outside
 * links; a run `test` accepts passes the pretest, so holds LINK_MAYBE. Where no text run of the
 * message holds it, the rule would change nothing, and it is not run.
 */
export function skipLinklessMessages(md: MarkdownIt): void {
  const ruler = md.core.ruler as unknown as { __rules__: { name: string; fn: (state: StateCore) => void }[] };
  const linkify = ruler.__rules__.find((r) => r.name === 'linkify')?.fn;
  if (!linkify) return;
  md.core.ruler.at('linkify', (state: StateCore) => {
    if (state.tokens.some(mayHoldLink)) linkify(state);
  });
}

function mayHoldLink(block: Token): boolean {
  return block.type === 'inline' && block.children !== null && block.children.some((t) => t.type === 'text' && LINK_MAYBE.test(t.content));
}
