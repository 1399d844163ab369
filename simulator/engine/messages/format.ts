// A stored message in the API's Message shape (zerver/lib/message_cache.py:MessageDict). The shape
// is the same for every viewer (API emails are one per user); callers add the viewer's `flags`.
import { avatarUrl, type Engine } from '../core.ts';
import { escapeHtml, topicLinks } from '../markdown/index.ts';
import type { Message, MessageFlag } from '../../../schemas/generated/types/chat/message.ts';
import type { EditHistoryVisibility, UserRecord } from '../state.ts';
import { flagNames, FLAG_BITS, type EditHistoryEntry, type StoredMessage } from './store.ts';

/** The prefix that marks a topic resolved (Zulip's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

export interface FormatOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export const DEFAULT_FORMAT: FormatOptions = { applyMarkdown: true, clientGravatar: true, allowEmptyTopicName: false };

// avatar_url needs an md5 of the sender's email; senders repeat, so the URL is cached per user
// record with what it depends on, and recomputed whenever any of that changes. (Compared field by
// field: a key string built per message cost more than the rest of the lookup.)
export interface AvatarEntry {
  clientGravatar: boolean;
  source: UserRecord['avatar_source'];
  version: number;
  email: string;
  visibility: UserRecord['email_address_visibility'];
  url: string | null;
}
export function cachedAvatarUrl(engine: Engine, user: UserRecord, clientGravatar: boolean): string | null {
  const entry = engine.caches.avatars.get(user);
  if (
    entry &&
    entry.clientGravatar === clientGravatar &&
    entry.source === user.avatar_source &&
    entry.version === user.avatar_version &&
    entry.email === user.delivery_email &&
    entry.visibility === user.email_address_visibility
  ) {
    return entry.url;
  }
  const url = avatarUrl(engine, user, { clientGravatar });
  engine.caches.avatars.set(user, {
    clientGravatar,
    source: user.avatar_source,
    version: user.avatar_version,
    email: user.delivery_email,
    visibility: user.email_address_visibility,
    url,
  });
  return url;
}

export function displayTopic(engine: Engine, message: StoredMessage, allowEmptyTopicName: boolean): string {
  if (message.streamId !== null && message.topic === '' && !allowEmptyTopicName) {
    return engine.state.realm.realm_empty_topic_display_name;
  }
  return message.topic;
}

/**
 * match_subject's base: Zulip's SQL escape_html() of the stored topic (so `&`, `<`, `>`, `"` and
 * `'` are all escaped, and the empty topic stays empty: only `subject` gets the display name).
 */
export function escapedTopic(message: StoredMessage): string {
  return escapeHtml(message.topic);
}

/** The `flags` list Zulip returns: stored flags plus the deprecated `wildcard_mentioned`. */
export function apiFlags(bits: number): MessageFlag[] {
  const names = flagNames(bits) as MessageFlag[];
  if ((bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0) {
    names.push('wildcard_mentioned');
  }
  return names;
}

export function formatMessage(
  engine: Engine,
  message: StoredMessage,
  options: FormatOptions,
): Message {
  const state = engine.state;
  const sender = state.users.get(message.senderId)!;
  const out: Message = {
    id: message.id,
    sender_id: sender.id,
    content: options.applyMarkdown ? message.renderedContent : message.content,
    recipient_id: message.recipientId,
    timestamp: message.timestamp,
    client: message.client,
    subject: displayTopic(engine, message, options.allowEmptyTopicName),
    topic_links: message.streamId === null ? [] : topicLinks(message.topic, engine.state.realm.linkifiers, engine.caches.linkifiers),
    is_me_message: message.isMeMessage,
    reactions: (message.reactions ?? []).map((r) => ({
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      user_id: r.userId,
    })),
    submessages: [],
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    sender_realm_str: state.realm.string_id,
    display_recipient: displayRecipient(engine, message),
    type: message.streamId === null ? 'private' : 'stream',
    avatar_url: cachedAvatarUrl(engine, sender, options.clientGravatar),
    content_type: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
  };
  if (message.streamId !== null) out.stream_id = message.streamId;
  if (message.editHistory !== null) {
    Object.assign(out, editFields(message.editHistory, engine.state.realm.message_edit_history_visibility_policy, engine.state.realm.max_topic_length));
  }
  return out;
}

/**
 * Zulip's topic_resolve_toggled: was this topic change only adding or removing the "✔ " prefix?
 * (A resolved name may have been cut to the topic length, with "..." at its end.)
 */
export function topicResolveToggled(topic: string, prevTopic: string, maxTopicLength: number): boolean {
  const prefix = RESOLVED_TOPIC_PREFIX;
  if (prevTopic.startsWith(prefix) && !topic.startsWith(prefix)) return prevTopic.slice(prefix.length) === topic;
  if (topic.startsWith(prefix) && !prevTopic.startsWith(prefix)) {
    if ([...prevTopic].length <= maxTopicLength - prefix.length) return topic.slice(prefix.length) === prevTopic;
    if (topic.endsWith('...')) return prevTopic.startsWith(topic.slice(prefix.length, -3));
  }
  return false;
}

/**
 * What edits show in a message object (messages_for_ids): last_edit_timestamp counts content
 * edits only, last_moved_timestamp real moves (not resolving), and edit_history is the stored
 * list (newest first) as the realm's visibility policy allows: nothing for "none"; for "moves",
 * content-only entries dropped and the content keys of mixed ones.
 */
export function editFields(history: readonly EditHistoryEntry[], policy: EditHistoryVisibility, maxTopicLength: number): Partial<Message> {
  let lastEdit = 0;
  let lastMove = 0;
  for (const entry of history) {
    if (entry.prev_stream !== undefined) lastMove = Math.max(lastMove, entry.timestamp);
    else if (entry.prev_topic !== undefined && !topicResolveToggled(entry.topic ?? '', entry.prev_topic, maxTopicLength)) {
      lastMove = Math.max(lastMove, entry.timestamp);
    }
    if (entry.prev_content !== undefined) lastEdit = Math.max(lastEdit, entry.timestamp);
  }
  const out: Partial<Message> = {};
  if (lastEdit !== 0) out.last_edit_timestamp = lastEdit;
  if (lastMove !== 0) out.last_moved_timestamp = lastMove;
  if (policy !== 'none') out.edit_history = visibleEditHistory(policy, history.map(apiEditEntry));
  return out;
}

/**
 * A stored edit as message objects show it: the rendering version is kept for the server's own
 * use and left out of the API since feature level 284 (zulip.yaml MessagesBase.edit_history).
 */
function apiEditEntry(entry: EditHistoryEntry): EditHistoryEntry {
  const { prev_rendered_content_version: _version, ...shown } = entry;
  return shown;
}

/** visible_edit_history_for_message, for stored or formatted entries. */
export function visibleEditHistory<T extends { prev_content?: string; prev_topic?: string }>(policy: EditHistoryVisibility, entries: T[]): T[] {
  if (policy === 'all') return entries;
  const out: T[] = [];
  for (const entry of entries) {
    if (entry.prev_content !== undefined) {
      if (entry.prev_topic === undefined) continue;
      const stripped = entry as Record<string, unknown>;
      delete stripped.prev_content;
      delete stripped.prev_rendered_content;
      delete stripped.content_html_diff;
    }
    out.push(entry);
  }
  return out;
}

export function displayRecipient(engine: Engine, message: StoredMessage): Message['display_recipient'] {
  if (message.streamId !== null) return engine.state.streams.get(message.streamId)?.name ?? '';
  const users = (message.dmUserIds ?? []).map((id) => {
    const user = engine.state.users.get(id)!;
    return { id: user.id, email: user.email, full_name: user.full_name, is_mirror_dummy: false };
  });
  // Group DMs list participants by id; a 1:1 DM adds the sender to the recipient in email order
  // (Zulip's MessageDict.hydrate_recipient_info compares the two emails).
  if (users.length === 2) users.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  return users as Message['display_recipient'];
}
