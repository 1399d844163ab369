// Changing messages after they were sent: editing and moving (PATCH), deleting, reading the edit
// history, and the "is editing" indicator (POST /messages/{id}/typing). Parameters are declared as
// Zulip's typed_endpoint views declare them (alphabetically by Python name: the first invalid one
// is the one reported).
import { ChatError } from '../../engine/errors.ts';
import { commit } from '../../engine/core.ts';
import { deleteMessage } from '../../engine/messages/delete.ts';
import { PROPAGATE_MODES, updateMessage, type PropagateMode } from '../../engine/messages/edit.ts';
import { getMessageHistory } from '../../engine/messages/history.ts';
import { sendMessageEditTyping, TYPING_OPS, type TypingOp } from '../../engine/typing.ts';
import type { Route, RouteContext } from '../route.ts';

function actor(ctx: RouteContext) {
  if (!ctx.user) throw ChatError.unauthorized();
  return ctx.user;
}

/** Json[NonNegativeInt]: pydantic's greater_than_equal has no Zulip template; worded like its neighbours. */
function nonNegative(value: unknown, name: string): unknown {
  if (typeof value === 'number' && value < 0) throw ChatError.badRequest(`${name} is too small`);
  return value;
}

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));

export const messageChangeRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/messages/{message_id}',
    response: 'update-message',
    auth: 'user',
    summary: "Edit a message's content, or move it (and others of its topic) to another topic or channel",
    params: [
      { name: 'content', type: 'string' },
      { name: 'message_id', type: 'int', in: 'path', required: true },
      { name: 'prev_content_sha256', type: 'string' },
      { name: 'propagate_mode', type: 'string', default: 'change_one', oneOf: PROPAGATE_MODES },
      { name: 'send_notification_to_new_thread', type: 'bool', default: true },
      { name: 'send_notification_to_old_thread', type: 'bool', default: false },
      { name: 'stream_id', type: 'int', validate: nonNegative },
      { name: 'topic', type: 'string', aliases: ['subject'] },
    ],
    handler(ctx) {
      const p = ctx.params;
      return commit(
        ctx.engine,
        updateMessage(ctx.engine, actor(ctx), p.message_id as number, {
          content: str(p.content),
          topic: str(p.topic),
          streamId: p.stream_id as number | undefined,
          propagateMode: p.propagate_mode as PropagateMode,
          sendNotificationToOldThread: p.send_notification_to_old_thread as boolean,
          sendNotificationToNewThread: p.send_notification_to_new_thread as boolean,
          prevContentSha256: str(p.prev_content_sha256),
        }),
      );
    },
  },
  {
    method: 'DELETE',
    path: '/messages/{message_id}',
    response: 'empty',
    auth: 'user',
    summary: 'Delete a message',
    params: [{ name: 'message_id', type: 'int', in: 'path', required: true }],
    handler(ctx) {
      return commit(ctx.engine, deleteMessage(ctx.engine, actor(ctx), ctx.params.message_id as number));
    },
  },
  {
    method: 'GET',
    path: '/messages/{message_id}/history',
    response: 'get-message-history',
    auth: 'user',
    summary: "A message's edit history, oldest first",
    params: [
      { name: 'allow_empty_topic_name', type: 'bool', default: false },
      { name: 'message_id', type: 'int', in: 'path', required: true },
    ],
    handler(ctx) {
      return getMessageHistory(ctx.engine, actor(ctx), ctx.params.message_id as number, ctx.params.allow_empty_topic_name as boolean);
    },
  },
  {
    method: 'POST',
    path: '/messages/{message_id}/typing',
    response: 'empty',
    auth: 'user',
    summary: 'Tell the others you are editing a message (typing_edit_message)',
    params: [
      { name: 'message_id', type: 'int', in: 'path', required: true },
      { name: 'op', type: 'string', required: true, oneOf: TYPING_OPS },
    ],
    handler(ctx) {
      return commit(ctx.engine, sendMessageEditTyping(ctx.engine, actor(ctx), ctx.params.message_id as number, ctx.params.op as TypingOp));
    },
  },
];
