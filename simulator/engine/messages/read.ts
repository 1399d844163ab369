// Marking messages read on the user's behalf (zerver/actions/message_flags.py): what leaving a
// channel triggers (do_mark_stream_messages_as_read, run by Zulip's deferred_work queue).
import { effect, type Effect } from '../events/effects.ts';
import type { Engine } from '../core.ts';
import { FLAG_BITS, getMessage, setUserFlagBits, userFlagBits } from './store.ts';

/** Every unread message of the channel the user holds a row for becomes read: one flags event, or none. */
export function markStreamMessagesAsRead(engine: Engine, userId: number, streamId: number): Effect | null {
  const store = engine.state.messages;
  const changed: number[] = [];
  for (const id of store.byUser.get(userId) ?? []) {
    const message = getMessage(store, id);
    if (!message || message.streamId !== streamId) continue;
    const bits = userFlagBits(message, userId);
    if (bits === undefined || (bits & FLAG_BITS.read) !== 0) continue;
    setUserFlagBits(store, message, userId, bits | FLAG_BITS.read);
    changed.push(id);
  }
  if (changed.length === 0) return null;
  return effect({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: changed, all: false }, [userId]);
}
