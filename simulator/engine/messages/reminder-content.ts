/**
 * What a message reminder says (zerver/lib/reminders.py get_reminder_formatted_content): who
 * said what, where, with a link to it, the message quoted (a poll or a to-do list only named),
 * and the user's note. Also the reminder object of GET /reminders, /register and the
 * `reminders` events (ScheduledMessage.to_reminder_dict).
 */
import { getStreamById, getUser, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { silentMention } from '../channels/notifications.ts';
import { channelMessageUrl, directMessageUrl, messageLinkSyntax } from '../markdown/hash.ts';
import type { ScheduledMessageRecord, UserRecord } from '../state.ts';
import type { StoredMessage } from './store.ts';

/** Zulip's MAX_REMINDER_NOTE_LENGTH (register's max_reminder_note_length). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

const TRUNCATED = '\n[message truncated]';

/** The reminder object (to_reminder_dict), in Zulip's key order. */
export interface ReminderDict {
  reminder_id: number;
  to: number[];
  type: 'private';
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

export function formatReminder(record: ScheduledMessageRecord): ReminderDict {
  return {
    reminder_id: record.id,
    // The reminder goes to the user who asked for it.
    to: [record.senderId],
    type: 'private',
    content: record.content,
    rendered_content: record.renderedContent,
    scheduled_delivery_timestamp: record.scheduledTimestamp,
    failed: record.failed,
    reminder_target_message_id: record.reminder!.targetMessageId,
  };
}

const codePoints = (text: string): number => [...text].length;

/** normalize_note_text: trailing whitespace and leading newlines go; then the length limit. */
function normalizeNote(note: string): string {
  let body = note.trimEnd();
  while (body.startsWith('\n')) body = body.slice(1);
  if (codePoints(body) > MAX_REMINDER_NOTE_LENGTH) {
    throw ChatError.badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/** fenced_code's get_unused_fence: a backtick fence longer than any fence opening a line of `content`. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^(`{3,}|~{3,})/gm)) length = Math.max(length, match[1]!.length + 1);
  return '`'.repeat(length);
}

/** zerver/lib/message.py truncate_content, counted in code points as Python counts. */
export function truncateContent(content: string, maxLength: number, marker: string): string {
  const chars = [...content];
  if (chars.length <= maxLength) return content;
  return chars.slice(0, Math.max(0, maxLength - codePoints(marker))).join('') + marker;
}

/**
 * The mentions of a direct message's other participants. Zulip joins them with
 * get_user_mentions_for_display; the simulator separates them with commas.
 */
function mentionList(users: readonly UserRecord[]): string {
  return users.map(silentMention).join(', ');
}

/** get_reminder_formatted_content for a message `user` may access. Throws for a note too long. */
export function reminderContent(engine: Engine, user: UserRecord, message: StoredMessage, note: string | null | undefined): string {
  const shownNote = note ? normalizeNote(note) : '';
  const sender = getUser(engine, message.senderId)!;
  const who = silentMention(sender);
  const realmUrl = engine.state.realm.url;
  let content: string;
  let where: string;
  if (message.streamId !== null) {
    const stream = getStreamById(engine, message.streamId)!;
    const url = channelMessageUrl(realmUrl, stream.id, stream.name, message.topic, message.id);
    content = shownNote
      ? `You requested a reminder for the following message. Note:\n > ${shownNote}`
      : 'You requested a reminder for the following message.';
    where = `[{verb}](${url}) {what} in ${messageLinkSyntax(stream.id, stream.name, message.topic, message.id)}`;
  } else {
    const ids = message.dmUserIds ?? [];
    const url = directMessageUrl(realmUrl, ids, message.id);
    content = shownNote
      ? `You requested a reminder for the following direct message. Note:\n > ${shownNote}`
      : 'You requested a reminder for the following direct message.';
    const others = ids.filter((id) => id !== sender.id).map((id) => getUser(engine, id)!);
    where = `[{verb}](${url}) {what} to ${mentionList(others.length > 0 ? others : [sender])}`;
  }
  content += '\n\n';
  const widget = message.content.startsWith('/poll') ? 'poll' : message.content.startsWith('/todo') ? 'todo list' : undefined;
  if (widget) return content + `${who} ${where.replace('{verb}', 'sent').replace('{what}', `a ${widget}`)}.`;
  content += `${who} ${where.replace('{verb}', 'said').replace(' {what}', '')}:\n`;
  // As Zulip does, the fence is chosen from the text before the quote, not from the quoted message.
  const fence = unusedFence(content);
  const wrapper = `${fence}quote\n\n${fence}`;
  const room = engine.state.realm.max_message_length - codePoints(content + wrapper);
  return content + `${fence}quote\n${truncateContent(message.content, room, TRUNCATED)}\n${fence}`;
}
