// POST /typing: someone is composing a direct or channel message. (The "is editing a message"
// indicator, POST /messages/{id}/typing, sits with the other message changes.) Parameters in the
// view's order: its Python names sorted (notification_to, operator, req_type, stream_id, topic).
import { ChatError } from '../../engine/errors.ts';
import {
  sendTypingNotification,
  TYPING_OPS,
  TYPING_RECIPIENT_TYPES,
  type TypingOp,
  type TypingRecipientType,
} from '../../engine/typing.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** `Json[list[int] | None]`: null reads as not given. */
function intListOrNull(value: unknown, name: string): number[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (!Number.isSafeInteger(item)) throw ChatError.badRequest(`${name}[${i}] is not an integer`);
  });
  return value as number[];
}

/** `Json[int | None]`. */
function intOrNull(value: unknown, name: string): number | null {
  if (value !== null && !Number.isSafeInteger(value)) throw ChatError.badRequest(`${name} is not an integer`);
  return value as number | null;
}

/** OptionalTopic: StringConstraints(strip_whitespace=True). */
const stripped = (value: unknown): string => (value as string).trim();

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
      { name: 'topic', type: 'string', aliases: ['subject'], validate: stripped },
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
