// Read state: POST /messages/flags, /messages/flags/narrow and the deprecated bulk read endpoints.
// Parameters in the views' declaration order (the first invalid one is reported).
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { parseAnchor } from '../../engine/messages/fetch.ts';
import { markAllAsRead, markStreamAsRead, markTopicAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from '../../engine/messages/flags.ts';
import { parseNarrow, type NarrowTerm } from '../../engine/narrow/parse.ts';
import type { Route } from '../route.ts';

/** Json[NonNegativeInt]: worded like Zulip's neighbouring errors (see routes/messages.ts). */
function nonNegative(value: unknown, name: string): unknown {
  if (typeof value === 'number' && value < 0) throw ChatError.badRequest(`${name} is too small`);
  return value;
}

export const messageFlagRoutes: Route[] = [
  {
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
      const messages = params.messages as number[];
      const result = commit(engine, updateMessageFlags(engine, user!, params.op as string, params.flag as string, messages));
      // `messages` echoes the request (deprecated; Zulip keeps it for old clients).
      return { messages, ignored_because_not_subscribed_channels: result.ignoredChannels };
    },
  },
  {
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
      return commit(
        engine,
        updateMessageFlagsForNarrow(engine, user!, {
          anchor: parseAnchor(params.anchor as string, false),
          includeAnchor: params.include_anchor as boolean,
          numBefore: params.num_before as number,
          numAfter: params.num_after as number,
          narrow: params.narrow as NarrowTerm[],
          op: params.op as string,
          flag: params.flag as string,
        }),
      );
    },
  },
  {
    method: 'POST',
    path: '/mark_all_as_read',
    response: 'mark-all-as-read',
    auth: 'user',
    summary: 'mark every message read (deprecated: use /messages/flags/narrow)',
    params: [],
    handler: ({ engine, user }) => commit(engine, markAllAsRead(engine, user!)),
  },
  {
    method: 'POST',
    path: '/mark_stream_as_read',
    response: 'empty',
    auth: 'user',
    summary: 'mark every message of a channel read (deprecated)',
    params: [{ name: 'stream_id', type: 'int', required: true }],
    handler: ({ engine, user, params }) => commit(engine, markStreamAsRead(engine, user!, params.stream_id as number)),
  },
  {
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
      commit(engine, markTopicAsRead(engine, user!, params.stream_id as number, params.topic_name as string)),
  },
];
