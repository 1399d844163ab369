/**
 * A channel's topics (zerver/views/streams.py): GET /users/me/{stream_id}/topics lists them
 * newest first, and POST /streams/{stream_id}/delete_topic deletes one, in Zulip's batches.
 */
import { accessStreamById } from './access.ts';
import type { Engine } from '../core.ts';
import { outcome, type Effect, type Outcome } from '../events/effects.ts';
import { deleteMessages } from '../messages/delete.ts';
import { channelMessageFilter } from '../messages/permissions.ts';
import { getMessage, topicKey, userFlagBits } from '../messages/store.ts';
import { VISIBILITY_POLICY, type StreamRecord, type UserRecord } from '../state.ts';
import { setTopicVisibility, userTopicKey } from './user-topics.ts';

export interface TopicEntry {
  name: string;
  max_id: number;
}

/** zerver/lib/retention.py STREAM_MESSAGE_BATCH_SIZE: delete_topic removes this many messages per step. */
export const TOPIC_DELETION_BATCH_SIZE = 100;

/**
 * get_topic_history_for_stream: one entry per topic (topics match case-insensitively), named as
 * its newest message spells it, sorted by that message's id, newest first. With protected
 * history only the messages the caller received count. Archived channels still list their topics:
 * their messages stay readable.
 */
export function streamTopics(engine: Engine, user: UserRecord, streamId: number, allowEmptyTopicName: boolean): TopicEntry[] {
  const stream = accessStreamById(engine, user, streamId, { requireActive: false });
  const store = engine.state.messages;
  const topics = store.byTopic.get(stream.id);
  if (!topics) return [];
  const received = (id: number): boolean => userFlagBits(getMessage(store, id)!, user.id) !== undefined;
  const out: TopicEntry[] = [];
  for (const ids of topics.values()) {
    let newest: number | undefined;
    for (let i = ids.length - 1; i >= 0; i--) {
      if (stream.history_public_to_subscribers || received(ids[i]!)) {
        newest = ids[i];
        break;
      }
    }
    if (newest === undefined) continue;
    const topic = getMessage(store, newest)!.topic;
    const name = topic === '' && !allowEmptyTopicName ? engine.state.realm.realm_empty_topic_display_name : topic;
    out.push({ name, max_id: newest });
  }
  return out.sort((a, b) => b.max_id - a.max_id);
}

/**
 * delete_in_topic (administrators only, checked by the route): the topic's messages the caller can
 * act on, newest first, deleted TOPIC_DELETION_BATCH_SIZE at a time with each batch's events.
 * Upstream stops after 50 s of work and answers `complete: false`; the simulated server never runs
 * out of time, so one call always finishes. The topic being gone, its visibility settings go too:
 * every user's (in a channel with protected history, only theirs who kept no message of it).
 */
export function deleteTopic(engine: Engine, actor: UserRecord, streamId: number, topicName: string): Outcome<{ complete: boolean }> {
  const stream = accessStreamById(engine, actor, streamId);
  // maybe_rename_general_chat_to_empty_topic: clients that do not know the empty topic name it so.
  const topic = topicName === engine.state.realm.realm_empty_topic_display_name ? '' : topicName;
  const store = engine.state.messages;
  const mayDelete = channelMessageFilter(engine, actor, stream);
  const ids = (store.byTopic.get(stream.id)?.get(topicKey(topic)) ?? [])
    .filter((id) => mayDelete(getMessage(store, id)!))
    .sort((a, b) => b - a);
  const events: Effect[] = [];
  for (let start = 0; start < ids.length; start += TOPIC_DELETION_BATCH_SIZE) {
    events.push(...deleteMessages(engine, ids.slice(start, start + TOPIC_DELETION_BATCH_SIZE), actor.id));
  }
  events.push(...clearTopicSettings(engine, stream, topic));
  return outcome({ complete: true }, events);
}

function clearTopicSettings(engine: Engine, stream: StreamRecord, topic: string): Effect[] {
  const key = userTopicKey(stream.id, topic);
  const store = engine.state.messages;
  const remaining = store.byTopic.get(stream.id)?.get(topicKey(topic)) ?? [];
  const keptSome = (userId: number): boolean => remaining.some((id) => userFlagBits(getMessage(store, id)!, userId) !== undefined);
  const events: Effect[] = [];
  for (const [userId, topics] of [...engine.state.userTopics].sort((a, b) => a[0] - b[0])) {
    if (!topics.has(key)) continue;
    if (!stream.history_public_to_subscribers && keptSome(userId)) continue;
    const user = engine.state.users.get(userId);
    if (user) events.push(...setTopicVisibility(engine, user, stream, topic, VISIBILITY_POLICY.inherit).events);
  }
  return events;
}
