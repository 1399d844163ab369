// Reading messages: GET /messages (anchor + window over a narrow), GET /messages/{id} and
// GET /messages/matches_narrow (zerver/views/message_fetch.py, zerver/lib/narrow.py).
import { ChatError } from '../errors.ts';
import type { Engine } from '../core.ts';
import { compileNarrow, highlightHtml, type CompiledNarrow } from '../narrow/compile.ts';
import type { NarrowTerm } from '../narrow/parse.ts';
import type { UserRecord } from '../state.ts';
import { isConversationMuted } from '../channels/user-topics.ts';
import { viewerFlagBits } from './access.ts';
import { apiFlags, escapedTopic, formatMessage, type FormatOptions } from './format.ts';
import { MessageJsonWriter } from '../fast/format-json.ts';
import { FLAG_BITS, getMessage, lowerBound, userFlagBits, type StoredMessage } from './store.ts';
import type { CheckMessagesMatchNarrowResponse } from '../../../schemas/generated/types/chat/responses/check-messages-match-narrow.ts';
import type { GetMessageResponse } from '../../../schemas/generated/types/chat/responses/get-message.ts';

export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
export const MAX_MESSAGES_PER_FETCH = 5000;

export interface GetMessagesParams extends FormatOptions {
  anchor: string | undefined;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: NarrowTerm[];
  messageIds: number[] | undefined;
  useFirstUnreadAnchor: boolean;
}

export type Anchor = number | 'first_unread';

const tooMany = () => ChatError.badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);

/** What Python's int() accepts: surrounding whitespace, a sign, digits with single underscores. */
const PYTHON_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/** Zulip's parse_anchor_value. */
export function parseAnchor(raw: string | undefined, useFirstUnread: boolean): Anchor {
  if (useFirstUnread) return 'first_unread';
  if (raw === undefined) throw ChatError.badRequest("Missing 'anchor' argument.");
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'oldest') return 0;
  if (raw === 'first_unread') return 'first_unread';
  if (!PYTHON_INT.test(raw)) throw ChatError.badRequest('Invalid anchor');
  const n = Number(raw.trim().replace(/_/g, ''));
  if (n < 0) return 0;
  return Math.min(n, LARGER_THAN_MAX_MESSAGE_ID);
}

export interface Hit {
  message: StoredMessage;
  bits: number;
}

/** Walk a sorted id list from `start` in direction `step`, yielding readable, matching messages. */
function* walk(engine: Engine, viewer: UserRecord | undefined, narrow: CompiledNarrow, start: number, step: 1 | -1): Generator<Hit> {
  const store = engine.state.messages;
  const ids = narrow.candidates;
  const length = ids ? ids.length : store.messages.length;
  for (let i = start; i >= 0 && i < length; i += step) {
    const message = ids ? getMessage(store, ids[i]!) : store.messages[i];
    if (!message) continue;
    // A UserMessage row counts, historical or not (a starred message from before one subscribed
    // is among one's starred messages); without one, only narrows that include history see it.
    let bits = viewer ? userFlagBits(message, viewer.id) : undefined;
    if (bits === undefined) {
      if (!narrow.includeHistory) continue;
      bits = viewerFlagBits(engine, viewer, message);
      if (bits === undefined) continue;
    }
    if (narrow.test(message, bits)) yield { message, bits };
  }
}

/** Index of the first candidate with id >= `id`. */
function positionOf(engine: Engine, narrow: CompiledNarrow, id: number): number {
  if (narrow.candidates) return lowerBound(narrow.candidates, id);
  const messages = engine.state.messages.messages;
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (messages[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Zulip's find_first_unread_anchor: the first unread message in the narrow, skipping muted
 * conversations (exclude_muting_conditions): a narrow that names a channel skips only the topics
 * muted in it, not the channel's own muting.
 */
function firstUnread(engine: Engine, viewer: UserRecord | undefined, narrow: CompiledNarrow): number {
  if (!viewer) return LARGER_THAN_MAX_MESSAGE_ID;
  const insideChannel = narrow.terms.some((t) => (t.operator === 'channel' || t.operator === 'stream') && !t.negated);
  const muted = (m: StoredMessage) => m.streamId !== null && isConversationMuted(engine, viewer.id, m.streamId, m.topic, { insideChannel });
  for (const hit of walk(engine, viewer, narrow, 0, 1)) {
    if ((hit.bits & FLAG_BITS.read) === 0 && !muted(hit.message)) return hit.message.id;
  }
  return LARGER_THAN_MAX_MESSAGE_ID;
}

function take(iterator: Iterator<Hit>, n: number): Hit[] {
  const out: Hit[] = [];
  while (out.length < n) {
    const next = iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

/** The hits as a JSON array of message objects (see ../fast/format-json.ts), oldest first. */
function messagesJson(engine: Engine, hits: readonly Hit[], narrow: CompiledNarrow, options: FormatOptions): string {
  const writer = new MessageJsonWriter(engine, options, narrow.isSearch ? narrow.searchWords : null);
  let text = '[';
  for (let i = 0; i < hits.length; i++) {
    if (i > 0) text += ',';
    text += writer.write(hits[i]!.message, hits[i]!.bits);
  }
  return `${text}]`;
}

/**
 * GET /messages: the answer's fields (GetMessagesResponse) as the members of a JSON object, without
 * its braces (the envelope goes around them), in the order the object had: `messages`, `anchor`
 * (not for message_ids), the found_* flags and history_limited.
 */
export function getMessagesJson(engine: Engine, viewer: UserRecord | undefined, params: GetMessagesParams): string {
  if (params.messageIds !== undefined) {
    // Zulip tests truthiness: num_before=0 or use_first_unread_anchor=false may accompany
    // message_ids, and include_anchor is not checked at all (it is forced to false).
    if (params.anchor !== undefined || params.numBefore || params.numAfter || params.useFirstUnreadAnchor) {
      const parameters = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
      throw ChatError.badRequest(`Unsupported parameter combination: ${parameters}`, { parameters });
    }
    if (params.messageIds.length > MAX_MESSAGES_PER_FETCH) throw tooMany();
    const narrow = compileNarrow(engine, viewer, params.narrow);
    const hits: Hit[] = [];
    for (const id of [...new Set(params.messageIds)].sort((a, b) => a - b)) {
      const message = getMessage(engine.state.messages, id);
      if (!message) continue;
      const bits = viewerFlagBits(engine, viewer, message);
      if (bits === undefined || !narrow.test(message, bits)) continue;
      hits.push({ message, bits });
    }
    return `"messages":${messagesJson(engine, hits, narrow, params)},"found_anchor":false,"found_oldest":false,"found_newest":false,"history_limited":false`;
  }

  const anchor = parseAnchor(params.anchor, params.useFirstUnreadAnchor);
  if (params.numBefore + params.numAfter > MAX_MESSAGES_PER_FETCH) throw tooMany();
  const window = fetchWindow(engine, viewer, { ...params, anchor });
  return (
    `"messages":${messagesJson(engine, window.hits, window.narrow, params)},"anchor":${window.anchor},"found_anchor":${window.foundAnchor}` +
    `,"found_oldest":${window.foundOldest},"found_newest":${window.foundNewest},"history_limited":false`
  );
}

export interface WindowParams {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: NarrowTerm[];
}

export interface MessageWindow {
  /** The messages of the window, oldest first, with the viewer's flag bits. */
  hits: Hit[];
  narrow: CompiledNarrow;
  /** The anchor as resolved (first_unread becomes an ID). */
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/**
 * Zulip's fetch_messages: up to `numBefore` matching messages before the anchor, the anchor itself
 * (when it matches and is included) and up to `numAfter` after it. GET /messages renders the
 * window; POST /messages/flags/narrow changes flags on it.
 */
export function fetchWindow(engine: Engine, viewer: UserRecord | undefined, params: WindowParams): MessageWindow {
  const { numBefore, numAfter, includeAnchor } = params;
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) {
    throw ChatError.badRequest('The anchor can only be excluded at an end of the range');
  }
  const narrow = compileNarrow(engine, viewer, params.narrow);
  const anchor = params.anchor === 'first_unread' ? firstUnread(engine, viewer, narrow) : params.anchor;
  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;

  const pos = positionOf(engine, narrow, anchor);
  const before = take(walk(engine, viewer, narrow, pos - 1, -1), numBefore).reverse();
  let anchorHits: Hit[] = [];
  let after: Hit[] = [];
  if (!anchoredToRight) {
    const forward = walk(engine, viewer, narrow, pos, 1);
    const first = take(forward, 1);
    if (first[0] && first[0].message.id === anchor) {
      if (includeAnchor) anchorHits = first;
      after = take(forward, numAfter);
    } else {
      after = [...first, ...take(forward, Math.max(0, numAfter - 1))].slice(0, numAfter);
    }
  }
  return {
    hits: [...before, ...anchorHits, ...after],
    narrow,
    anchor,
    foundAnchor: anchorHits.length === 1,
    foundOldest: anchoredToLeft || before.length < numBefore,
    foundNewest: anchoredToRight || after.length < numAfter,
  };
}

export function accessMessage(engine: Engine, viewer: UserRecord | undefined, id: number): { message: StoredMessage; bits: number } {
  const message = getMessage(engine.state.messages, id);
  const bits = message ? viewerFlagBits(engine, viewer, message) : undefined;
  if (!message || bits === undefined) throw ChatError.badRequest('Invalid message(s)');
  return { message, bits };
}

export function getSingleMessage(
  engine: Engine,
  viewer: UserRecord | undefined,
  id: number,
  options: Omit<FormatOptions, 'clientGravatar'>,
): GetMessageResponse {
  const { message, bits } = accessMessage(engine, viewer, id);
  const formatted = formatMessage(engine, message, { ...options, clientGravatar: true });
  formatted.flags = apiFlags(bits);
  return { raw_content: message.content, message: formatted };
}

/** GET /messages/matches_narrow: only messages the viewer received are considered. */
export function matchesNarrow(engine: Engine, viewer: UserRecord, msgIds: number[], terms: NarrowTerm[]): CheckMessagesMatchNarrowResponse {
  const narrow = compileNarrow(engine, viewer, terms);
  const out: Record<string, { match_content: string; match_subject: string }> = {};
  for (const id of [...new Set(msgIds)].sort((a, b) => a - b)) {
    const message = getMessage(engine.state.messages, id);
    if (!message) continue;
    // Only messages the viewer has a UserMessage row for (historical rows included).
    const bits = userFlagBits(message, viewer.id);
    if (bits === undefined || !narrow.test(message, bits)) continue;
    const subject = escapedTopic(message);
    out[String(id)] = {
      match_content: narrow.isSearch ? highlightHtml(message.renderedContent, narrow.searchWords, engine.caches.highlightPatterns) : message.renderedContent,
      match_subject: narrow.isSearch ? highlightHtml(subject, narrow.searchWords, engine.caches.highlightPatterns) : subject,
    };
  }
  return { messages: out };
}
