/**
 * Subscriptions (zerver/views/streams.py, zerver/lib/streams.py): subscribing (creating missing channels), POST
 * /channels/create, listing and leaving, and per-user subscription properties.
 */
import {
  canAccessStreamContent,
  canAccessStreamMetadata,
  getStreamByName,
  isAdmin,
  isGuest,
  subscribersOf,
  type Engine,
} from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { newSubscription, pickColor } from '../fixture.ts';
import { isUserInGroupSetting } from '../core.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import { markStreamMessagesAsRead } from '../messages/read.ts';
import { sendSubscriptionNotices } from './notifications.ts';
import type { StreamRecord, SubscriptionRecord, UserRecord } from '../state.ts';
import {
  checkCreationSettings,
  checkSettingValues,
  checkStreamName,
  doCreateStream,
  isHexColor,
  resolvePrincipals,
  peerAudience,
  streamAudience,
  type ChannelSettings,
} from './settings.ts';
import { compareCodePoints, formatStream, formatSubscription, streamDeletionEvent } from './channels.ts';
import { streamNotificationDefaults } from '../users/settings.ts';
import type { Subscription } from '../../../schemas/generated/types/chat/subscription.ts';

/**
 * get_streams_to_which_user_cannot_add_subscribers, for a channel the actor can already read:
 * the realm's can_add_subscribers_group covers every such channel; otherwise administrators,
 * the channel's administrators and its can_add_subscribers_group may.
 */
export function canAddSubscribers(engine: Engine, actor: UserRecord, stream: StreamRecord): boolean {
  if (isGuest(actor)) return false;
  if (hasRealmGroupPermission(engine, actor, 'can_add_subscribers_group')) return true;
  if (isAdmin(actor)) return true;
  return (
    isUserInGroupSetting(engine, actor.id, stream.groups.can_administer_channel_group) ||
    isUserInGroupSetting(engine, actor.id, stream.groups.can_add_subscribers_group)
  );
}

/** Subscribe users to channels; returns who was newly subscribed (by user id) and the events. */
function doSubscribe(
  engine: Engine,
  streams: StreamRecord[],
  users: UserRecord[],
  colors: Map<number, string>,
  /** Channels created by this request → who already got their stream/create event. */
  created: Map<number, number[]>,
  events: Effect[],
): { subscribed: Map<number, StreamRecord[]>; already: Map<number, StreamRecord[]> } {
  const subscribed = new Map<number, StreamRecord[]>();
  const already = new Map<number, StreamRecord[]>();
  const state = engine.state;
  const newlyByStream = new Map<number, number[]>();
  /** Channel → new subscribers who could not see it before (they hear of it as created). */
  const newlyVisible = new Map<number, number[]>();
  for (const user of users) {
    for (const stream of streams) {
      const subs = state.subscriptions.get(stream.id)!;
      const existing = subs.get(user.id);
      if (existing?.active) {
        if (!already.has(user.id)) already.set(user.id, []);
        already.get(user.id)!.push(stream);
        continue;
      }
      if (!created.has(stream.id) && !canAccessStreamMetadata(engine, user, stream)) {
        newlyVisible.set(stream.id, [...(newlyVisible.get(stream.id) ?? []), user.id]);
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
  // Subscribers who could not see the channel before hear of it first, as created
  // (send_stream_creation_events_for_previously_inaccessible_streams): those of a private channel
  // just created who were not told at creation, and those of an existing channel they could not
  // see (a guest joining a public channel, anyone added to a private one).
  for (const stream of streams) {
    let newcomers: number[];
    if (created.has(stream.id)) {
      const told = new Set(created.get(stream.id));
      newcomers = stream.invite_only ? (newlyByStream.get(stream.id) ?? []).filter((id) => !told.has(id)) : [];
    } else newcomers = newlyVisible.get(stream.id) ?? [];
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
    // Everyone with metadata access hears of it (bulk_can_access_stream_metadata_user_ids):
    // active non-guests for a public channel, administrators and the granting groups for a
    // private one, plus the existing subscribers either way.
    const peers = peerAudience(engine, stream).filter((id) => !newSet.has(id));
    if (peers.length > 0) {
      events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [...newcomers].sort((a, b) => a - b) }, peers));
    }
  }
  return { subscribed, already };
}

/**
 * A new account's first subscriptions (bulk_add_subscriptions from user creation): `subscription`
 * `add` to the user, `peer_add` to those who see each channel. No notices.
 */
export function subscribeNewUser(engine: Engine, user: UserRecord, streams: StreamRecord[]): Effect[] {
  const events: Effect[] = [];
  doSubscribe(engine, streams, [user], new Map(), new Map(), events);
  return events;
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
  const values = checkSettingValues(engine, p, actor);
  const names: { name: string; item: SubscribeRequestItem }[] = [];
  for (const item of p.subscriptions) {
    const name = checkStreamName(engine, item.name);
    if (!names.some((n) => n.name.toLowerCase() === name.toLowerCase())) names.push({ name, item });
  }
  const existing: StreamRecord[] = [];
  const toCreate: { name: string; item: SubscribeRequestItem }[] = [];
  for (const n of names) {
    const stream = getStreamByName(engine, n.name);
    if (stream) existing.push(stream);
    else toCreate.push(n);
  }
  const settings = toCreate.length > 0 ? checkCreationSettings(engine, actor, p, values) : null;
  const authorized: StreamRecord[] = [];
  const unauthorized: StreamRecord[] = [];
  for (const stream of existing) {
    // filter_stream_authorization_for_adding_subscribers: content access or nothing (an
    // administrator outside a private channel is "unable to access" it too).
    (canAccessStreamContent(engine, actor, stream) ? authorized : unauthorized).push(stream);
  }
  if (unauthorized.length > 0 && p.authorization_errors_fatal) {
    throw ChatError.badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
  }
  // Zulip decides "subscribing others" from the raw principals (an email, even one's own,
  // counts as someone else) and resolves them only after the authorization checks.
  const others = p.principals.length > 0 && !p.principals.every((id) => id === actor.id);
  if (others) {
    for (const stream of authorized) if (!canAddSubscribers(engine, actor, stream)) throw ChatError.insufficientPermission();
  }
  const principals = others ? resolvePrincipals(engine, p.principals) : [actor];

  // ---- do
  const events: Effect[] = [];
  const created = new Map<number, number[]>();
  const colors = new Map<number, string>();
  const streams: StreamRecord[] = [...authorized];
  for (const { name, item } of toCreate) {
    const stream = doCreateStream(engine, actor, name, item.description ?? '', settings!);
    streams.push(stream);
    const audience = streamAudience(engine, stream);
    created.set(stream.id, audience);
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
  // check_stream_name_available raises ChannelExistsError with the name as requested, even
  // when the existing channel's name differs in case.
  if (getStreamByName(engine, name)) throw new ChatError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`);
  const max = engine.state.realm.max_stream_description_length;
  if ([...p.description].length > max) throw ChatError.badRequest(`description is too long (limit: ${max} characters)`);
  const settings = checkCreationSettings(engine, actor, p);
  const users = resolvePrincipals(engine, p.subscribers);
  const others = users.some((u) => u.id !== actor.id);
  if (others && !hasRealmGroupPermission(engine, actor, 'can_add_subscribers_group')) {
    throw ChatError.insufficientPermission();
  }
  const events: Effect[] = [];
  const stream = doCreateStream(engine, actor, name, p.description, settings);
  const audience = streamAudience(engine, stream);
  if (audience.length > 0) events.push(effect({ type: 'stream', op: 'create', streams: [formatStream(engine, stream)] }, audience));
  const { subscribed } = doSubscribe(engine, [stream], users, new Map(), new Map([[stream.id, audience]]), events);
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
    // access_stream_by_id with content access: an administrator outside a private channel
    // gets `Invalid channel ID`, not `Not subscribed`.
    if (!stream || !canAccessStreamContent(engine, actor, stream)) throw ChatError.invalidChannelId();
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

// ---------------------------------------------------------------- listing and leaving subscriptions

/** Channels with at least this many subscribers list only `partial_subscribers` (Zulip's MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE). */
const MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE = 1000;

export interface SubscriptionStateOptions {
  includeSubscribers: boolean | 'partial';
  /** Keep null per-channel notification settings (else the user's global defaults replace them). */
  notificationSettingsNull: boolean;
  /** Include archived channels. */
  archivedChannels: boolean;
}

/**
 * The `subscription` fetch type (zerver/lib/events.py:fetch_initial_state_data): active subscriptions, channels left
 * (still visible), and every other channel the user can see, each list by name.
 */
export function subscriptionState(engine: Engine, user: UserRecord, o: SubscriptionStateOptions): Record<string, unknown> {
  const subscribed: { name: string; value: Record<string, unknown> }[] = [];
  const unsubscribed: { name: string; value: Record<string, unknown> }[] = [];
  const never: { name: string; value: Record<string, unknown> }[] = [];
  const withSubscribers = (stream: StreamRecord, value: Record<string, unknown>): Record<string, unknown> => {
    if (o.includeSubscribers === false) return value;
    const ids = subscribersOf(engine, stream.id);
    if (o.includeSubscribers === 'partial' && ids.length >= MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE) {
      return { ...value, partial_subscribers: ids.filter((id) => engine.state.users.get(id)?.is_bot) };
    }
    return { ...value, subscribers: ids };
  };
  for (const stream of engine.state.streams.values()) {
    if (stream.is_archived && !o.archivedChannels) continue;
    const sub = engine.state.subscriptions.get(stream.id)?.get(user.id);
    if (sub?.active) {
      subscribed.push({ name: stream.name, value: withSubscribers(stream, subscriptionObject(engine, user, stream, sub, o)) });
    } else if (canAccessStreamMetadata(engine, user, stream)) {
      if (sub) unsubscribed.push({ name: stream.name, value: withSubscribers(stream, subscriptionObject(engine, user, stream, sub, o)) });
      else never.push({ name: stream.name, value: withSubscribers(stream, { ...formatStream(engine, stream) }) });
    }
  }
  const sorted = (list: { name: string; value: Record<string, unknown> }[]) =>
    list.sort((a, b) => compareCodePoints(a.name, b.name)).map((x) => x.value);
  return { subscriptions: sorted(subscribed), unsubscribed: sorted(unsubscribed), never_subscribed: sorted(never) };
}

function subscriptionObject(engine: Engine, user: UserRecord, stream: StreamRecord, sub: SubscriptionRecord, o: SubscriptionStateOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { ...formatSubscription(engine, stream, sub, { includeSubscribers: false }) };
  if (!o.notificationSettingsNull) {
    for (const [key, fallback] of Object.entries(streamNotificationDefaults(user))) if (out[key] === null) out[key] = fallback;
  }
  return out;
}

/** GET /users/me/subscriptions: the caller's active subscriptions, by channel name. */
export function listSubscriptions(engine: Engine, user: UserRecord, includeSubscribers: boolean): Subscription[] {
  const out: { name: string; value: Subscription }[] = [];
  for (const [streamId, subs] of engine.state.subscriptions) {
    const sub = subs.get(user.id);
    if (!sub?.active) continue;
    const stream = engine.state.streams.get(streamId)!;
    out.push({ name: stream.name, value: formatSubscription(engine, stream, sub, { includeSubscribers }) });
  }
  out.sort((a, b) => compareCodePoints(a.name, b.name));
  return out.map((o) => o.value);
}

export interface UnsubscribeParams {
  subscriptions: string[];
  principals: (number | string)[];
}

/** user_directly_controls_user: oneself, or a bot one owns. */
function directlyControls(actor: UserRecord, target: UserRecord): boolean {
  return target.id === actor.id || (target.is_bot && target.bot_owner_id === actor.id);
}

/**
 * bulk_can_remove_subscribers_from_streams: administrators always; otherwise administering
 * every channel, or for each one metadata access plus its can_remove_subscribers_group.
 */
function canRemoveSubscribers(engine: Engine, actor: UserRecord, streams: readonly StreamRecord[]): boolean {
  if (isAdmin(actor)) return true;
  if (isGuest(actor)) return false;
  if (streams.every((s) => isUserInGroupSetting(engine, actor.id, s.groups.can_administer_channel_group))) return true;
  return streams.every(
    (s) => canAccessStreamMetadata(engine, actor, s) && isUserInGroupSetting(engine, actor.id, s.groups.can_remove_subscribers_group),
  );
}

/**
 * list_to_streams for leaving: names checked like channel names, the removal permission (when
 * removing others) checked on the channels that exist, then `Channel(s) (a, b) do not exist`
 * for the rest. Existence is not filtered by access upstream: a private channel one cannot see
 * simply ends up in not_removed.
 */
export function checkUnsubscribeNames(
  engine: Engine,
  actor: UserRecord,
  names: readonly string[],
  unsubscribingOthers = false,
): StreamRecord[] {
  const stripped = names.map((raw) => checkStreamName(engine, raw));
  const streams: StreamRecord[] = [];
  const missing: string[] = [];
  for (const name of stripped) {
    const stream = getStreamByName(engine, name);
    if (!stream) missing.push(name);
    else if (!streams.includes(stream)) streams.push(stream);
  }
  if (unsubscribingOthers && !canRemoveSubscribers(engine, actor, streams)) throw ChatError.insufficientPermission();
  if (missing.length > 0) throw ChatError.badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  return streams;
}

/** DELETE /users/me/subscriptions: `removed` / `not_removed` channel names. */
export function unsubscribe(engine: Engine, actor: UserRecord, p: UnsubscribeParams): Outcome<{ removed: string[]; not_removed: string[] }> {
  // Principals are resolved first; removing one's own bot is not "removing others".
  const users = p.principals.length > 0 ? resolvePrincipals(engine, p.principals) : [actor];
  const others = users.some((u) => !directlyControls(actor, u));
  const streams = checkUnsubscribeNames(engine, actor, p.subscriptions, others);
  const events: Effect[] = [];
  const removed: string[] = [];
  const notRemoved: string[] = [];
  /** Zulip marks a left channel's messages read afterwards (its deferred_work queue). */
  const markRead: [UserRecord, StreamRecord][] = [];
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
      markRead.push([user, stream]);
    }
    if (left.length === 0) continue;
    events.push(
      effect({ type: 'subscription', op: 'remove', subscriptions: left.map((s) => ({ name: s.name, stream_id: s.id })) }, [user.id]),
    );
    // Leaving a channel one can no longer see makes it disappear (send_stream_deletion_event).
    const lost = isAdmin(user) ? [] : left.filter((stream) => !canAccessStreamMetadata(engine, user, stream));
    if (lost.length > 0) events.push(streamDeletionEvent(lost, [user.id]));
    for (const stream of left) {
      // Same audience as peer_add.
      const peers = peerAudience(engine, stream).filter((id) => id !== user.id);
      if (peers.length > 0) {
        events.push(effect({ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: [user.id] }, peers));
      }
    }
  }
  for (const [user, stream] of markRead) {
    const read = markStreamMessagesAsRead(engine, user.id, stream.id);
    if (read) events.push(read);
  }
  return outcome({ removed, not_removed: notRemoved }, events);
}
