// A stored message in the API's Message shape (spec "Message" table, reference §5.1). The shape
// is the same for every viewer (API emails are one per user); callers add the viewer's `flags`.
import { avatarUrl, type Engine } from '../core.ts';
import { topicLinks } from '../markdown/index.ts';
import type { Message, MessageFlag } from '../../../types/chat/message.ts';
import type { UserRecord } from '../state.ts';
import { flagNames, FLAG_BITS, type StoredMessage } from './store.ts';

export interface FormatOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export const DEFAULT_FORMAT: FormatOptions = { applyMarkdown: true, clientGravatar: true, allowEmptyTopicName: false };

// avatar_url needs an md5 of the sender's email; senders repeat, so the URL is cached per user
// record and recomputed whenever what it depends on changes.
const avatarCache = new WeakMap<UserRecord, { key: string; url: string | null }>();

function cachedAvatarUrl(engine: Engine, user: UserRecord, clientGravatar: boolean): string | null {
  const key = `${clientGravatar}|${user.avatar_source}|${user.avatar_version}|${user.delivery_email}|${user.email_address_visibility}`;
  let entry = avatarCache.get(user);
  if (!entry || entry.key !== key) {
    entry = { key, url: avatarUrl(engine, user, { clientGravatar }) };
    avatarCache.set(user, entry);
  }
  return entry.url;
}

export function displayTopic(engine: Engine, message: StoredMessage, allowEmptyTopicName: boolean): string {
  if (message.streamId !== null && message.topic === '' && !allowEmptyTopicName) {
    return engine.state.realm.realm_empty_topic_display_name;
  }
  return message.topic;
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
    topic_links: message.streamId === null ? [] : topicLinks(message.topic, engine.state.realm.linkifiers),
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
  if (message.lastEditTimestamp !== null) out.last_edit_timestamp = message.lastEditTimestamp;
  return out;
}

function displayRecipient(engine: Engine, message: StoredMessage): Message['display_recipient'] {
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
