/**
 * User topic visibility (zerver/views/user_topics.py, zerver/actions/user_topics.py): each user may
 * mute, unmute (inside a muted channel) or follow a topic. POST /user_topics sets any policy; the
 * legacy PATCH /users/me/subscriptions/muted_topics (Python's `mute_topic`) mutes and unmutes by
 * channel id or name. The policies decide what counts as muted for unread counts, `in:home`,
 * `is:muted`, `is:followed` and the `first_unread` anchor (`isConversationMuted`).
 */
import { getStreamById, getStreamByName, canAccessStreamContent, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { topicKey } from '../messages/store.ts';
import { VISIBILITY_POLICY, type StreamRecord, type UserRecord, type UserTopicRecord, type VisibilityPolicy } from '../state.ts';

export const VISIBILITY_POLICIES: readonly VisibilityPolicy[] = Object.values(VISIBILITY_POLICY);

/** The key of a topic among one user's settings: the channel and the lower-cased topic. */
export function userTopicKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topicKey(topic)}`;
}

/** The user's policy for a topic; `inherit` (0) when they set none. */
export function topicVisibilityPolicy(engine: Engine, userId: number, streamId: number, topic: string): VisibilityPolicy {
  const topics = engine.state.userTopics.get(userId);
  // Most users set nothing: no key is built for them.
  if (topics === undefined || topics.size === 0) return VISIBILITY_POLICY.inherit;
  return topics.get(userTopicKey(streamId, topic))?.visibilityPolicy ?? VISIBILITY_POLICY.inherit;
}

export function isChannelMuted(engine: Engine, userId: number, streamId: number): boolean {
  return engine.state.subscriptions.get(streamId)?.get(userId)?.is_muted === true;
}

/**
 * Zulip's is_row_muted / exclude_muting_conditions: a muted topic is muted anywhere; a topic of a
 * muted channel is muted unless the user unmuted or follows it. With `insideChannel` (a narrow that
 * names the channel) the channel's own muting does not apply, only topic mutes.
 */
export function isConversationMuted(
  engine: Engine,
  userId: number,
  streamId: number,
  topic: string,
  options: { insideChannel?: boolean } = {},
): boolean {
  const policy = topicVisibilityPolicy(engine, userId, streamId, topic);
  if (policy === VISIBILITY_POLICY.muted) return true;
  if (options.insideChannel || !isChannelMuted(engine, userId, streamId)) return false;
  return policy !== VISIBILITY_POLICY.unmuted && policy !== VISIBILITY_POLICY.followed;
}

function userTopicObject(row: UserTopicRecord): Record<string, unknown> {
  return { stream_id: row.streamId, topic_name: row.topicName, last_updated: row.lastUpdated, visibility_policy: row.visibilityPolicy };
}

/**
 * The `user_topic` fetch type: every topic setting of the user, oldest change first; clients
 * without the empty_topic_name capability see the empty topic under the realm's name for it.
 */
export function userTopicsRegisterState(
  engine: Engine,
  user: UserRecord,
  options: { allowEmptyTopicName?: boolean } = {},
): { user_topics: Record<string, unknown>[] } {
  const rows = [...(engine.state.userTopics.get(user.id)?.values() ?? [])].map(userTopicObject);
  if (options.allowEmptyTopicName !== false) return { user_topics: rows };
  const fallback = engine.state.realm.realm_empty_topic_display_name;
  return { user_topics: rows.map((row) => (row.topic_name === '' ? { ...row, topic_name: fallback } : row)) };
}

/** Zulip's get_topic_mutes: the legacy `[[channel name, topic, muted at]]` of muted topics. */
function legacyMutedTopics(engine: Engine, userId: number): [string, string, number][] {
  const out: [string, string, number][] = [];
  for (const row of engine.state.userTopics.get(userId)?.values() ?? []) {
    if (row.visibilityPolicy !== VISIBILITY_POLICY.muted) continue;
    const stream = getStreamById(engine, row.streamId);
    if (stream) out.push([stream.name, row.topicName, row.lastUpdated]);
  }
  return out;
}

/** The legacy `muted_topics` fetch type. */
export function mutedTopicsRegisterState(engine: Engine, user: UserRecord): { muted_topics: [string, string, number][] } {
  return { muted_topics: legacyMutedTopics(engine, user.id) };
}

/**
 * do_set_user_topic_visibility_policy: store the policy (a change replaces the row, taking the
 * topic's new spelling); nothing changes, and nobody hears of it, when the topic already has that
 * policy. The user gets the legacy `muted_topics` list, then the `user_topic` event.
 */
export function setTopicVisibility(
  engine: Engine,
  user: UserRecord,
  stream: StreamRecord,
  topic: string,
  policy: VisibilityPolicy,
): Outcome<Record<string, never>> {
  const key = userTopicKey(stream.id, topic);
  let topics = engine.state.userTopics.get(user.id);
  const current = topics?.get(key);
  if ((current?.visibilityPolicy ?? VISIBILITY_POLICY.inherit) === policy) return outcome({});
  const lastUpdated = nowSeconds(engine);
  topics?.delete(key);
  if (policy !== VISIBILITY_POLICY.inherit) {
    if (!topics) engine.state.userTopics.set(user.id, (topics = new Map()));
    topics.set(key, { streamId: stream.id, topicName: topic, lastUpdated, visibilityPolicy: policy });
  }
  const events: Effect[] = [
    effect({ type: 'muted_topics', muted_topics: legacyMutedTopics(engine, user.id) }, [user.id]),
    effect({ type: 'user_topic', stream_id: stream.id, topic_name: topic, last_updated: lastUpdated, visibility_policy: policy }, [user.id]),
  ];
  return outcome({}, events);
}

/** access_stream_by_id: a channel the user can read, not archived. */
function accessStreamById(engine: Engine, user: UserRecord, streamId: number): StreamRecord {
  const stream = getStreamById(engine, streamId);
  if (!stream || stream.is_archived || !canAccessStreamContent(engine, user, stream)) throw ChatError.invalidChannelId();
  return stream;
}

/** access_stream_by_name: the same, named (case-insensitively). */
function accessStreamByName(engine: Engine, user: UserRecord, name: string): StreamRecord {
  const stream = getStreamByName(engine, name);
  if (!stream || stream.is_archived || !canAccessStreamContent(engine, user, stream)) {
    throw ChatError.badRequest(`Invalid channel name '${name}'`);
  }
  return stream;
}

/**
 * POST /user_topics. Removing a policy only needs the channel to exist (one may clear a setting of
 * a channel one can no longer read); setting one needs access to the channel.
 */
export function updateUserTopic(
  engine: Engine,
  user: UserRecord,
  params: { streamId: number; topic: string; visibilityPolicy: VisibilityPolicy },
): Outcome<Record<string, never>> {
  const stream =
    params.visibilityPolicy === VISIBILITY_POLICY.inherit ? getStreamById(engine, params.streamId) : accessStreamById(engine, user, params.streamId);
  if (!stream) throw ChatError.invalidChannelId();
  return setTopicVisibility(engine, user, stream, params.topic, params.visibilityPolicy);
}

/**
 * PATCH /users/me/subscriptions/muted_topics (update_muted_topic): exactly one of `stream_id` and
 * `stream`; `add` mutes (the channel must be readable), `remove` clears whatever policy the topic
 * has (the channel need only exist: `Topic is not muted` otherwise).
 */
export function updateMutedTopic(
  engine: Engine,
  user: UserRecord,
  params: { op: 'add' | 'remove'; topic: string; streamName: string | undefined; streamId: number | undefined },
): Outcome<Record<string, never>> {
  const { streamId, streamName } = params;
  // check_for_exactly_one_stream_arg: the more common stream_id is the one named as missing.
  if (streamId === undefined && streamName === undefined) throw ChatError.badRequest("Missing 'stream_id' argument");
  if (streamId !== undefined && streamName !== undefined) {
    throw ChatError.badRequest('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' });
  }
  if (params.op === 'add') {
    const stream = streamName !== undefined ? accessStreamByName(engine, user, streamName) : accessStreamById(engine, user, streamId!);
    return setTopicVisibility(engine, user, stream, params.topic, VISIBILITY_POLICY.muted);
  }
  const stream = streamName !== undefined ? getStreamByName(engine, streamName) : getStreamById(engine, streamId!);
  if (!stream) throw ChatError.badRequest('Topic is not muted');
  return setTopicVisibility(engine, user, stream, params.topic, VISIBILITY_POLICY.inherit);
}
