// A user's unread messages as Zulip reports them (zerver/lib/message.py get_raw_unread_data,
// aggregate_unread_data, format_unread_message_details): the `unread_msgs` of POST /register and
// the `message_details` of a mark-as-unread event. Both read the same rows the flags endpoints
// change, through the same muting rules as narrows (user-topics.ts), so they cannot disagree.
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { isConversationMuted } from '../channels/user-topics.ts';
import { FLAG_BITS, getMessage, topicKey, userFlagBits, type StoredMessage } from './store.ts';

/** Zulip's MAX_UNREAD_MESSAGES: the newest unread rows considered. */
export const MAX_UNREAD_MESSAGES = 50_000;

const WILDCARD_BITS = FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/** One unread row, classified as get_raw_unread_data classifies it. */
interface UnreadRow {
  message: StoredMessage;
  /** `stream` (with whether it counts), `pm` (1:1 or self, by the other participant), `huddle`. */
  kind: 'stream' | 'pm' | 'huddle';
  /** Channel messages: not muted for the user (Zulip's unmuted_stream_msgs). */
  unmuted: boolean;
  otherUserId: number;
  mentioned: boolean;
}

/** An unread channel message of a channel the user unsubscribed from never counts (get_inactive_recipient_ids). */
function inLeftChannel(engine: Engine, user: UserRecord, message: StoredMessage): boolean {
  return message.streamId !== null && engine.state.subscriptions.get(message.streamId)?.get(user.id)?.active === false;
}

function classify(engine: Engine, user: UserRecord, message: StoredMessage, bits: number): UnreadRow {
  if (message.streamId !== null) {
    const unmuted = !isConversationMuted(engine, user.id, message.streamId, message.topic);
    // Wildcard mentions in muted conversations are no mentions; a personal mention always is.
    const mentioned = (bits & FLAG_BITS.mentioned) !== 0 || ((bits & WILDCARD_BITS) !== 0 && unmuted);
    return { message, kind: 'stream', unmuted, otherUserId: 0, mentioned };
  }
  const participants = message.dmUserIds ?? [];
  const mentioned = (bits & (FLAG_BITS.mentioned | WILDCARD_BITS)) !== 0;
  if (participants.length > 2) return { message, kind: 'huddle', unmuted: true, otherUserId: 0, mentioned };
  const otherUserId = participants.find((id) => id !== user.id) ?? user.id;
  return { message, kind: 'pm', unmuted: true, otherUserId, mentioned };
}

/** The newest unread rows (at most MAX_UNREAD_MESSAGES), oldest first, and whether the cap cut some off. */
function unreadRows(engine: Engine, user: UserRecord): { rows: UnreadRow[]; capped: boolean } {
  const store = engine.state.messages;
  const ids = store.byUser.get(user.id) ?? [];
  const rows: UnreadRow[] = [];
  for (let i = ids.length - 1; i >= 0 && rows.length < MAX_UNREAD_MESSAGES; i--) {
    const message = getMessage(store, ids[i]!);
    if (!message) continue;
    const bits = userFlagBits(message, user.id) ?? FLAG_BITS.read;
    if ((bits & FLAG_BITS.read) !== 0 || inLeftChannel(engine, user, message)) continue;
    rows.push(classify(engine, user, message, bits));
  }
  // Zulip's old_unreads_missing: exactly when the cap was reached.
  return { rows: rows.reverse(), capped: rows.length === MAX_UNREAD_MESSAGES };
}

/** Python's sort of strings: by code point (JS compares UTF-16 units, which differs past U+FFFF). */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
  }
  return x.length - y.length;
}

export interface UnreadMsgs {
  pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  count: number;
  old_unreads_missing: boolean;
}

/**
 * The `unread_msgs` object of POST /register (zerver/lib/message.py:aggregate_unread_data): DMs by the other participant,
 * group DMs by all participants, channel messages by channel and case-insensitive topic (the first
 * spelling kept); muted conversations are listed but not counted. Clients without the
 * empty_topic_name capability see the empty topic under the realm's name for it, as
 * aggregate_unread_data renames it before grouping.
 */
export function unreadMsgs(engine: Engine, user: UserRecord, options: { allowEmptyTopicName?: boolean } = {}): UnreadMsgs {
  const fallback = options.allowEmptyTopicName === false ? engine.state.realm.realm_empty_topic_display_name : null;
  const { rows, capped } = unreadRows(engine, user);
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (const row of rows) {
    const m = row.message;
    if (row.kind === 'stream') {
      const topic = fallback !== null && m.topic === '' ? fallback : m.topic;
      const key = `${m.streamId}\u0000${topicKey(topic)}`;
      let group = streams.get(key);
      if (!group) streams.set(key, (group = { stream_id: m.streamId!, topic, unread_message_ids: [] }));
      group.unread_message_ids.push(m.id);
      if (row.unmuted) count++;
    } else if (row.kind === 'pm') {
      const list = pms.get(row.otherUserId);
      if (list) list.push(m.id);
      else pms.set(row.otherUserId, [m.id]);
      count++;
    } else {
      const key = (m.dmUserIds ?? []).join(',');
      const list = huddles.get(key);
      if (list) list.push(m.id);
      else huddles.set(key, [m.id]);
      count++;
    }
    if (row.mentioned) mentions.push(m.id);
  }
  return {
    pms: [...pms.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()].sort((a, b) => a.stream_id - b.stream_id || compareCodePoints(topicKey(a.topic), topicKey(b.topic))),
    huddles: [...huddles.entries()]
      .sort((a, b) => compareCodePoints(a[0], b[0]))
      .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    count,
    old_unreads_missing: capped,
  };
}

export type MessageDetails =
  | { type: 'private'; user_ids: number[]; mentioned?: true }
  | { type: 'stream'; stream_id: number; topic: string; unmuted_stream_msg: boolean; mentioned?: true };

/**
 * The `message_details` of a mark-as-unread event: for each of `ids` that is now unread (and not
 * in a channel the user left), what a client needs to put it back into its unread counts.
 */
export function unreadMessageDetails(engine: Engine, user: UserRecord, ids: readonly number[]): Record<string, MessageDetails> {
  const rows: UnreadRow[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const message = getMessage(engine.state.messages, id);
    const bits = message ? userFlagBits(message, user.id) : undefined;
    if (!message || bits === undefined || (bits & FLAG_BITS.read) !== 0 || inLeftChannel(engine, user, message)) continue;
    rows.push(classify(engine, user, message, bits));
  }
  const out: Record<string, MessageDetails> = {};
  // Zulip lists 1:1 DMs, then channel messages, then group DMs.
  for (const kind of ['pm', 'stream', 'huddle'] as const) {
    for (const row of rows) {
      if (row.kind !== kind) continue;
      const m = row.message;
      let details: MessageDetails;
      if (kind === 'stream') {
        details = { type: 'stream', stream_id: m.streamId!, topic: m.topic, unmuted_stream_msg: row.unmuted };
      } else if (kind === 'pm') {
        details = { type: 'private', user_ids: row.otherUserId === user.id ? [] : [row.otherUserId] };
      } else {
        details = { type: 'private', user_ids: (m.dmUserIds ?? []).filter((id) => id !== user.id) };
      }
      if (row.mentioned) details.mentioned = true;
      out[String(m.id)] = details;
    }
  }
  return out;
}
