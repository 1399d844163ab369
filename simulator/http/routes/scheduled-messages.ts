/** Scheduled messages (zerver/views/scheduled_messages.py). */
import { ChatError } from '../../engine/errors.ts';
import { clientName } from '../../engine/messages/send.ts';
import {
  deleteScheduledMessage,
  editScheduledMessage,
  listScheduledMessages,
  scheduleMessage,
  type ApiRecipientType,
  type ScheduledTo,
} from '../../engine/messages/scheduled.ts';
import { isInt } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route, RouteContext } from '../route.ts';

/** Message.API_RECIPIENT_TYPES. */
const RECIPIENT_TYPES: readonly ApiRecipientType[] = ['stream', 'private', 'channel', 'direct'];

/**
 * `to` is Json[int | list[int]]: a channel ID or a list of user IDs. Anything else fails both
 * branches of the union, and Zulip reports the first branch's complaint.
 */
function scheduledTo(value: unknown, name: string): ScheduledTo {
  if (isInt(value)) return value;
  if (Array.isArray(value) && value.every(isInt)) return value;
  throw ChatError.badRequest(`${name}["int"] is not an integer`);
}

function client(ctx: { params: { client: string | undefined }; headers: RouteContext['headers'] }): string {
  return clientName(ctx.params.client, ctx.headers['user-agent']);
}

const scheduledMessageId = { name: 'scheduled_message_id', type: 'int', in: 'path', required: true } as const;
// Read by Zulip's request-logging middleware (never unsupported): the sent message's client.
const clientParam = { name: 'client', type: 'string' } as const;

export const scheduledMessageRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/scheduled_messages',
    response: 'get-scheduled-messages',
    auth: 'user',
    summary: 'your scheduled messages not sent yet (failed ones included), earliest first',
    params: [],
    handler({ engine, user }) {
      return { scheduled_messages: listScheduledMessages(engine, user) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/scheduled_messages',
    response: 'create-scheduled-message',
    auth: 'user',
    summary: 'schedule a message to a channel topic or a direct-message conversation',
    // create_scheduled_message_backend's keyword parameters, in its order.
    params: [
      { name: 'content', type: 'string', required: true },
      { name: 'read_by_sender', type: 'bool' },
      { name: 'to', type: 'json', required: true, validate: scheduledTo },
      { name: 'type', type: 'string', required: true, oneOf: RECIPIENT_TYPES },
      { name: 'scheduled_delivery_timestamp', type: 'int', required: true },
      { name: 'topic', type: 'string', aliases: ['subject'] },
      clientParam,
    ],
    handler(ctx) {
      const p = ctx.params;
      return scheduleMessage(ctx.engine, ctx.user, {
        type: p.type,
        to: p.to,
        topic: p.topic,
        content: p.content,
        scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
        readBySender: p.read_by_sender,
        client: client(ctx),
      });
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/scheduled_messages/{scheduled_message_id}',
    response: 'empty',
    auth: 'user',
    summary: 'change a scheduled message (recipient, topic, content, delivery time)',
    // update_scheduled_message_backend's keyword parameters, in its order.
    params: [
      { name: 'content', type: 'string' },
      { name: 'type', type: 'string', oneOf: RECIPIENT_TYPES },
      { name: 'scheduled_delivery_timestamp', type: 'int' },
      scheduledMessageId,
      { name: 'to', type: 'json', validate: scheduledTo },
      { name: 'topic', type: 'string', aliases: ['subject'] },
      clientParam,
    ],
    handler(ctx) {
      const p = ctx.params;
      return editScheduledMessage(ctx.engine, ctx.user, p.scheduled_message_id, {
        type: p.type,
        to: p.to,
        topic: p.topic,
        content: p.content,
        scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
        client: client(ctx),
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    response: 'empty',
    auth: 'user',
    summary: 'delete one of your scheduled messages',
    params: [scheduledMessageId],
    handler({ engine, user, params }) {
      return deleteScheduledMessage(engine, user, params.scheduled_message_id);
    },
  }),
];
