// Zulip-flavoured Markdown → HTML, in the output shapes Zulip's server renders
// (zerver/lib/markdown): paragraphs joined by "\n", a single newline as `<br>\n`, code blocks in
// `<div class="codehilite">`, no raw HTML, no reference-style links, and Zulip's own inline
// syntax (mentions, channel and topic links, emoji). Rendering also reports what it found, since
// the send path turns mentions into per-user flags.
import markdownIt, { type MarkdownIt, type StateCore, type StateInline, type Token } from 'markdown-it';
import { nameForUnicodeCode, unicodeCodeForName, EXTRA_EMOJI } from '../emoji/index.ts';
import { narrowHashEncode } from './hash.ts';
import { quickLinkifyPretest, skipLinklessMessages } from './linkify-pretest.ts';
import { skipIdlePunycode } from './normalize-link.ts';
import { LOUD, prepareDirect, renderDirect, renderDirectHtml, type InlineHtml } from './direct.ts';
import { scanHttpTails } from './http-tail.ts';
import { linkifiersFor, linkifyRun, linkifyText, topicLinks as topicLinksWith, topicLinksJson as topicLinksJsonWith, uncachedLinkifiers, type Linkifier, type LinkifierCaches } from './linkifiers.ts';

export interface MentionableUser {
  id: number;
  full_name: string;
  /** Deactivated users still render as mentions, but silently (no notification). */
  is_active?: boolean;
}

export interface MentionableGroup {
  id: number;
  name: string;
  /** Every member (direct or through subgroups) — they get the `mentioned` flag. */
  memberIds: readonly number[];
}

export interface LinkableChannel {
  id: number;
  name: string;
}

export interface RenderContext {
  /** Active users whose full name matches case-insensitively (several when the name is ambiguous). */
  usersByName(name: string): readonly MentionableUser[];
  userById(id: number): MentionableUser | undefined;
  groupByName?(name: string): MentionableGroup | undefined;
  channelByName(name: string): LinkableChannel | undefined;
  /** Latest message id in a channel topic, for the `/with/` part of topic links. */
  latestInTopic?(channelId: number, topic: string): number | undefined;
  /** Active realm emoji by name → image URL. */
  realmEmoji(name: string): { id: string; source_url: string } | undefined;
  /** The realm's linkifiers, in definition order. */
  linkifiers?: readonly Linkifier[];
  /** Where their compiled patterns are kept (the engine's); without it each render compiles them. */
  linkifierCaches?: LinkifierCaches;
}

export type WildcardKind = 'stream' | 'topic';

export interface RenderResult {
  html: string;
  /** Users mentioned with a non-silent mention (directly or through a group). */
  mentionedUserIds: ReadonlySet<number>;
  /** Non-silent wildcard mentions found (`all`, `everyone`, `channel`, `stream` → 'stream'). */
  wildcards: ReadonlySet<WildcardKind>;
  /** Groups mentioned with a non-silent mention (their can_mention_group is checked on send). */
  mentionedGroupIds: ReadonlySet<number>;
  mentionedChannelIds: ReadonlySet<number>;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
}

/** What a render found so far; each set is made when its first member is (most messages find none). */
export interface Found {
  ctx: RenderContext;
  mentionedUserIds?: Set<number>;
  wildcards?: Set<WildcardKind>;
  mentionedGroupIds?: Set<number>;
  mentionedChannelIds?: Set<number>;
}

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

// One pass with a table, where five chained replacements each copied the string: the same
// result, since no replacement holds a character a later one replaces (`&` goes first).
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const entity = (ch: string): string => ENTITIES[ch]!;
const TEXT_SPECIAL = /[&<>]/;
const TEXT_SPECIALS = /[&<>]/g;
const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;

/** Zulip escapes only &, < and > in text (Python-Markdown), not quotes. */
function escapeText(s: string): string {
  // Most text has none of them: a scan, and no copy.
  return TEXT_SPECIAL.test(s) ? s.replace(TEXT_SPECIALS, entity) : s;
}

/** Attribute values and code blocks (Pygments) also escape quotes. */
export function escapeHtml(s: string): string {
  return HTML_SPECIAL.test(s) ? s.replace(HTML_SPECIALS, entity) : s;
}

// A mention may start a line or follow whitespace or an opening bracket/quote (Zulip's
// BEFORE_MENTION_ALLOWED_REGEX), so "foo@**bar**" in an email-like word stays text.
function mentionAllowedAfter(src: string, pos: number): boolean {
  if (pos === 0) return true;
  return /[\s'"({[/<]/.test(src[pos - 1]!);
}

function pushHtml(state: StateInline, html: string): void {
  const token = state.push('html_inline', '', 0);
  token.content = html;
}

function found(state: StateInline): Found {
  return state.env as unknown as Found;
}

/**
 * What one of Zulip's inline rules found at a position of the paragraph's text: the HTML and
 * where the match ends. The markdown-it rules below and the direct renderer (direct.ts) both call
 * these, so the two paths find the same things.
 */
export interface InlineMatch {
  html: string;
  end: number;
}

// @**Name**, @**Name|id**, @_**Name** (silent), @**all** (wildcards), @*group* / @_*group*.
// `silent` is markdown-it's validation mode: a user mention records itself in either mode, as it
// always has; a group mention only when not silent.
export function matchMention(src: string, start: number, max: number, env: Found, silent: boolean): InlineMatch | undefined {
  if (src.charCodeAt(start) !== 0x40 /* @ */ || !mentionAllowedAfter(src, start)) return undefined;
  const rest = src.slice(start, max);
  const user = /^@(_?)\*\*([^*\n]+)\*\*/.exec(rest);
  if (user) {
    const isSilent = user[1] === '_';
    const html = renderUserMention(env, user[2]!, isSilent);
    if (html === undefined) return undefined;
    return { html, end: start + user[0].length };
  }
  const group = /^@(_?)\*([^*\n]+)\*/.exec(rest);
  if (group && env.ctx.groupByName) {
    const g = env.ctx.groupByName(group[2]!);
    if (!g) return undefined;
    const isSilent = group[1] === '_';
    let html = '';
    if (!silent) {
      if (!isSilent) {
        const users = (env.mentionedUserIds ??= new Set());
        for (const id of g.memberIds) users.add(id);
        (env.mentionedGroupIds ??= new Set()).add(g.id);
      }
      const cls = isSilent ? 'user-group-mention silent' : 'user-group-mention';
      html = `<span class="${cls}" data-user-group-id="${g.id}">${isSilent ? '' : '@'}${escapeText(g.name)}</span>`;
    }
    return { html, end: start + group[0].length };
  }
  return undefined;
}

function mentionRule(state: StateInline, silent: boolean): boolean {
  const m = matchMention(state.src, state.pos, state.posMax, found(state), silent);
  if (!m) return false;
  if (!silent) pushHtml(state, m.html);
  state.pos = m.end;
  return true;
}

function renderUserMention(env: Found, text: string, silentSyntax: boolean): string | undefined {
  let isSilent = silentSyntax;
  const at = () => (isSilent ? '' : '@');
  const silentClass = () => (isSilent ? ' silent' : '');
  if (STREAM_WILDCARDS.has(text)) {
    if (!isSilent) (env.wildcards ??= new Set()).add('stream');
    return `<span class="user-mention channel-wildcard-mention${silentClass()}" data-user-id="*">${at()}${text}</span>`;
  }
  if (text === 'topic') {
    if (!isSilent) (env.wildcards ??= new Set()).add('topic');
    return `<span class="topic-mention${silentClass()}">${at()}${text}</span>`;
  }
  let target: MentionableUser | undefined;
  const withId = /^(.+)?\|(\d+)$/.exec(text);
  if (withId) {
    target = env.ctx.userById(Number(withId[2]));
    // `@**other name|id**` is not a mention: the name, when given, must be the user's.
    if (target && withId[1] !== undefined && target.full_name !== withId[1]) return undefined;
  } else {
    const matches = env.ctx.usersByName(text);
    // An ambiguous name is not a mention: Zulip asks for the `Name|id` form then.
    if (matches.length === 1) target = matches[0];
  }
  if (!target) return undefined;
  if (target.is_active === false) isSilent = true;
  if (!isSilent) (env.mentionedUserIds ??= new Set()).add(target.id);
  return `<span class="user-mention${silentClass()}" data-user-id="${target.id}">${at()}${escapeText(target.full_name)}</span>`;
}

// #**channel**, #**channel>topic** and #**channel>topic@message_id**.
export function matchChannelLink(src: string, start: number, max: number, env: Found, silent: boolean): InlineMatch | undefined {
  if (src.charCodeAt(start) !== 0x23 /* # */) return undefined;
  const m = /^#\*\*([^*\n]+)\*\*/.exec(src.slice(start, max));
  if (!m) return undefined;
  const body = m[1]!;
  const gt = body.indexOf('>');
  const channelName = gt >= 0 ? body.slice(0, gt) : body;
  const channel = env.ctx.channelByName(channelName);
  if (!channel) return undefined;
  const end = start + m[0].length;
  if (silent) return { html: '', end };
  (env.mentionedChannelIds ??= new Set()).add(channel.id);
  // Zulip shows (and links) the channel name as written in the message.
  const shown: LinkableChannel = { id: channel.id, name: channelName };
  const base = `/#narrow/channel/${channelSlug(shown)}`;
  const messageLink = gt >= 0 ? /^(.*?)@(\d+)$/.exec(body.slice(gt + 1)) : null;
  if (messageLink) {
    // #**channel>topic@id** (Zulip's StreamTopicMessageLinkPattern): a link to one message.
    const topic = messageLink[1]!;
    const href = `${base}/topic/${narrowHashEncode(topic)}/near/${messageLink[2]}`;
    const shownTopic = topic === '' ? '<em>general chat</em>' : escapeText(topic);
    return { html: `<a class="message-link" href="${escapeHtml(href)}">#${escapeText(channelName)} &gt; ${shownTopic} @ 💬</a>`, end };
  }
  if (gt >= 0) {
    const topic = body.slice(gt + 1);
    const latest = env.ctx.latestInTopic?.(channel.id, topic);
    const href = `${base}/topic/${narrowHashEncode(topic)}${latest === undefined ? '' : `/with/${latest}`}`;
    const label = topic === '' ? `#${escapeText(channelName)} &gt; <em>general chat</em>` : `#${escapeText(channelName)} &gt; ${escapeText(topic)}`;
    return { html: `<a class="stream-topic" data-stream-id="${channel.id}" href="${escapeHtml(href)}">${label}</a>`, end };
  }
  return { html: `<a class="stream" data-stream-id="${channel.id}" href="${escapeHtml(base)}">#${escapeText(channelName)}</a>`, end };
}

function channelLinkRule(state: StateInline, silent: boolean): boolean {
  const m = matchChannelLink(state.src, state.pos, state.posMax, found(state), silent);
  if (!m) return false;
  if (!silent) pushHtml(state, m.html);
  state.pos = m.end;
  return true;
}

export function channelSlug(channel: LinkableChannel): string {
  return `${channel.id}-${narrowHashEncode(channel.name.replace(/ /g, '-'))}`;
}

// :name: → Unicode emoji span, realm emoji image or the extra `zulip` emoji.
export function matchEmoji(src: string, start: number, max: number, ctx: RenderContext): InlineMatch | undefined {
  if (src.charCodeAt(start) !== 0x3a /* : */) return undefined;
  if (start > 0 && /[\w]/.test(src[start - 1]!)) return undefined;
  const m = /^:([\w+-]+):/.exec(src.slice(start, max));
  if (!m) return undefined;
  const html = renderEmoji(ctx, m[1]!);
  if (html === undefined) return undefined;
  return { html, end: start + m[0].length };
}

function emojiRule(state: StateInline, silent: boolean): boolean {
  const m = matchEmoji(state.src, state.pos, state.posMax, found(state).ctx);
  if (!m) return false;
  if (!silent) pushHtml(state, m.html);
  state.pos = m.end;
  return true;
}

function renderEmoji(ctx: RenderContext, name: string): string | undefined {
  const title = escapeHtml(name.replace(/_/g, ' '));
  const realm = ctx.realmEmoji(name);
  if (realm) {
    return `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(realm.source_url)}" title="${title}">`;
  }
  if (EXTRA_EMOJI.has(name)) {
    return `<img alt=":${name}:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="${title}">`;
  }
  const code = unicodeCodeForName(name);
  if (!code) return undefined;
  return unicodeEmojiSpan(name, code);
}

function unicodeEmojiSpan(name: string, code: string): string {
  const label = escapeHtml(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${escapeHtml(name)}:</span>`;
}

// Literal Unicode emoji in text become the same span as their :name: form, as in Zulip.
const EMOJI_CHAR = /\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic}\uFE0F?|[\u{1F3FB}-\u{1F3FF}])*/gu;

/**
 * Every Extended_Pictographic code point is U+00A9 (©) or above, so text with no UTF-16 unit that
 * high has no emoji: a plain class test, where the `u`-flag property regex costs far more per text.
 */
const MAYBE_EMOJI = /[\u00a9-\uffff]/;

function renderTextWithEmoji(text: string): string {
  if (!MAYBE_EMOJI.test(text)) return escapeText(text);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(EMOJI_CHAR)) {
    const code = [...m[0]]
      .map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0'))
      .filter((c) => c !== 'fe0f')
      .join('-');
    const name = nameForUnicodeCode(code);
    if (!name) continue;
    out += escapeText(text.slice(last, m.index)) + unicodeEmojiSpan(name, code);
    last = m.index + m[0].length;
  }
  return out + escapeText(text.slice(last));
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  py: 'Python',
  python: 'Python',
  python3: 'Python',
  js: 'JavaScript',
  javascript: 'JavaScript',
  ts: 'TypeScript',
  typescript: 'TypeScript',
  json: 'JSON',
  bash: 'Bash',
  sh: 'Bash',
  shell: 'Bash',
  html: 'HTML',
  css: 'CSS',
  sql: 'SQL',
  yaml: 'YAML',
  yml: 'YAML',
  rust: 'Rust',
  go: 'Go',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  ruby: 'Ruby',
  text: 'Text only',
};

function codeBlock(code: string, lang: string): string {
  // Zulip strips trailing whitespace on each line and always ends the block with one newline.
  const body = code
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n');
  const langAttr = lang ? ` data-code-language="${escapeHtml(LANGUAGE_NAMES[lang.toLowerCase()] ?? lang)}"` : '';
  return `<div class="codehilite"${langAttr}><pre><span></span><code>${escapeHtml(body)}\n</code></pre></div>\n`;
}

/** The render rules of the inline tokens the direct path makes: the renderer's, and its HTML path's. */
const INLINE_HTML: InlineHtml = {
  text: renderTextWithEmoji,
  code: (content) => `<code>${escapeText(content)}</code>`,
  softbreak: '<br>\n',
  // Zulip's ~~strike~~ is a <del> (its DEL_RE SimpleTagPattern), not markdown-it's <s>.
  strike: ['<del>', '</del>'],
};

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  // Zulip links bare domains with a known TLD ("zulip.com" → http://zulip.com), not bare emails.
  md.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
  quickLinkifyPretest(md);
  scanHttpTails(md);
  // Zulip has no reference-style links, setext headings or inline images in message bodies.
  md.disable(['reference', 'lheading', 'image']);
  md.inline.ruler.after('text', 'zulip_mention', mentionRule);
  md.inline.ruler.after('zulip_mention', 'zulip_channel_link', channelLinkRule);
  md.inline.ruler.after('zulip_channel_link', 'zulip_emoji', emojiRule);
  md.core.ruler.after('text_join', 'zulip_linkifiers', linkifierRule);
  skipLinklessMessages(md);
  skipIdlePunycode(md);

  const rules = md.renderer.rules;
  rules.text = (tokens: Token[], idx: number) => INLINE_HTML.text(tokens[idx]!.content);
  rules.code_inline = (tokens: Token[], idx: number) => INLINE_HTML.code(tokens[idx]!.content);
  rules.code_block = (tokens: Token[], idx: number) => codeBlock(tokens[idx]!.content, '');
  rules.fence = (tokens: Token[], idx: number, _options, env) => {
    const token = tokens[idx]!;
    const info = token.info.trim();
    const lang = info.replace(/^\./, '').split(/\s+/)[0] ?? '';
    const inner = (text: string) => md.render(text, env).replace(/\n$/, '');
    if (lang === 'quote') return `<blockquote>\n${inner(token.content)}\n</blockquote>\n`;
    if (lang === 'spoiler') {
      // ```spoiler Header: the header is Markdown too; the content is hidden until opened.
      const header = info.slice('spoiler'.length).trim();
      const head = header === '' ? '\n' : `\n${inner(header)}\n`;
      return `<div class="spoiler-block"><div class="spoiler-header">${head}</div><div class="spoiler-content" aria-hidden="true">\n${inner(token.content)}\n</div></div>\n`;
    }
    return codeBlock(token.content, lang);
  };
  rules.s_open = () => INLINE_HTML.strike[0];
  rules.s_close = () => INLINE_HTML.strike[1];
  rules.softbreak = () => INLINE_HTML.softbreak;
  rules.hardbreak = () => '<br>\n';
  return md;
}

/**
 * What sits just outside a text token, as Zulip's inline patterns see it: the start or end of the
 * (nested) inline text, a line break, or a placeholder for an already rendered element (code,
 * mention, emoji, link), which neither opens nor blocks a match after it.
 */
function edgeChar(token: Token | undefined, side: 'before' | 'after'): string {
  if (!token || token.nesting !== 0) return '';
  if (token.type === 'softbreak' || token.type === 'hardbreak') return '\n';
  return side === 'before' ? '\u0003' : '\u0002';
}

// Realm linkifiers over text outside links (Zulip's LinkifierPattern; link text is atomic).
function linkifierRule(state: StateCore): void {
  const ctx = (state.env as unknown as Found).ctx;
  const linkifiers = ctx.linkifiers;
  if (!linkifiers || linkifiers.length === 0) return;
  const compiled = linkifiersFor(state.src, linkifiers, ctx.linkifierCaches ?? uncachedLinkifiers());
  if (compiled.length === 0) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    // Made on the first match: most blocks keep their children as they are.
    let out: Token[] | undefined;
    let linkDepth = 0;
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (token.type === 'link_open') linkDepth++;
      if (token.type === 'link_close') linkDepth--;
      if (token.type !== 'text' || linkDepth > 0) {
        out?.push(token);
        continue;
      }
      const before = edgeChar(children[i - 1], 'before');
      const after = edgeChar(children[i + 1], 'after');
      const text = token.content;
      const matches = linkifyRun(before, text, after, compiled);
      if (matches.length === 0) {
        out?.push(token);
        continue;
      }
      out ??= children.slice(0, i);
      let last = 0;
      const pushText = (content: string) => {
        if (content === '') return;
        const t = new state.Token('text', '', 0);
        t.content = content;
        out!.push(t);
      };
      for (const m of matches) {
        pushText(text.slice(last, m.index));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [['href', m.url]];
        open.markup = 'linkifier';
        out.push(open);
        pushText(m.text);
        out.push(new state.Token('link_close', 'a', -1));
        last = m.index + m.text.length;
      }
      pushText(text.slice(last));
    }
    if (out) block.children = out;
  }
}

const renderer = createRenderer();
const direct = prepareDirect(renderer, {
  mention: matchMention,
  channelLink: matchChannelLink,
  emoji: matchEmoji,
  linkifiersApply: (content, env) => {
    const linkifiers = env.ctx.linkifiers;
    return linkifiers !== undefined && linkifiers.length > 0 && linkifiersFor(content, linkifiers, env.ctx.linkifierCaches ?? uncachedLinkifiers()).length > 0;
  },
  html: INLINE_HTML,
});

/**
 * One line of plain words renders to a single paragraph with nothing to find; skipping the
 * parser for it is exact (a property test compares both paths) and saves most of a send's cost.
 */
export const PLAIN_LINE = /^[A-Za-z][A-Za-z0-9 ,!?']*[.!?]?$/;

/** Render a message body. `/me` detection is separate (see isMeMessage). */
export function renderMarkdown(content: string, ctx: RenderContext): RenderResult {
  // A plain line can still hold a linkifier match (a pattern may be letters and digits only).
  if (PLAIN_LINE.test(content) && (!ctx.linkifiers?.length || linkifyText(content, ctx.linkifiers, ctx.linkifierCaches).length === 0)) {
    return renderFull(content, ctx, true);
  }
  return renderFull(content, ctx, false);
}

/** What a render that found none holds: one empty set, shared by every such render (read-only, so safe to share). */
const NO_IDS: ReadonlySet<number> = new Set();
const NO_WILDCARDS: ReadonlySet<WildcardKind> = new Set();

const IMAGE_EXTENSION = /\.(?:png|jpe?g|gif|webp|bmp)/i;

function newFound(ctx: RenderContext): Found {
  return { ctx };
}

/**
 * The full path (or, with `plain`, its known result for a PLAIN_LINE text): the direct renderer
 * (direct.ts) where it takes the message, else markdown-it; `useDirect` false is markdown-it alone.
 */
export function renderFull(content: string, ctx: RenderContext, plain = false, useDirect = true): RenderResult {
  if (plain) {
    return {
      html: `<p>${escapeText(content.replace(/ +$/, ''))}</p>`,
      mentionedUserIds: NO_IDS,
      wildcards: NO_WILDCARDS,
      mentionedGroupIds: NO_IDS,
      mentionedChannelIds: NO_IDS,
      hasLink: false,
      hasImage: false,
      hasAttachment: false,
    };
  }
  let env = newFound(ctx);
  let rendered: string | null = null;
  if (useDirect) {
    // HTML as the scan goes where no linkifier applies, else tokens; a declined or loud attempt
    // may have recorded part of what it found.
    const html = renderDirectHtml(direct, content, env);
    if (typeof html === 'string') rendered = html;
    else if (html === LOUD) rendered = renderDirect(direct, content, (env = newFound(ctx)));
    if (rendered === null) env = newFound(ctx);
  }
  rendered ??= renderer.render(content, env as unknown as Record<string, unknown>);
  const html = rendered.endsWith('\n') ? rendered.slice(0, -1) : rendered;
  // Each test below needs an `<a ` (or, case-blind, `<A `) or an `<img `, and the link tests an
  // image extension or the uploads path: most messages have none, and a substring search is far
  // cheaper than the patterns' backtracking over each link's attributes.
  const anchor = html.includes('<a ') || html.includes('<A ');
  return {
    html,
    mentionedUserIds: env.mentionedUserIds ?? NO_IDS,
    wildcards: env.wildcards ?? NO_WILDCARDS,
    mentionedGroupIds: env.mentionedGroupIds ?? NO_IDS,
    mentionedChannelIds: env.mentionedChannelIds ?? NO_IDS,
    hasLink: anchor && /<a [^>]*href="(?!\/#narrow)/.test(html),
    // Zulip previews linked images; without previews, a link to an image file is what has:image finds.
    hasImage: (html.includes('<img ') && /<img (?![^>]*class="emoji")/.test(html)) || (anchor && IMAGE_EXTENSION.test(html) && /<a [^>]*href="[^"]+\.(?:png|jpe?g|gif|webp|bmp)(?:\?[^"]*)?"/i.test(html)),
    hasAttachment: anchor && html.includes('href="/user_uploads/') && /<a [^>]*href="\/user_uploads\//.test(html),
  };
}

/** The direct renderer alone (its HTML, trailing newline kept), or null where it declines: for tests. */
export function renderDirectOnly(content: string, ctx: RenderContext): string | null {
  return renderDirect(direct, content, newFound(ctx));
}

/** Its HTML path alone: the HTML, null where it declines, 'loud' where a linkifier applies: for tests. */
export function renderDirectHtmlOnly(content: string, ctx: RenderContext): string | null | 'loud' {
  const html = renderDirectHtml(direct, content, newFound(ctx));
  return html === LOUD ? 'loud' : html;
}

/** Zulip's status ("/me") message test: one line starting with "/me ". */
export function isMeMessage(content: string, html: string): boolean {
  return content.startsWith('/me ') && !content.includes('\n') && html.startsWith('<p>/me ');
}

/** Topic text → `topic_links`: realm linkifiers, then raw URLs (zerver/lib/markdown topic_links). */
export function topicLinks(topic: string, linkifiers: readonly Linkifier[], caches: LinkifierCaches = uncachedLinkifiers()): { text: string; url: string }[] {
  return topicLinksWith(topic, linkifiers, renderer.linkify, caches);
}

/** topicLinks() as JSON text. */
export function topicLinksJson(topic: string, linkifiers: readonly Linkifier[], caches: LinkifierCaches = uncachedLinkifiers()): string {
  return topicLinksJsonWith(topic, linkifiers, renderer.linkify, caches);
}
