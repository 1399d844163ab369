/** Topic visibility: POST /user_topics, and the legacy muted_topics endpoint Python's `mute_topic` calls. */
import { commit } from '../../engine/core.ts';
import type { VisibilityPolicy } from '../../engine/state.ts';
import { updateMutedTopic, updateUserTopic, VISIBILITY_POLICIES } from '../../engine/user-topics.ts';
import type { Route } from '../route.ts';

/** Zulip's MAX_TOPIC_NAME_LENGTH, the StringConstraints of both views' `topic`. */
const MAX_TOPIC_LENGTH = 60;

export const userTopicRoutes: Route[] = [
  {
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
      return commit(
        engine,
        updateUserTopic(engine, user!, {
          streamId: params.stream_id as number,
          topic: params.topic as string,
          visibilityPolicy: params.visibility_policy as VisibilityPolicy,
        }),
      );
    },
  },
  {
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
      return commit(
        engine,
        updateMutedTopic(engine, user!, {
          op: params.op as 'add' | 'remove',
          topic: params.topic as string,
          streamName: params.stream as string | undefined,
          streamId: params.stream_id as number | undefined,
        }),
      );
    },
  },
];
