/**
 * Channels and subscriptions (reference §4): the Channel and Subscription objects, GET /streams,
 * subscribing (creating missing channels), POST /channels/create, subscription properties and
 * the channel email address.
 */
import {
  activeUsers,
  canAccessStreamContent,
  canAccessStreamMetadata,
  getStreamByName,
  isAdmin,
  isGuest,
  isOwner,
  isSubscribed,
  nowSeconds,
  subscribersOf,
  type Engine,
} from './engine.ts';
import { ChatError } from './errors.ts';
import { effect, outcome, type Effect, type Outcome } from './events.ts';
import { addStreamToIndexes, defaultChannelGroups, emailToken, newSubscription, pickColor } from './fixture.ts';
import { groupSettingForApi, isUserInGroup, isUserInGroupSetting } from './groups.ts';
import { md5Hex } from './md5.ts';
import { sendSubscriptionNotices } from './notifications.ts';
import { renderDescription } from './render.ts';
import {
  CHANNEL_GROUP_SETTINGS,
  nextId,
  type ChannelGroupSetting,
  type GroupSettingValue,
  type StreamRecord,
  type SubscriptionRecord,
  type TopicsPolicy,
  type UserRecord,
} from './state.ts';

const DAY = 86_400;

// ---------------------------------------------------------------- the Channel object

function streamPostPolicy(engine: Engine, stream: StreamRecord): number {
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
  const index = engine.state.messages.indexById.get(last);
  return index === undefined ? null : (engine.state.messages.messages[index]?.timestamp ?? null);
}

/** Messages per week over the last four weeks; null for channels younger than a week (as Zulip). */
function weeklyTraffic(engine: Engine, stream: StreamRecord): number | null {
  const now = nowSeconds(engine);
  const age = now - stream.date_created;
  if (age < 7 * DAY) return null;
  const since = now - 28 * DAY;
  let count = 0;
  const store = engine.state.messages;
  const ids = store.byStream.get(stream.id) ?? [];
  // Newest first, stopping at the first older message: ids grow with time, so this reads only
  // the last four weeks instead of the channel's whole history on every GET /streams.
  for (let i = ids.length - 1; i >= 0; i--) {
    const m = store.messages[store.indexById.get(ids[i]!)!];
    if (!m || m.timestamp < since) break;
    count++;
  }
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

export function formatStream(engine: Engine, stream: StreamRecord, options: { includeDefault?: boolean } = {}): Record<string, unknown> {
  const policy = streamPostPolicy(engine, stream);
  const out: Record<string, unknown> = {
    stream_id: stream.id,
    name: stream.name,
    is_archived: stream.is_archived,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    stream_post_policy: policy,
    is_announcement_only: policy === 2,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    topics_policy: stream.topics_policy,
    first_message_id: firstMessageId(engine, stream.id),
    folder_id: stream.folder_id,
    is_recently_active: isRecentlyActive(engine, stream),
    stream_weekly_traffic: weeklyTraffic(engine, stream),
    subscriber_count: subscribersOf(engine, stream.id).length,
  };
  for (const key of CHANNEL_GROUP_SETTINGS) out[key] = groupSettingForApi(engine, stream.groups[key]);
  if (options.includeDefault) out.is_default = engine.state.realm.default_stream_ids.has(stream.id);
  return out;
}

/** The Subscription object: Channel fields plus the user's settings (reference §4.4). */
export function formatSubscription(
  engine: Engine,
  stream: StreamRecord,
  sub: SubscriptionRecord,
  options: { includeSubscribers: boolean },
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...formatStream(engine, stream),
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    audible_notifications: sub.audible_notifications,
    push_notifications: sub.push_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
  };
  if (options.includeSubscribers) out.subscribers = subscribersOf(engine, stream.id);
  return out;
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

export function getStreams(engine: Engine, user: UserRecord, p: GetStreamsParams): Record<string, unknown>[] {
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
      if (p.include_web_public) for (const s of all) if (s.is_web_public) chosen.add(s.id);
      if (p.include_subscribed) for (const s of all) if (isSubscribed(engine, user.id, s.id)) chosen.add(s.id);
    }
    if (p.include_owner_subscribed && user.is_bot && user.bot_owner_id !== null) {
      for (const s of all) if (isSubscribed(engine, user.bot_owner_id, s.id)) chosen.add(s.id);
    }
    selected = all.filter((s) => chosen.has(s.id));
  }
  if (p.exclude_archived) selected = selected.filter((s) => !s.is_archived);
  // Code-point order, uppercase before lowercase, as Python sorts strings.
  selected.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return selected.map((s) => formatStream(engine, s, { includeDefault: p.include_default }));
}

// ---------------------------------------------------------------- validation helpers

/** check_stream_name (reference §4.1): stripped, non-empty, ≤ max length, no control characters. */
export function checkStreamName(engine: Engine, raw: string): string {
  const name = raw.trim();
  if (name === '') throw ChatError.badRequest("Channel name can't be empty.");
  const chars = [...name];
  const max = engine.state.realm.max_stream_name_length;
  if (chars.length > max) throw ChatError.badRequest(`Channel name too long (limit: ${max} characters).`);
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    const control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
    const surrogate = cp >= 0xd800 && cp <= 0xdfff;
    const nonChar = (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
    if (control || surrogate || nonChar) throw ChatError.badRequest(`Invalid character in channel name, at position ${i + 1}.`);
  });
  return name;
}

const HEX_COLOR = /^#([a-fA-F0-9]{3,6})$/;

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value);
}

/** message_retention_days: 'realm_default' → null, 'unlimited' → -1, positive integer days. */
export function parseRetentionDays(value: unknown): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw ChatError.badRequest(`Bad value for 'message_retention_days': ${String(value)}`);
}

/** A GroupSetting parameter: an existing group id (not role:internet) or {direct_members, direct_subgroups}. */
export function parseGroupSetting(engine: Engine, setting: string, value: unknown): GroupSettingValue {
  const groups = engine.state.userGroups;
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    const group = groups.get(value);
    if (!group || group.deactivated) throw ChatError.badRequest(`Invalid user group ID: ${value}`);
    if (group.name === 'role:internet') {
      throw ChatError.badRequest(`'${setting}' setting cannot be set to 'role:internet' group.`);
    }
    return value;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    for (const key of Object.keys(v)) {
      if (key !== 'direct_members' && key !== 'direct_subgroups') {
        throw ChatError.badRequest(`Argument "${key}" at ${setting} is unexpected`);
      }
    }
    const members = v.direct_members ?? [];
    const subgroups = v.direct_subgroups ?? [];
    if (!Array.isArray(members) || !members.every((m) => Number.isSafeInteger(m))) {
      throw ChatError.badRequest(`${setting}["direct_members"] is not a list`);
    }
    if (!Array.isArray(subgroups) || !subgroups.every((m) => Number.isSafeInteger(m))) {
      throw ChatError.badRequest(`${setting}["direct_subgroups"] is not a list`);
    }
    for (const id of members as number[]) {
      const u = engine.state.users.get(id);
      if (!u || !u.is_active || u.is_system_bot) throw ChatError.badRequest(`Invalid user ID: ${id}`);
    }
    for (const id of subgroups as number[]) {
      const g = groups.get(id);
      if (!g || g.deactivated) throw ChatError.badRequest(`Invalid user group ID: ${id}`);
    }
    return {
      direct_members: [...new Set(members as number[])].sort((a, b) => a - b),
      direct_subgroups: [...new Set(subgroups as number[])].sort((a, b) => a - b),
    };
  }
  throw ChatError.badRequest(`${setting} is not an integer`);
}

/** principals / subscribers: ids or emails → active users (`No such user` / `User is deactivated`). */
export function resolvePrincipals(engine: Engine, principals: readonly (number | string)[]): UserRecord[] {
  const out: UserRecord[] = [];
  const seen = new Set<number>();
  for (const principal of principals) {
    const user =
      typeof principal === 'number'
        ? engine.state.users.get(principal)
        : [...engine.state.users.values()].find(
            (u) =>
              u.email.toLowerCase() === principal.trim().toLowerCase() ||
              u.delivery_email.toLowerCase() === principal.trim().toLowerCase(),
          );
    if (!user || user.is_system_bot) throw ChatError.badRequest('No such user');
    if (!user.is_active) throw ChatError.badRequest('User is deactivated');
    if (!seen.has(user.id)) {
      seen.add(user.id);
      out.push(user);
    }
  }
  return out;
}

// ---------------------------------------------------------------- channel creation

export interface ChannelSettings {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers: boolean | null;
  /** Raw parameter: 'realm_default', 'unlimited' or days; undefined when not sent. */
  message_retention_days: unknown;
  topics_policy: TopicsPolicy | undefined;
  folder_id: number | undefined;
  groups: Partial<Record<ChannelGroupSetting, unknown>>;
}

interface ResolvedSettings {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers: boolean;
  message_retention_days: number | null;
  topics_policy: TopicsPolicy;
  folder_id: number | null;
  groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

/** Checks for creating channels of this kind, in Zulip's order (reference §4.5). */
function checkCreationSettings(engine: Engine, actor: UserRecord, s: ChannelSettings): ResolvedSettings {
  const realm = engine.state.realm;
  const kindGroup = s.is_web_public
    ? realm.can_create_web_public_channel_group
    : s.invite_only
      ? realm.can_create_private_channel_group
      : realm.can_create_public_channel_group;
  if (!isUserInGroup(engine, actor.id, kindGroup)) throw ChatError.insufficientPermission();
  if (s.is_default_stream && s.invite_only) throw ChatError.badRequest('A default channel cannot be private.');
  if (s.is_web_public && !realm.enable_spectator_access) throw ChatError.badRequest('Web-public channels are not enabled.');
  let retention: number | null = null;
  if (s.message_retention_days !== undefined) {
    retention = parseRetentionDays(s.message_retention_days);
    if (s.message_retention_days !== 'realm_default' && !isOwner(actor)) throw ChatError.ownerRequired();
  }
  if (s.folder_id !== undefined) throw ChatError.badRequest('Invalid channel folder ID');
  const groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>> = {};
  for (const key of CHANNEL_GROUP_SETTINGS) {
    if (s.groups[key] !== undefined) groups[key] = parseGroupSetting(engine, key, s.groups[key]);
  }
  // Public and web-public channels always show history to subscribers.
  const historyPublic = s.invite_only && !s.is_web_public ? (s.history_public_to_subscribers ?? false) : true;
  return {
    invite_only: s.invite_only && !s.is_web_public,
    is_web_public: s.is_web_public,
    is_default_stream: s.is_default_stream,
    history_public_to_subscribers: historyPublic,
    message_retention_days: retention,
    topics_policy: s.topics_policy ?? 'inherit',
    folder_id: null,
    groups,
  };
}

function doCreateStream(engine: Engine, actor: UserRecord, name: string, description: string, s: ResolvedSettings): StreamRecord {
  const state = engine.state;
  const text = description.replace(/\r?\n/g, ' ');
  const stream: StreamRecord = {
    id: nextId(state, 'stream'),
    name,
    description: text,
    rendered_description: renderDescription(state, text),
    date_created: nowSeconds(engine),
    creator_id: actor.id,
    invite_only: s.invite_only,
    is_web_public: s.is_web_public,
    history_public_to_subscribers: s.history_public_to_subscribers,
    is_archived: false,
    message_retention_days: s.message_retention_days,
    topics_policy: s.topics_policy,
    folder_id: s.folder_id,
    email_token: emailToken(engine.deps),
    recipient_id: nextId(state, 'recipient'),
    groups: { ...defaultChannelGroups(state, actor.id), ...s.groups },
  };
  addStreamToIndexes(state, stream);
  state.subscriptions.set(stream.id, new Map());
  if (s.is_default_stream) state.realm.default_stream_ids.add(stream.id);
  return stream;
}

/** Who hears about a channel: public → active non-guests, web-public → all active, private → admins. */
function streamAudience(engine: Engine, stream: StreamRecord): number[] {
  const users = activeUsers(engine);
  if (stream.is_web_public) return users.map((u) => u.id);
  if (!stream.invite_only) return users.filter((u) => !isGuest(u)).map((u) => u.id);
  return users.filter((u) => isAdmin(u)).map((u) => u.id);
}

function canAddSubscribers(engine: Engine, actor: UserRecord, stream: StreamRecord): boolean {
  if (isUserInGroupSetting(engine, actor.id, stream.groups.can_administer_channel_group)) return true;
  if (isUserInGroupSetting(engine, actor.id, stream.groups.can_add_subscribers_group)) return true;
  if (stream.invite_only && !isSubscribed(engine, actor.id, stream.id)) return false;
  return isUserInGroup(engine, actor.id, engine.state.realm.can_add_subscribers_group);
}

function canSubscribeSelf(engine: Engine, actor: UserRecord, stream: StreamRecord): boolean {
  if (canAccessStreamContent(engine, actor, stream)) return !isGuest(actor) || stream.is_web_public || isSubscribed(engine, actor.id, stream.id);
  return (
    isUserInGroupSetting(engine, actor.id, stream.groups.can_subscribe_group) ||
    isUserInGroupSetting(engine, actor.id, stream.groups.can_administer_channel_group)
  );
}

/** Subscribe users to channels; returns who was newly subscribed (by user id) and the events. */
function doSubscribe(
  engine: Engine,
  streams: StreamRecord[],
  users: UserRecord[],
  colors: Map<number, string>,
  created: Set<number>,
  events: Effect[],
): { subscribed: Map<number, StreamRecord[]>; already: Map<number, StreamRecord[]> } {
  const subscribed = new Map<number, StreamRecord[]>();
  const already = new Map<number, StreamRecord[]>();
  const state = engine.state;
  const newlyByStream = new Map<number, number[]>();
  for (const user of users) {
    for (const stream of streams) {
      const subs = state.subscriptions.get(stream.id)!;
      const existing = subs.get(user.id);
      if (existing?.active) {
        if (!already.has(user.id)) already.set(user.id, []);
        already.get(user.id)!.push(stream);
        continue;
      }
      const color = colors.get(stream.id) ?? existing?.color ?? pickColor(state, user.id);
      if (existing) {
        existing.active = true;
        existing.color = color;
      } else subs.set(user.id, newSubscription(color));
      if (!subscribed.has(user.id)) subscribed.set(user.id, []);
      subscribed.get(user.id)!.push(stream);
      if (!newlyByStream.has(stream.id)) newlyByStream.set(stream.id, []);
      newlyByStream.get(stream.id)!.push(user.id);
    }
  }
  // Private channels just created are announced to their new subscribers too.
  for (const stream of streams) {
    if (!created.has(stream.id) || !stream.invite_only) continue;
    const newcomers = (newlyByStream.get(stream.id) ?? []).filter((id) => !isAdmin(state.users.get(id)!));
    if (newcomers.length > 0) {
      events.push(effect({ type: 'stream', op: 'create', streams: [formatStream(engine, stream)] }, newcomers));
    }
  }
  for (const [userId, list] of subscribed) {
    events.push(
      effect(
        {
          type: 'subscription',
          op: 'add',
          subscriptions: list.map((s) => formatSubscription(engine, s, state.subscriptions.get(s.id)!.get(userId)!, { includeSubscribers: true })),
        },
        [userId],
      ),
    );
  }
  for (const [streamId, newcomers] of newlyByStream) {
    const stream = state.streams.get(streamId)!;
    const newSet = new Set(newcomers);
    const peers = stream.invite_only
      ? subscribersOf(engine, streamId).filter((id) => !newSet.has(id))
      : streamAudience(engine, stream).filter((id) => !newSet.has(id));
    if (peers.length > 0) {
      events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [...newcomers].sort((a, b) => a - b) }, peers));
    }
  }
  return { subscribed, already };
}

export interface SubscribeRequestItem {
  name: string;
  description?: string;
  color?: string;
}

export interface SubscribeParams extends ChannelSettings {
  subscriptions: SubscribeRequestItem[];
  principals: (number | string)[];
  authorization_errors_fatal: boolean;
  announce: boolean;
  send_new_subscription_messages: boolean;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
  new_subscription_messages_sent?: boolean;
}

export function subscribe(engine: Engine, actor: UserRecord, p: SubscribeParams): Outcome<SubscribeResult> {
  // ---- check
  const names: { name: string; item: SubscribeRequestItem }[] = [];
  for (const item of p.subscriptions) {
    const name = checkStreamName(engine, item.name);
    if (!names.some((n) => n.name.toLowerCase() === name.toLowerCase())) names.push({ name, item });
  }
  const principals = p.principals.length > 0 ? resolvePrincipals(engine, p.principals) : [actor];
  const existing: StreamRecord[] = [];
  const toCreate: { name: string; item: SubscribeRequestItem }[] = [];
  for (const n of names) {
    const stream = getStreamByName(engine, n.name);
    if (stream) existing.push(stream);
    else toCreate.push(n);
  }
  const settings = toCreate.length > 0 ? checkCreationSettings(engine, actor, p) : null;
  const authorized: StreamRecord[] = [];
  const unauthorized: StreamRecord[] = [];
  for (const stream of existing) {
    const ok = canSubscribeSelf(engine, actor, stream) || canAccessStreamMetadata(engine, actor, stream) && isAdmin(actor) && !stream.invite_only;
    (ok ? authorized : unauthorized).push(stream);
  }
  if (unauthorized.length > 0 && p.authorization_errors_fatal) {
    throw ChatError.badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
  }
  const others = principals.some((u) => u.id !== actor.id);
  if (others) {
    for (const stream of authorized) if (!canAddSubscribers(engine, actor, stream)) throw ChatError.insufficientPermission();
  }

  // ---- do
  const events: Effect[] = [];
  const created = new Set<number>();
  const colors = new Map<number, string>();
  const streams: StreamRecord[] = [...authorized];
  for (const { name, item } of toCreate) {
    const stream = doCreateStream(engine, actor, name, item.description ?? '', settings!);
    created.add(stream.id);
    streams.push(stream);
    const audience = streamAudience(engine, stream);
    if (audience.length > 0) events.push(effect({ type: 'stream', op: 'create', streams: [formatStream(engine, stream)] }, audience));
  }
  for (const { name, item } of names) {
    if (item.color) colors.set(getStreamByName(engine, name)!.id, item.color);
  }
  // Streams in request order.
  const order = new Map(names.map((n, i) => [n.name.toLowerCase(), i]));
  streams.sort((a, b) => order.get(a.name.toLowerCase())! - order.get(b.name.toLowerCase())!);
  const { subscribed, already } = doSubscribe(engine, streams, principals, colors, created, events);
  const notices = sendSubscriptionNotices(engine, {
    actor,
    subscribed,
    created: streams.filter((s) => created.has(s.id)),
    announce: p.announce,
    sendSubscriptionMessages: p.send_new_subscription_messages,
  });
  events.push(...notices.events);
  const result: SubscribeResult = {
    subscribed: keyed(subscribed),
    already_subscribed: keyed(already),
  };
  if (!p.authorization_errors_fatal) result.unauthorized = unauthorized.map((s) => s.name);
  if (p.send_new_subscription_messages) result.new_subscription_messages_sent = notices.sent;
  return outcome(result, events);
}

function keyed(map: Map<number, StreamRecord[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [userId, list] of [...map.entries()].sort((a, b) => a[0] - b[0])) out[String(userId)] = list.map((s) => s.name);
  return out;
}

export interface CreateChannelParams extends ChannelSettings {
  name: string;
  subscribers: number[];
  description: string;
  announce: boolean;
  send_new_subscription_messages: boolean;
}

export function createChannel(engine: Engine, actor: UserRecord, p: CreateChannelParams): Outcome<{ id: number }> {
  const name = checkStreamName(engine, p.name);
  const taken = getStreamByName(engine, name);
  if (taken) throw new ChatError('CHANNEL_ALREADY_EXISTS', `Channel '${taken.name}' already exists`);
  const max = engine.state.realm.max_stream_description_length;
  if ([...p.description].length > max) throw ChatError.badRequest(`description is too long (limit: ${max} characters)`);
  const settings = checkCreationSettings(engine, actor, p);
  if (
    p.groups.can_create_topic_group !== undefined &&
    settings.invite_only &&
    !settings.history_public_to_subscribers &&
    settings.groups.can_create_topic_group !== engine.state.realm.system_groups['role:everyone']
  ) {
    throw ChatError.badRequest(
      "'can_create_topic_group' setting must be 'role:everyone' for private channels with protected history.",
    );
  }
  const users = resolvePrincipals(engine, p.subscribers);
  const others = users.some((u) => u.id !== actor.id);
  if (others && !isUserInGroup(engine, actor.id, engine.state.realm.can_add_subscribers_group)) {
    throw ChatError.insufficientPermission();
  }
  const events: Effect[] = [];
  const stream = doCreateStream(engine, actor, name, p.description, settings);
  const audience = streamAudience(engine, stream);
  if (audience.length > 0) events.push(effect({ type: 'stream', op: 'create', streams: [formatStream(engine, stream)] }, audience));
  const { subscribed } = doSubscribe(engine, [stream], users, new Map(), new Set([stream.id]), events);
  const notices = sendSubscriptionNotices(engine, {
    actor,
    subscribed,
    created: [stream],
    announce: p.announce,
    sendSubscriptionMessages: p.send_new_subscription_messages,
  });
  events.push(...notices.events);
  return outcome({ id: stream.id }, events);
}

// ---------------------------------------------------------------- subscription properties

export const SUBSCRIPTION_PROPERTIES = [
  'color',
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

export function updateSubscriptionProperties(engine: Engine, actor: UserRecord, changes: PropertyChange[]): Outcome<Record<string, never>> {
  const checked: { stream: StreamRecord; sub: SubscriptionRecord; property: SubscriptionProperty; value: string | boolean }[] = [];
  for (const change of changes) {
    if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(change.property)) {
      throw ChatError.badRequest(`Unknown subscription property: ${change.property}`);
    }
    const property = change.property as SubscriptionProperty;
    const stream = engine.state.streams.get(change.stream_id);
    if (!stream || !canAccessStreamMetadata(engine, actor, stream)) throw ChatError.invalidChannelId();
    const sub = engine.state.subscriptions.get(stream.id)?.get(actor.id);
    if (!sub?.active) throw ChatError.badRequest(`Not subscribed to channel ID ${stream.id}`);
    if (property === 'color') {
      if (typeof change.value !== 'string') throw ChatError.badRequest('color is not a string');
      if (!isHexColor(change.value)) throw ChatError.badRequest('color is not a valid hex color code');
    } else if (typeof change.value !== 'boolean') {
      throw ChatError.badRequest(`${property} is not a boolean`);
    }
    checked.push({ stream, sub, property, value: change.value as string | boolean });
  }
  const events: Effect[] = [];
  for (const { stream, sub, property, value } of checked) {
    const send = (prop: string, v: unknown): void => {
      events.push(effect({ type: 'subscription', op: 'update', stream_id: stream.id, property: prop, value: v }, [actor.id]));
    };
    if (property === 'is_muted' || property === 'in_home_view') {
      sub.is_muted = property === 'is_muted' ? (value as boolean) : !(value as boolean);
      // Zulip sends the legacy in_home_view event first, then is_muted.
      send('in_home_view', !sub.is_muted);
      send('is_muted', sub.is_muted);
      continue;
    }
    if (property === 'color') sub.color = value as string;
    else (sub as unknown as Record<string, unknown>)[property] = value;
    send(property, value);
  }
  return outcome({}, events);
}

// ---------------------------------------------------------------- channel email address

/** Django's slugify after Zulip's non-word → '-' step; '' when non-ASCII letters would be lost. */
function emailSlug(name: string): string {
  const dashed = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const ascii = dashed.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (/[^\x00-\x7f]/.test(ascii)) return '';
  return ascii
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

export function streamEmailAddress(engine: Engine, actor: UserRecord, streamId: number, senderId: number | undefined): string {
  const stream = engine.state.streams.get(streamId);
  if (!stream || !canAccessStreamContent(engine, actor, stream)) throw ChatError.invalidChannelId();
  if (!isUserInGroupSetting(engine, actor.id, stream.groups.can_send_message_group)) {
    throw ChatError.badRequest('You do not have permission to post in this channel.');
  }
  const gateway = [...engine.state.users.values()].find((u) => u.is_system_bot && u.delivery_email.startsWith('emailgateway@'));
  let sender = senderId ?? gateway?.id ?? actor.id;
  if (senderId !== undefined && senderId !== actor.id && senderId !== gateway?.id) {
    const bot = engine.state.users.get(senderId);
    if (!bot || !bot.is_bot || bot.is_system_bot) throw ChatError.badRequest('No such bot');
    if (!isAdmin(actor) && bot.bot_owner_id !== actor.id) throw ChatError.insufficientPermission();
    sender = bot.id;
  }
  // One address per channel and sender (Zulip's ChannelEmailAddress): derived from the channel's secret.
  const token = sender === gateway?.id ? stream.email_token : md5Hex(`${stream.email_token}:${sender}`);
  const slug = emailSlug(stream.name);
  const local = `${slug ? `${slug}.` : ''}${token}.show-sender`;
  return engine.state.realm.email_gateway_pattern.replace('%s', local);
}

// ---------------------------------------------------------------- listing and leaving subscriptions

/** GET /users/me/subscriptions: the caller's active subscriptions, by channel name. */
export function listSubscriptions(engine: Engine, user: UserRecord, includeSubscribers: boolean): Record<string, unknown>[] {
  const out: { name: string; value: Record<string, unknown> }[] = [];
  for (const [streamId, subs] of engine.state.subscriptions) {
    const sub = subs.get(user.id);
    if (!sub?.active) continue;
    const stream = engine.state.streams.get(streamId)!;
    out.push({ name: stream.name, value: formatSubscription(engine, stream, sub, { includeSubscribers }) });
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out.map((o) => o.value);
}

/** GET /get_stream_id: a channel the caller can see, by name. */
export function streamIdByName(engine: Engine, user: UserRecord, name: string): number {
  const stream = getStreamByName(engine, name);
  if (!stream || !canAccessStreamMetadata(engine, user, stream)) throw ChatError.badRequest(`Invalid channel name '${name}'`);
  return stream.id;
}

export interface UnsubscribeParams {
  subscriptions: string[];
  principals: (number | string)[];
}

/** DELETE /users/me/subscriptions: `removed` / `not_removed` channel names. */
export function unsubscribe(engine: Engine, actor: UserRecord, p: UnsubscribeParams): Outcome<{ removed: string[]; not_removed: string[] }> {
  const users = p.principals.length > 0 ? resolvePrincipals(engine, p.principals) : [actor];
  const streams: StreamRecord[] = [];
  const missing: string[] = [];
  for (const raw of p.subscriptions) {
    const stream = getStreamByName(engine, raw);
    if (!stream || !canAccessStreamMetadata(engine, actor, stream)) missing.push(raw.trim());
    else if (!streams.includes(stream)) streams.push(stream);
  }
  if (missing.length > 0) throw ChatError.badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  if (users.some((u) => u.id !== actor.id)) {
    for (const stream of streams) {
      if (!isUserInGroupSetting(engine, actor.id, stream.groups.can_remove_subscribers_group) && !isAdmin(actor)) {
        throw ChatError.insufficientPermission();
      }
    }
  }
  const events: Effect[] = [];
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const user of users) {
    const left: StreamRecord[] = [];
    for (const stream of streams) {
      const sub = engine.state.subscriptions.get(stream.id)?.get(user.id);
      if (!sub?.active) {
        notRemoved.push(stream.name);
        continue;
      }
      sub.active = false;
      left.push(stream);
      removed.push(stream.name);
    }
    if (left.length === 0) continue;
    events.push(
      effect({ type: 'subscription', op: 'remove', subscriptions: left.map((s) => ({ name: s.name, stream_id: s.id })) }, [user.id]),
    );
    for (const stream of left) {
      const peers = stream.invite_only ? subscribersOf(engine, stream.id) : streamAudience(engine, stream).filter((id) => id !== user.id);
      if (peers.length > 0) {
        events.push(effect({ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: [user.id] }, peers));
      }
    }
  }
  return outcome({ removed, not_removed: notRemoved }, events);
}
