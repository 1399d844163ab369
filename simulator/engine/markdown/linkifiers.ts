// Realm linkifiers, as Zulip applies them (zerver/lib/markdown/__init__.py): each pattern is an
// RE2 regex with named groups, wrapped by prepare_linkifier_pattern so it only matches after a
// start, a space or an opening delimiter and never runs into a following letter or digit; the
// groups fill an RFC 6570 URL template. The same wrapped patterns give `topic_links`.
//
// Patterns run on re2js, an RE2 engine: matching takes time linear in the text, whatever the
// pattern (a backtracking engine hangs on `(a+)+b` against a line of `a`s), with RE2's meaning of
// `\s`, `.` and the Unicode classes, as on Zulip's server. A pattern both engines read alike, on
// which backtracking stays linear per start, runs as a RegExp on shorter texts (linkifier-native.ts).
import { RE2JS } from 're2js';
import { AFTER, BEFORE, nativeLinkifier, OUTER } from './linkifier-native.ts';

/** The part of linkify-it (markdown-it's link finder) that topic_links uses for raw URLs. */
export interface LinkFinder {
  match(text: string): readonly { index: number; raw: string; schema: string }[] | null;
}

export interface Linkifier {
  pattern: string;
  url_template: string;
}

/**
 * What linkifying reads of a compiled re2js pattern: its RE2 program's one search that reports
 * every group's bounds. Structural, so that the declarations the npm package ships (the engine's
 * caches hold compiled linkifiers) need no re2js types of their own.
 */
export interface CompiledPattern {
  /** [found, then start and end per group (group 0 the whole match), -1 for a group that took no part]. */
  matchWithGroup(text: string, start: number, end: number, anchor: number, groups: number): readonly unknown[];
  /** The literals any match contains, as re2js derived them (read by needOf). */
  prefilter?: unknown;
}

/** Literals a text must contain for a pattern to match in it: one string, all of, or any of. */
export type Need = { text: string } | { all: Need[] } | { any: Need[] };

/** A linkifier ready to run: the wrapped regex (null when it does not compile: it matches nothing). */
export interface Compiled {
  re: CompiledPattern | null;
  /** The same as a RegExp, where the pattern keeps to what both engines read alike (linkifier-native.ts); else null. */
  native: RegExp | null;
  /** The user's group names, which fill the URL template, with their group numbers. */
  groups: [name: string, index: number][];
  /** Group numbers of the wrapped pattern's OUTER and AFTER groups, and how many groups in all. */
  outer: number;
  after: number;
  groupCount: number;
  /** The URL template, read once. */
  url: UrlTemplate;
  /** Literal text every match of the user's pattern starts with ('' when none is known). */
  prefix: string;
  /** What a text needs for the pattern to match (null: nothing known, always search). */
  need: Need | null;
  source: string;
  template: string;
}

/** prepare_linkifier_pattern: the pattern is RE2 syntax already; `\s` is ASCII whitespace in RE2. */
function preparePattern(source: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"\\(,:<])(?P<${OUTER}>${source})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

/**
 * What the engine keeps for linkifiers (simulator/engine/fast/caches.ts): each linkifier object's compiled pattern (the
 * realm's list keeps its objects, so a render does no string work to find it), and topic links
 * per list. Checked against the pattern and list on every read.
 */
export interface LinkifierCaches {
  compiled: WeakMap<Linkifier, Compiled>;
  topics: WeakMap<readonly Linkifier[], TopicCache>;
}

/** Caches for a caller that keeps none (each call starts empty). */
export function uncachedLinkifiers(): LinkifierCaches {
  return { compiled: new WeakMap(), topics: new WeakMap() };
}

function compile(caches: LinkifierCaches, linkifier: Linkifier): Compiled {
  let compiled = caches.compiled.get(linkifier);
  if (!compiled || compiled.source !== linkifier.pattern || compiled.template !== linkifier.url_template) {
    let re: RE2JS | null;
    try {
      re = RE2JS.compile(preparePattern(linkifier.pattern));
    } catch {
      // Zulip compiles a pattern RE2 refuses to one that matches nothing.
      re = null;
    }
    const named = re ? re.namedGroups() : {};
    const groups = Object.entries(named).filter(([g]) => g !== BEFORE && g !== OUTER && g !== AFTER);
    const re2 = re ? re.re2() : null;
    compiled = {
      re: re2,
      native: re2 ? nativeLinkifier(linkifier.pattern) : null,
      groups,
      outer: named[OUTER] ?? 0,
      after: named[AFTER] ?? 0,
      groupCount: re ? 1 + re.groupCount() : 1,
      need: re2 ? needOf(re2.prefilter) : null,
      url: parseUrlTemplate(linkifier.url_template),
      prefix: re ? literalPrefix(linkifier.pattern) : '',
      source: linkifier.pattern,
      template: linkifier.url_template,
    };
    caches.compiled.set(linkifier, compiled);
  }
  return compiled;
}

/**
 * re2js's prefilter, read as a Need: the literals it found in the pattern's syntax tree that any
 * match contains (type 1 one string, 2 all of its parts, 3 any of them; 0 nothing). re2js checks
 * it before each unanchored search; a caller checking it first can skip the search's set-up for
 * the many texts that lack them. Anything else read here is "nothing known", which only costs a
 * search.
 */
function needOf(prefilter: unknown): Need | null {
  if (typeof prefilter !== 'object' || prefilter === null) return null;
  const { type, str, subs } = prefilter as { type?: unknown; str?: unknown; subs?: unknown };
  if (type === 1) return typeof str === 'string' && str !== '' ? { text: str } : null;
  if ((type !== 2 && type !== 3) || !Array.isArray(subs) || subs.length === 0) return null;
  const parts = subs.map(needOf);
  // All of: a part with nothing known asks nothing. Any of: such a part may always match.
  if (type === 2) {
    const known = parts.filter((n): n is Need => n !== null);
    return known.length === 0 ? null : { all: known };
  }
  return parts.every((n) => n !== null) ? { any: parts as Need[] } : null;
}

/**
 * The literal text every match of a pattern starts with, as RE2 finds it in the compiled program
 * (its `prefix`, which RE2 itself skips ahead to); '' when there is none or it cannot be read.
 */
function literalPrefix(pattern: string): string {
  try {
    const prefix: unknown = RE2JS.compile(pattern).re2().prefix;
    return typeof prefix === 'string' ? prefix : '';
  } catch {
    return '';
  }
}

function mayMatch(need: Need, text: string): boolean {
  if ('text' in need) return text.includes(need.text);
  if ('all' in need) return need.all.every((n) => mayMatch(n, text));
  return need.any.some((n) => mayMatch(n, text));
}

/**
 * mayMatch() on `before + text + after`, with `before` and `after` at most one unit each, without
 * building that string: an occurrence not inside `text` begins with `before` or ends with `after`.
 */
function mayMatchAround(need: Need, before: string, text: string, after: string): boolean {
  if ('text' in need) return literalAround(need.text, before, text, after);
  if ('all' in need) return need.all.every((n) => mayMatchAround(n, before, text, after));
  return need.any.some((n) => mayMatchAround(n, before, text, after));
}

/** Whether `before + text + after` holds `literal`, mostly without building that string. */
function literalAround(literal: string, before: string, text: string, after: string): boolean {
  if (text.includes(literal)) return true;
  const edge = (before !== '' && literal.startsWith(before)) || (after !== '' && literal.endsWith(after));
  return edge && (before + text + after).includes(literal);
}

// RFC 6570 expansion (the `uri_template` package Zulip uses), for string values.
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

const ALL_UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

function pctEncode(value: string, allowReserved: boolean): string {
  // Group values are mostly ids and words: nothing to encode, in either mode.
  if (ALL_UNRESERVED.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else if (allowReserved && ch === '%' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) out += ch;
    else {
      const cp = value.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const byte of Buffer.from(String.fromCodePoint(cp), 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

/** One `{…}` of a template: its operator and variables (with a `:n` prefix length). */
interface Expression {
  spec: Operator;
  vars: { name: string; prefix: number | undefined }[];
}

/** A URL template read once: literal text and expressions, in order. */
export type UrlTemplate = (string | Expression)[];

/**
 * Reads a template into its parts, so that each link expands it without parsing it again. An
 * expression with a malformed variable stays literal text, as the expansion leaves it.
 */
export function parseUrlTemplate(template: string): UrlTemplate {
  const parts: UrlTemplate = [];
  let last = 0;
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    if (m.index > last) parts.push(template.slice(last, m.index));
    last = m.index + m[0].length;
    const expression = m[1]!;
    const op = OPERATORS[expression[0] ?? ''] !== undefined && /^[+#./;?&]/.test(expression) ? expression[0]! : '';
    const vars: Expression['vars'] = [];
    let valid = true;
    for (const varspec of expression.slice(op.length).split(',')) {
      const v = /^([A-Za-z0-9_.%]+)(?::(\d+)|\*)?$/.exec(varspec);
      if (!v) {
        valid = false;
        break;
      }
      vars.push({ name: v[1]!, prefix: v[2] ? Number(v[2]) : undefined });
    }
    parts.push(valid ? { spec: OPERATORS[op]!, vars } : m[0]);
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}

export function expandParsedTemplate(template: UrlTemplate, values: Record<string, string | undefined>): string {
  let out = '';
  for (const part of template) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const { spec } = part;
    let expanded = '';
    let count = 0;
    for (const { name, prefix } of part.vars) {
      const raw = values[name];
      if (raw === undefined || raw === null) continue;
      const value = prefix !== undefined ? [...raw].slice(0, prefix).join('') : raw;
      const encoded = pctEncode(value, spec.reserved);
      expanded += (count++ === 0 ? spec.first : spec.sep) + (spec.named ? (value === '' ? `${name}${spec.ifEmpty}` : `${name}=${encoded}`) : encoded);
    }
    out += expanded;
  }
  return out;
}

export function expandUrlTemplate(template: string, values: Record<string, string | undefined>): string {
  return expandParsedTemplate(parseUrlTemplate(template), values);
}

export interface LinkifierMatch {
  /** Offset of the linked text in the searched string. */
  index: number;
  text: string;
  url: string;
}

/** RE2's unanchored search (re2js's RE2Flags.UNANCHORED). */
const UNANCHORED = 0;

/**
 * Every non-overlapping match of one linkifier (a trailing delimiter may start the next match).
 * One search per match asks for every group at once: re2js's Matcher would search three times
 * (a test, a find for the match's bounds, then again from its start for the groups). Text
 * without the literals the pattern needs is turned down before re2js is called.
 */
function matchesOf(compiled: Compiled, text: string): readonly LinkifierMatch[] {
  if (!compiled.re || (compiled.need !== null && !mayMatch(compiled.need, text))) return NO_MATCHES;
  return searchAll(compiled, compiled.re, text);
}

/** Longest text the RegExp searches (linear per start, so at worst quadratic in this); longer texts go to re2js. */
const NATIVE_MAX_TEXT = 2000;
const SURROGATE = /[\ud800-\udfff]/;
/** Whether searches take re2js even where a RegExp would do (tests compare the two). */
let re2Only = false;

/** Run `f` with every search on re2js: for tests. */
export function withRe2Only<T>(f: () => T): T {
  re2Only = true;
  try {
    return f();
  } finally {
    re2Only = false;
  }
}

/** matchesOf() past the check of what the text needs. */
function searchAll(compiled: Compiled, re: CompiledPattern, text: string): readonly LinkifierMatch[] {
  // The RegExp on text with no surrogate halves: where a search starts inside a pair differs.
  const native = compiled.native;
  if (native && !re2Only && text.length <= NATIVE_MAX_TEXT && !SURROGATE.test(text)) return searchAllNative(compiled, native, text);
  return searchAllRe2(compiled, re, text);
}

/**
 * Where a search from `pos` begins, or -1 where none can match. The user's pattern starts right
 * after the one-unit BEFORE group (or at the text's start), so no match starts before one unit
 * ahead of its prefix's next occurrence: the search, which tries every start, begins there.
 */
function searchStart(compiled: Compiled, text: string, pos: number): number {
  if (compiled.prefix === '') return pos;
  const at = text.indexOf(compiled.prefix, pos);
  return at < 0 ? -1 : Math.max(pos, at - 1);
}

/** searchAll() with the RegExp: the same starts, the same groups read by name. */
function searchAllNative(compiled: Compiled, re: RegExp, text: string): readonly LinkifierMatch[] {
  let out: LinkifierMatch[] | undefined;
  let pos = 0;
  while (pos < text.length) {
    const from = searchStart(compiled, text, pos);
    if (from < 0) break;
    re.lastIndex = from;
    const m = re.exec(text);
    if (!m) break;
    const found = m.groups!;
    const values: Record<string, string | undefined> = {};
    for (const [name] of compiled.groups) values[name] = found[name];
    const before = found[BEFORE]!.length;
    (out ??= []).push({ index: m.index + before, text: found[OUTER]!, url: expandParsedTemplate(compiled.url, values) });
    const start = m.index;
    const next = m.index + m[0].length - found[AFTER]!.length;
    pos = next > start ? next : start + 1;
  }
  return out ?? NO_MATCHES;
}

function searchAllRe2(compiled: Compiled, re: CompiledPattern, text: string): readonly LinkifierMatch[] {
  let out: LinkifierMatch[] | undefined;
  let pos = 0;
  while (pos < text.length) {
    const from = searchStart(compiled, text, pos);
    if (from < 0) break;
    const result = re.matchWithGroup(text, from, text.length, UNANCHORED, compiled.groupCount);
    if (result[0] !== true) break;
    const g = result[1] as readonly number[];
    const values: Record<string, string | undefined> = {};
    for (const [name, i] of compiled.groups) values[name] = g[2 * i]! < 0 ? undefined : text.slice(g[2 * i], g[2 * i + 1]);
    const outer = g[2 * compiled.outer]!;
    (out ??= []).push({ index: outer, text: text.slice(outer, g[2 * compiled.outer + 1]), url: expandParsedTemplate(compiled.url, values) });
    // Zulip resumes before the AFTER group, so "#D12 #D13" links both.
    const start = g[0]!;
    const next = g[2 * compiled.after]!;
    // An empty match steps over a whole character: half a surrogate pair is no place to search from.
    pos = next > start ? next : start + ((text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
  }
  return out ?? NO_MATCHES;
}

// Characters that stand for themselves in RE2 syntax outside a class.
const PLAIN = /[A-Za-z0-9#_\-@/:=~%&]/;
// What may follow the last of them and still leave it required: the end, or a group or class (an
// atom of its own, which a quantifier after it repeats). Anything else may make it optional: a
// quantifier (`ab?`), or one after a flag group, which is no atom (`a(?i)*`).
const ATOM_AFTER = /^(?:$|\(\?P<|\(\?:|\[)/;

/**
 * Text every match of `pattern` contains ('' when it cannot tell): the plain characters the
 * pattern starts with, less the last when what follows might make it optional, when the pattern
 * has no alternation.
 * Text without it has no match, so its regex need not run, nor be compiled: the dev realm's history
 * names none of its linkifiers' literals, and re2js takes about 4 ms to compile each wrapped
 * pattern (11 ms for the first, cold), a tenth of the simulator's start.
 */
export function requiredLiteral(pattern: string): string {
  if (pattern.includes('|')) return '';
  let end = 0;
  while (end < pattern.length && PLAIN.test(pattern[end]!)) end++;
  if (end > 0 && !ATOM_AFTER.test(pattern.slice(end))) end--;
  return pattern.slice(0, end);
}

function matchesIn(caches: LinkifierCaches, linkifier: Linkifier, text: string): readonly LinkifierMatch[] {
  return text.includes(requiredLiteral(linkifier.pattern)) ? matchesOf(compile(caches, linkifier), text) : NO_MATCHES;
}

const NO_MATCHES: readonly LinkifierMatch[] = [];

/**
 * Linkifier matches for one text run of a message, in text order: linkifiers apply in
 * definition order, and a later one never links text an earlier one already linked (Zulip runs
 * them as successive inline patterns, and a link's text is atomic).
 */
export function linkifyText(text: string, linkifiers: readonly Linkifier[], caches: LinkifierCaches = uncachedLinkifiers()): LinkifierMatch[] {
  const found = linkifyCompiled(text, linkifiersFor(text, linkifiers, caches));
  return found.length === 0 ? [] : [...found];
}

/**
 * A linkifier as one message's render holds it: the literal its pattern starts with, and its
 * compiled form, made on the first text that holds that literal (most messages hold none).
 */
export interface Ready {
  literal: string;
  linkifier: Linkifier;
  caches: LinkifierCaches;
}

// Each linkifier's literal, kept with the pattern it was read from (a linkifier object may be
// edited in place): requiredLiteral tests a regex per character of the pattern, and ran for every
// linkifier on every render.
const literals = new WeakMap<Linkifier, { pattern: string; literal: string }>();

function literalOf(linkifier: Linkifier): string {
  let known = literals.get(linkifier);
  if (!known || known.pattern !== linkifier.pattern) {
    known = { pattern: linkifier.pattern, literal: requiredLiteral(linkifier.pattern) };
    literals.set(linkifier, known);
  }
  return known.literal;
}

/** The linkifiers ready to run, in definition order: once per message, not per text run. */
export function compileAll(linkifiers: readonly Linkifier[], caches: LinkifierCaches): Ready[] {
  return linkifiers.map((linkifier) => ({ literal: literalOf(linkifier), linkifier, caches }));
}

const NO_READY: readonly Ready[] = [];

/** An escape or something that may be an entity (markdown-it's rules_inline/escape.mjs and entity.mjs), which decode into text. */
const DECODES = /\\|&(?:#|[a-z][a-z0-9]{1,31};)/i;

/** Whether markdown-it may make text of Markdown `source` that is not a piece of it. */
export function mayDecodeText(source: string): boolean {
  return DECODES.test(source);
}

/**
 * compileAll() less the linkifiers that cannot match in any text run of `source`, the Markdown
 * the runs come from. Each run is a piece of one line of it, except where markdown-it decodes an
 * escape (`\#`) or an entity (`&#35;`, `&amp;`) into text: a source with neither holds every
 * literal any run holds, and a literal (plain characters only, see requiredLiteral) never takes
 * in the edge characters linkifyRun adds. Most messages hold no linkifier's literal: nothing is
 * made for them.
 */
export function linkifiersFor(source: string, linkifiers: readonly Linkifier[], caches: LinkifierCaches): readonly Ready[] {
  if (mayDecodeText(source)) return compileAll(linkifiers, caches);
  let out: Ready[] | undefined;
  for (const linkifier of linkifiers) {
    const literal = literalOf(linkifier);
    if (source.includes(literal)) (out ??= []).push({ literal, linkifier, caches });
  }
  return out ?? NO_READY;
}

/** linkifyText() with the message's linkifiers. */
export function linkifyCompiled(text: string, ready: readonly Ready[]): readonly LinkifierMatch[] {
  let taken: LinkifierMatch[] | undefined;
  for (const r of ready) {
    if (!text.includes(r.literal)) continue;
    for (const match of matchesOf(compile(r.caches, r.linkifier), text)) {
      if (!taken) taken = [match];
      else if (!taken.some((t) => overlaps(t, match))) taken.push(match);
    }
  }
  return taken ? taken.sort((a, b) => a.index - b.index) : NO_MATCHES;
}

/**
 * linkifyCompiled() of one text token seen with the character just outside it on either side
 * (`before` and `after`: '' or one unit), keeping only the matches inside the token, at their
 * offsets in it. Where no linkifier finds what it needs, the joined string is never built.
 */
export function linkifyRun(before: string, text: string, after: string, ready: readonly Ready[]): readonly LinkifierMatch[] {
  let full: string | undefined;
  let taken: LinkifierMatch[] | undefined;
  for (let k = 0; k < ready.length; k++) {
    const r = ready[k]!;
    if (!literalAround(r.literal, before, text, after)) continue;
    const c = compile(r.caches, r.linkifier);
    if (!c.re || (c.need !== null && !mayMatchAround(c.need, before, text, after))) continue;
    full ??= before + text + after;
    for (const match of searchAll(c, c.re, full)) {
      if (!taken) taken = [match];
      else if (!taken.some((t) => overlaps(t, match))) taken.push(match);
    }
  }
  if (!taken) return NO_MATCHES;
  // Overlaps are settled among all matches first, as on the joined string, and only then cut.
  return taken
    .sort((a, b) => a.index - b.index)
    .map((m) => ({ ...m, index: m.index - before.length }))
    .filter((m) => m.index >= 0 && m.index + m.text.length <= text.length);
}

function overlaps(a: { index: number; text: string }, b: { index: number; text: string }): boolean {
  return (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);
}

/** Zulip's basic_link_splitter: topics are cut at these characters before looking for raw URLs. */
const LINK_SPLITTER = /[ !;),'"]/;

/**
 * Zulip's topic_links: linkifier matches (earlier linkifiers first), then raw URLs (a scheme-less
 * one gets `https://`), overlapping matches dropped by that precedence, the rest in topic order.
 */
export function topicLinks(topic: string, linkifiers: readonly Linkifier[], linkify: LinkFinder, caches: LinkifierCaches): { text: string; url: string }[] {
  return linksOf(caches, topicCacheFor(caches, linkifiers), topic, linkifiers, linkify).map((l) => ({ ...l }));
}

/** topic_links as JSON text, kept beside the links (the same string while they are unchanged). */
export function topicLinksJson(topic: string, linkifiers: readonly Linkifier[], linkify: LinkFinder, caches: LinkifierCaches): string {
  const cache = topicCacheFor(caches, linkifiers);
  let json = cache.jsonByTopic.get(topic);
  if (json === undefined) {
    const links = linksOf(caches, cache, topic, linkifiers, linkify);
    cache.jsonByTopic.set(topic, (json = links.length === 0 ? '[]' : JSON.stringify(links)));
  }
  return json;
}

// Every fetched channel message needs its topic's links; topics repeat, so they are computed
// once per topic text and linkifier list (the cache is dropped when it grows large).
function topicCacheFor(caches: LinkifierCaches, linkifiers: readonly Linkifier[]): TopicCache {
  let cache = caches.topics.get(linkifiers);
  if (!cache || cache.byTopic.size > TOPIC_CACHE_LIMIT || cache.jsonByTopic.size > TOPIC_CACHE_LIMIT || !sameLinkifiers(cache.seen, linkifiers)) {
    cache = { seen: linkifiers.map((l) => ({ ...l })), byTopic: new Map(), jsonByTopic: new Map() };
    caches.topics.set(linkifiers, cache);
  }
  return cache;
}

function linksOf(caches: LinkifierCaches, cache: TopicCache, topic: string, linkifiers: readonly Linkifier[], linkify: LinkFinder): readonly { text: string; url: string }[] {
  let links = cache.byTopic.get(topic);
  if (!links) {
    links = computeTopicLinks(caches, topic, linkifiers, linkify);
    cache.byTopic.set(topic, links);
  }
  return links;
}

const TOPIC_CACHE_LIMIT = 10_000;
export interface TopicCache {
  seen: Linkifier[];
  byTopic: Map<string, readonly { text: string; url: string }[]>;
  jsonByTopic: Map<string, string>;
}

function sameLinkifiers(seen: readonly Linkifier[], now: readonly Linkifier[]): boolean {
  if (seen.length !== now.length) return false;
  for (let i = 0; i < seen.length; i++) {
    if (seen[i]!.pattern !== now[i]!.pattern || seen[i]!.url_template !== now[i]!.url_template) return false;
  }
  return true;
}

function computeTopicLinks(caches: LinkifierCaches, topic: string, linkifiers: readonly Linkifier[], linkify: LinkFinder): { text: string; url: string }[] {
  const matches: (LinkifierMatch & { precedence: number })[] = [];
  linkifiers.forEach((linkifier, precedence) => {
    for (const match of matchesIn(caches, linkifier, topic)) matches.push({ ...match, precedence });
  });
  matches.sort((a, b) => a.precedence - b.precedence || a.index - b.index);
  let pos = 0;
  while (pos < topic.length) {
    const split = topic.slice(pos).search(LINK_SPLITTER);
    const end = split < 0 ? topic.length : pos + split;
    const segment = topic.slice(pos, end);
    const found = segment === '' ? null : linkify.match(segment);
    const first = found?.[0];
    if (first && first.index === 0) {
      const text = first.raw;
      const url = first.schema === '' ? `https://${text}` : text;
      matches.push({ index: pos, text, url, precedence: Number.POSITIVE_INFINITY });
    }
    pos = end + 1;
  }
  const applied: LinkifierMatch[] = [];
  for (const match of matches) if (applied.every((old) => !overlaps(old, match))) applied.push(match);
  return applied.sort((a, b) => a.index - b.index).map(({ url, text }) => ({ url, text }));
}
