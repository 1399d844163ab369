/** Topic visibility: POST /user_topics, and the legacy muted_topics endpoint Python's `mute_topic` calls. */
import { updateMutedTopic, updateUserTopic, VISIBILITY_POLICIES } from '../../engine/channels/user-topics.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** Zulip's MAX_TOPIC_NAME_LENGTH, the StringConstraints of both views' `topic`. */
const MAX_TOPIC_LENGTH = 60;

export const userTopicRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/user_topics',
    response: 'empty',
    auth: 'user',
    summary: 'mute, unmute, follow a topic, or back to the channel default (0)',
    params: [
      { name: 'stream_id', type: 'int', required: true },
      { name: 'topic', type: 'string', required: true, maxLength: MAX_TOPIC_LENGTH },
      { name: 'visibility_policy', type: 'int', required: true, oneOf: VISIBILITY_POLICIES },
    ],
    handler({ engine, user, params }) {
      return updateUserTopic(engine, user, {
        streamId: params.stream_id,
        topic: params.topic,
        visibilityPolicy: params.visibility_policy,
      });
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    response: 'empty',
    auth: 'user',
    summary: 'mute (add) or unmute (remove) a topic, the channel by id or by name (legacy)',
    // update_muted_topic's keyword parameters, in declaration order (the first invalid one is reported).
    params: [
      { name: 'op', type: 'string', required: true, oneOf: ['add', 'remove'] },
      { name: 'topic', type: 'string', required: true, maxLength: MAX_TOPIC_LENGTH },
      { name: 'stream', type: 'string' },
      { name: 'stream_id', type: 'int' },
    ],
    handler({ engine, user, params }) {
      return updateMutedTopic(engine, user, {
        op: params.op,
        topic: params.topic,
        streamName: params.stream,
        streamId: params.stream_id,
      });
    },
  }),
];
