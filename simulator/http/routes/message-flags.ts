// Read state: POST /messages/flags, /messages/flags/narrow and the deprecated bulk read endpoints.
// Parameters in the views' declaration order (the first invalid one is reported).
import { mapOutcome } from '../../engine/events/effects.ts';
import { parseAnchor } from '../../engine/messages/fetch.ts';
import { markAllAsRead, markStreamAsRead, markTopicAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from '../../engine/messages/flags.ts';
import { parseNarrow } from '../../engine/narrow/parse.ts';
import { nonNegative } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const messageFlagRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/messages/flags',
    response: 'update-message-flags',
    auth: 'user',
    summary: 'add or remove a flag (read, starred, collapsed) on listed messages',
    params: [
      { name: 'flag', type: 'string', required: true },
      { name: 'messages', type: 'int_array', required: true },
      { name: 'op', type: 'string', required: true },
    ],
    handler({ engine, user, params }) {
      const messages = params.messages;
      // `messages` echoes the request (deprecated; Zulip keeps it for old clients).
      return mapOutcome(updateMessageFlags(engine, user, params.op, params.flag, messages), (result) => ({
        messages,
        ignored_because_not_subscribed_channels: result.ignoredChannels,
      }));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/messages/flags/narrow',
    response: 'update-message-flags-for-narrow',
    auth: 'user',
    summary: 'add or remove a flag on a window of a narrow (as GET /messages would fetch it)',
    params: [
      { name: 'anchor', type: 'string', required: true },
      { name: 'flag', type: 'string', required: true },
      { name: 'include_anchor', type: 'bool', default: true },
      // Json[list[NarrowParameter] | None]: required, but `null` means no narrow.
      { name: 'narrow', type: 'json', required: true, validate: (v) => parseNarrow(v) },
      { name: 'num_after', type: 'int', required: true, validate: nonNegative },
      { name: 'num_before', type: 'int', required: true, validate: nonNegative },
      { name: 'op', type: 'string', required: true },
    ],
    handler({ engine, user, params }) {
      return updateMessageFlagsForNarrow(engine, user, {
        anchor: parseAnchor(params.anchor, false),
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: params.narrow,
        op: params.op,
        flag: params.flag,
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mark_all_as_read',
    response: 'mark-all-as-read',
    auth: 'user',
    summary: 'mark every message read (deprecated: use /messages/flags/narrow)',
    params: [],
    handler: ({ engine, user }) => markAllAsRead(engine, user),
  }),
  defineRoute({
    method: 'POST',
    path: '/mark_stream_as_read',
    response: 'empty',
    auth: 'user',
    summary: 'mark every message of a channel read (deprecated)',
    params: [{ name: 'stream_id', type: 'int', required: true }],
    handler: ({ engine, user, params }) => markStreamAsRead(engine, user, params.stream_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/mark_topic_as_read',
    response: 'empty',
    auth: 'user',
    summary: 'mark every message of a topic read (deprecated)',
    params: [
      { name: 'topic_name', type: 'string', required: true },
      { name: 'stream_id', type: 'int', required: true },
    ],
    handler: ({ engine, user, params }) =>
      markTopicAsRead(engine, user, params.stream_id, params.topic_name),
  }),
];
