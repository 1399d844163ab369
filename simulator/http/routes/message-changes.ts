// Changing messages after they were sent: editing and moving (PATCH), deleting, reading the edit
// history, and the "is editing" indicator (POST /messages/{id}/typing). Parameters are declared as
// Zulip's typed_endpoint views declare them (alphabetically by Python name: the first invalid one
// is the one reported).
import { deleteMessage } from '../../engine/messages/delete.ts';
import { PROPAGATE_MODES, updateMessage } from '../../engine/messages/edit.ts';
import { getMessageHistory } from '../../engine/messages/history.ts';
import { sendMessageEditTyping, TYPING_OPS } from '../../engine/messages/typing.ts';
import { nonNegative } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const messageChangeRoutes: Route[] = [
  defineRoute({
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
      return updateMessage(ctx.engine, ctx.user, p.message_id, {
        content: p.content,
        topic: p.topic,
        streamId: p.stream_id,
        propagateMode: p.propagate_mode,
        sendNotificationToOldThread: p.send_notification_to_old_thread,
        sendNotificationToNewThread: p.send_notification_to_new_thread,
        prevContentSha256: p.prev_content_sha256,
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/messages/{message_id}',
    response: 'empty',
    auth: 'user',
    summary: 'Delete a message',
    params: [{ name: 'message_id', type: 'int', in: 'path', required: true }],
    handler(ctx) {
      return deleteMessage(ctx.engine, ctx.user, ctx.params.message_id);
    },
  }),
  defineRoute({
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
      return getMessageHistory(ctx.engine, ctx.user, ctx.params.message_id, ctx.params.allow_empty_topic_name);
    },
  }),
  defineRoute({
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
      return sendMessageEditTyping(ctx.engine, ctx.user, ctx.params.message_id, ctx.params.op);
    },
  }),
];
