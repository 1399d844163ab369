// Message deletion (Zulip's do_delete_messages): messages leave the store and every index, and
// one `delete_message` event goes out per conversation (channel topic or DM conversation).
// Used when an administrator deactivates a user with the delete_*_messages actions.
import { effect, type Effect } from '../events.ts';
import { subscribersOf, type Engine } from '../core.ts';
import { canAccessStreamHistory } from './access.ts';
import { dmKey, getMessage, removeMessages, rowUserIds, topicKey, type StoredMessage } from './store.ts';

export interface DeleteKinds {
  publicChannels: boolean;
  privateChannels: boolean;
  directMessages: boolean;
}

function conversationKey(m: StoredMessage): string {
  return m.streamId !== null ? `s${m.streamId}:${topicKey(m.topic)}` : `d${dmKey(m.dmUserIds ?? [])}`;
}

/** Delete the given messages; returns the delete_message events (grouped per conversation). */
export function deleteMessages(engine: Engine, ids: Iterable<number>): Effect[] {
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
  for (const messages of groups.values()) {
    const first = messages[0]!;
    const messageIds = messages.map((m) => m.id).sort((a, b) => a - b);
    const users = new Set(messages.flatMap(rowUserIds));
    if (first.streamId === null) {
      events.push(effect({ type: 'delete_message', message_ids: messageIds, message_type: 'private' }, users));
      continue;
    }
    const stream = engine.state.streams.get(first.streamId);
    if (stream) {
      for (const id of subscribersOf(engine, stream.id)) {
        const user = engine.state.users.get(id);
        if (user && canAccessStreamHistory(engine, user, stream)) users.add(id);
      }
    }
    events.push(
      effect({ type: 'delete_message', message_ids: messageIds, message_type: 'stream', stream_id: first.streamId, topic: first.topic }, users),
    );
  }
  removeMessages(store, new Set([...groups.values()].flat().map((m) => m.id)));
  return events;
}

/** Every message a user sent, of the requested kinds (channel privacy decides public/private). */
export function deleteMessagesBySender(engine: Engine, userId: number, kinds: DeleteKinds): Effect[] {
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
  return deleteMessages(engine, ids);
}
