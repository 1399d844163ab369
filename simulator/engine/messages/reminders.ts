/**
 * Message reminders (zerver/views/reminders.py, zerver/actions/reminders.py; operations
 * create-message-reminder, get-reminders, delete-reminder): scheduled messages of delivery type
 * REMIND, which the user addresses to themself and Notification Bot delivers as a DM when the
 * simulated clock reaches their time (scheduled.ts delivers them, in the same queue as
 * send-later messages). Their IDs come from the scheduled messages' sequence, as in Zulip's one
 * ScheduledMessage table.
 */
import { type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { nextId, type ScheduledMessageRecord, type UserRecord } from '../state.ts';
import { hasMessageAccess } from './permissions.ts';
import { formatReminder, reminderContent, type ReminderDict } from './reminder-content.ts';
import { lowerDueHint, reminderRemoveEvent } from './scheduled.ts';
import { checkSendMessage, renderFor } from './send.ts';
import { getMessage } from './store.ts';

export interface ReminderInput {
  messageId: number;
  scheduledDeliveryTimestamp: number;
  note: string | undefined;
  client: string;
}

/** POST /reminders: the view's time check, access to the message, then check_message of the DM to oneself. */
export function scheduleReminder(engine: Engine, user: UserRecord, input: ReminderInput): Outcome<{ reminder_id: number }> {
  if (input.scheduledDeliveryTimestamp <= engine.deps.clock.now()) throw ChatError.badRequest('Scheduled delivery time must be in the future.');
  const message = getMessage(engine.state.messages, input.messageId);
  if (!message || !hasMessageAccess(engine, user, message, false)) throw ChatError.badRequest('Invalid message(s)');
  const content = reminderContent(engine, user, message, input.note);
  // Addressee.for_user_profile(current_user): the reminder is checked as a DM to oneself.
  const checked = checkSendMessage(engine, user, { type: 'private', to: JSON.stringify([user.id]), topic: undefined, content, client: input.client });
  const record: ScheduledMessageRecord = {
    id: nextId(engine.state, 'scheduled_message'),
    senderId: user.id,
    streamId: null,
    topic: '',
    dmUserIds: [user.id],
    content: checked.content,
    renderedContent: renderFor(engine, user, checked.content).html,
    scheduledTimestamp: input.scheduledDeliveryTimestamp,
    readBySender: false,
    client: input.client,
    delivered: false,
    deliveredMessageId: null,
    failed: false,
    failureMessage: null,
    reminder: { targetMessageId: message.id, note: input.note ?? null },
  };
  engine.state.scheduledMessages.set(record.id, record);
  lowerDueHint(engine, record.scheduledTimestamp);
  const event = effect({ type: 'reminders', op: 'add', reminders: [formatReminder(record)] }, [user.id]);
  return outcome({ reminder_id: record.id }, [event]);
}

/** GET /reminders and /register's `reminders`: the user's undelivered reminders (failed ones too), earliest first. */
export function listReminders(engine: Engine, user: UserRecord): ReminderDict[] {
  return [...engine.state.scheduledMessages.values()]
    .filter((r) => r.reminder && r.senderId === user.id && !r.delivered)
    .sort((a, b) => a.scheduledTimestamp - b.scheduledTimestamp || a.id - b.id)
    .map(formatReminder);
}

export function remindersRegisterState(engine: Engine, user: UserRecord): { reminders: ReminderDict[] } {
  return { reminders: listReminders(engine, user) };
}

/** DELETE /reminders/{reminder_id}: access_reminder (one's own, of type REMIND), then do_delete_reminder. */
export function deleteReminder(engine: Engine, user: UserRecord, reminderId: number): Outcome<Record<string, never>> {
  const record = engine.state.scheduledMessages.get(reminderId);
  if (!record || !record.reminder || record.senderId !== user.id) throw new ChatError('BAD_REQUEST', 'Reminder does not exist', { status: 404 });
  engine.state.scheduledMessages.delete(reminderId);
  return outcome({}, [reminderRemoveEvent(record)]);
}
