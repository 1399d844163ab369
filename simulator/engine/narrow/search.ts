// Full-text search for `search` narrows. Zulip uses PostgreSQL full-text search (whole words,
// case-insensitive, over the rendered text and the topic); the simulator matches whole words the
// same way, without stemming. A word → message-ids index is derived from the store on first use
// and extended as messages arrive; it is a cache, not state (kept out of snapshots).
import type { Engine } from '../core.ts';
import { indexOfMessage, lowerBound, type MessageStore, type StoredMessage } from '../messages/store.ts';

const WORD = /[\p{L}\p{N}_]+/gu;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The search keywords of an operand: its words, lower-cased. */
export function searchKeywords(operand: string): string[] {
  return [...new Set(words(operand))];
}

export function messageWords(message: StoredMessage): Set<string> {
  return new Set([...words(plainText(message.renderedContent)), ...words(message.topic)]);
}

export interface WordIndex {
  /** The array indexed; deletions replace the store's array, which discards this index. */
  messages: readonly StoredMessage[];
  indexed: number;
  ids: Map<string, number[]>;
}

function wordIndex(engine: Engine, store: MessageStore): WordIndex {
  const indexes = engine.caches.wordIndexes;
  let index = indexes.get(store);
  if (!index || index.messages !== store.messages) {
    indexes.set(store, (index = { messages: store.messages, indexed: 0, ids: new Map() }));
  }
  for (; index.indexed < store.messages.length; index.indexed++) {
    const message = store.messages[index.indexed]!;
    for (const w of messageWords(message)) {
      const list = index.ids.get(w);
      if (list) list.push(message.id);
      else index.ids.set(w, [message.id]);
    }
  }
  return index;
}

/**
 * Keep the word index right after a message's content or topic changed in place: `before` is
 * messageWords() as it was. Without an index yet (or for a message not indexed yet) there is
 * nothing to do: the index reads messages as they are when it gets to them.
 */
export function reindexMessageWords(engine: Engine, store: MessageStore, message: StoredMessage, before: ReadonlySet<string>): void {
  const index = engine.caches.wordIndexes.get(store);
  if (!index || index.messages !== store.messages) return;
  const position = indexOfMessage(store, message.id);
  if (position < 0 || position >= index.indexed) return;
  const after = messageWords(message);
  for (const w of before) {
    if (after.has(w)) continue;
    const list = index.ids.get(w);
    if (!list) continue;
    const i = lowerBound(list, message.id);
    if (list[i] === message.id) list.splice(i, 1);
    if (list.length === 0) index.ids.delete(w);
  }
  for (const w of after) {
    if (before.has(w)) continue;
    let list = index.ids.get(w);
    if (!list) index.ids.set(w, (list = []));
    list.splice(lowerBound(list, message.id), 0, message.id);
  }
}

/**
 * The sorted id lists of each keyword, rarest first. A message matches when it is in all of them;
 * callers scan the first (shortest) and test the rest by binary search, so a window of results
 * costs O(window × log n) even when every message contains the words.
 */
export function keywordLists(engine: Engine, store: MessageStore, keywords: readonly string[]): number[][] {
  const index = wordIndex(engine, store);
  return keywords.map((k) => index.ids.get(k) ?? []).sort((a, b) => a.length - b.length);
}

/** Membership in a sorted id list. */
export function hasId(ids: readonly number[], id: number): boolean {
  return ids[lowerBound(ids, id)] === id;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A search highlights every message of its result window (content and topic), with the same
// keywords: compile their pattern once, not twice per message (the engine keeps them).
function highlightPattern(keywords: readonly string[], highlightPatterns: Map<string, RegExp>): RegExp {
  const key = keywords.join('\u0000');
  let re = highlightPatterns.get(key);
  if (!re) {
    if (highlightPatterns.size >= 256) highlightPatterns.clear();
    re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${keywords.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
    highlightPatterns.set(key, re);
  }
  return re;
}

/** Wrap whole-word keyword matches in text (never inside tags) in `<span class="highlight">`. */
export function highlightHtml(html: string, keywords: readonly string[], patterns: Map<string, RegExp> = new Map()): string {
  if (keywords.length === 0) return html;
  const re = highlightPattern(keywords, patterns);
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : part.replace(re, (m) => `<span class="highlight">${m}</span>`)))
    .join('');
}
