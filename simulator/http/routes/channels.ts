/** Channel and subscription endpoints (zerver/views/streams.py, zerver/lib/streams.py). */
import { isHexColor, type ChannelSettings } from '../../engine/channels/settings.ts';
import { streamEmailAddress } from '../../engine/channels/email.ts';
import { getStreams, streamIdByName } from '../../engine/channels/channels.ts';
import {
  createChannel,
  listSubscriptions,
  subscribe,
  unsubscribe,
  updateSubscriptionProperties,
  checkUnsubscribeNames,
  SUBSCRIPTION_PROPERTIES,
  type PropertyChange,
  type SubscribeRequestItem,
} from '../../engine/channels/subscriptions.ts';
import { ChatError } from '../../engine/errors.ts';
import { parseGroupSettingValue } from '../../engine/groups/groups.ts';
import { CHANNEL_GROUP_SETTINGS, type TopicsPolicy } from '../../engine/state.ts';
import { combineOutcomes, mapOutcome, withValue } from '../../engine/events/effects.ts';
import { boolParam, codePointLength, isObject } from '../checks.ts';
import { defineRoute, paramList, type ParamsOf } from '../define-route.ts';
import type { Route } from '../route.ts';

const bool = boolParam;

const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;

/**
 * topics_policy of the creation endpoints: Zulip declares it `Json[str | None]` with an enum
 * validator, so only a JSON string naming a policy passes. A bare `inherit` is not valid JSON
 * there (the Python client sends bare strings, and real servers refuse them).
 */
function topicsPolicy(value: unknown, name: string): TopicsPolicy {
  if (value !== null && typeof value !== 'string') throw ChatError.badRequest(`${name} is not a string`);
  const policy = TOPICS_POLICIES.find((p) => p === value);
  if (policy === undefined) throw ChatError.badRequest(`Invalid ${name}`);
  return policy;
}

/** Creation settings shared by POST /users/me/subscriptions and POST /channels/create. */
const creationParams = paramList([
  bool('announce', false),
  bool('invite_only', false),
  bool('is_web_public', false),
  bool('is_default_stream', false),
  { name: 'history_public_to_subscribers', type: 'bool', default: null },
  // Json[str] | Json[int] upstream: `"unlimited"` or `30`, never a bare unlimited.
  { name: 'message_retention_days', type: 'int_or_string' },
  { name: 'topics_policy', type: 'json', validate: topicsPolicy },
  { name: 'folder_id', type: 'int' },
  // Json[int | UserGroupMembersData]: the shape is checked for every request, the groups only
  // for channels being created.
  ...CHANNEL_GROUP_SETTINGS.map((name) => ({ name, type: 'json', validate: parseGroupSettingValue }) as const),
  bool('send_new_subscription_messages', true),
]);

/** Creation parameters at their defaults (for the composed PATCH, which sends none). */
const DEFAULT_CREATION = Object.fromEntries(creationParams.map((spec) => [spec.name, 'default' in spec ? spec.default : undefined])) as ParamsOf<
  typeof creationParams
>;

function settingsFrom(params: ParamsOf<typeof creationParams>): ChannelSettings {
  const groups: ChannelSettings['groups'] = {};
  for (const key of CHANNEL_GROUP_SETTINGS) {
    const value = params[key];
    if (value !== undefined) groups[key] = value;
  }
  return {
    invite_only: params.invite_only,
    is_web_public: params.is_web_public,
    is_default_stream: params.is_default_stream,
    history_public_to_subscribers: params.history_public_to_subscribers,
    message_retention_days: params.message_retention_days,
    topics_policy: params.topics_policy,
    folder_id: params.folder_id,
    groups,
  };
}

/** subscriptions: [{name, color?, description?}], checked like Zulip's pydantic model. */
function parseSubscriptions(maxDescription: number) {
  return (value: unknown[], name: string): SubscribeRequestItem[] =>
    value.map((item, i) => {
      const at = `${name}[${i}]`;
      if (!isObject(item)) throw ChatError.badRequest(`${at} is not a dict`);
      // A plain pydantic BaseModel upstream (AddSubscriptionData): unknown keys are ignored.
      const entry = item;
      if (entry.name === undefined) throw ChatError.badRequest(`${at}["name"] is missing`);
      if (typeof entry.name !== 'string') throw ChatError.badRequest(`${at}["name"] is not a string`);
      const out: SubscribeRequestItem = { name: entry.name };
      if (entry.description !== undefined) {
        if (typeof entry.description !== 'string') throw ChatError.badRequest(`${at}["description"] is not a string`);
        if (codePointLength(entry.description) > maxDescription) {
          throw ChatError.badRequest(`${at}["description"] is too long (limit: ${maxDescription} characters)`);
        }
        out.description = entry.description;
      }
      if (entry.color !== undefined) {
        if (typeof entry.color !== 'string') throw ChatError.badRequest(`${at}["color"] is not a string`);
        if (!isHexColor(entry.color)) {
          throw ChatError.badRequest(`Invalid ${at}: Value error, add.color is not a valid hex color code`);
        }
        out.color = entry.color;
      }
      return out;
    });
}

function parseSubscriptionData(value: unknown[], name: string): PropertyChange[] {
  return value.map((item, i) => {
    const at = `${name}[${i}]`;
    if (!isObject(item)) throw ChatError.badRequest(`${at} is not a dict`);
    // A plain pydantic BaseModel upstream (SubscriptionPropertyChangeRequest): unknown keys are
    // ignored (extra="ignore" is pydantic's default).
    const entry = item;
    for (const key of ['stream_id', 'property', 'value']) {
      if (entry[key] === undefined) throw ChatError.badRequest(`${at}["${key}"] is missing`);
    }
    if (!Number.isSafeInteger(entry.stream_id)) throw ChatError.badRequest(`${at}["stream_id"] is not an integer`);
    if (typeof entry.property !== 'string') throw ChatError.badRequest(`${at}["property"] is not a string`);
    if (typeof entry.value !== 'boolean' && typeof entry.value !== 'string') {
      throw ChatError.badRequest(`${at}["value"] is not a string`);
    }
    // Zulip's model validator runs while the list is parsed, so a bad property of a later item
    // is reported before any channel of an earlier one is looked up.
    if (entry.property === 'color') {
      if (typeof entry.value !== 'string') throw ChatError.badRequest('color is not a string');
      if (!isHexColor(entry.value)) throw ChatError.badRequest(`Invalid ${at}: Value error, color is not a valid hex color code`);
    } else if ((SUBSCRIPTION_PROPERTIES as readonly string[]).includes(entry.property)) {
      if (typeof entry.value !== 'boolean') throw ChatError.badRequest(`${entry.property} is not a boolean`);
    } else {
      throw ChatError.badRequest(`Unknown subscription property: ${entry.property}`);
    }
    return { stream_id: entry.stream_id as number, property: entry.property, value: entry.value };
  });
}

/**
 * `value` of the single-channel form, Zulip's `Json[bool] | str` tried left to right: `true` /
 * `false` are booleans, anything else is the raw text (a bare `#ffffff`; a JSON-quoted string
 * keeps its quotes, as upstream).
 */
function looseValue(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

const singlePropertyRoute = (method: 'POST' | 'PATCH'): Route =>
  defineRoute({
  method,
  path: '/users/me/subscriptions/{stream_id}',
  response: 'empty',
  auth: 'user',
  summary: 'change one property of one of your subscriptions',
  params: [
    { name: 'stream_id', type: 'int', in: 'path', required: true },
    { name: 'property', type: 'string', required: true },
    { name: 'value', type: 'string', required: true, validate: looseValue },
  ],
  handler({ engine, user, params }) {
    return withValue(updateSubscriptionProperties(engine, user, [{ stream_id: params.stream_id, property: params.property, value: params.value }]), {});
  },
});

export const channelRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/streams',
    response: 'get-streams',
    auth: 'user',
    summary: 'channels the caller may see, by source flags',
    params: [
      bool('include_public', true),
      bool('include_web_public', false),
      bool('include_subscribed', true),
      bool('exclude_archived', true),
      bool('include_all', false),
      bool('include_all_active', false),
      bool('include_default', false),
      bool('include_owner_subscribed', false),
      bool('include_can_access_content', false),
    ],
    handler({ engine, user, params }) {
      return { streams: getStreams(engine, user, params) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/me/subscriptions',
    response: 'get-subscriptions',
    auth: 'user',
    summary: 'your subscriptions, with settings (and subscribers on request)',
    params: [{ name: 'include_subscribers', type: 'bool', default: false }],
    handler({ engine, user, params }) {
      return { subscriptions: listSubscriptions(engine, user, params.include_subscribers) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/me/subscriptions',
    response: 'subscribe',
    // Guests are refused before any parameter is read.
    auth: 'member',
    summary: 'subscribe users to channels, creating missing ones',
    // add_subscriptions_backend's signature order, which decides the error reported first.
    params: [
      { name: 'subscriptions', type: 'json_array', required: true, validate: parseSubscriptions(1024) },
      ...creationParams.filter((p) => p.name !== 'announce' && p.name !== 'folder_id' && p.name !== 'send_new_subscription_messages'),
      bool('announce', false),
      { name: 'principals', type: 'int_array_or_string_array', default: [] },
      bool('authorization_errors_fatal', true),
      ...creationParams.filter((p) => p.name === 'folder_id' || p.name === 'send_new_subscription_messages'),
    ],
    handler({ engine, user, params }) {
      const max = engine.state.realm.max_stream_description_length;
      const subscriptions = parseSubscriptions(max)(params.subscriptions, 'subscriptions');
      return subscribe(engine, user, {
        ...settingsFrom(params),
        subscriptions,
        principals: params.principals,
        authorization_errors_fatal: params.authorization_errors_fatal,
        announce: params.announce,
        send_new_subscription_messages: params.send_new_subscription_messages,
      });
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/users/me/subscriptions',
    response: 'update-subscriptions',
    // Upstream composes the add and remove views; the add view refuses guests even when only
    // `delete` is sent.
    auth: 'member',
    summary: 'subscribe to and leave channels in one request',
    params: [
      { name: 'delete', type: 'string_array' },
      { name: 'add', type: 'json_array', validate: parseSubscriptions(1024) },
    ],
    handler({ engine, user, params }) {
      const add = parseSubscriptions(engine.state.realm.max_stream_description_length)(params.add ?? [], 'add');
      const remove = params.delete ?? [];
      if (add.length === 0 && remove.length === 0) {
        throw ChatError.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      }
      // One transaction upstream: a removal that would fail must fail before anything is added.
      checkUnsubscribeNames(engine, user, remove);
      const added = subscribe(engine, user, {
        ...settingsFrom(DEFAULT_CREATION),
        subscriptions: add,
        principals: [],
        authorization_errors_fatal: true,
        announce: false,
        send_new_subscription_messages: true,
      });
      const removed = unsubscribe(engine, user, { subscriptions: remove, principals: [] });
      return combineOutcomes({ ...added.value, ...removed.value }, added, removed);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/me/subscriptions',
    response: 'unsubscribe',
    auth: 'user',
    summary: 'unsubscribe users from channels',
    params: [
      { name: 'subscriptions', type: 'string_array', required: true },
      { name: 'principals', type: 'int_array_or_string_array', default: [] },
    ],
    handler({ engine, user, params }) {
      return unsubscribe(engine, user, { subscriptions: params.subscriptions, principals: params.principals });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/get_stream_id',
    response: 'get-stream-id',
    auth: 'user',
    summary: 'channel id by name',
    params: [{ name: 'stream', type: 'string', required: true }],
    handler({ engine, user, params }) {
      return { stream_id: streamIdByName(engine, user, params.stream) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/channels/create',
    response: 'create-channel',
    auth: 'member',
    summary: 'create a channel and subscribe users',
    params: [
      { name: 'name', type: 'string', required: true },
      { name: 'subscribers', type: 'int_array', required: true },
      { name: 'description', type: 'string', default: '' },
      ...creationParams,
    ],
    handler({ engine, user, params }) {
      const created = createChannel(engine, user, {
        ...settingsFrom(params),
        name: params.name,
        subscribers: params.subscribers,
        description: params.description,
        announce: params.announce,
        send_new_subscription_messages: params.send_new_subscription_messages,
      });
      return mapOutcome(created, (result) => ({ id: result.id }));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    response: 'empty',
    auth: 'user',
    summary: 'change properties of your subscriptions',
    params: [{ name: 'subscription_data', type: 'json_array', required: true, validate: parseSubscriptionData }],
    handler({ engine, user, params }) {
      return withValue(updateSubscriptionProperties(engine, user, params.subscription_data), {});
    },
  }),
  singlePropertyRoute('POST'),
  singlePropertyRoute('PATCH'),
  defineRoute({
    method: 'GET',
    path: '/streams/{stream_id}/email_address',
    response: 'get-stream-email-address',
    auth: 'user',
    summary: "the channel's email-gateway address",
    params: [
      { name: 'stream_id', type: 'int', in: 'path', required: true },
      { name: 'sender_id', type: 'int' },
    ],
    handler({ engine, user, params }) {
      return {
        email: streamEmailAddress(engine, user, params.stream_id, params.sender_id),
      };
    },
  }),
];
