/**
 * Channels, read side (zerver/views/streams.py, zerver/lib/streams.py): the Channel and Subscription objects, GET /streams
 * and lookup by name. Creation lives in settings.ts, subscribing in subscriptions.ts.
 */
import {
  canAccessStreamContent,
  canAccessStreamMetadata,
  getStreamByName,
  isAdmin,
  isGuest,
  isSubscribed,
  nowSeconds,
  subscriberCount,
  subscribersOf,
  type Engine,
} from '../core.ts';
import type { Channel } from '../../../schemas/generated/types/chat/channel.ts';
import type { Subscription } from '../../../schemas/generated/types/chat/subscription.ts';
import { ChatError } from '../errors.ts';
import { effect, type Effect } from '../events/effects.ts';
import { countSentSince, getMessage } from '../messages/store.ts';
import { groupSettingForApi } from '../groups/groups.ts';
import {
  type ChannelGroupSetting,
  type GroupSettingValue,
  type StreamRecord,
  type SubscriptionRecord,
  type UserRecord,
} from '../state.ts';

const DAY = 86_400;

// ---------------------------------------------------------------- the Channel object

/** get_stream_post_policy_value_based_on_group_setting: the legacy stream_post_policy number. */
export function streamPostPolicy(engine: Engine, stream: StreamRecord): number {
  const g = engine.state.realm.system_groups;
  const value = stream.groups.can_send_message_group;
  if (value === g['role:administrators']) return 2;
  if (value === g['role:fullmembers']) return 3;
  if (value === g['role:moderators']) return 4;
  return 1;
}

function firstMessageId(engine: Engine, streamId: number): number | null {
  return engine.state.messages.byStream.get(streamId)?.[0] ?? null;
}

function lastMessageTimestamp(engine: Engine, streamId: number): number | null {
  const ids = engine.state.messages.byStream.get(streamId);
  const last = ids?.[ids.length - 1];
  if (last === undefined) return null;
  return getMessage(engine.state.messages, last)?.timestamp ?? null;
}

/** Messages per week over the last four weeks; null for channels younger than a week (as Zulip). */
function weeklyTraffic(engine: Engine, stream: StreamRecord): number | null {
  const now = nowSeconds(engine);
  const age = now - stream.date_created;
  if (age < 7 * DAY) return null;
  const store = engine.state.messages;
  const count = countSentSince(store, store.byStream.get(stream.id) ?? [], now - 28 * DAY);
  const weeks = Math.min(28 * DAY, age) / (7 * DAY);
  const perWeek = count / weeks;
  if (perWeek === 0) return 0;
  // Two significant digits, like Zulip's round_to_2_significant_digits.
  const digits = Math.floor(Math.log10(perWeek)) + 1;
  const factor = 10 ** (2 - digits);
  return Math.round(Math.round(perWeek * factor) / factor);
}

function isRecentlyActive(engine: Engine, stream: StreamRecord): boolean {
  const horizon = nowSeconds(engine) - 180 * DAY;
  const last = lastMessageTimestamp(engine, stream.id);
  return stream.date_created >= horizon || (last !== null && last >= horizon);
}

export function formatStream(engine: Engine, stream: StreamRecord, options: { includeDefault?: boolean } = {}): Channel {
  const policy = streamPostPolicy(engine, stream);
  const group = (key: ChannelGroupSetting): GroupSettingValue => groupSettingForApi(engine, stream.groups[key]);
  // Every field in one literal (the Channel type holds it to CHANNEL_GROUP_SETTINGS): the settings
  // gathered in a loop and spread in allocated markedly more per channel, and each young-generation
  // collection that allocation brings on is costly when a million messages are stored (it visits
  // every old page).
  const out: Channel = {
    stream_id: stream.id,
    name: stream.name,
    is_archived: stream.is_archived,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    stream_post_policy: policy as Channel['stream_post_policy'],
    is_announcement_only: policy === 2,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    topics_policy: stream.topics_policy,
    first_message_id: firstMessageId(engine, stream.id),
    folder_id: stream.folder_id,
    is_recently_active: isRecentlyActive(engine, stream),
    stream_weekly_traffic: weeklyTraffic(engine, stream),
    subscriber_count: subscriberCount(engine, stream.id),
    can_add_subscribers_group: group('can_add_subscribers_group'),
    can_administer_channel_group: group('can_administer_channel_group'),
    can_create_topic_group: group('can_create_topic_group'),
    can_delete_any_message_group: group('can_delete_any_message_group'),
    can_delete_own_message_group: group('can_delete_own_message_group'),
    can_move_messages_out_of_channel_group: group('can_move_messages_out_of_channel_group'),
    can_move_messages_within_channel_group: group('can_move_messages_within_channel_group'),
    can_remove_subscribers_group: group('can_remove_subscribers_group'),
    can_resolve_topics_group: group('can_resolve_topics_group'),
    can_send_message_group: group('can_send_message_group'),
    can_subscribe_group: group('can_subscribe_group'),
  };
  if (options.includeDefault) out.is_default = engine.state.realm.default_stream_ids.has(stream.id);
  return out;
}

/** The Subscription object: Channel fields plus the user's settings (zerver/lib/subscription_info.py). */
export function formatSubscription(
  engine: Engine,
  stream: StreamRecord,
  sub: SubscriptionRecord,
  options: { includeSubscribers: boolean },
): Subscription {
  // The settings are added to the Channel object itself: spreading its thirty fields into a new
  // object costs V8 ten times as much (a slow dictionary object, slow to serialise too).
  const out: Subscription = Object.assign(formatStream(engine, stream), {
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    audible_notifications: sub.audible_notifications,
    push_notifications: sub.push_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
  });
  if (options.includeSubscribers) out.subscribers = subscribersOf(engine, stream.id);
  return out;
}

/** The `stream` `delete` event: the channels a user can no longer see. */
export function streamDeletionEvent(streams: readonly StreamRecord[], users: Iterable<number>, forArchiving = false): Effect {
  return effect(
    {
      type: 'stream',
      op: 'delete',
      // `streams` is deprecated, kept for older clients.
      streams: streams.map((s) => ({ stream_id: s.id })),
      stream_ids: streams.map((s) => s.id),
      for_archiving: forArchiving,
    },
    users,
  );
}

// ---------------------------------------------------------------- GET /streams

export interface GetStreamsParams {
  include_public: boolean;
  include_web_public: boolean;
  include_subscribed: boolean;
  exclude_archived: boolean;
  include_all: boolean;
  include_all_active: boolean;
  include_default: boolean;
  include_owner_subscribed: boolean;
  include_can_access_content: boolean;
}

/**
 * Python's string order: by code point. JavaScript's `<` compares UTF-16 units, which puts an
 * astral character (a surrogate pair, 0xD800…) before U+E000…U+FFFF; only then do they differ.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && x <= 0xdfff && y >= 0xe000) return 1;
    if (y >= 0xd800 && y <= 0xdfff && x >= 0xe000) return -1;
    return x - y;
  }
  return a.length - b.length;
}

export function getStreams(engine: Engine, user: UserRecord, p: GetStreamsParams): Channel[] {
  // The spec keeps the deprecated alias admin-only (older servers' behaviour).
  if (p.include_all_active && !isAdmin(user)) throw ChatError.badRequest('User not authorized for this query');
  const includeAll = p.include_all || p.include_all_active;
  const all = [...engine.state.streams.values()];
  let selected: StreamRecord[];
  if (includeAll) {
    selected = all.filter((s) => canAccessStreamMetadata(engine, user, s));
  } else {
    const chosen = new Set<number>();
    if (p.include_can_access_content) {
      for (const s of all) if (canAccessStreamContent(engine, user, s)) chosen.add(s.id);
    } else {
      if (p.include_public && !isGuest(user)) for (const s of all) if (!s.invite_only) chosen.add(s.id);
      // get_web_public_streams_queryset: archived web-public channels are not a source.
      if (p.include_web_public) for (const s of all) if (s.is_web_public && !s.is_archived) chosen.add(s.id);
      if (p.include_subscribed) for (const s of all) if (isSubscribed(engine, user.id, s.id)) chosen.add(s.id);
    }
    if (p.include_owner_subscribed && user.is_bot && user.bot_owner_id !== null) {
      for (const s of all) if (isSubscribed(engine, user.bot_owner_id, s.id)) chosen.add(s.id);
    }
    selected = all.filter((s) => chosen.has(s.id));
  }
  if (p.exclude_archived) selected = selected.filter((s) => !s.is_archived);
  // Code-point order, uppercase before lowercase, as Python sorts strings.
  selected.sort((a, b) => compareCodePoints(a.name, b.name));
  return selected.map((s) => formatStream(engine, s, { includeDefault: p.include_default }));
}

/**
 * The `stream` fetch type: every channel whose metadata the user can see, as GET
 * /streams?include_all=true lists them (archived ones only for `archived_channels` clients).
 */
export function streamState(engine: Engine, user: UserRecord, options: { archivedChannels: boolean }): Record<string, unknown> {
  const streams = getStreams(engine, user, {
    include_public: true,
    include_web_public: true,
    include_subscribed: true,
    exclude_archived: !options.archivedChannels,
    include_all: true,
    include_all_active: false,
    include_default: false,
    include_owner_subscribed: false,
    include_can_access_content: false,
  });
  return { streams };
}

/** The `default_streams` fetch type: the default channels' IDs (none for guests). */
export function defaultStreamsState(engine: Engine, user: UserRecord): Record<string, unknown> {
  return { realm_default_streams: isGuest(user) ? [] : [...engine.state.realm.default_stream_ids].sort((a, b) => a - b) };
}

/** GET /get_stream_id: a channel the caller can see, by name. */
export function streamIdByName(engine: Engine, user: UserRecord, name: string): number {
  const stream = getStreamByName(engine, name);
  // access_stream_by_name requires content access: an administrator outside a private channel
  // gets the same answer as for a channel that does not exist.
  if (!stream || !canAccessStreamContent(engine, user, stream)) throw ChatError.badRequest(`Invalid channel name '${name}'`);
  return stream.id;
}
