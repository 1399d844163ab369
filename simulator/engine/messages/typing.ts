// Typing notifications (zerver/views/typing.py, zerver/actions/typing.py): POST /typing for a
// conversation being composed, and POST /messages/{id}/typing for a message being edited. Nothing
// is stored; each request only sends `typing` / `typing_edit_message` events. The sender's
// send_*_typing_notifications settings refuse the request; each recipient's
// receives_typing_notifications decides whether their queues get it.
import { outcome, effect, type Effect, type Outcome } from '../events/effects.ts';
import { getUser, subscribersOf, type Engine } from '../core.ts';
import { accessStreamById } from '../channels/access.ts';
import { ChatError } from '../errors.ts';
import { checkCanEditContent } from './edit.ts';
import { accessMessageToModify } from './permissions.ts';
import { checkCanPost } from './send.ts';
import type { UserRecord } from '../state.ts';
import { settingValue } from '../users/settings.ts';

export type TypingOp = 'start' | 'stop';
export const TYPING_OPS: readonly TypingOp[] = ['start', 'stop'];

/** POST /typing's `type`: "channel" is the newer name of "stream" ("private" is gone since FL 215). */
export const TYPING_RECIPIENT_TYPES = ['direct', 'stream', 'channel'] as const;
export type TypingRecipientType = (typeof TYPING_RECIPIENT_TYPES)[number];

/** settings.MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: bigger channels get no typing events. */
export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

/** Message.EMPTY_TOPIC_FALLBACK_NAME and the legacy "(no topic)": clients' names for the empty topic. */
const EMPTY_TOPIC_ALIASES: ReadonlySet<string> = new Set(['general chat', '(no topic)']);

export interface TypingRequest {
  type: TypingRecipientType;
  op: TypingOp;
  /** Direct: the other participants' IDs (null or absent: not given). */
  to?: readonly number[] | null | undefined;
  /** Channel: where, and under which topic (already stripped of surrounding whitespace). */
  streamId?: number | null | undefined;
  topic?: string | undefined;
}

const receivesTyping = (user: UserRecord | undefined): boolean =>
  user !== undefined && user.is_active && settingValue(user, 'receives_typing_notifications') === true;

function typingPerson(user: UserRecord): { user_id: number; email: string } {
  return { user_id: user.id, email: user.email };
}

function refuseDisabled(actor: UserRecord, channel: boolean): void {
  if (channel && settingValue(actor, 'send_stream_typing_notifications') !== true) {
    throw ChatError.badRequest('User has disabled typing notifications for channel messages');
  }
  if (!channel && settingValue(actor, 'send_private_typing_notifications') !== true) {
    throw ChatError.badRequest('User has disabled typing notifications for direct messages');
  }
}

/**
 * Who hears of typing in a channel: its active subscribers who receive typing notifications, or
 * nobody at all once the channel has more than MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS of them
 * (the sender hears it only as one of them).
 */
function channelTypingAudience(engine: Engine, streamId: number): number[] | null {
  const subscribers = subscribersOf(engine, streamId);
  if (subscribers.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS) return null;
  return subscribers.filter((id) => receivesTyping(getUser(engine, id)));
}

/** POST /typing, with the view's checks in its order. */
export function sendTypingNotification(engine: Engine, actor: UserRecord, request: TypingRequest): Outcome<Record<string, never>> {
  if (request.type === 'direct') return outcome({}, directTyping(engine, actor, request));
  return outcome({}, channelTyping(engine, actor, request));
}

function channelTyping(engine: Engine, actor: UserRecord, request: TypingRequest): Effect[] {
  if (request.streamId === undefined || request.streamId === null) throw ChatError.badRequest("Missing 'stream_id' argument");
  if (request.topic === undefined) throw ChatError.badRequest('Missing topic');
  refuseDisabled(actor, true);
  const stream = accessStreamById(engine, actor, request.streamId);
  checkCanPost(engine, actor, stream);
  const topic = EMPTY_TOPIC_ALIASES.has(request.topic) ? '' : request.topic;
  const audience = channelTypingAudience(engine, stream.id);
  if (audience === null) return [];
  const event = { type: 'typing', op: request.op, message_type: 'stream', sender: typingPerson(actor), stream_id: stream.id, topic };
  return [effect(event, audience)];
}

/**
 * The sender joins the listed users (at the end, unless listed); every ID must name a user of the
 * realm, deactivated ones and system bots included, or the whole request is refused. The event
 * names them all, in that order; the active ones who receive typing notifications get it.
 */
function directTyping(engine: Engine, actor: UserRecord, request: TypingRequest): Effect[] {
  if (request.to === undefined || request.to === null) throw ChatError.badRequest("Missing 'to' argument");
  if (request.to.length === 0) throw ChatError.badRequest("Empty 'to' list");
  refuseDisabled(actor, false);
  const ids = request.to.includes(actor.id) ? [...request.to] : [...request.to, actor.id];
  const users = ids.map((id) => {
    const user = getUser(engine, id);
    if (!user) throw ChatError.badRequest(`Invalid user ID ${id}`);
    return user;
  });
  const event = { type: 'typing', op: request.op, message_type: 'direct', sender: typingPerson(actor), recipients: users.map(typingPerson) };
  return [effect(event, users.filter(receivesTyping).map((u) => u.id))];
}

/**
 * POST /messages/{id}/typing: only someone who may edit the message's content right now (no grace
 * period) can say they are editing it; the channel's subscribers, or the conversation's
 * participants, hear it.
 */
export function sendMessageEditTyping(engine: Engine, actor: UserRecord, messageId: number, op: TypingOp): Outcome<Record<string, never>> {
  const message = accessMessageToModify(engine, actor, messageId);
  checkCanEditContent(engine, actor, message, engine.deps.clock.now(), 0);
  refuseDisabled(actor, message.streamId !== null);
  const base = { type: 'typing_edit_message', op, sender_id: actor.id, message_id: message.id };
  if (message.streamId !== null) {
    const audience = channelTypingAudience(engine, message.streamId);
    if (audience === null) return outcome({});
    const recipient = { type: 'channel', channel_id: message.streamId, topic: message.topic };
    return outcome({}, [effect({ ...base, recipient }, audience)]);
  }
  // A 1:1 (or self) conversation is the editor and its recipient; a group, all its members.
  const participants = message.dmUserIds ?? [];
  const userIds =
    participants.length <= 2 ? [actor.id, participants.find((id) => id !== actor.id) ?? actor.id] : [...participants];
  const notified = userIds.filter((id) => receivesTyping(getUser(engine, id)));
  return outcome({}, [effect({ ...base, recipient: { type: 'direct', user_ids: notified } }, notified)]);
}
