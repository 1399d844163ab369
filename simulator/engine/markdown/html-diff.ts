// The `content_html_diff` of message edit history: Zulip's highlight_html_differences, which runs
// lxml's htmldiff over the old and new rendered content and turns its <ins>/<del> into
// `<span class="highlight_text_inserted|deleted">`, inside a wrapping <div>.
//
// htmldiff works on word tokens carrying their surrounding tags: it diffs the words with Python's
// difflib.SequenceMatcher (sequence-matcher.ts) while ignoring matches shorter than lxml's
// threshold, wraps inserted runs in <ins> and deleted runs in <del> (moving a deletion next to
// tags it can be balanced with), then pushes <ins>/<del> inside block elements. The HTML goes
// through a small element tree shaped like lxml's (text and tail strings), built with htmlparser2
// and serialized the way lxml's HTML serializer writes it.
import { Parser } from 'htmlparser2';
import { matchingBlocks } from './sequence-matcher.ts';

// ------------------------------------------------------------------ an lxml-shaped tree

interface Element {
  tag: string;
  attrs: [string, string][];
  /** Text before the first child. */
  text: string;
  /** Text after this element's end tag, up to the next sibling. */
  tail: string;
  children: Element[];
}

/** Elements without end tags (lxml.html.defs.empty_tags, as its serializer knows them). */
const VOID_TAGS = new Set(['area', 'base', 'basefont', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

function element(tag: string, attrs: [string, string][] = []): Element {
  return { tag, attrs, text: '', tail: '', children: [] };
}

/**
 * fragment_fromstring(html, create_parent=True): the fragment's nodes under a new <div>. End tags
 * with no open element (htmldiff writes `</br>` after a line break) are dropped, as libxml2's
 * parser drops them.
 */
function parseFragment(html: string): Element {
  const root = element('div');
  const stack: Element[] = [root];
  const appendText = (text: string) => {
    const current = stack[stack.length - 1]!;
    const last = current.children[current.children.length - 1];
    if (last) last.tail += text;
    else current.text += text;
  };
  const parser = new Parser(
    {
      onopentag(name, attribs, isImplied) {
        // htmlparser2 answers a stray </p> with an empty <p>; libxml2 drops the end tag.
        if (isImplied) return;
        const el = element(name, Object.entries(attribs));
        stack[stack.length - 1]!.children.push(el);
        if (!VOID_TAGS.has(name)) stack.push(el);
      },
      ontext: appendText,
      onclosetag(name) {
        if (VOID_TAGS.has(name)) return;
        const at = stack.map((el) => el.tag).lastIndexOf(name);
        if (at > 0) stack.length = at;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html.replace(new RegExp(`</(?:${[...VOID_TAGS].join('|')})\\s*>`, 'gi'), ''));
  return root;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Attributes libxml2 writes as URIs: leading blanks dropped, spaces, controls and non-ASCII %-encoded. */
function isUriAttribute(tag: string, name: string): boolean {
  return name === 'href' || name === 'action' || name === 'src' || (name === 'name' && tag === 'a');
}

function percentEncode(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f) out += ch;
    else for (const byte of new TextEncoder().encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** One attribute as libxml2's HTML serializer writes it (single quotes when that avoids escaping). */
function serializeAttribute(tag: string, name: string, value: string): string {
  if (isUriAttribute(tag, name)) return ` ${name}="${escapeText(percentEncode(value.replace(/^[ \t\n\r]+/, ''))).replace(/"/g, '&quot;')}"`;
  const text = escapeText(value);
  if (!text.includes('"')) return ` ${name}="${text}"`;
  if (!text.includes("'")) return ` ${name}='${text}'`;
  return ` ${name}="${text.replace(/"/g, '&quot;')}"`;
}

/** lxml's tostring(method="html") of an element, its tail included. */
function serialize(el: Element): string {
  const open = `<${el.tag}${el.attrs.map(([k, v]) => serializeAttribute(el.tag, k, v)).join('')}>`;
  const body = VOID_TAGS.has(el.tag) ? '' : `${escapeText(el.text)}${el.children.map(serialize).join('')}</${el.tag}>`;
  return `${open}${body}${escapeText(el.tail)}`;
}

/** The children's serialization without the wrapper, stripped (serialize_html_fragment(skip_outer=True)). */
function serializeInner(el: Element): string {
  return `${escapeText(el.text)}${el.children.map(serialize).join('')}`.trim();
}

// ------------------------------------------------------------------ tokens

/** Python's html.escape(s, quote=True). */
const pyEscape = (s: string) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

interface Token {
  /** What the diff compares. */
  text: string;
  /** What is written out. */
  html: string;
  pre: string[];
  post: string[];
  trailingWhitespace: string;
  /** href tokens only show when they changed. */
  hideWhenEqual: boolean;
}

type Chunk = string | { img: string; tag: string } | { href: string };

const WORDS = /\S+(?:\s+|$)/gu;

function splitWords(text: string): string[] {
  if (!text || text.trim() === '') return [];
  return text.match(WORDS) ?? [];
}

function startTag(el: Element): string {
  return `<${el.tag}${el.attrs.map(([k, v]) => ` ${k}="${pyEscape(v)}"`).join('')}>`;
}

function endTag(el: Element): string {
  return `</${el.tag}>${/^[ \t\n\r]/.test(el.tail) ? ' ' : ''}`;
}

/** flatten_el: start tags, escaped words and end tags in document order. */
function* flatten(el: Element, skipTag: boolean): Generator<Chunk> {
  if (!skipTag) {
    if (el.tag === 'img') yield { img: el.attrs.find(([k]) => k === 'src')?.[1] ?? '', tag: startTag(el) };
    else yield startTag(el);
  }
  if (VOID_TAGS.has(el.tag) && !el.text && el.children.length === 0 && !el.tail) return;
  for (const word of splitWords(el.text)) yield pyEscape(word);
  for (const child of el.children) yield* flatten(child, false);
  const href = el.attrs.find(([k]) => k === 'href')?.[1];
  if (el.tag === 'a' && href) yield { href };
  if (!skipTag) {
    yield endTag(el);
    for (const word of splitWords(el.tail)) yield pyEscape(word);
  }
}

function splitTrailingWhitespace(word: string): [string, string] {
  const stripped = word.replace(/\s+$/u, '');
  return [stripped, word.slice(stripped.length)];
}

/** fixup_chunks: words (and images, hrefs) with the tags around them attached. */
function tokenize(html: string): Token[] {
  const result: Token[] = [];
  let tags: string[] = [];
  let current: Token | undefined;
  const add = (token: Token) => {
    tags = [];
    current = token;
    result.push(token);
  };
  for (const chunk of flatten(parseFragment(html.replace(/<\/?(ins|del)[\s\S]*?>/gi, '')), true)) {
    if (typeof chunk !== 'string') {
      if ('img' in chunk) {
        const [tag, ws] = splitTrailingWhitespace(chunk.tag);
        // lxml's tag_token text is f"{type}: {data}" with the builtin `type`: images compare by src.
        add({ text: `<class 'type'>: ${chunk.img}`, html: tag, pre: tags, post: [], trailingWhitespace: ws, hideWhenEqual: false });
      } else {
        add({ text: chunk.href, html: ` Link: ${chunk.href}`, pre: tags, post: [], trailingWhitespace: ' ', hideWhenEqual: true });
      }
      continue;
    }
    if (!chunk.startsWith('<')) {
      const [word, ws] = splitTrailingWhitespace(chunk);
      add({ text: word, html: word, pre: tags, post: [], trailingWhitespace: ws, hideWhenEqual: false });
    } else if (!chunk.startsWith('</') || tags.length > 0 || !current) {
      tags.push(chunk);
    } else {
      current.post.push(chunk);
    }
  }
  if (result.length === 0) return [{ text: '', html: '', pre: tags, post: [], trailingWhitespace: '', hideWhenEqual: false }];
  result[result.length - 1]!.post.push(...tags);
  return result;
}

function* expandTokens(tokens: readonly Token[], equal = false): Generator<string> {
  for (const token of tokens) {
    yield* token.pre;
    if (!equal || !token.hideWhenEqual) yield token.html + token.trailingWhitespace;
    yield* token.post;
  }
}

// ------------------------------------------------------------------ the diff

type Opcode = ['replace' | 'delete' | 'insert' | 'equal', number, number, number, number];

/**
 * InsensitiveSequenceMatcher: difflib's opcodes, computed from its matching blocks minus the
 * short ones (up to 2 tokens, or up to a quarter of the new document's when that is fewer).
 */
function insensitiveOpcodes(a: readonly string[], b: readonly string[]): Opcode[] {
  // Diff interned ids: cheaper to compare and to index than the words.
  const ids = new Map<string, number>();
  const intern = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const threshold = Math.min(2, Math.floor(b.length / 4));
  const blocks = matchingBlocks(a.map(intern), b.map(intern)).filter(([, , size]) => size > threshold || size === 0);
  const opcodes: Opcode[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj, size] of blocks) {
    if (i < ai && j < bj) opcodes.push(['replace', i, ai, j, bj]);
    else if (i < ai) opcodes.push(['delete', i, ai, j, bj]);
    else if (j < bj) opcodes.push(['insert', i, ai, j, bj]);
    i = ai + size;
    j = bj + size;
    if (size) opcodes.push(['equal', ai, i, bj, j]);
  }
  return opcodes;
}

const DEL_START = Symbol('DEL_START');
const DEL_END = Symbol('DEL_END');
type DocChunk = string | typeof DEL_START | typeof DEL_END;

/** tag_name_of_chunk: `<a href="x">` → `a`, `</p>` → `p`, a word → ''. */
function tagName(chunk: string): string {
  if (!chunk.startsWith('<')) return '';
  return chunk.split(/\s+/)[0]!.replace(/^[<>/]+|[<>/]+$/g, '');
}

/** 'b' balanced, 'us' unmatched start tag, 'ue' unmatched end tag. */
type Balance = 'b' | 'us' | 'ue';

/** mark_unbalanced: which tags of a run of chunks have no partner inside the run. */
function markUnbalanced(chunks: readonly string[]): [Balance, string][] {
  const stack: [string, string, [Balance, string][]][] = [];
  let marked: [Balance, string][] = [];
  for (const chunk of chunks) {
    if (!chunk.startsWith('<')) {
      marked.push(['b', chunk]);
      continue;
    }
    const name = tagName(chunk);
    if (VOID_TAGS.has(name)) {
      marked.push(['b', chunk]);
      continue;
    }
    if (chunk[1] === '/') {
      let matched = false;
      while (stack.length > 0) {
        const [startName, startChunk, parents] = stack.pop()!;
        if (startName === name) {
          parents.push(['b', startChunk], ...marked, ['b', chunk]);
          marked = parents;
          matched = true;
          break;
        }
        parents.push(['us', startChunk], ...marked);
        marked = parents;
      }
      if (!matched) marked.push(['ue', chunk]);
    } else {
      stack.push([name, chunk, marked]);
      marked = [];
    }
  }
  while (stack.length > 0) {
    const [, startChunk, parents] = stack.pop()!;
    parents.push(['us', startChunk], ...marked);
    marked = parents;
  }
  return marked;
}

/** A space after the last chunk, when it is text without one. */
function padLast(doc: DocChunk[]): void {
  const last = doc[doc.length - 1];
  if (typeof last === 'string' && !last.endsWith(' ')) doc[doc.length - 1] = `${last} `;
}

/** Move a trailing space outside of the closing tag about to follow. */
function trimLast(doc: DocChunk[]): void {
  const last = doc[doc.length - 1];
  if (typeof last === 'string' && last.endsWith(' ')) doc[doc.length - 1] = last.slice(0, -1);
}

/** merge_insert: each balanced run goes inside <ins>; unmatched tags are kept around it. */
function mergeInsert(insChunks: readonly string[], doc: DocChunk[]): void {
  const marked = markUnbalanced(insChunks);
  for (let i = 0; i < marked.length; ) {
    const kind = marked[i]![0];
    let j = i;
    while (j < marked.length && marked[j]![0] === kind) j++;
    const chunks = marked.slice(i, j).map(([, chunk]) => chunk);
    if (kind === 'b') {
      padLast(doc);
      doc.push('<ins>', ...chunks);
      trimLast(doc);
      doc.push('</ins> ');
    } else {
      doc.push(...chunks);
    }
    i = j;
  }
}

const isStartTag = (chunk: DocChunk): chunk is string => typeof chunk === 'string' && chunk.startsWith('<') && chunk[1] !== '/';

/**
 * cleanup_delete: each DEL_START…DEL_END run becomes <del>…</del>. Unmatched start tags leading
 * the run and unmatched end tags ending it are left out, except where the same tag follows
 * (precedes) the run: then it moves out of the deletion to balance that tag.
 */
function cleanupDelete(chunks: DocChunk[]): void {
  let startPos = 0;
  for (;;) {
    const delStart = chunks.indexOf(DEL_START, startPos);
    if (delStart < 0) return;
    const delEnd = chunks.indexOf(DEL_END, delStart + 1);
    const deleted = markUnbalanced(chunks.slice(delStart + 1, delEnd) as string[]);
    let unbalancedStart = 0;
    let shiftStartRight = 0;
    for (const [kind, chunk] of deleted) {
      if (kind !== 'us') break;
      unbalancedStart++;
      const name = tagName(chunk);
      for (let i = delEnd + 1; i < chunks.length; i++) {
        const next = chunks[i]!;
        if (!isStartTag(next)) break;
        const nextName = tagName(next);
        if (nextName === 'ins' || nextName !== name) break;
        shiftStartRight++;
      }
    }
    let unbalancedEnd = 0;
    let shiftEndLeft = 0;
    for (const [kind, chunk] of [...deleted].reverse()) {
      if (kind !== 'ue') break;
      unbalancedEnd++;
      const name = tagName(chunk);
      for (let i = delStart - 1; i >= 0; i--) {
        const previous = chunks[i]!;
        if (typeof previous !== 'string' || isStartTag(previous)) break;
        const previousName = tagName(previous);
        if (previousName === 'ins' || previousName === 'del' || previousName !== name) break;
        shiftEndLeft++;
      }
    }
    const replacement: DocChunk[] = [...chunks.slice(delStart + 1, delStart + shiftStartRight + 1)];
    const before = chunks.slice(0, delStart - shiftEndLeft);
    const head = [...before, ...replacement];
    padLast(head);
    head.push('<del>', ...chunks.slice(delStart + unbalancedStart + 1, delEnd - unbalancedEnd));
    trimLast(head);
    head.push('</del> ', ...chunks.slice(delEnd - shiftEndLeft, delEnd));
    const tail = chunks.slice(delEnd + shiftStartRight + 1);
    chunks.splice(0, chunks.length, ...head, ...tail);
    startPos = head.length;
  }
}

function containsBlock(el: Element): boolean {
  return BLOCK_TAGS.has(el.tag) || el.children.some(containsBlock);
}

const BLOCK_TAGS = new Set([
  'address', 'blockquote', 'center', 'dir', 'div', 'dl', 'fieldset', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'isindex',
  'menu', 'noframes', 'noscript', 'ol', 'p', 'pre', 'table', 'ul',
  'dd', 'dt', 'frameset', 'li', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
]);

/** _move_el_inside_block: wrap the contents of the block elements inside `el` in `tag` instead. */
function moveInsideBlock(el: Element, tag: string): void {
  if (!el.children.some(containsBlock)) {
    const wrapper = element(tag);
    wrapper.text = el.text;
    wrapper.children = el.children;
    el.text = '';
    el.children = [wrapper];
    return;
  }
  const children: Element[] = [];
  for (const child of el.children) {
    if (containsBlock(child)) {
      moveInsideBlock(child, tag);
      children.push(child);
      if (child.tail) {
        const tailWrapper = element(tag);
        tailWrapper.text = child.tail;
        child.tail = '';
        children.push(tailWrapper);
      }
    } else {
      // lxml moves an element's tail along with it: the tail ends up inside the wrapper.
      const wrapper = element(tag);
      wrapper.children = [child];
      children.push(wrapper);
    }
  }
  el.children = children;
  if (el.text) {
    const textWrapper = element(tag);
    textWrapper.text = el.text;
    el.text = '';
    el.children.unshift(textWrapper);
  }
}

/** lxml's drop_tag: the element goes, its text, children and tail stay in its place. */
function dropTag(parent: Element, index: number): void {
  const el = parent.children[index]!;
  const previous = parent.children[index - 1];
  if (previous) previous.tail += el.text;
  else parent.text += el.text;
  const last = el.children[el.children.length - 1];
  if (last) last.tail += el.tail;
  else if (previous) previous.tail += el.tail;
  else parent.text += el.tail;
  parent.children.splice(index, 1, ...el.children);
}

/** _fixup_ins_del_tags: <ins><p>word</p></ins> becomes <p><ins>word</ins></p> (ins and del in document order). */
function fixupInsDel(root: Element): void {
  const visit = (parent: Element) => {
    for (let i = 0; i < parent.children.length; i++) {
      const child = parent.children[i]!;
      if ((child.tag === 'ins' || child.tag === 'del') && containsBlock(child)) {
        moveInsideBlock(child, child.tag);
        dropTag(parent, i);
        i--;
        continue;
      }
      visit(child);
    }
  };
  visit(root);
}

/** lxml.html.diff.htmldiff. */
export function htmldiff(oldHtml: string, newHtml: string): string {
  const oldTokens = tokenize(oldHtml);
  const newTokens = tokenize(newHtml);
  const doc: DocChunk[] = [];
  for (const [op, i1, i2, j1, j2] of insensitiveOpcodes(
    oldTokens.map((t) => t.text),
    newTokens.map((t) => t.text),
  )) {
    if (op === 'equal') {
      doc.push(...expandTokens(newTokens.slice(j1, j2), true));
      continue;
    }
    if (op === 'insert' || op === 'replace') mergeInsert([...expandTokens(newTokens.slice(j1, j2))], doc);
    if (op === 'delete' || op === 'replace') doc.push(DEL_START, ...expandTokens(oldTokens.slice(i1, i2)), DEL_END);
  }
  cleanupDelete(doc);
  const root = parseFragment((doc as string[]).join('').trim());
  fixupInsDel(root);
  return serializeInner(root);
}

/** zerver/lib/html_diff.py highlight_html_differences. */
export function highlightHtmlDifferences(oldHtml: string, newHtml: string): string {
  const root = parseFragment(htmldiff(oldHtml, newHtml));
  const rename = (el: Element) => {
    if (el.tag === 'del' || el.tag === 'ins') {
      el.attrs = [['class', el.tag === 'del' ? 'highlight_text_deleted' : 'highlight_text_inserted']];
      el.tag = 'span';
    }
    el.children.forEach(rename);
  };
  rename(root);
  return serialize(root);
}
