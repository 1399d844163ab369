// A direct renderer for the messages bots and people send most: paragraphs of text, **strong**,
// *em*, _em_, ~~del~~, `code`, [text](http…) links, bare URLs and domains, mentions, channel and
// topic links, :emoji: and linkifier matches, and fences, one-paragraph quotes and tight bullet
// lists of such lines. It reads the source once and builds the token stream markdown-it's block
// and inline parsers would have built for it (markdown-it/lib/rules_block/*.mjs, rules_inline/*.mjs
// and the ruler2 pass), then runs markdown-it's own core rules after parsing (linkify, text_join,
// the realm's linkifiers) and its renderer, so the render rules and what follows them are the same
// code on both paths. Where no realm linkifier applies, the same scan writes the HTML
// markdown-it's renderer would write for those tokens instead (renderDirectHtml), with the render
// rules index.ts sets and the linkify rule's links put in as that rule would.
//
// Anything it is not sure of makes it decline (null), and the caller renders with markdown-it:
// other block syntax, indentation, odd blank lines, escapes, entities, autolinks, emphasis that
// nests, touches punctuation or is left open, links with titles or unusual destinations, and so
// on. A property test holds its HTML, on both paths, to markdown-it's for generated messages.
import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import type { Found, InlineMatch, RenderContext } from './index.ts';

/** The Zulip inline rules, as index.ts runs them (passed in: index.ts imports this module). */
export interface DirectRules {
  mention(src: string, start: number, max: number, env: Found, silent: boolean): InlineMatch | undefined;
  channelLink(src: string, start: number, max: number, env: Found, silent: boolean): InlineMatch | undefined;
  emoji(src: string, start: number, max: number, ctx: RenderContext): InlineMatch | undefined;
  /** Whether a realm linkifier could match somewhere in this message (its zulip_linkifiers rule would run). */
  linkifiersApply(content: string, env: Found): boolean;
  /** The render rules of the inline tokens the scan makes, as index.ts sets them on the renderer. */
  html: InlineHtml;
}

/** What markdown-it's renderer writes for a text, a code span, a soft break and a strikethrough (the rules index.ts sets). */
export interface InlineHtml {
  text(content: string): string;
  code(content: string): string;
  softbreak: string;
  strike: readonly [open: string, close: string];
}

type CoreRule = (state: StateCore) => void;

interface Prepared {
  md: MarkdownIt;
  /** The enabled core rules after `inline` (linkify, replacements, smartquotes, text_join, …). */
  after: CoreRule[];
  rules: DirectRules;
  /** The inline HTML rules, where the core rules after parsing are the ones renderDirectHtml knows idle; else null. */
  html: InlineHtml | null;
  TokenClass: typeof Token;
}

/**
 * The core rules renderDirectHtml knows: linkify (which it applies itself, run by run),
 * replacements and smartquotes (idle with typographer off), text_join (idle: the scan makes no
 * text_special tokens, nor two text tokens in a row) and Zulip's linkifiers (where none applies).
 */
const IDLE_AFTER_PARSING = ['linkify', 'replacements', 'smartquotes', 'text_join', 'zulip_linkifiers'];

/** The core rules that run after parsing, read once from the ruler (in its order, enabled only). */
export function prepareDirect(md: MarkdownIt, rules: DirectRules): Prepared {
  const ruler = md.core.ruler as unknown as { __rules__: { name: string; enabled: boolean; fn: CoreRule }[] };
  const enabled = ruler.__rules__.filter((r) => r.enabled);
  const inline = enabled.findIndex((r) => r.name === 'inline');
  if (inline < 0) throw new Error('markdown-it has no inline core rule');
  const names = enabled.slice(inline + 1).map((r) => r.name);
  const idle = !md.options.typographer && names.length === IDLE_AFTER_PARSING.length && names.every((n, k) => n === IDLE_AFTER_PARSING[k]);
  const TokenClass = (md.core.State.prototype as unknown as { Token: typeof Token }).Token;
  return { md, after: enabled.slice(inline + 1).map((r) => r.fn), rules, html: idle ? rules.html : null, TokenClass };
}

// Characters that start a block in markdown-it at a line's start (rules_block/*.mjs), or that the
// direct path leaves to it: blockquote, heading, fence, bullet and ordered list markers, a
// thematic break (only `*`, `_`, `-` and spaces), `=` or `-` lines (setext underlines, disabled
// in Zulip's renderer but left alone).
const BLOCK_START = /^(?:>|#{1,6}(?: |$)|```|~~~|[*+-](?: |$)|\d+[.)]|[*_ -]+$|=+$)/;
// Whitespace the direct path does not handle anywhere: tabs (indentation), carriage returns and
// NUL (markdown-it's normalize rule changes them), the other line separators.
const ODD_SPACE = /[\t\r\v\f\0\u2028\u2029]/;
// Any JavaScript whitespace at a line's edge: markdown-it trims a paragraph (String#trim) and
// measures indentation, and two trailing spaces make a hard break.
const EDGE_SPACE = /^\s|\s$/;

/** markdown-it's isTerminatorChar (rules_inline/text.mjs): where its text rule stops. */
function isTerminator(c: number): boolean {
  switch (c) {
    case 0x0a: case 0x21: case 0x23: case 0x24: case 0x25: case 0x26: case 0x2a: case 0x2b:
    case 0x2d: case 0x3a: case 0x3c: case 0x3d: case 0x3e: case 0x40: case 0x5b: case 0x5c:
    case 0x5d: case 0x5e: case 0x5f: case 0x60: case 0x7b: case 0x7d: case 0x7e:
      return true;
    default:
      return false;
  }
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** rules_inline/linkify.mjs isSchemeChar. */
function isSchemeChar(c: number): boolean {
  return isAsciiAlnum(c) || c === 0x2b || c === 0x2d || c === 0x2e;
}

/**
 * Text that may sit inside a simple emphasis pair or a link label: characters no inline rule acts
 * on there (not `*_~`, code, links, mentions, `:`, escapes, entities, `<`, a line break, `|`).
 * Anything else inside makes the direct path decline.
 */
function isPlainInner(c: number): boolean {
  // Past ASCII no inline rule acts; such a character never touches a delimiter (those need ASCII neighbours).
  if (c >= 0x80) return true;
  if (isAsciiAlnum(c) || c === 0x20) return true;
  switch (c) {
    case 0x21: case 0x22: case 0x24: case 0x25: case 0x27: case 0x28: case 0x29: case 0x2b:
    case 0x2c: case 0x2d: case 0x2e: case 0x2f: case 0x3d: case 0x3f: case 0x5e: case 0x7b:
    case 0x7d:
      return true;
    default:
      return false;
  }
}

/** What may follow a closing delimiter: the end, a space, a line break or this punctuation. */
function isCloserNext(c: number): boolean {
  return Number.isNaN(c) || c === 0x20 || c === 0x0a || c === 0x2e || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x21 || c === 0x3f || c === 0x29;
}

const ENTITY_START = /^&(?:#|[a-z][a-z0-9]{1,31};)/i;
const HTTP_LINK = /^https?:\/\//i;

/**
 * Where the inline scan puts what it finds. Both kinds keep markdown-it's pending text (where it
 * starts in the source) and are told of each construct the scan takes.
 */
abstract class Sink {
  /** Where the pending text (markdown-it's state.pending) starts in the source. */
  pendingStart = 0;
  src = '';
  abstract text(content: string): void;
  abstract softbreak(): void;
  abstract html(content: string): void;
  abstract code(content: string): void;
  abstract delimited(kind: 'strong' | 'em' | 's', markup: string, inner: string): void;
  abstract link(href: string, label: string, auto: boolean): void;

  /** Pushes the pending text up to `end` (markdown-it's pushPending). */
  flush(end: number): void {
    if (end > this.pendingStart) this.text(this.src.slice(this.pendingStart, end));
  }
}

const DELIMITED = {
  strong: ['strong_open', 'strong_close', 'strong'],
  em: ['em_open', 'em_close', 'em'],
  s: ['s_open', 's_close', 's'],
} as const;

/** The scan as markdown-it tokens, for markdown-it's core rules and renderer. */
class TokenSink extends Sink {
  children: Token[] = [];
  constructor(private readonly TokenClass: typeof Token) {
    super();
  }

  private token(type: string, tag: string, nesting: 1 | 0 | -1, level: number): Token {
    const t = new this.TokenClass(type, tag, nesting);
    t.level = level;
    this.children.push(t);
    return t;
  }

  text(content: string): void {
    this.token('text', '', 0, 0).content = content;
  }

  softbreak(): void {
    this.token('softbreak', 'br', 0, 0);
  }

  html(content: string): void {
    this.token('html_inline', '', 0, 0).content = content;
  }

  code(content: string): void {
    const t = this.token('code_inline', 'code', 0, 0);
    t.markup = '`';
    t.content = content;
  }

  delimited(kind: 'strong' | 'em' | 's', markup: string, inner: string): void {
    const [open, close, tag] = DELIMITED[kind];
    this.token(open, tag, 1, 0).markup = markup;
    this.token('text', '', 0, 1).content = inner;
    this.token(close, tag, -1, 0).markup = markup;
  }

  link(href: string, label: string, auto: boolean): void {
    const open = this.token('link_open', 'a', 1, 0);
    open.attrs = [['href', href]];
    this.token('text', '', 0, 1).content = label;
    const close = this.token('link_close', 'a', -1, 0);
    if (auto) {
      open.markup = close.markup = 'linkify';
      open.info = close.info = 'auto';
    }
  }
}

/**
 * The scan as the HTML markdown-it's renderer gives those tokens (renderer.mjs renderToken, and the
 * render rules index.ts sets, passed in as `inline`), with what markdown-it's linkify rule would
 * make of each text run outside links (rules_core/linkify.mjs, its steps in its order), for a
 * message the other core rules after parsing leave alone.
 */
class HtmlSink extends Sink {
  out = '';
  /** The paragraph whose whole text linkify-it's pretest was last asked about, and its answer. */
  private askedOf = '';
  private mayLinkIn = false;
  constructor(
    private readonly md: MarkdownIt,
    private readonly inline: InlineHtml,
  ) {
    super();
  }

  text(content: string): void {
    this.out += this.linkified(content);
  }

  softbreak(): void {
    this.out += this.inline.softbreak;
  }

  html(content: string): void {
    this.out += content;
  }

  code(content: string): void {
    this.out += this.inline.code(content);
  }

  delimited(kind: 'strong' | 'em' | 's', _markup: string, inner: string): void {
    const [open, close] = kind === 's' ? this.inline.strike : [`<${kind}>`, `</${kind}>`];
    this.out += open + this.linkified(inner) + close;
  }

  link(href: string, label: string): void {
    // Link text is left alone by the linkify rule.
    this.out += `<a href="${this.md.utils.escapeHtml(href)}">${this.inline.text(label)}</a>`;
  }

  /** A text run as the linkify rule leaves it: its links (if the paragraph passes the pretest and it passes `test`) among its text. */
  private linkified(text: string): string {
    const { md, inline } = this;
    const linkify = md.linkify;
    if (!linkify.pretest(text)) return inline.text(text);
    if (this.askedOf !== this.src) {
      this.askedOf = this.src;
      this.mayLinkIn = linkify.pretest(this.src);
    }
    if (!this.mayLinkIn || !linkify.test(text)) return inline.text(text);
    const links = linkify.match(text) ?? [];
    let out = '';
    let lastPos = 0;
    for (const link of links) {
      const fullUrl = md.normalizeLink(link.url);
      if (!md.validateLink(fullUrl)) continue;
      let urlText = link.text;
      if (!link.schema) urlText = md.normalizeLinkText(`http://${urlText}`).replace(/^http:\/\//, '');
      else if (link.schema === 'mailto:' && !/^mailto:/i.test(urlText)) urlText = md.normalizeLinkText(`mailto:${urlText}`).replace(/^mailto:/, '');
      else urlText = md.normalizeLinkText(urlText);
      if (link.index > lastPos) out += inline.text(text.slice(lastPos, link.index));
      out += `<a href="${md.utils.escapeHtml(fullUrl)}">${inline.text(urlText)}</a>`;
      lastPos = link.lastIndex;
    }
    return lastPos < text.length ? out + inline.text(text.slice(lastPos)) : out;
  }
}

/**
 * The inline children markdown-it would give one paragraph's text (after its ruler2 pass), or
 * null to decline. `env` collects mentions as markdown-it's rules do.
 */
function scanInline(p: Prepared, b: Sink, src: string, env: Found): boolean {
  const { md, rules } = p;
  const max = src.length;
  b.src = src;
  b.pendingStart = 0;
  let pos = 0;
  while (pos < max) {
    const c = src.charCodeAt(pos);
    if (!isTerminator(c)) {
      pos++;
      while (pos < max && !isTerminator(src.charCodeAt(pos))) pos++;
      continue;
    }
    switch (c) {
      case 0x0a /* \n */: {
        b.flush(pos);
        b.softbreak();
        pos++;
        b.pendingStart = pos;
        continue;
      }
      case 0x40 /* @ */:
      case 0x23 /* # */: {
        const m = c === 0x40 ? rules.mention(src, pos, max, env, false) : rules.channelLink(src, pos, max, env, false);
        if (m) {
          b.flush(pos);
          b.html(m.html);
          pos = m.end;
          b.pendingStart = pos;
        } else pos++;
        continue;
      }
      case 0x3a /* : */: {
        const m = rules.emoji(src, pos, max, env.ctx);
        if (m) {
          b.flush(pos);
          b.html(m.html);
          pos = m.end;
          b.pendingStart = pos;
          continue;
        }
        const end = linkifyAt(md, b, pos);
        pos = end ?? pos + 1;
        continue;
      }
      case 0x60 /* ` */: {
        // One backtick to the next single one on the same line; longer runs are left to markdown-it.
        if (src.charCodeAt(pos + 1) === 0x60) return false;
        const close = src.indexOf('`', pos + 1);
        if (close < 0 || src.charCodeAt(close + 1) === 0x60) return false;
        const inner = src.slice(pos + 1, close);
        if (inner.includes('\n')) return false;
        b.flush(pos);
        b.code(inner.replace(/^ (.+) $/, '$1'));
        pos = close + 1;
        b.pendingStart = pos;
        continue;
      }
      case 0x2a /* * */:
      case 0x5f /* _ */:
      case 0x7e /* ~ */: {
        const end = emphasisAt(b, pos, c);
        if (end === null) return false;
        pos = end;
        continue;
      }
      case 0x5b /* [ */: {
        const end = linkAt(md, b, pos);
        if (end === null) return false;
        pos = end;
        continue;
      }
      case 0x26 /* & */:
        if (ENTITY_START.test(src.slice(pos, pos + 34))) return false;
        pos++;
        continue;
      case 0x5c /* \ */:
      case 0x3c /* < */:
        return false;
      default:
        // ! $ % + - = > ^ { } ]: no rule Zulip's renderer runs acts on them here (image is off).
        pos++;
        continue;
    }
  }
  b.flush(max);
  return true;
}

/**
 * markdown-it's inline linkify rule at a `:` (rules_inline/linkify.mjs): a scheme in the pending
 * text right before `://`, then linkify-it's match at that start. The same calls, in the same
 * order; the position after the link, or undefined when the rule would not fire.
 */
function linkifyAt(md: MarkdownIt, b: Sink, pos: number): number | undefined {
  const src = b.src;
  if (pos + 3 > src.length || src.charCodeAt(pos + 1) !== 0x2f || src.charCodeAt(pos + 2) !== 0x2f) return undefined;
  const pending = pos - b.pendingStart;
  const protoMin = pos - Math.min(10, pending, pos);
  let protoStart = pos;
  while (protoStart > protoMin && isSchemeChar(src.charCodeAt(protoStart - 1))) protoStart--;
  if (protoStart === pos || !isAsciiAlpha(src.charCodeAt(protoStart))) return undefined;
  const protoLength = pos - protoStart;
  const link = md.linkify.matchAtStart(src.slice(protoStart));
  if (!link) return undefined;
  let url = link.url;
  if (url.length <= protoLength) return undefined;
  let urlEnd = url.length;
  while (urlEnd > 0 && url.charCodeAt(urlEnd - 1) === 0x2a) urlEnd--;
  if (urlEnd !== url.length) url = url.slice(0, urlEnd);
  const fullUrl = md.normalizeLink(url);
  if (!md.validateLink(fullUrl)) return undefined;
  b.flush(protoStart);
  b.link(fullUrl, md.normalizeLinkText(url), true);
  const end = pos + url.length - protoLength;
  b.pendingStart = end;
  return end;
}

/**
 * A delimiter run at `pos`. Inert runs stay text: a single `~` (strikethrough needs two) and a
 * single `_` between ASCII letters or digits (it can neither open nor close). Otherwise only a
 * simple pair is taken: `**x**`, `*x*`, `__x__`, `_x_` or `~~x~~`, opened after the start, a space
 * or a line break and before a letter or digit, plain text inside, closed by the same run after
 * a letter or digit and before the end, a space, a line break or `.,;:!?)`. Such an opener only
 * opens and such a closer only closes (CommonMark's flanking rules), and with no other active
 * delimiter in the paragraph markdown-it's balance_pairs pairs exactly these. Anything else: null.
 */
function emphasisAt(b: Sink, pos: number, marker: number): number | null {
  const src = b.src;
  let n = 1;
  while (src.charCodeAt(pos + n) === marker) n++;
  const prev = pos === 0 ? 0x20 : src.charCodeAt(pos - 1);
  const next = src.charCodeAt(pos + n);
  if (marker === 0x7e && n === 1) return pos + 1;
  if (marker === 0x5f && n === 1 && isAsciiAlnum(prev) && isAsciiAlnum(next)) return pos + 1;
  if (n > 2 || (marker === 0x7e && n !== 2)) return null;
  if (!(prev === 0x20 || prev === 0x0a) || !isAsciiAlnum(next)) return null;
  let j = pos + n;
  while (j < src.length && isPlainInner(src.charCodeAt(j))) j++;
  if (src.charCodeAt(j) !== marker || !isAsciiAlnum(src.charCodeAt(j - 1))) return null;
  let m = 1;
  while (src.charCodeAt(j + m) === marker) m++;
  if (m !== n || !isCloserNext(src.charCodeAt(j + n))) return null;
  b.flush(pos);
  b.delimited(marker === 0x7e ? 's' : n === 2 ? 'strong' : 'em', src.slice(pos, pos + n), src.slice(pos + n, j));
  const end = j + n;
  b.pendingStart = end;
  return end;
}

/**
 * `[label](http…)` with a plain label and a destination of no spaces, parentheses or escapes
 * (markdown-it's link rule and helpers, rules_inline/link.mjs); a `[plain label]` with no `(`
 * after it is text (Zulip's renderer has no reference links). Anything else: null.
 */
function linkAt(md: MarkdownIt, b: Sink, pos: number): number | null {
  const src = b.src;
  let j = pos + 1;
  while (j < src.length && isPlainInner(src.charCodeAt(j))) j++;
  if (src.charCodeAt(j) !== 0x5d /* ] */ || j === pos + 1) return null;
  if (src.charCodeAt(j + 1) !== 0x28 /* ( */) return pos + 1;
  const start = j + 2;
  let k = start;
  for (; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c <= 0x20 || c === 0x7f || c === 0x28 || c === 0x29 || c === 0x5c || c === 0x3c) break;
  }
  if (src.charCodeAt(k) !== 0x29 /* ) */) return null;
  const destination = src.slice(start, k);
  if (!HTTP_LINK.test(destination)) return null;
  const href = md.normalizeLink(md.utils.unescapeAll(destination));
  if (!md.validateLink(href)) return null;
  b.flush(pos);
  b.link(href, src.slice(pos + 1, j), false);
  const end = k + 1;
  b.pendingStart = end;
  return end;
}

/** What the block scanner builds on: the tokens so far (or, writing HTML, its sink) and what an inline paragraph needs. */
interface Blocks {
  p: Prepared;
  env: Found;
  lines: string[];
  tokens: Token[];
  html: HtmlSink | null;
}

/** A line that may sit in a paragraph as the direct path renders it (text of its own, no block start). */
function isParagraphLine(text: string): boolean {
  return text !== '' && !EDGE_SPACE.test(text) && !BLOCK_START.test(text);
}

/** A fence opening (rules_block/fence.mjs): three or more backticks or tildes, a backtick fence's info without one. */
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
/** A bullet item of one line: the marker, one space, paragraph text (rules_block/list.mjs, tight lists). */
const BULLET = /^([*+-]) (.*)$/;
/** A thematic break, which a `- - -` or `* * *` line is before it is a list (rules_block/hr.mjs). */
const THEMATIC_BREAK = /^(?:(?:\* *){3,}|(?:- *){3,}|(?:_ *){3,})$/;

function newBlockToken(b: Blocks, type: string, tag: string, nesting: 1 | 0 | -1, level: number): Token {
  const t = new b.p.TokenClass(type, tag, nesting);
  t.block = true;
  t.level = level;
  return t;
}

/**
 * A block tag: a token, or the HTML markdown-it's renderToken gives it where it stands (the
 * opening tags here are followed by a block, which puts a newline after them, but `<li>`, whose
 * tight paragraph is hidden; every closing tag is followed by a newline).
 */
function tag(b: Blocks, type: string, name: string, nesting: 1 | -1, level: number, markup: string): void {
  if (b.html) b.html.out += nesting === -1 ? `</${name}>\n` : name === 'li' ? '<li>' : `<${name}>\n`;
  else {
    const t = newBlockToken(b, type, name, nesting, level);
    t.markup = markup;
    b.tokens.push(t);
  }
}

/** One paragraph (at `level`) of `text`, its lines joined; false to decline. */
function paragraph(b: Blocks, text: string, level: number, hidden: boolean): boolean {
  // A table needs two lines, one of them with a `|`.
  if (text.includes('\n') && text.includes('|')) return false;
  if (b.html) {
    if (!hidden) b.html.out += '<p>';
    if (!scanInline(b.p, b.html, text, b.env)) return false;
    if (!hidden) b.html.out += '</p>\n';
    return true;
  }
  const sink = new TokenSink(b.p.TokenClass);
  if (!scanInline(b.p, sink, text, b.env)) return false;
  const open = newBlockToken(b, 'paragraph_open', 'p', 1, level);
  open.hidden = hidden;
  const inline = newBlockToken(b, 'inline', '', 0, level + 1);
  inline.content = text;
  inline.children = sink.children;
  const close = newBlockToken(b, 'paragraph_close', 'p', -1, level);
  close.hidden = hidden;
  b.tokens.push(open, inline, close);
  return true;
}

/** Where a line would interrupt a paragraph with a block the scanner reads: a fence, a quote, a bullet item. */
function interrupts(line: string): boolean {
  return FENCE_OPEN.test(line) || line.charCodeAt(0) === 0x3e || (BULLET.test(line) && !THEMATIC_BREAK.test(line));
}

/**
 * A fence from line `i` (rules_block/fence.mjs, at no indentation): its content runs to a line of
 * at most three spaces, then at least as many of its marker, then spaces only, or to the end.
 */
function fence(b: Blocks, i: number, open: RegExpExecArray): number | null {
  const [, markup, info] = open as unknown as [string, string, string];
  if (markup[0] === '`' && info.includes('`')) return null;
  const lines = b.lines;
  let end = i + 1;
  let closed = false;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    let k = 0;
    while (line.charCodeAt(k) === 0x20) k++;
    if (k >= 4 || line[k] !== markup[0]) continue;
    let n = k;
    while (line[n] === markup[0]) n++;
    if (n - k < markup.length || !/^ *$/.test(line.slice(n))) continue;
    closed = true;
    break;
  }
  const t = newBlockToken(b, 'fence', 'code', 0, 0);
  t.info = info;
  t.markup = markup;
  // getLines(…, keepLastLF): each line with its newline; the document's last line has none.
  const body = lines.slice(i + 1, end);
  t.content = body.length === 0 ? '' : body.join('\n') + (end < lines.length ? '\n' : '');
  if (b.html) {
    const md = b.p.md;
    b.html.out += md.renderer.rules.fence!([t], 0, md.options, b.env as unknown as Record<string, unknown>, md.renderer);
  } else b.tokens.push(t);
  return closed ? end + 1 : end;
}

/** A quote of `> text` lines, one paragraph (rules_block/blockquote.mjs), up to a blank line or the end. */
function quote(b: Blocks, i: number): number | null {
  const lines = b.lines;
  const texts: string[] = [];
  let end = i;
  for (; end < lines.length && lines[end]!.charCodeAt(0) === 0x3e; end++) {
    const line = lines[end]!;
    const text = line.slice(line.charCodeAt(1) === 0x20 ? 2 : 1);
    if (!isParagraphLine(text)) return null;
    texts.push(text);
  }
  // Any other line after it would continue its paragraph (lazily) or end it in ways left to markdown-it.
  if (end < lines.length && lines[end] !== '') return null;
  tag(b, 'blockquote_open', 'blockquote', 1, 0, '>');
  if (!paragraph(b, texts.join('\n'), 1, false)) return null;
  tag(b, 'blockquote_close', 'blockquote', -1, 0, '>');
  return end;
}

/** A tight list of one-line bullet items with one marker (rules_block/list.mjs), up to a blank line or the end. */
function bulletList(b: Blocks, i: number, marker: string): number | null {
  const lines = b.lines;
  tag(b, 'bullet_list_open', 'ul', 1, 0, marker);
  let end = i;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    const item = BULLET.exec(line);
    if (!item || item[1] !== marker || THEMATIC_BREAK.test(line)) break;
    if (!isParagraphLine(item[2]!)) return null;
    tag(b, 'list_item_open', 'li', 1, 1, marker);
    if (!paragraph(b, item[2]!, 2, true)) return null;
    tag(b, 'list_item_close', 'li', -1, 1, marker);
  }
  if (end < lines.length && lines[end] !== '') return null;
  tag(b, 'bullet_list_close', 'ul', -1, 0, marker);
  return end;
}

/** A paragraph of lines from `i` up to a blank line, a line that interrupts it, or the end. */
function paragraphBlock(b: Blocks, i: number): number | null {
  const lines = b.lines;
  let end = i;
  while (end < lines.length && lines[end] !== '' && !(end > i && interrupts(lines[end]!))) {
    if (!isParagraphLine(lines[end]!)) return null;
    end++;
  }
  return paragraph(b, lines.slice(i, end).join('\n'), 0, false) ? end : null;
}

/**
 * Reads `content` into blocks (tokens, or HTML): false where the direct path declines. Blocks are
 * paragraphs, fences, quotes of one paragraph and tight lists of one-line bullets, at no
 * indentation, one blank line apart (or none, where a fence, quote or list interrupts a
 * paragraph, and after a fence).
 */
function scanBlocks(b: Blocks): boolean {
  const lines = b.lines;
  let i = 0;
  let after: 'paragraph' | 'fence' | 'other' | null = null;
  while (i < lines.length) {
    const line = lines[i]!;
    // A blank line where a block should start: at the start, or a second in a row.
    if (line === '') return false;
    let next: number | null;
    const open = FENCE_OPEN.exec(line);
    if (open) {
      next = fence(b, i, open);
      after = 'fence';
    } else if (line.charCodeAt(0) === 0x3e /* > */) {
      // A quote after a blank line that follows another is a new quote; left to markdown-it.
      if (after === 'other') return false;
      next = quote(b, i);
      after = 'other';
    } else if (BULLET.test(line) && !THEMATIC_BREAK.test(line)) {
      // Items after a blank line would make the list before them loose.
      if (after === 'other') return false;
      next = bulletList(b, i, line[0]!);
      after = 'other';
    } else {
      next = paragraphBlock(b, i);
      after = 'paragraph';
    }
    if (next === null) return false;
    i = next;
    if (i < lines.length && lines[i] === '') {
      i++;
      if (i === lines.length) return false;
      if (after === 'paragraph' || after === 'fence') after = null;
    } else if (after === 'other' && i < lines.length) return false;
  }
  return true;
}

/**
 * The HTML markdown-it renders for `content`, or null when the direct path declines. `env` is
 * filled as markdown-it's rules fill it; on a decline it may hold part of what was found, so the
 * caller starts the markdown-it path with a fresh one.
 */
export function renderDirect(p: Prepared, content: string, env: Found): string | null {
  if (content === '' || ODD_SPACE.test(content)) return null;
  const md = p.md;
  const state = new md.core.State(content, md, env as unknown as Record<string, unknown>);
  const b: Blocks = { p, env, lines: content.split('\n'), tokens: [], html: null };
  if (!scanBlocks(b)) return null;
  state.tokens = b.tokens;
  for (const rule of p.after) rule(state);
  return md.renderer.render(state.tokens, md.options, env as unknown as Record<string, unknown>);
}

/** renderDirectHtml's answer for a message the core rules after parsing would change: render it with tokens. */
export const LOUD = Symbol('loud');

/**
 * The same HTML, written as the scan goes, for a message no realm linkifier applies to (the other
 * core rules after parsing are linkify, which the sink applies run by run, and rules idle here:
 * prepareDirect checks which run). No tokens are made, nor markdown-it's renderer run. LOUD where
 * a linkifier applies, null where the direct path declines; `env` is then partly filled, as above.
 */
export function renderDirectHtml(p: Prepared, content: string, env: Found): string | null | typeof LOUD {
  if (!p.html) return LOUD;
  if (content === '' || ODD_SPACE.test(content)) return null;
  if (p.rules.linkifiersApply(content, env)) return LOUD;
  const sink = new HtmlSink(p.md, p.html);
  const b: Blocks = { p, env, lines: content.split('\n'), tokens: [], html: sink };
  return scanBlocks(b) ? sink.out : null;
}
