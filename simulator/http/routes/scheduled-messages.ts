/** Scheduled messages (zerver/views/scheduled_messages.py). */
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { clientName } from '../../engine/messages/send.ts';
import {
  deleteScheduledMessage,
  editScheduledMessage,
  listScheduledMessages,
  scheduleMessage,
  type ApiRecipientType,
  type ScheduledTo,
} from '../../engine/scheduled-messages.ts';
import type { ParamSpec, Route, RouteContext } from '../route.ts';

/** Message.API_RECIPIENT_TYPES. */
const RECIPIENT_TYPES: readonly string[] = ['stream', 'private', 'channel', 'direct'];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * `to` is Json[int | list[int]]: a channel ID or a list of user IDs. Anything else fails both
 * branches of the union, and Zulip reports the first branch's complaint.
 */
function scheduledTo(value: unknown, name: string): ScheduledTo {
  if (isInt(value)) return value;
  if (Array.isArray(value) && value.every(isInt)) return value;
  throw ChatError.badRequest(`${name}["int"] is not an integer`);
}

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));

function client(ctx: RouteContext): string {
  return clientName(str(ctx.params.client), ctx.headers['user-agent']);
}

const scheduledMessageId: ParamSpec = { name: 'scheduled_message_id', type: 'int', in: 'path', required: true };
// Read by Zulip's request-logging middleware (never unsupported): the sent message's client.
const clientParam: ParamSpec = { name: 'client', type: 'string' };

export const scheduledMessageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/scheduled_messages',
    response: 'get-scheduled-messages',
    auth: 'user',
    summary: 'your scheduled messages not sent yet (failed ones included), earliest first',
    params: [],
    handler({ engine, user }) {
      return { scheduled_messages: listScheduledMessages(engine, user!) };
    },
  },
  {
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
      return commit(
        ctx.engine,
        scheduleMessage(ctx.engine, ctx.user!, {
          type: p.type as ApiRecipientType,
          to: p.to as ScheduledTo,
          topic: str(p.topic),
          content: p.content as string,
          scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp as number,
          readBySender: p.read_by_sender as boolean | undefined,
          client: client(ctx),
        }),
      );
    },
  },
  {
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
      return commit(
        ctx.engine,
        editScheduledMessage(ctx.engine, ctx.user!, p.scheduled_message_id as number, {
          type: p.type as ApiRecipientType | undefined,
          to: p.to as ScheduledTo | undefined,
          topic: str(p.topic),
          content: str(p.content),
          scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp as number | undefined,
          client: client(ctx),
        }),
      );
    },
  },
  {
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    response: 'empty',
    auth: 'user',
    summary: 'delete one of your scheduled messages',
    params: [scheduledMessageId],
    handler({ engine, user, params }) {
      return commit(engine, deleteScheduledMessage(engine, user!, params.scheduled_message_id as number));
    },
  },
];
