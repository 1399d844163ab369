// Message deletion (zerver/actions/message_delete.py do_delete_messages): messages leave the store
// and every index, their reactions and UserMessage rows with them, and one `delete_message` event
// goes out per conversation (channel topic, case-insensitively, or DM conversation). Used by
// DELETE /messages/{id}, by deactivating a user with the delete_*_messages actions, and by
// undoing a topic resolution within its grace period.
import { releaseAttachments } from '../integrations/attachments.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { eventRecipientsForMessages } from './access.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import { accessMessageToModify, hasChannelPermission } from './permissions.ts';
import { dmKey, getMessage, removeMessages, topicKey, type StoredMessage } from './store.ts';

export interface DeleteKinds {
  publicChannels: boolean;
  privateChannels: boolean;
  directMessages: boolean;
}

/** Zulip groups DMs by recipient and channel messages by (recipient, lower-cased topic), DMs first. */
function conversationKey(m: StoredMessage): string {
  return m.streamId !== null ? `1:${String(m.recipientId).padStart(12, '0')}:${topicKey(m.topic)}` : `0:${dmKey(m.dmUserIds ?? [])}`;
}

/**
 * Delete the given messages; returns the events in Zulip's order. `actingUserId` (who deleted
 * them) always hears about it. Each channel group's event names the topic lower-cased, as Zulip's
 * grouping key does.
 */
export function deleteMessages(engine: Engine, ids: Iterable<number>, actingUserId?: number): Effect[] {
  const store = engine.state.messages;
  const groups = new Map<string, StoredMessage[]>();
  for (const id of ids) {
    const m = getMessage(store, id);
    if (!m) continue;
    const key = conversationKey(m);
    const list = groups.get(key);
    if (list) list.push(m);
    else groups.set(key, [m]);
  }
  const events: Effect[] = [];
  const deleted = new Set<number>();
  for (const key of [...groups.keys()].sort()) {
    const messages = groups.get(key)!;
    const first = messages[0]!;
    const messageIds = messages.map((m) => m.id).sort((a, b) => a - b);
    for (const id of messageIds) deleted.add(id);
    const users = eventRecipientsForMessages(engine, messages);
    if (actingUserId !== undefined) users.add(actingUserId);
    if (first.streamId === null) {
      removeMessages(store, new Set(messageIds));
      events.push(effect({ type: 'delete_message', message_ids: messageIds, message_type: 'private' }, users));
      continue;
    }
    const streamId = first.streamId;
    const firstBefore = store.byStream.get(streamId)?.[0];
    removeMessages(store, new Set(messageIds));
    // check_update_first_message_id: the channel's first message went away.
    const stream = engine.state.streams.get(streamId);
    if (stream && firstBefore !== undefined && messageIds.includes(firstBefore)) {
      const value = store.byStream.get(streamId)?.[0] ?? null;
      events.push(effect({ type: 'stream', op: 'update', property: 'first_message_id', value, stream_id: streamId, name: stream.name }, users));
    }
    events.push(
      effect({ type: 'delete_message', message_ids: messageIds, message_type: 'stream', stream_id: streamId, topic: topicKey(first.topic) }, users),
    );
  }
  events.push(...releaseAttachments(engine, deleted));
  return events;
}

/** Every message a user sent, of the requested kinds (channel privacy decides public/private). */
export function deleteMessagesBySender(engine: Engine, userId: number, kinds: DeleteKinds, actingUserId?: number): Effect[] {
  const ids: number[] = [];
  for (const m of engine.state.messages.messages) {
    if (m.senderId !== userId) continue;
    if (m.streamId === null) {
      if (kinds.directMessages) ids.push(m.id);
      continue;
    }
    const invite = engine.state.streams.get(m.streamId)?.invite_only === true;
    if (invite ? kinds.privateChannels : kinds.publicChannels) ids.push(m.id);
  }
  return deleteMessages(engine, ids, actingUserId);
}

/**
 * For event queues whose client lacks the `bulk_message_deletion` capability: Zulip's
 * process_deletion_event turns one delete_message event into one event per message, each with
 * `message_id` instead of `message_ids` (and its own event id).
 */
export function legacyDeleteMessageEvents(event: Record<string, unknown>): Record<string, unknown>[] {
  const { message_ids: ids, ...rest } = event;
  return (ids as number[]).map((id) => ({ ...rest, message_id: id }));
}

/**
 * validate_can_delete_message: the realm's or the channel's can_delete_any_message_group may
 * delete anything, at any time; otherwise only one's own messages (or one's bots'), if the realm's
 * can_delete_own_message_group (or, for channel messages, the channel's) allows it, within
 * message_content_delete_limit_seconds (no grace period).
 */
export function checkCanDeleteMessage(engine: Engine, actor: UserRecord, message: StoredMessage, now: number): void {
  if (hasRealmGroupPermission(engine, actor, 'can_delete_any_message_group')) return;
  const stream = message.streamId === null ? undefined : engine.state.streams.get(message.streamId);
  if (stream && hasChannelPermission(engine, actor, stream, 'can_delete_any_message_group')) return;
  const refused = () => ChatError.badRequest("You don't have permission to delete this message");
  const sender = engine.state.users.get(message.senderId);
  if (message.senderId !== actor.id && sender?.bot_owner_id !== actor.id) throw refused();
  if (!hasRealmGroupPermission(engine, actor, 'can_delete_own_message_group')) {
    if (!stream || !hasChannelPermission(engine, actor, stream, 'can_delete_own_message_group')) throw refused();
  }
  const limit = engine.state.realm.message_content_delete_limit_seconds;
  if (limit !== null && now - message.timestamp > limit) throw ChatError.badRequest('The time limit for deleting this message has passed');
}

/** DELETE /messages/{id}. */
export function deleteMessage(engine: Engine, actor: UserRecord, messageId: number): Outcome<Record<string, never>> {
  const now = engine.deps.clock.now();
  const message = accessMessageToModify(engine, actor, messageId);
  checkCanDeleteMessage(engine, actor, message, now);
  return outcome({}, deleteMessages(engine, [message.id], actor.id));
}
