/**
 * Scheduled messages (zerver/views/scheduled_messages.py,
 * zerver/actions/scheduled_messages.py): checked as a send would be when scheduled and when
 * edited, kept for their sender, announced to the sender's own clients, and sent through the
 * ordinary send path when the simulated clock reaches their time (time.ts runs them). A delivery
 * that fails is kept with `failed: true`, and the sender hears of it from Notification Bot.
 */
import { getStreamById, getUser, notificationBot, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import {
  checkCanPost,
  checkSendMessage,
  checkTopicCharacters,
  checkTopicsPolicy,
  checkUserGroupMentions,
  checkWildcardMentions,
  defaultReadBySender,
  doSendMessage,
  normalizeContent,
  renderFor,
  topicParticipants,
  truncateTopic,
  type Addressee,
  type CheckedSend,
} from './send.ts';
import { sendNotice } from '../channels/notifications.ts';
import { reminderContent } from './reminder-content.ts';
import { hasMessageAccess } from './permissions.ts';
import { getMessage } from './store.ts';
import { nextId, type ScheduledMessageRecord, type StreamRecord, type UserRecord } from '../state.ts';

/** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: a message later than this is not sent at all. */
export const SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS = 10 * 60;

/** The recipient types the API names (Message.API_RECIPIENT_TYPES); the stored ones are stream and private. */
export type ApiRecipientType = 'stream' | 'channel' | 'private' | 'direct';
type StoredType = 'stream' | 'private';

/** `to` as the client sent it: a channel ID, or a list of user IDs (Json[int | list[int]]). */
export type ScheduledTo = number | number[];

export interface ScheduleInput {
  type: ApiRecipientType;
  to: ScheduledTo;
  topic: string | undefined;
  content: string;
  scheduledDeliveryTimestamp: number;
  readBySender: boolean | undefined;
  client: string;
}

export interface ScheduledEdit {
  type: ApiRecipientType | undefined;
  to: ScheduledTo | undefined;
  topic: string | undefined;
  content: string | undefined;
  scheduledDeliveryTimestamp: number | undefined;
  client: string;
}

/** The object of GET /scheduled_messages, /register and the scheduled_messages events. */
export type ScheduledMessageDict = {
  scheduled_message_id: number;
  to: number | number[];
  type: StoredType;
  content: string;
  rendered_content: string;
  topic?: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
};

/** What happened when a scheduled message came due (the clock step reports it). */
export interface ScheduledDelivery {
  scheduled_message_id: number;
  /** The sent message's ID, or null when the delivery failed. */
  message_id: number | null;
  failure_message: string | null;
}

function storedType(type: ApiRecipientType): StoredType {
  return type === 'stream' || type === 'channel' ? 'stream' : 'private';
}

function deliveryTimeNotInFuture(): ChatError {
  return ChatError.badRequest('Scheduled delivery time must be in the future.');
}

/** The view's check: a delivery time at or before the present is refused. */
function checkFuture(engine: Engine, timestamp: number): void {
  if (timestamp <= engine.deps.clock.now()) throw deliveryTimeNotInFuture();
}

/** extract_stream_id: a channel takes one ID, not a list. */
function extractStreamId(to: ScheduledTo): number {
  if (Array.isArray(to)) throw ChatError.badRequest('Invalid data type for channel ID');
  return to;
}

/** extract_direct_message_recipient_ids: a list, duplicates dropped. */
function extractRecipientIds(to: ScheduledTo): number[] {
  if (!Array.isArray(to)) throw ChatError.badRequest('Invalid data type for recipients');
  return [...new Set(to)].sort((a, b) => a - b);
}

/** What check_message makes of the message: its addressee and normalized content. */
interface CheckedSchedule {
  checked: CheckedSend;
  renderedContent: string;
}

/**
 * Addressee.legacy_build + check_message, as for a send of the same message now (the send path's
 * own checks, in its order), then the rendering with its wildcard-mention permission check.
 */
function checkAsSend(engine: Engine, sender: UserRecord, type: StoredType, to: number[], topic: string | undefined, content: string, client: string): CheckedSchedule {
  const checked = checkSendMessage(engine, sender, {
    type,
    to: JSON.stringify(type === 'stream' ? to[0] : to),
    topic,
    content,
    client,
  });
  const rendered = renderFor(engine, sender, checked.content);
  if (checked.addressee.kind === 'stream') {
    const { stream, topic: checkedTopic } = checked.addressee;
    const participants = rendered.wildcards.has('topic') ? topicParticipants(engine, stream.id, checkedTopic) : undefined;
    checkWildcardMentions(engine, sender, stream, rendered, participants);
  }
  checkUserGroupMentions(engine, sender, rendered);
  return { checked, renderedContent: rendered.html };
}

function isMessageToSelf(sender: UserRecord, addressee: Addressee): boolean {
  return addressee.kind === 'direct' && addressee.users.length === 1 && addressee.users[0]!.id === sender.id;
}

/** Where a checked addressee points, as the record keeps it. */
function recipientFields(sender: UserRecord, addressee: Addressee): Pick<ScheduledMessageRecord, 'streamId' | 'topic' | 'dmUserIds'> {
  if (addressee.kind === 'stream') return { streamId: addressee.stream.id, topic: addressee.topic, dmUserIds: null };
  const ids = [...new Set([sender.id, ...addressee.users.map((u) => u.id)])].sort((a, b) => a - b);
  return { streamId: null, topic: '', dmUserIds: ids };
}

/** get_recipient_ids: the channel, or the other participants (the sender alone for a note to self). */
function recipientIds(record: ScheduledMessageRecord): number[] {
  if (record.streamId !== null) return [record.streamId];
  const ids = record.dmUserIds!;
  const others = ids.filter((id) => id !== record.senderId);
  return others.length > 0 ? others : [...ids];
}

export function formatScheduledMessage(record: ScheduledMessageRecord): ScheduledMessageDict {
  const common = { scheduled_message_id: record.id };
  const tail = { scheduled_delivery_timestamp: record.scheduledTimestamp, failed: record.failed };
  if (record.streamId !== null) {
    return {
      ...common,
      to: record.streamId,
      type: 'stream',
      content: record.content,
      rendered_content: record.renderedContent,
      topic: record.topic,
      ...tail,
    };
  }
  return { ...common, to: recipientIds(record), type: 'private', content: record.content, rendered_content: record.renderedContent, ...tail };
}

function updateEvent(record: ScheduledMessageRecord): Effect {
  return effect({ type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduledMessage(record) }, [record.senderId]);
}

function removeEvent(record: ScheduledMessageRecord): Effect {
  return effect({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: record.id }, [record.senderId]);
}

/** POST /scheduled_messages. */
export function scheduleMessage(engine: Engine, sender: UserRecord, input: ScheduleInput): Outcome<{ scheduled_message_id: number }> {
  const type = storedType(input.type);
  checkFuture(engine, input.scheduledDeliveryTimestamp);
  const to = type === 'stream' ? [extractStreamId(input.to)] : extractRecipientIds(input.to);
  const { checked, renderedContent } = checkAsSend(engine, sender, type, to, input.topic, input.content, input.client);
  // Zulip's legacy default: read for the sender when their client marks its sends read, unless
  // the message goes to the sender alone.
  const readBySender = input.readBySender ?? (defaultReadBySender(input.client) && !isMessageToSelf(sender, checked.addressee));
  const record: ScheduledMessageRecord = {
    id: nextId(engine.state, 'scheduled_message'),
    senderId: sender.id,
    ...recipientFields(sender, checked.addressee),
    content: checked.content,
    renderedContent,
    scheduledTimestamp: input.scheduledDeliveryTimestamp,
    readBySender,
    client: input.client,
    delivered: false,
    deliveredMessageId: null,
    failed: false,
    failureMessage: null,
  };
  engine.state.scheduledMessages.set(record.id, record);
  lowerDueHint(engine, record.scheduledTimestamp);
  const event = effect({ type: 'scheduled_messages', op: 'add', scheduled_messages: [formatScheduledMessage(record)] }, [sender.id]);
  return outcome({ scheduled_message_id: record.id }, [event]);
}

/** access_scheduled_message: another user's message, or a reminder, is as unknown as a missing one. */
function accessScheduledMessage(engine: Engine, sender: UserRecord, id: number): ScheduledMessageRecord {
  const record = engine.state.scheduledMessages.get(id);
  if (!record || record.senderId !== sender.id || record.reminder) throw new ChatError('BAD_REQUEST', 'Scheduled message does not exist', { status: 404 });
  return record;
}

/** PATCH /scheduled_messages/{id}: the view's checks, then edit_scheduled_message's, all before any change. */
export function editScheduledMessage(engine: Engine, sender: UserRecord, id: number, edit: ScheduledEdit): Outcome<Record<string, never>> {
  if (
    edit.type === undefined &&
    edit.to === undefined &&
    edit.topic === undefined &&
    edit.content === undefined &&
    edit.scheduledDeliveryTimestamp === undefined
  ) {
    throw ChatError.badRequest('Nothing to change');
  }
  const newType = edit.type === undefined ? undefined : storedType(edit.type);
  if (newType !== undefined && edit.to === undefined) throw ChatError.badRequest('Recipient required when updating type of scheduled message.');
  if (newType === 'stream' && edit.topic === undefined) {
    throw ChatError.badRequest('Topic required when updating scheduled message type to channel.');
  }
  if (edit.scheduledDeliveryTimestamp !== undefined) checkFuture(engine, edit.scheduledDeliveryTimestamp);

  const record = accessScheduledMessage(engine, sender, id);
  if (record.delivered) throw ChatError.badRequest('Scheduled message was already sent');
  // A message the server failed to send needs a new time to be tried again.
  if (record.failed && edit.scheduledDeliveryTimestamp === undefined) throw deliveryTimeNotInFuture();

  const existingType: StoredType = record.streamId !== null ? 'stream' : 'private';
  let recheck: CheckedSchedule | undefined;
  if (newType !== undefined || edit.to !== undefined || edit.content !== undefined) {
    const type = newType ?? existingType;
    let to = recipientIds(record);
    if (edit.to !== undefined) to = type === 'stream' ? [extractStreamId(edit.to)] : extractRecipientIds(edit.to);
    recheck = checkAsSend(engine, sender, type, to, edit.topic ?? record.topic, edit.content ?? record.content, edit.client);
  }
  let topicOnly: string | undefined;
  if (newType === undefined && edit.to === undefined && edit.topic !== undefined && existingType === 'stream') {
    // A new topic alone is checked and cut to length, as Zulip does; for a direct message it is ignored.
    checkTopicCharacters(edit.topic);
    topicOnly = truncateTopic(engine, edit.topic);
  }

  if (recheck && (newType !== undefined || edit.to !== undefined)) Object.assign(record, recipientFields(sender, recheck.checked.addressee));
  else if (topicOnly !== undefined) record.topic = topicOnly;
  if (recheck && edit.content !== undefined) {
    record.content = recheck.checked.content;
    record.renderedContent = recheck.renderedContent;
  }
  if (edit.scheduledDeliveryTimestamp !== undefined) record.scheduledTimestamp = edit.scheduledDeliveryTimestamp;
  record.client = edit.client;
  record.failed = false;
  record.failureMessage = null;
  lowerDueHint(engine, record.scheduledTimestamp);
  return outcome({}, [updateEvent(record)]);
}

/** DELETE /scheduled_messages/{id}: any of the sender's, sent or not. */
export function deleteScheduledMessage(engine: Engine, sender: UserRecord, id: number): Outcome<Record<string, never>> {
  const record = accessScheduledMessage(engine, sender, id);
  engine.state.scheduledMessages.delete(id);
  return outcome({}, [removeEvent(record)]);
}

function undelivered(engine: Engine, user: UserRecord): ScheduledMessageRecord[] {
  return [...engine.state.scheduledMessages.values()]
    .filter((r) => r.senderId === user.id && !r.delivered && !r.reminder)
    .sort((a, b) => a.scheduledTimestamp - b.scheduledTimestamp || a.id - b.id);
}

/** GET /scheduled_messages: the sender's unsent messages, failed ones included, earliest first. */
export function listScheduledMessages(engine: Engine, user: UserRecord): ScheduledMessageDict[] {
  return undelivered(engine, user).map(formatScheduledMessage);
}

export function scheduledMessagesRegisterState(engine: Engine, user: UserRecord): { scheduled_messages: ScheduledMessageDict[] } {
  return { scheduled_messages: listScheduledMessages(engine, user) };
}

// ---------------------------------------------------------------- delivery

/** The message the delivery worker takes next: the earliest due, then the lowest ID. */
function nextPending(engine: Engine): ScheduledMessageRecord | undefined {
  let best: ScheduledMessageRecord | undefined;
  for (const r of engine.state.scheduledMessages.values()) {
    if (r.delivered || r.failed) continue;
    if (!best || r.scheduledTimestamp < best.scheduledTimestamp || (r.scheduledTimestamp === best.scheduledTimestamp && r.id < best.id)) best = r;
  }
  return best;
}

/*
 * engine.caches.scheduledDue: no pending message is due before this, per store of scheduled
 * messages (a state replaced whole starts without one): the clock step looks at the messages only
 * once the present reaches it.
 */
export function lowerDueHint(engine: Engine, timestamp: number): void {
  const store = engine.state.scheduledMessages;
  const dueHints = engine.caches.scheduledDue;
  dueHints.set(store, Math.min(dueHints.get(store) ?? Number.NEGATIVE_INFINITY, timestamp));
}

/** When the next scheduled message is due: exact when that is by `until`, else a moment after it. */
export function nextScheduledDelivery(engine: Engine, until: number): number | undefined {
  const store = engine.state.scheduledMessages;
  const dueHints = engine.caches.scheduledDue;
  const hint = dueHints.get(store) ?? Number.NEGATIVE_INFINITY;
  if (hint > until) return hint === Number.POSITIVE_INFINITY ? undefined : hint;
  const next = nextPending(engine)?.scheduledTimestamp;
  dueHints.set(store, next ?? Number.POSITIVE_INFINITY);
  return next;
}

/** The failure that keeps Notification Bot quiet (Zulip's UserDeactivatedError). */
class SenderDeactivated extends ChatError {
  constructor() {
    super('USER_DEACTIVATED', 'Account is deactivated');
  }
}

/**
 * send_scheduled_message's checks at delivery time: the sender still active, not too late, and
 * check_message again, since permissions may have changed since the message was scheduled.
 */
function checkDelivery(engine: Engine, record: ScheduledMessageRecord, sender: UserRecord | undefined): CheckedSend {
  if (!sender || !sender.is_active) throw new SenderDeactivated();
  if (nowSeconds(engine) > record.scheduledTimestamp + SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS) {
    throw ChatError.badRequest('Message could not be sent at the scheduled time.');
  }
  let addressee: Addressee;
  if (record.streamId !== null) {
    const stream: StreamRecord = getStreamById(engine, record.streamId)!;
    checkCanPost(engine, sender, stream);
    checkTopicsPolicy(engine, stream, record.topic);
    addressee = { kind: 'stream', stream, topic: record.topic };
  } else {
    const users = record.dmUserIds!.map((id) => getUser(engine, id)!);
    for (const user of users) if (!user.is_active) throw ChatError.badRequest(`'${user.email}' is no longer using Zulip.`);
    // Addressee.for_user_ids of the conversation's members, the sender among them.
    addressee = { kind: 'direct', users };
  }
  return {
    sender,
    addressee,
    content: record.content,
    client: record.client,
    readBySender: record.readBySender,
    queueId: undefined,
    localId: undefined,
    timestamp: nowSeconds(engine),
  };
}

/** send_failed_scheduled_message_notification's text (no trailing blank lines: the send strips them). */
function failureNotice(record: ScheduledMessageRecord, error: string): string {
  const when = new Date(record.scheduledTimestamp * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return [
    `The message you scheduled for <time:${when}> was not sent because of the following error:`,
    '',
    `> ${error}`,
    '',
    '[View scheduled messages](#scheduled)',
  ].join('\n');
}

/**
 * try_deliver_one_scheduled_message for the earliest due message, with the clock reading its
 * delivery moment: sent as the sender through the send path (the message events, then the
 * scheduled message's removal), or marked failed (an update, then Notification Bot's DM, except
 * when the sender was deactivated).
 */
export function deliverNextScheduledMessage(engine: Engine): Outcome<ScheduledDelivery> | undefined {
  const record = nextPending(engine);
  if (!record) return undefined;
  if (record.reminder) return deliverReminder(engine, record);
  const sender = getUser(engine, record.senderId);
  let sent: Outcome<{ id: number }>;
  try {
    sent = doSendMessage(engine, checkDelivery(engine, record, sender));
  } catch (error) {
    record.failed = true;
    // An unexpected failure is reported as Zulip reports one.
    record.failureMessage = error instanceof ChatError ? error.msg : 'Internal server error';
    const report = { scheduled_message_id: record.id, message_id: null, failure_message: record.failureMessage };
    if (error instanceof SenderDeactivated || !sender) return outcome(report);
    const events = [updateEvent(record)];
    const bot = notificationBot(engine);
    if (bot) events.push(...sendNotice(engine, bot, { kind: 'direct', users: [sender] }, failureNotice(record, record.failureMessage), []).events);
    return outcome(report, events);
  }
  record.delivered = true;
  record.deliveredMessageId = sent.value.id;
  return outcome({ scheduled_message_id: record.id, message_id: sent.value.id, failure_message: null }, [...sent.events, removeEvent(record)]);
}

/** The remove event of a reminder (zerver/lib/reminders.py notify_remove_reminder), to its user. */
export function reminderRemoveEvent(record: ScheduledMessageRecord): Effect {
  return effect({ type: 'reminders', op: 'remove', reminder_id: record.id }, [record.senderId]);
}

/**
 * send_reminder: Notification Bot sends the user a DM, worded afresh when the user can still see
 * the message (else as it was when the reminder was made), then the reminder's removal. Reminders
 * have no late cutoff (they go to the user alone), and a failure is only recorded: no update
 * event and no Notification Bot notice, since "reminders have their own notification system".
 */
function deliverReminder(engine: Engine, record: ScheduledMessageRecord): Outcome<ScheduledDelivery> {
  const user = getUser(engine, record.senderId);
  const fail = (msg: string): Outcome<ScheduledDelivery> => {
    record.failed = true;
    record.failureMessage = msg;
    return outcome({ scheduled_message_id: record.id, message_id: null, failure_message: msg });
  };
  if (!user || !user.is_active) return fail('Account is deactivated');
  const target = getMessage(engine.state.messages, record.reminder!.targetMessageId);
  let content = record.content;
  if (target && hasMessageAccess(engine, user, target, false)) {
    try {
      content = reminderContent(engine, user, target, record.reminder!.note);
    } catch (error) {
      if (!(error instanceof ChatError)) throw error;
    }
  }
  const bot = notificationBot(engine);
  if (!bot) return fail('Reminder could not be sent.');
  let sent: { id: number; events: Effect[] };
  try {
    sent = sendNotice(engine, bot, { kind: 'direct', users: [user] }, normalizeContent(engine, content), [], user);
  } catch (error) {
    return fail(error instanceof ChatError ? error.msg : 'Internal server error');
  }
  record.delivered = true;
  record.deliveredMessageId = sent.id;
  return outcome({ scheduled_message_id: record.id, message_id: sent.id, failure_message: null }, [...sent.events, reminderRemoveEvent(record)]);
}
