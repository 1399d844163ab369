// POST /typing: someone is composing a direct or channel message. (The "is editing a message"
// indicator, POST /messages/{id}/typing, sits with the other message changes.) Parameters in the
// view's order: its Python names sorted (notification_to, operator, req_type, stream_id, topic).
import { sendTypingNotification, TYPING_OPS, TYPING_RECIPIENT_TYPES } from '../../engine/messages/typing.ts';
import { intListOrNull, intOrNull, trimmed } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const typingRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/typing',
    response: 'empty',
    auth: 'user',
    summary: 'Tell the others you are (or stopped) composing a direct or channel message',
    params: [
      { name: 'to', type: 'json', validate: intListOrNull },
      { name: 'op', type: 'string', required: true, oneOf: TYPING_OPS },
      { name: 'type', type: 'string', default: 'direct', oneOf: TYPING_RECIPIENT_TYPES },
      { name: 'stream_id', type: 'json', validate: intOrNull },
      { name: 'topic', type: 'string', aliases: ['subject'], validate: trimmed },
    ],
    handler(ctx) {
      const p = ctx.params;
      return sendTypingNotification(ctx.engine, ctx.user, {
        type: p.type,
        op: p.op,
        to: p.to,
        streamId: p.stream_id,
        topic: p.topic,
      });
    },
  }),
];
