/** Message reminders (zerver/views/reminders.py: get-reminders, create-message-reminder, delete-reminder). */
import { deleteReminder, listReminders, scheduleReminder } from '../../engine/messages/reminders.ts';
import { clientName } from '../../engine/messages/send.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const reminderRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/reminders',
    response: 'get-reminders',
    auth: 'user',
    summary: 'your reminders not delivered yet (failed ones included), earliest first',
    params: [],
    handler: ({ engine, user }) => ({ reminders: listReminders(engine, user) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/reminders',
    response: 'create-message-reminder',
    auth: 'user',
    summary: 'have Notification Bot remind you of a message at a later time',
    // create_reminders_message_backend's keyword parameters, in its order.
    params: [
      { name: 'message_id', type: 'int', required: true },
      { name: 'scheduled_delivery_timestamp', type: 'int', required: true },
      { name: 'note', type: 'string' },
      // Read by Zulip's request-logging middleware (never unsupported).
      { name: 'client', type: 'string' },
    ],
    handler(ctx) {
      const p = ctx.params;
      return scheduleReminder(ctx.engine, ctx.user, {
        messageId: p.message_id,
        scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
        note: p.note,
        client: clientName(p.client, ctx.headers['user-agent']),
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/reminders/{reminder_id}',
    response: 'empty',
    auth: 'user',
    summary: 'cancel one of your reminders',
    params: [{ name: 'reminder_id', type: 'int', in: 'path', required: true }],
    handler: ({ engine, user, params }) => deleteReminder(engine, user, params.reminder_id),
  }),
];
