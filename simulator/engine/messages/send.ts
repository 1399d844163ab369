// Sending a message (POST /messages; zerver/views/message_send.py + zerver/actions/message_send.py):
// check* resolves and validates the addressee, topic and content; do* renders, stores the message
// with a UserMessage row per recipient and returns the `message` events.
import { alertedUserIds } from '../users/alert-words.ts';
import { claimAttachments, linkedUploadPaths } from '../integrations/attachments.ts';
import { ChatError } from '../errors.ts';
import { isUserInGroupSetting } from '../core.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import {
  commit,
  getStreamById,
  getStreamByName,
  getUser,
  getUserByApiEmail,
  isGuest,
  isSubscribed,
  notificationBot,
  nowSeconds,
  subscribersOf,
  type Engine,
} from '../core.ts';
import { channelLinkSyntax } from '../markdown/hash.ts';
import { isMeMessage, renderMarkdown, type RenderResult } from '../markdown/index.ts';
import { sortedDistinct } from '../fast/id-lists.ts';
import { usersWhoMuted } from '../users/muted-users.ts';
import { nextId, type StreamRecord, type UserRecord } from '../state.ts';
import { recordOutgoingWebhooks } from '../integrations/outgoing-webhooks.ts';
import { codePointLength, unprintablePosition } from '../text.ts';
import { messageRenderContext } from './context.ts';
import { appendMessage, dmKey, getMessage, FLAG_BITS, FLAG_SPACE, topicKey, type StoredMessage } from './store.ts';

export interface SendParams {
  type: string;
  /** Raw `to` as sent (a name, an id, JSON, or comma-separated emails). */
  to: string | undefined;
  topic: string | undefined;
  content: string;
  client: string;
  readBySender?: boolean | undefined;
  queueId?: string | undefined;
  localId?: string | undefined;
  /** Fixture seeding only: the message's own timestamp instead of the clock. */
  timestamp?: number | undefined;
  /** `forged`: "yes"/"true" asks to forge the sender, which only API super users may do. */
  forged?: string | undefined;
  /** `sender`: only mirroring clients may name another sender. */
  mirrorSender?: string | undefined;
  /** `widget_content`: JSON describing a widget. */
  widgetContent?: string | undefined;
}

export type Addressee =
  | { kind: 'stream'; stream: StreamRecord; topic: string }
  | { kind: 'direct'; users: UserRecord[] };

export interface CheckedSend {
  sender: UserRecord;
  addressee: Addressee;
  content: string;
  client: string;
  readBySender: boolean;
  queueId: string | undefined;
  localId: string | undefined;
  timestamp: number;
  /**
   * Whose channel access decides which `#**channel**` links render, when not the sender's:
   * Zulip's acting_user, e.g. the administrator whose subscribe action made Notification Bot
   * write a DM naming a private channel the bot itself cannot read.
   */
  actingUser?: UserRecord;
  /**
   * Recipients whose copy starts out read (Zulip's mark_as_read_user_ids and
   * limit_unread_user_ids): Notification Bot's notices are read for the user who caused them.
   */
  readUserIds?: ReadonlySet<number>;
}

const TRUNCATION_MARKER = '\n[message truncated]';

/** Clients whose messages start out read for their sender (zerver/models/clients.py). */
const READ_BY_SENDER_CLIENTS = new Set(
  ['website', 'ZulipAndroid', 'ZulipiOS', 'ZulipDesktop', 'ZulipMobile', 'ZulipElectron', 'ZulipTerminal', 'snipe', 'ios', 'android'].map((c) =>
    c.toLowerCase(),
  ),
);

export function defaultReadBySender(client: string): boolean {
  return READ_BY_SENDER_CLIENTS.has(client.toLowerCase());
}

/** The client name Zulip records: the `client` parameter, else the User-Agent's product name. */
export function clientName(clientParam: string | undefined, userAgent: string | undefined): string {
  if (clientParam !== undefined) return clientParam;
  if (!userAgent) return 'Unspecified';
  const m = /^([^/ ]*[^0-9/(]*)(\/[^/ ]*)?([ /].*)?$/.exec(userAgent);
  return m?.[1] ? m[1].trim() : 'Unspecified';
}

function truncate(text: string, max: number, marker: string): string {
  // No more UTF-16 units than the limit: no more code points either.
  if (text.length <= max) return text;
  const chars = [...text];
  if (chars.length <= max) return text;
  const markerChars = [...marker];
  return chars.slice(0, max - markerChars.length).join('') + marker;
}

const NEWLINE = 0x0a;

export function normalizeContent(engine: Engine, raw: string): string {
  if (raw.includes('\u0000')) throw ChatError.badRequest('Message must not contain null bytes');
  // Trailing whitespace goes (JavaScript's, which trimEnd removes, as /\s+$/u did), then leading
  // newlines; what is left ends in a character that is not whitespace, or is nothing at all.
  const trimmed = raw.trimEnd();
  let start = 0;
  while (trimmed.charCodeAt(start) === NEWLINE) start++;
  const content = start === 0 ? trimmed : trimmed.slice(start);
  if (content === '') throw ChatError.badRequest('Message must not be empty');
  return truncate(content, engine.state.realm.max_message_length, TRUNCATION_MARKER);
}

export function effectiveTopicsPolicy(engine: Engine, stream: StreamRecord): string {
  // `inherit` follows the realm's policy as it is now (PATCH /realm topics_policy).
  return stream.topics_policy === 'inherit' ? engine.state.realm.topics_policy : stream.topics_policy;
}

/** Zulip's truncate_topic: the realm's topic length, with "..." marking a cut. */
export function truncateTopic(engine: Engine, topic: string): string {
  return truncate(topic, engine.state.realm.max_topic_length, '...');
}

/** Zulip's truncate_topic after stripping, with the empty-topic spellings of older clients. */
export function normalizeTopic(engine: Engine, raw: string): string {
  let topic = raw.trim();
  // Clients that do not know the empty topic send its display name, or the legacy "(no topic)".
  if (topic === engine.state.realm.realm_empty_topic_display_name || topic === '(no topic)') topic = '';
  return truncateTopic(engine, topic);
}

/** MessagesNotAllowedInEmptyTopicError: the channel's topics_policy refuses the empty topic. */
export function emptyTopicNotAllowed(): ChatError {
  return ChatError.badRequest('Sending messages to the general chat is not allowed in this channel.');
}

/** TopicsNotAllowedError: the channel's topics_policy allows only the empty topic. */
export function onlyEmptyTopicAllowed(): ChatError {
  return ChatError.badRequest('Only the general chat topic is allowed in this channel.');
}

/** The channel's topics_policy (check_message, after the sender's access to the channel). */
export function checkTopicsPolicy(engine: Engine, stream: StreamRecord, topic: string): void {
  const policy = effectiveTopicsPolicy(engine, stream);
  if (topic === '' && policy === 'disable_empty_topic') throw emptyTopicNotAllowed();
  if (topic !== '' && policy === 'empty_topic_only') throw onlyEmptyTopicAllowed();
}

/** Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD: one warning per bot per minute. */
const BOT_OWNER_ALERT_WAIT_SECONDS = 60;

/**
 * send_pm_if_empty_stream: a bot that sends to a missing channel, or to one without
 * subscribers, gets its owner a direct message from Notification Bot. It is sent (and its events
 * recorded) even though the request itself then fails, as Zulip does outside a transaction.
 */
function notifyBotOwner(engine: Engine, sender: UserRecord, what: string): void {
  if (!sender.is_bot || sender.bot_owner_id === null) return;
  const owner = getUser(engine, sender.bot_owner_id);
  const bot = notificationBot(engine);
  if (!owner || !bot) return;
  const now = engine.deps.clock.now();
  const last = engine.state.botOwnerAlerts.get(sender.id);
  if (last !== undefined && now - last <= BOT_OWNER_ALERT_WAIT_SECONDS) return;
  commit(
    engine,
    doSendMessage(engine, {
      sender: bot,
      addressee: { kind: 'direct', users: [owner] },
      content: `Your bot \`${sender.delivery_email}\` ${what}`,
      client: 'Internal',
      readBySender: true,
      queueId: undefined,
      localId: undefined,
      timestamp: nowSeconds(engine),
    }),
  );
  engine.state.botOwnerAlerts.set(sender.id, now);
}

/** Zulip's extract_stream_indicator: a raw name, a JSON name or id, or a one-element JSON list. */
function streamIndicator(to: string): string | number {
  // Most clients send a bare name; only text that can be JSON is parsed (a failed parse is slow).
  if (!/^\s*(?:[[{"\d-]|true\s*$|false\s*$|null\s*$)/.test(to)) return to;
  let data: unknown;
  try {
    data = JSON.parse(to);
  } catch {
    return to;
  }
  if (Array.isArray(data)) {
    if (data.length !== 1) throw ChatError.badRequest('Expected exactly one channel');
    data = data[0];
  }
  if (typeof data === 'string') return data;
  if (typeof data === 'number' && Number.isInteger(data)) return data;
  throw ChatError.badRequest('Invalid data type for channel');
}

/** Django's escape(), which Zulip applies to the channel name in this error. */
function djangoEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

function checkChannelName(name: string): string {
  const stripped = name.trim();
  if (stripped === '') throw ChatError.badRequest("Channel name can't be empty.");
  if (stripped.length > 60 && codePointLength(stripped) > 60) throw ChatError.badRequest('Channel name too long (limit: 60 characters).');
  const bad = unprintablePosition(stripped);
  if (bad !== undefined) throw ChatError.badRequest(`Invalid character in channel name, at position ${bad}.`);
  return stripped;
}

/** Addressee.for_stream_name / for_stream_id: check_stream_topic on the stripped topic. */
export function checkTopicCharacters(topic: string): void {
  const bad = unprintablePosition(topic.trim());
  if (bad !== undefined) throw ChatError.badRequest(`Invalid character in topic, at position ${bad}!`);
}

function notAuthorizedToSend(stream: StreamRecord): ChatError {
  return ChatError.badRequest(`Not authorized to send to channel '${stream.name}'`);
}

/** May `sender` post to the channel? (Zulip's access_stream_for_send_message.) */
export function checkCanPost(engine: Engine, sender: UserRecord, stream: StreamRecord): void {
  if (stream.is_archived) throw notAuthorizedToSend(stream);
  const poster = sender.is_bot && sender.bot_owner_id !== null ? getUser(engine, sender.bot_owner_id) : undefined;
  const group = stream.groups.can_send_message_group;
  if (!isUserInGroupSetting(engine, sender.id, group) && !(poster && isUserInGroupSetting(engine, poster.id, group))) {
    throw ChatError.badRequest('You do not have permission to post in this channel.');
  }
  if (isSubscribed(engine, sender.id, stream.id)) return;
  // A bot may post where its owner is subscribed.
  if (poster && isSubscribed(engine, poster.id, stream.id)) return;
  if (stream.invite_only || isGuest(sender)) throw notAuthorizedToSend(stream);
}

/**
 * The channel addressee, in Zulip's order: the view extracts the `to` indicator, legacy_build
 * needs a channel and a topic, normalize_body checks the content, and only then is the channel
 * looked up, the sender's access checked and the topics policy applied.
 */
function resolveStreamAddressee(
  engine: Engine,
  sender: UserRecord,
  indicator: string | number | undefined,
  params: SendParams,
): { addressee: Addressee; content: string } {
  if (indicator === undefined) throw ChatError.badRequest('Missing channel');
  if (params.topic === undefined) throw ChatError.badRequest('Missing topic');
  checkTopicCharacters(params.topic);
  const content = normalizeContent(engine, params.content);
  let stream: StreamRecord | undefined;
  if (typeof indicator === 'number') {
    stream = getStreamById(engine, indicator);
    if (!stream) {
      notifyBotOwner(engine, sender, `tried to send a message to channel ID ${indicator}, but there is no channel with that ID.`);
      throw ChatError.streamIdDoesNotExist(indicator);
    }
  } else {
    const name = checkChannelName(indicator);
    stream = getStreamByName(engine, name);
    if (!stream) {
      notifyBotOwner(
        engine,
        sender,
        `tried to send a message to channel #**${name}**, but that channel does not exist. Click [here](#channels/new) to create it.`,
      );
      throw ChatError.streamDoesNotExist(djangoEscape(name));
    }
  }
  if (sender.is_bot && subscribersOf(engine, stream.id).length === 0) {
    notifyBotOwner(engine, sender, `tried to send a message to channel ${channelLinkSyntax(stream.id, stream.name)}. The channel exists but does not have any subscribers.`);
  }
  const topic = normalizeTopic(engine, params.topic);
  checkCanPost(engine, sender, stream);
  checkTopicsPolicy(engine, stream, topic);
  return { addressee: { kind: 'stream', stream, topic }, content };
}

/**
 * Zulip's extract_private_recipients: a JSON list (or a JSON or raw comma-separated string) whose
 * FIRST element decides the kind: emails (stripped, blanks dropped) or integer ids; any other
 * element of the wrong kind is a mix.
 */
function privateRecipients(to: string): number[] | string[] {
  let data: unknown;
  try {
    data = JSON.parse(to);
  } catch {
    data = to;
  }
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw ChatError.badRequest('Invalid data type for recipients');
  if (data.length === 0) return [];
  if (typeof data[0] === 'string') {
    if (!data.every((x) => typeof x === 'string')) throw mixedRecipients();
    return [...new Set((data as string[]).map((s) => s.trim()))].filter((s) => s !== '');
  }
  if (!isInt(data[0])) throw ChatError.badRequest('Invalid data type for recipients');
  if (!data.every(isInt)) throw mixedRecipients();
  // One id (most direct messages) has no repeat to drop: no set to build and spread.
  return data.length === 1 ? (data as number[]) : [...new Set(data as number[])];
}

function isInt(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x);
}

function mixedRecipients(): ChatError {
  return ChatError.badRequest('Recipient lists may contain emails or user IDs, but not both.');
}

/**
 * The DM addressee: recipients resolved by legacy_build (unknown ids and emails), then the content
 * (normalize_body), then deactivated recipients (check_message).
 */
function resolveDirectAddressee(engine: Engine, recipients: number[] | string[], params: SendParams): { addressee: Addressee; content: string } {
  if (recipients.length === 0) throw ChatError.badRequest('Message must have recipients');
  const users: UserRecord[] = [];
  for (const r of recipients) {
    const user = typeof r === 'number' ? getUser(engine, r) : getUserByApiEmail(engine, r);
    if (!user) {
      throw ChatError.badRequest(typeof r === 'number' ? `Invalid user ID ${r}` : `Invalid email '${r}'`);
    }
    users.push(user);
  }
  const content = normalizeContent(engine, params.content);
  for (const user of users) if (!user.is_active) throw ChatError.badRequest(`'${user.email}' is no longer using Zulip.`);
  return { addressee: { kind: 'direct', users }, content };
}

/** check_message's first widget check: the content must be JSON. */
function checkWidgetContent(raw: string): void {
  try {
    JSON.parse(raw);
  } catch {
    throw ChatError.badRequest('Widgets: API programmer sent invalid JSON content');
  }
}

export function checkSendMessage(engine: Engine, sender: UserRecord, params: SendParams): CheckedSend {
  const type = params.type;
  if (type !== 'stream' && type !== 'channel' && type !== 'private' && type !== 'direct') throw ChatError.badRequest('Invalid type');
  const isStream = type === 'stream' || type === 'channel';
  // send_message_backend extracts `to` first, then refuses forging and foreign senders.
  const indicator = isStream && params.to !== undefined ? streamIndicator(params.to) : undefined;
  const recipients = !isStream && params.to !== undefined ? privateRecipients(params.to) : [];
  if (params.forged === 'yes' || params.forged === 'true') throw ChatError.badRequest('User not authorized for this query');
  if (params.mirrorSender !== undefined) throw ChatError.badRequest('Invalid mirrored message');
  const { addressee, content } = isStream
    ? resolveStreamAddressee(engine, sender, indicator, params)
    : resolveDirectAddressee(engine, recipients, params);
  if (params.widgetContent !== undefined) checkWidgetContent(params.widgetContent);
  return {
    sender,
    addressee,
    content,
    client: params.client,
    readBySender: params.readBySender ?? defaultReadBySender(params.client),
    queueId: params.queueId,
    localId: params.localId,
    timestamp: params.timestamp ?? nowSeconds(engine),
  };
}

/** The DM conversation's recipient id: the other user's for 1:1 and self DMs, a group's otherwise. */
function dmRecipientId(engine: Engine, userIds: readonly number[], senderId: number): number {
  const store = engine.state.messages;
  const key = dmKey(userIds);
  const known = store.dmConversations.get(key);
  if (known) return known.recipientId;
  let recipientId: number;
  if (userIds.length <= 2) {
    const other = userIds.find((id) => id !== senderId) ?? senderId;
    recipientId = engine.state.users.get(other)!.recipient_id;
  } else {
    recipientId = nextId(engine.state, 'recipient');
  }
  store.dmConversations.set(key, { recipientId, userIds: [...userIds] });
  return recipientId;
}

export function topicParticipants(engine: Engine, streamId: number, topic: string): Set<number> {
  const ids = engine.state.messages.byTopic.get(streamId)?.get(topicKey(topic)) ?? [];
  const out = new Set<number>();
  // A topic participant is anyone who sent or reacted to a message in the topic.
  for (const id of ids) {
    const message = getMessage(engine.state.messages, id);
    if (!message) continue;
    out.add(message.senderId);
    for (const r of message.reactions ?? []) out.add(r.userId);
  }
  return out;
}

/** Above this many people, wildcard mentions need can_mention_many_users_group (Zulip's WILDCARD_MENTION_THRESHOLD). */
const WILDCARD_MENTION_THRESHOLD = 15;

export function checkWildcardMentions(
  engine: Engine,
  sender: UserRecord,
  stream: StreamRecord,
  rendered: RenderResult,
  participants: Set<number> | undefined,
): void {
  // The realm has no can_mention_many_users_group setting of its own: Zulip's default
  // (administrators) applies.
  const group = engine.state.realm.system_groups['role:administrators'];
  const mayMentionMany = group !== undefined && isUserInGroupSetting(engine, sender.id, group);
  if (rendered.wildcards.has('stream') && subscribersOf(engine, stream.id).length > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
    throw new ChatError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
  }
  if (rendered.wildcards.has('topic') && (participants?.size ?? 0) > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
    throw new ChatError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
  }
}

/**
 * check_user_group_mention_allowed: each group mentioned (silent mentions do not count) whose
 * can_mention_group is not role:everyone needs the sender in that setting; a system bot may
 * mention only groups anyone may mention. Checked after the wildcard mentions, in group id order.
 */
export function checkUserGroupMentions(engine: Engine, sender: UserRecord, rendered: RenderResult): void {
  if (rendered.mentionedGroupIds.size === 0) return;
  const everyone = engine.state.realm.system_groups['role:everyone'];
  for (const id of [...rendered.mentionedGroupIds].sort((a, b) => a - b)) {
    const group = engine.state.userGroups.get(id);
    if (!group) continue;
    const setting = group.settings.can_mention_group;
    if (setting === everyone) continue;
    if (sender.is_system_bot || !isUserInGroupSetting(engine, sender.id, setting)) {
      throw ChatError.badRequest(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
}

export function renderFor(engine: Engine, sender: UserRecord | undefined, content: string): RenderResult {
  return renderMarkdown(content, messageRenderContext(engine, sender));
}

/** The active generic bots a channel message mentions that are not subscribed. */
function mentionedGenericBots(engine: Engine, mentioned: ReadonlySet<number>, subscribers: readonly number[]): number[] {
  const inChannel = new Set(subscribers);
  return [...mentioned].filter((userId) => {
    const user = engine.state.users.get(userId);
    return !inChannel.has(userId) && user !== undefined && user.is_active && user.is_bot && user.bot_type === 1;
  });
}

export function doSendMessage(engine: Engine, checked: CheckedSend): Outcome<{ id: number }> {
  const { sender, addressee } = checked;
  const rendered = renderFor(engine, checked.actingUser ?? sender, checked.content);
  let participants: Set<number> | undefined;
  if (addressee.kind === 'stream') {
    if (rendered.wildcards.has('topic')) participants = topicParticipants(engine, addressee.stream.id, addressee.topic);
    checkWildcardMentions(engine, sender, addressee.stream, rendered, participants);
  }
  checkUserGroupMentions(engine, sender, rendered);
  const id = nextId(engine.state, 'message');

  let recipientUserIds: number[];
  let recipientId: number;
  let dmUserIds: number[] | null = null;
  if (addressee.kind === 'stream') {
    const stream = addressee.stream;
    // Zulip gives UserMessage rows to the channel's subscribers only, the sender included only if
    // subscribed, and to the generic bots the message mentions (build_message_send_dict's
    // mentioned_bot_user_ids), so that a bot answers mentions in channels it never joined.
    const subscribers = subscribersOf(engine, stream.id);
    const mentionedBots = rendered.mentionedUserIds.size === 0 ? [] : mentionedGenericBots(engine, rendered.mentionedUserIds, subscribers);
    recipientUserIds = mentionedBots.length === 0 ? subscribers : [...subscribers, ...mentionedBots].sort((a, b) => a - b);
    recipientId = stream.recipient_id;
  } else {
    dmUserIds = sortedDistinct([sender.id, ...addressee.users.map((u) => u.id)]);
    recipientUserIds = dmUserIds;
    recipientId = dmRecipientId(engine, dmUserIds, sender.id);
  }

  const alerted = alertedUserIds(engine, checked.content);
  // A muted sender's message starts out read for whoever muted them (mark_as_read_user_ids).
  const muting = usersWhoMuted(engine, sender.id);
  // Recipients come in ascending id order, so the packed rows are written in order as they are
  // made (no sort); `sentRows` keeps the bits at send time for the event, the stored copy changes
  // as flags do. (A Map of user id → bits for the event cost more than the rest of the loop.)
  const sentRows: number[] = [];
  const everyone = rendered.wildcards.has('stream') ? FLAG_BITS.stream_wildcard_mentioned : 0;
  const readUserIds = checked.readUserIds;
  for (const userId of recipientUserIds) {
    // Service bots (outgoing webhook, embedded) get no UserMessage rows.
    const bot = engine.state.users.get(userId);
    if (bot?.is_bot && (bot.bot_type === 3 || bot.bot_type === 4)) continue;
    let bits = everyone;
    if ((userId === sender.id && checked.readBySender) || readUserIds?.has(userId) || muting.has(userId)) bits |= FLAG_BITS.read;
    if (rendered.mentionedUserIds.has(userId)) bits |= FLAG_BITS.mentioned;
    if (alerted.has(userId)) bits |= FLAG_BITS.has_alert_word;
    if (participants?.has(userId)) bits |= FLAG_BITS.topic_wildcard_mentioned;
    sentRows.push(userId * FLAG_SPACE + bits);
  }
  // Exactly as long as its rows (slice allocates no spare room; an array grown by push keeps room
  // for 17 or more: see appendMessage).
  const userFlags = sentRows.slice();
  // One object literal with every field, so all stored messages share one shape (lean and fast).
  const message: StoredMessage = {
    id,
    senderId: sender.id,
    recipientId,
    streamId: addressee.kind === 'stream' ? addressee.stream.id : null,
    topic: addressee.kind === 'stream' ? addressee.topic : '',
    dmUserIds,
    content: checked.content,
    renderedContent: rendered.html,
    timestamp: checked.timestamp,
    client: checked.client,
    isMeMessage: isMeMessage(checked.content, rendered.html),
    reactions: null,
    userFlags,
    lastEditTimestamp: null,
    editHistory: null,
    hasLink: rendered.hasLink,
    hasAttachment: rendered.hasAttachment,
    hasImage: rendered.hasImage,
  };
  const stored = appendMessage(engine.state.messages, message);
  recordOutgoingWebhooks(engine, sender, stored, rendered.mentionedUserIds);
  // Zulip claims the linked uploads before the message goes out, so their events come first.
  const claimed = claimAttachments(engine, sender, stored, linkedUploadPaths(engine, rendered.html));
  return outcome({ id }, [...claimed, messageEvent(stored, recipientUserIds, sentRows, checked)]);
}

/**
 * The `message` event, finalized per queue at delivery (simulator/engine/events/queues.ts): every recipient (service
 * bots too, with no UserMessage row and so no flags), each with their flags.
 */
function messageEvent(message: StoredMessage, recipients: readonly number[], rows: readonly number[], checked: CheckedSend): Effect {
  const stream = checked.addressee.kind === 'stream' ? checked.addressee.stream : null;
  const sent = effect({ type: 'message' }, recipients);
  // Set on the effect as made, not spread into a copy of it (the copy showed in every send's cost).
  sent.message = {
    stored: message,
    flags: rows,
    publicChannel: stream !== null && !stream.invite_only,
    senderQueueId: checked.queueId,
    localId: checked.localId,
  };
  return sent;
}

export function sendMessage(engine: Engine, sender: UserRecord, params: SendParams): Outcome<{ id: number }> {
  return doSendMessage(engine, checkSendMessage(engine, sender, params));
}
