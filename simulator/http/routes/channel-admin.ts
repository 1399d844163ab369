/** One channel's endpoints (zerver/views/streams.py): reading it, its topics and subscribers, administering it. */
import { archiveStream, getStream, streamMembers, subscriptionStatus, updateStream } from '../../engine/channels/admin.ts';
import { GROUP_SETTING_ORDER } from '../../engine/channels/settings.ts';
import { makeDefaultStream, unmakeDefaultStream } from '../../engine/channels/default-channels.ts';
import { ChatError } from '../../engine/errors.ts';
import { parseGroupSettingChange, type GroupSettingChange } from '../../engine/groups/groups.ts';
import type { ChannelGroupSetting, TopicsPolicy } from '../../engine/state.ts';
import { deleteTopic, streamTopics } from '../../engine/channels/topics.ts';
import { accessUser } from '../../engine/users/users.ts';
import { boolParam } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const streamIdInPath = { name: 'stream_id', type: 'int', in: 'path', required: true } as const;
const bool = boolParam;

const TOPICS_POLICIES: readonly TopicsPolicy[] = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];

/** Json[int | None]: a folder id, or null to take the channel out of its folder. */
function folderId(value: unknown, name: string): number | null {
  if (value === null || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
  throw ChatError.badRequest(`${name} is not an integer`);
}

export const channelAdminRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/streams/{stream_id}',
    response: 'get-stream-by-id',
    auth: 'user',
    summary: 'one channel the caller can see',
    params: [streamIdInPath],
    handler({ engine, user, params }) {
      return { stream: getStream(engine, user, params.stream_id) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/streams/{stream_id}',
    response: 'empty',
    auth: 'user',
    summary: "change a channel's name, description, privacy, settings and permissions",
    // update_stream_backend's signature order, which decides the error reported first.
    params: [
      streamIdInPath,
      { name: 'description', type: 'string', maxLength: 1024 },
      bool('is_private'),
      bool('is_default_stream'),
      bool('history_public_to_subscribers'),
      bool('is_web_public'),
      { name: 'new_name', type: 'string' },
      { name: 'message_retention_days', type: 'int_or_string' },
      bool('is_archived'),
      // A plain string here (Json on the creation endpoints).
      { name: 'topics_policy', type: 'string', oneOf: TOPICS_POLICIES },
      ...GROUP_SETTING_ORDER.map((name) => ({ name, type: 'json', validate: parseGroupSettingChange }) as const),
      { name: 'folder_id', type: 'json', validate: folderId },
    ],
    handler({ engine, user, params }) {
      const groups: Partial<Record<ChannelGroupSetting, GroupSettingChange>> = {};
      for (const key of GROUP_SETTING_ORDER) {
        const value = params[key];
        if (value !== undefined) groups[key] = value;
      }
      return updateStream(engine, user, params.stream_id, {
        description: params.description,
        is_private: params.is_private,
        is_default_stream: params.is_default_stream,
        history_public_to_subscribers: params.history_public_to_subscribers,
        is_web_public: params.is_web_public,
        new_name: params.new_name,
        message_retention_days: params.message_retention_days,
        is_archived: params.is_archived,
        topics_policy: params.topics_policy,
        folder_id: params.folder_id,
        groups,
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/streams/{stream_id}',
    response: 'empty',
    auth: 'user',
    summary: 'archive a channel',
    params: [streamIdInPath],
    handler({ engine, user, params }) {
      return archiveStream(engine, user, params.stream_id);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/streams/{stream_id}/members',
    response: 'get-subscribers',
    auth: 'user',
    summary: "a channel's subscribers",
    params: [streamIdInPath],
    handler({ engine, user, params }) {
      return { subscribers: streamMembers(engine, user, params.stream_id) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    response: 'get-subscription-status',
    auth: 'user',
    summary: 'whether a user is subscribed to a channel',
    params: [{ name: 'user_id', type: 'int', in: 'path', required: true }, streamIdInPath],
    handler({ engine, user, params }) {
      // Bots too since feature level 458 (zulip.yaml get-subscription-status).
      const target = accessUser(engine, user, params.user_id, { forAdmin: false, allowBots: true });
      return { is_subscribed: subscriptionStatus(engine, user, target, params.stream_id) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/me/{stream_id}/topics',
    response: 'get-stream-topics',
    // Zulip serves spectators only on /json (allow_anonymous_user_web).
    auth: 'user',
    summary: "a channel's topics, newest first",
    params: [streamIdInPath, { name: 'allow_empty_topic_name', type: 'bool', default: false }],
    handler({ engine, user, params }) {
      return { topics: streamTopics(engine, user, params.stream_id, params.allow_empty_topic_name) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/streams/{stream_id}/delete_topic',
    response: 'delete-topic',
    auth: 'admin',
    summary: "delete a topic's messages",
    params: [streamIdInPath, { name: 'topic_name', type: 'string', required: true }],
    handler({ engine, user, params }) {
      return deleteTopic(engine, user, params.stream_id, params.topic_name);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/default_streams',
    response: 'empty',
    auth: 'admin',
    summary: 'make a channel one that new users join',
    params: [{ name: 'stream_id', type: 'int', required: true }],
    handler({ engine, user, params }) {
      return makeDefaultStream(engine, user, params.stream_id);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/default_streams',
    response: 'empty',
    auth: 'admin',
    summary: 'stop a channel being one that new users join',
    params: [{ name: 'stream_id', type: 'int', required: true }],
    handler({ engine, user, params }) {
      return unmakeDefaultStream(engine, user, params.stream_id);
    },
  }),
];
