// Typing notifications (zerver/views/typing.py, zerver/actions/typing.py). So far the "is editing
// a message" indicator of POST /messages/{id}/typing: only someone who may edit the message's
// content right now (no grace period) can say they are editing it; the channel's subscribers, or
// the conversation's participants, hear it.
import { outcome, effect, type Outcome } from './events.ts';
import { subscribersOf, type Engine } from './core.ts';
import { checkCanEditContent } from './messages/edit.ts';
import { accessMessageToModify } from './messages/permissions.ts';
import type { UserRecord } from './state.ts';

export type TypingOp = 'start' | 'stop';
export const TYPING_OPS: readonly TypingOp[] = ['start', 'stop'];

/** settings.MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: bigger channels get no typing events. */
export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

export function sendMessageEditTyping(engine: Engine, actor: UserRecord, messageId: number, op: TypingOp): Outcome<Record<string, never>> {
  const message = accessMessageToModify(engine, actor, messageId);
  checkCanEditContent(engine, actor, message, engine.deps.clock.now(), 0);
  const base = { type: 'typing_edit_message', op, sender_id: actor.id, message_id: message.id };
  if (message.streamId !== null) {
    const subscribers = subscribersOf(engine, message.streamId);
    if (subscribers.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS) return outcome({});
    const recipient = { type: 'channel', channel_id: message.streamId, topic: message.topic };
    return outcome({}, [effect({ ...base, recipient }, subscribers)]);
  }
  // A 1:1 (or self) conversation is the editor and its recipient; a group, all its members.
  const participants = message.dmUserIds ?? [];
  const userIds =
    participants.length <= 2 ? [actor.id, participants.find((id) => id !== actor.id) ?? actor.id] : [...participants];
  const notified = userIds.filter((id) => engine.state.users.get(id)?.is_active);
  return outcome({}, [effect({ ...base, recipient: { type: 'direct', user_ids: notified } }, notified)]);
}
