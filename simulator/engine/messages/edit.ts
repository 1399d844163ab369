// Editing and moving messages (PATCH /messages/{id}; zerver/actions/message_edit.py):
// checkUpdateMessage runs Zulip's checks in check_update_message's order (access, content
// permission, payload, the edit request, topic/resolve permission, rendering and wildcards,
// channel move, the change_all time limit); doUpdateMessage applies the edit: content re-rendered
// with recipients' mention and alert-word flags recomputed, messages moved with their indexes, UserMessage rows
// added and removed on a channel move, the edit history entry, and the update_message /
// delete_message events, then Notification Bot's resolve notice or move breadcrumbs.
import { alertedUserIds } from '../users/alert-words.ts';
import { relinkAttachments, type AttachmentDict } from '../integrations/attachments.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { isModerator, notificationBot, subscribersOf, type Engine } from '../core.ts';
import { channelMessageUrl, channelTopicLinkSyntax } from '../markdown/hash.ts';
import { isMeMessage, topicLinks, type RenderResult } from '../markdown/index.ts';
import { reindexMessageWords, messageWords } from '../narrow/search.ts';
import { sendNotice, silentMention } from '../channels/notifications.ts';
import { sha256Hex } from '../sha256.ts';
import { isGuest } from '../core.ts';
import type { StreamRecord, UserRecord } from '../state.ts';
import { canAccessStreamHistory } from './access.ts';
import { RESOLVED_TOPIC_PREFIX } from './format.ts';
import { deleteMessages } from './delete.ts';
import {
  canEditTopic,
  canMoveMessagesOutOfChannel,
  canResolveTopics,
  channelMessageFilter,
  hasChannelContentAccess,
  accessMessageToModify,
  inCanSendMessageGroup,
} from './permissions.ts';
import {
  checkTopicCharacters,
  checkUserGroupMentions,
  checkWildcardMentions,
  effectiveTopicsPolicy,
  emptyTopicNotAllowed,
  normalizeContent,
  onlyEmptyTopicAllowed,
  renderFor,
  topicParticipants,
  truncateTopic,
} from './send.ts';
import {
  FLAG_BITS,
  flagNames,
  getMessage,
  relocateMessage,
  removeUserRow,
  rowUserIds,
  setUserFlagBits,
  topicKey,
  userFlagBits,
  type EditHistoryEntry,
  type StoredMessage,
} from './store.ts';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';
export const PROPAGATE_MODES: readonly PropagateMode[] = ['change_later', 'change_one', 'change_all'];

export interface EditParams {
  content: string | undefined;
  topic: string | undefined;
  streamId: number | undefined;
  propagateMode: PropagateMode;
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
  prevContentSha256: string | undefined;
}

/** Clients offer editing until about 15 s past the limit; the server allows 20 (edit_limit_buffer). */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;
/** settings.RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS (production value). */
export const RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS = 60;
/** Message.EMPTY_TOPIC_FALLBACK_NAME: what the empty topic is called when it cannot be "". */
const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';
/** zerver/lib/markdown's `version`, recorded with the content an edit replaced. */
const MARKDOWN_VERSION = 1;

const noEditPermission = () => ChatError.badRequest("You don't have permission to edit this message");

export interface CheckedEdit {
  actor: UserRecord;
  message: StoredMessage;
  /** The clock reading every time check and the edit timestamp come from. */
  now: number;
  params: EditParams;
  contentEdited: boolean;
  content: string;
  rendered: RenderResult | undefined;
  /** Channel messages only (undefined for direct messages). */
  origStream: StreamRecord | undefined;
  targetStream: StreamRecord | undefined;
  streamEdited: boolean;
  topicEdited: boolean;
  origTopic: string;
  targetTopic: string;
  topicResolved: boolean;
  topicUnresolved: boolean;
}

/** validate_user_can_edit_message: only the sender, only if the realm allows it, within the limit. */
export function checkCanEditContent(engine: Engine, actor: UserRecord, message: StoredMessage, now: number, buffer: number): void {
  const realm = engine.state.realm;
  if (!realm.allow_message_editing) throw ChatError.badRequest('Your organization has turned off message editing');
  if (message.senderId !== actor.id) throw noEditPermission();
  const limit = realm.message_content_edit_limit_seconds;
  if (limit !== null && now - message.timestamp > limit + buffer) {
    throw ChatError.badRequest('The time limit for editing this message has passed');
  }
}

/** Python's str.lstrip(chars): drop every leading character that is in the set. */
function lstripChars(text: string, chars: string): string {
  let i = 0;
  while (i < text.length && chars.includes(text[i]!)) i++;
  return text.slice(i);
}

/** access_stream_by_id_for_message: an existing, active channel the actor can read. */
function accessTargetStream(engine: Engine, actor: UserRecord, streamId: number): StreamRecord {
  const stream = engine.state.streams.get(streamId);
  if (!stream || stream.is_archived || !hasChannelContentAccess(engine, actor, stream)) throw ChatError.invalidChannelId();
  return stream;
}

function exceedsLimit(now: number, message: StoredMessage, limit: number | null): boolean {
  return limit !== null && now - message.timestamp > limit + EDIT_LIMIT_BUFFER_SECONDS;
}

/**
 * check_time_limit_for_change_all_propagate_mode: below moderator, a whole-topic move must not
 * include messages older than the (stricter) move limit; counted over the messages the actor can
 * see.
 */
function checkChangeAllTimeLimit(engine: Engine, actor: UserRecord, c: CheckedEdit): void {
  const realm = engine.state.realm;
  const deadlines: number[] = [];
  if (c.topicEdited && realm.move_messages_within_stream_limit_seconds !== null) {
    deadlines.push(realm.move_messages_within_stream_limit_seconds + EDIT_LIMIT_BUFFER_SECONDS);
  }
  if (c.streamEdited && realm.move_messages_between_streams_limit_seconds !== null) {
    deadlines.push(realm.move_messages_between_streams_limit_seconds + EDIT_LIMIT_BUFFER_SECONDS);
  }
  if (deadlines.length === 0) return;
  const deadline = Math.min(...deadlines);
  const store = engine.state.messages;
  const stream = c.origStream!;
  let inTopic = (store.byTopic.get(stream.id)?.get(topicKey(c.origTopic)) ?? []).map((id) => getMessage(store, id)!);
  if (!canAccessStreamHistory(engine, actor, stream)) {
    inTopic = inTopic.filter((m) => userFlagBits(m, actor.id) !== undefined).sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
  }
  const allowed = inTopic.filter((m) => m.timestamp > c.now - deadline);
  if (allowed.length === inTopic.length) return;
  const total = inTopic.length;
  throw new ChatError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${total} most recent messages in this topic.`,
    {
      extra: {
        first_message_id_allowed_to_move: allowed[0]?.id ?? null,
        total_messages_in_topic: total,
        total_messages_allowed_to_move: allowed.length,
      },
    },
  );
}

export function checkUpdateMessage(engine: Engine, actor: UserRecord, messageId: number, params: EditParams): CheckedEdit {
  const realm = engine.state.realm;
  const now = engine.deps.clock.now();
  const message = accessMessageToModify(engine, actor, messageId);
  if (params.content !== undefined) checkCanEditContent(engine, actor, message, now, EDIT_LIMIT_BUFFER_SECONDS);

  let topic = params.topic;
  if (topic !== undefined) {
    topic = topic.trim();
    if (topic === realm.realm_empty_topic_display_name) topic = '';
    // Naming the current topic is not a change.
    if (topic === message.topic) topic = undefined;
  }
  const { content, streamId, propagateMode } = params;

  // validate_message_edit_payload
  if (topic === undefined && content === undefined && streamId === undefined) throw ChatError.badRequest('Nothing to change');
  if (message.streamId === null) {
    if (streamId !== undefined) throw ChatError.badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw ChatError.badRequest('Direct messages cannot have topics.');
  }
  if (propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw ChatError.badRequest('Invalid propagate_mode without topic edit');
  }
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_FALLBACK_NAME}`) {
    throw ChatError.badRequest('General chat cannot be marked as resolved');
  }
  if (topic !== undefined) checkTopicCharacters(topic);
  if (streamId !== undefined && content !== undefined) throw ChatError.badRequest('Cannot change message content while changing channel');
  if (params.prevContentSha256 !== undefined && params.prevContentSha256 !== sha256Hex(message.content)) {
    throw new ChatError('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.");
  }

  // build_message_edit_request
  const contentEdited = content !== undefined;
  let newContent = message.content;
  if (content !== undefined) newContent = normalizeContent(engine, content.replace(/\s+$/u, '') === '' ? '(deleted)' : content);
  const checked: CheckedEdit = {
    actor,
    message,
    now,
    params,
    contentEdited,
    content: newContent,
    rendered: undefined,
    origStream: undefined,
    targetStream: undefined,
    streamEdited: false,
    topicEdited: false,
    origTopic: message.topic,
    targetTopic: message.topic,
    topicResolved: false,
    topicUnresolved: false,
  };
  if (message.streamId !== null) {
    if (topic !== undefined) {
      const old = message.topic;
      const target = truncateTopic(engine, topic);
      checked.topicEdited = true;
      checked.targetTopic = target;
      checked.topicResolved =
        target.startsWith(RESOLVED_TOPIC_PREFIX) && !old.startsWith(RESOLVED_TOPIC_PREFIX) && topic.slice(RESOLVED_TOPIC_PREFIX.length) === old;
      checked.topicUnresolved =
        old.startsWith(RESOLVED_TOPIC_PREFIX) && !target.startsWith(RESOLVED_TOPIC_PREFIX) && lstripChars(old, RESOLVED_TOPIC_PREFIX) === target;
    }
    checked.origStream = engine.state.streams.get(message.streamId)!;
    checked.targetStream = checked.origStream;
    if (streamId !== undefined) {
      checked.targetStream = accessTargetStream(engine, actor, streamId);
      checked.streamEdited = true;
    }
    const policy = effectiveTopicsPolicy(engine, checked.targetStream);
    const targetEmpty = checked.targetTopic === '' || checked.targetTopic === '(no topic)';
    if (targetEmpty && (checked.topicEdited || checked.streamEdited) && policy === 'disable_empty_topic') throw emptyTopicNotAllowed();
    if (policy === 'empty_topic_only' && !targetEmpty) throw onlyEmptyTopicAllowed();
  }

  const { origStream, targetStream } = checked;
  if (checked.topicEdited) {
    if (checked.topicResolved || checked.topicUnresolved) {
      if (!canResolveTopics(engine, actor, origStream!, targetStream!)) {
        throw ChatError.badRequest("You don't have permission to resolve topics in this channel.");
      }
    } else {
      if (!canEditTopic(engine, actor, origStream!, targetStream!)) throw noEditPermission();
      if (!isModerator(actor) && exceedsLimit(now, message, realm.move_messages_within_stream_limit_seconds)) {
        throw ChatError.badRequest("The time limit for editing this message's topic has passed.");
      }
    }
  }

  if (contentEdited) {
    const sender = engine.state.users.get(message.senderId)!;
    checked.rendered = renderFor(engine, sender, newContent);
    if (origStream) {
      const participants = checked.rendered.wildcards.has('topic') ? topicParticipants(engine, origStream.id, message.topic) : undefined;
      checkWildcardMentions(engine, sender, origStream, checked.rendered, participants);
    }
    checkUserGroupMentions(engine, sender, checked.rendered);
  }

  if (checked.streamEdited) {
    if (!canMoveMessagesOutOfChannel(engine, actor, origStream!)) throw ChatError.badRequest("You don't have permission to move this message");
    if (!inCanSendMessageGroup(engine, actor, targetStream!)) throw ChatError.badRequest('You do not have permission to post in this channel.');
    if (!isModerator(actor) && exceedsLimit(now, message, realm.move_messages_between_streams_limit_seconds)) {
      throw ChatError.badRequest("The time limit for editing this message's channel has passed");
    }
  }
  const moved = checked.topicEdited || checked.streamEdited;
  if (propagateMode === 'change_all' && !isModerator(actor) && moved && !checked.topicResolved && !checked.topicUnresolved) {
    checkChangeAllTimeLimit(engine, actor, checked);
  }
  return checked;
}

/** update_user_message_flags: mentions and alert words of the new content, for everyone who received the message. */
function updateRenderedFlags(engine: Engine, message: StoredMessage, rendered: RenderResult, topicParticipantIds: ReadonlySet<number>): void {
  const store = engine.state.messages;
  const alerted = alertedUserIds(engine, message.content);
  const renderedBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.has_alert_word;
  for (const userId of rowUserIds(message)) {
    let bits = userFlagBits(message, userId)! & ~renderedBits;
    if (rendered.mentionedUserIds.has(userId)) bits |= FLAG_BITS.mentioned;
    if (rendered.wildcards.has('stream')) bits |= FLAG_BITS.stream_wildcard_mentioned;
    if (topicParticipantIds.has(userId)) bits |= FLAG_BITS.topic_wildcard_mentioned;
    if (alerted.has(userId)) bits |= FLAG_BITS.has_alert_word;
    setUserFlagBits(store, message, userId, bits);
  }
}

/** One update_message event per distinct flag list (Zulip's per-user `flags`). */
function updateEvents(event: Record<string, unknown>, recipients: Map<number, string[]>): Effect[] {
  const byFlags = new Map<string, number[]>();
  for (const [userId, flags] of recipients) {
    const key = JSON.stringify(flags);
    const list = byFlags.get(key);
    if (list) list.push(userId);
    else byFlags.set(key, [userId]);
  }
  return [...byFlags.keys()].sort().map((key) => effect({ type: 'update_message', ...event, flags: JSON.parse(key) as string[] }, byFlags.get(key)!));
}

function rowFlags(message: StoredMessage): Map<number, string[]> {
  return new Map(rowUserIds(message).map((id) => [id, flagNames(userFlagBits(message, id)!)]));
}

/** Users with an active subscription (deactivated users included), as Zulip's include_deactivated_users=True. */
function activeSubscriptionUserIds(engine: Engine, streamId: number): Set<number> {
  const out = new Set<number>();
  for (const [userId, sub] of engine.state.subscriptions.get(streamId) ?? []) if (sub.active) out.add(userId);
  return out;
}

function messagesInTopic(engine: Engine, streamId: number, topic: string): StoredMessage[] {
  const store = engine.state.messages;
  return (store.byTopic.get(streamId)?.get(topicKey(topic)) ?? []).map((id) => getMessage(store, id)!);
}

export function doUpdateMessage(engine: Engine, c: CheckedEdit): Outcome<{ detached_uploads: AttachmentDict[] }> {
  const { actor, message, params } = c;
  const store = engine.state.messages;
  const timestamp = Math.floor(c.now);
  const event: Record<string, unknown> = { user_id: actor.id, edit_timestamp: timestamp, message_id: message.id, rendering_only: false };
  const entry: EditHistoryEntry = { user_id: actor.id, timestamp };
  const events: Effect[] = [];
  let detached: AttachmentDict[] = [];
  message.lastEditTimestamp = timestamp;

  if (c.contentEdited) {
    const rendered = c.rendered!;
    entry.prev_content = message.content;
    entry.prev_rendered_content = message.renderedContent;
    entry.prev_rendered_content_version = MARKDOWN_VERSION;
    const meMessage = isMeMessage(c.content, rendered.html);
    Object.assign(event, {
      orig_content: message.content,
      orig_rendered_content: message.renderedContent,
      content: c.content,
      rendered_content: rendered.html,
      is_me_message: meMessage,
    });
    const wordsBefore = messageWords(message);
    message.content = c.content;
    message.renderedContent = rendered.html;
    message.isMeMessage = meMessage;
    message.hasLink = rendered.hasLink;
    message.hasImage = rendered.hasImage;
    message.hasAttachment = rendered.hasAttachment;
    const relinked = relinkAttachments(engine, actor, message, rendered.html);
    detached = relinked.detached;
    events.push(...relinked.events);
    reindexMessageWords(engine, store, message, wordsBefore);
    const participants =
      c.origStream && rendered.wildcards.has('topic') ? topicParticipants(engine, c.origStream.id, c.targetTopic) : new Set<number>();
    updateRenderedFlags(engine, message, rendered, participants);
    if (!c.origStream) {
      message.editHistory = [entry, ...(message.editHistory ?? [])];
      events.push(...updateEvents({ ...event, message_ids: [message.id] }, rowFlags(message)));
      return outcome({ detached_uploads: detached }, events);
    }
  }

  const origStream = c.origStream!;
  const targetStream = c.targetStream!;
  const moved = c.topicEdited || c.streamEdited;
  event.stream_name = origStream.name;
  event.stream_id = origStream.id;
  if (moved) event.propagate_mode = params.propagateMode;

  let losingRows = new Set<number>();
  let losingAccess = new Set<number>();
  let gainingRows: number[] = [];
  let newChannelSubscribers = new Set<number>();
  if (c.streamEdited) {
    entry.prev_stream = origStream.id;
    entry.stream = targetStream.id;
    event.orig_subject = c.origTopic;
    event.new_stream_id = targetStream.id;
    // Everyone ever subscribed to the old channel (inactive rows too) who is not subscribed to the
    // new one loses their UserMessage rows; of them, guests (public target) or everyone (private
    // target) lose access and get a delete_message event instead.
    const oldChannelUsers = new Set(engine.state.subscriptions.get(origStream.id)?.keys() ?? []);
    newChannelSubscribers = activeSubscriptionUserIds(engine, targetStream.id);
    losingRows = new Set([...oldChannelUsers].filter((id) => !newChannelSubscribers.has(id)));
    losingAccess = targetStream.invite_only
      ? losingRows
      : new Set([...losingRows].filter((id) => {
          const user = engine.state.users.get(id);
          return user !== undefined && isGuest(user);
        }));
    // Protected history: being subscribed when the message arrives is what grants access.
    if (!targetStream.history_public_to_subscribers) gainingRows = [...newChannelSubscribers].sort((a, b) => a - b);
  }
  if (c.topicEdited) {
    event.orig_subject = c.origTopic;
    event.subject = c.targetTopic;
    event.topic_links = topicLinks(c.targetTopic, engine.state.realm.linkifiers, engine.caches.linkifiers);
    entry.prev_topic = c.origTopic;
    entry.topic = c.targetTopic;
  }
  message.editHistory = [entry, ...(message.editHistory ?? [])];

  const changed: StoredMessage[] = [message];
  if (params.propagateMode !== 'change_one') {
    const accessible = c.streamEdited ? channelMessageFilter(engine, actor, origStream) : () => true;
    const others = messagesInTopic(engine, origStream.id, c.origTopic).filter(
      (m) => m.id !== message.id && (params.propagateMode === 'change_all' || m.id > message.id) && accessible(m),
    );
    // Other moved messages only record the move, topic keys first (Zulip's topic_only_edit_history_event).
    const moveEntry: EditHistoryEntry = { user_id: actor.id, timestamp };
    if (c.topicEdited) Object.assign(moveEntry, { prev_topic: c.origTopic, topic: c.targetTopic });
    if (c.streamEdited) Object.assign(moveEntry, { prev_stream: origStream.id, stream: targetStream.id });
    for (const m of others) {
      m.editHistory = [{ ...moveEntry }, ...(m.editHistory ?? [])];
      m.lastEditTimestamp = timestamp;
      changed.push(m);
    }
    changed.sort((a, b) => a.id - b.id);
  }
  const changedIds = changed.map((m) => m.id);

  for (const m of changed) {
    const wordsBefore = messageWords(m);
    relocateMessage(store, m, targetStream.id, targetStream.recipient_id, c.targetTopic);
    if (c.topicEdited) reindexMessageWords(engine, store, m, wordsBefore);
  }
  if (c.streamEdited) {
    for (const m of changed) {
      for (const userId of gainingRows) if (userFlagBits(m, userId) === undefined) setUserFlagBits(store, m, userId, FLAG_BITS.read);
      for (const userId of losingRows) removeUserRow(store, m, userId);
    }
    const deleteEvent = { type: 'delete_message', message_ids: changedIds, message_type: 'stream', stream_id: origStream.id, topic: c.origTopic };
    if (losingAccess.size > 0) events.push(effect(deleteEvent, losingAccess));
  }
  event.message_ids = changedIds;

  // Who hears about it: everyone still holding a row for the edited message, plus (shared
  // history) the subscribers who could be looking at it, with the flags ["read"].
  const recipients = rowFlags(message);
  if (origStream.history_public_to_subscribers) {
    const notHeardYet = (id: number) => !recipients.has(id) && !losingAccess.has(id);
    const targetSubscribers = subscribersOf(engine, targetStream.id);
    let extra = targetSubscribers.filter(notHeardYet);
    if (c.streamEdited) {
      const targetSet = new Set(targetSubscribers);
      const oldSubscribers = new Set(activeSubscriptionUserIds(engine, origStream.id));
      // Guests who can see the new channel but never saw the old one would be confused by an edit.
      extra = extra.filter((id) => !(isGuest(engine.state.users.get(id)!) && !oldSubscribers.has(id)));
      extra.push(...subscribersOf(engine, origStream.id).filter((id) => notHeardYet(id) && !targetSet.has(id)));
    }
    for (const id of extra) recipients.set(id, ['read']);
  }
  events.push(...updateEvents(event, recipients));

  // moved_all_visible_messages: a whole-topic move, or nothing the actor can see is left behind.
  let movedAllVisible = false;
  if (moved) {
    const visible = channelMessageFilter(engine, actor, origStream);
    movedAllVisible = params.propagateMode === 'change_all' || !messagesInTopic(engine, origStream.id, c.origTopic).some(visible);
  }

  const bot = notificationBot(engine);
  let resolveNoticeId: number | undefined;
  if (bot && c.topicEdited && !c.contentEdited && !c.streamEdited && (c.topicResolved || c.topicUnresolved)) {
    const notice = resolveTopicNotice(engine, bot, c);
    resolveNoticeId = notice.id;
    events.push(...notice.events);
  }
  if (bot && moved) events.push(...moveBreadcrumbs(engine, bot, c, changedIds, movedAllVisible, resolveNoticeId));
  return outcome({ detached_uploads: detached }, events);
}

/**
 * maybe_send_resolve_topic_notifications: "{user} has marked this topic as (un)resolved.", read
 * for everyone (nobody follows topics in the simulator, so Zulip's default
 * resolved_topic_notice_auto_read_policy marks it read for all). Toggling back within the grace
 * period deletes the previous notice instead.
 */
function resolveTopicNotice(engine: Engine, bot: UserRecord, c: CheckedEdit): { id: number | undefined; events: Effect[] } {
  const store = engine.state.messages;
  const stream = c.origStream!;
  const ids = store.byTopic.get(stream.id)?.get(topicKey(c.targetTopic)) ?? [];
  const last = getMessage(store, ids[ids.length - 1] ?? -1);
  if (last && store.resolveNoticeIds.has(last.id) && c.now - last.timestamp <= RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS) {
    return { id: undefined, events: deleteMessages(engine, [last.id], c.actor.id) };
  }
  const verb = c.topicResolved ? 'resolved' : 'unresolved';
  const readBy = [...subscribersOf(engine, stream.id), c.actor.id];
  const notice = sendNotice(
    engine,
    bot,
    { kind: 'stream', stream, topic: c.targetTopic },
    `${silentMention(c.actor)} has marked this topic as ${verb}.`,
    readBy,
    c.actor,
  );
  store.resolveNoticeIds.add(notice.id);
  return notice;
}

/** send_message_moved_breadcrumbs: the notices in the new topic, then in the old one. */
function moveBreadcrumbs(
  engine: Engine,
  bot: UserRecord,
  c: CheckedEdit,
  changedIds: readonly number[],
  movedAllVisible: boolean,
  resolveNoticeId: number | undefined,
): Effect[] {
  const { actor, params } = c;
  const orig = c.origStream!;
  const target = c.targetStream!;
  const count = changedIds.length;
  const user = silentMention(actor);
  const oldLocation = channelTopicLinkSyntax(orig.id, orig.name, c.origTopic);
  const newLocation = channelTopicLinkSyntax(target.id, target.name, c.targetTopic);
  const events: Effect[] = [];

  if (params.sendNotificationToNewThread && (c.streamEdited || (c.topicEdited && !c.topicResolved && !c.topicUnresolved))) {
    const excluded = new Set([...changedIds, ...(resolveNoticeId === undefined ? [] : [resolveNoticeId])]);
    const visible = channelMessageFilter(engine, actor, target);
    const preexisting = messagesInTopic(engine, target.id, c.targetTopic).some((m) => !excluded.has(m.id) && visible(m));
    let text: string;
    if (!preexisting && movedAllVisible) text = `This topic was moved here from ${oldLocation} by ${user}.`;
    else if (count === 1) {
      const link = channelMessageUrl(engine.state.realm.url, target.id, target.name, c.targetTopic, c.message.id);
      text = `[A message](${link}) was moved here from ${oldLocation} by ${user}.`;
    } else text = `${count} messages were moved here from ${oldLocation} by ${user}.`;
    events.push(...sendNotice(engine, bot, { kind: 'stream', stream: target, topic: c.targetTopic }, text, [actor.id], actor).events);
  }
  if (params.sendNotificationToOldThread) {
    let text: string;
    if (movedAllVisible) text = `This topic was moved to ${newLocation} by ${user}.`;
    else if (count === 1) text = `A message was moved from this topic to ${newLocation} by ${user}.`;
    else text = `${count} messages were moved from this topic to ${newLocation} by ${user}.`;
    events.push(...sendNotice(engine, bot, { kind: 'stream', stream: orig, topic: c.origTopic }, text, [actor.id], actor).events);
  }
  return events;
}

export function updateMessage(engine: Engine, actor: UserRecord, messageId: number, params: EditParams): Outcome<{ detached_uploads: AttachmentDict[] }> {
  return doUpdateMessage(engine, checkUpdateMessage(engine, actor, messageId, params));
}
