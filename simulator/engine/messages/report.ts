/**
 * POST /messages/{message_id}/report (report-message; zerver/views/message_report.py,
 * zerver/lib/message_report.py send_message_report): Notification Bot posts the report to the
 * realm's moderation request channel (realm setting moderation_request_channel_id), in the topic
 * "{reported user} moderation": who reported whose message, the reason and explanation, and the
 * message itself behind a spoiler with a link to it.
 */
import { getUser, notificationBot, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { outcome, type Outcome } from '../events/effects.ts';
import { sendNotice, silentMention } from '../channels/notifications.ts';
import { directMessageUrl, messageLinkSyntax } from '../markdown/hash.ts';
import type { UserRecord } from '../state.ts';
import { hasMessageAccess } from './permissions.ts';
import { truncateContent, unusedFence } from './reminder-content.ts';
import { normalizeContent, truncateTopic } from './send.ts';
import { getMessage, type StoredMessage } from './store.ts';

/** Realm.REPORT_MESSAGE_REASONS: the report types and how the report names them. */
export const REPORT_MESSAGE_REASONS: Readonly<Record<string, string>> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};

/** Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_MESSAGE_EXPLANATION_LENGTH = 1000;

/** datetime_to_global_time: a `<time:…>` that every reader sees in their own time zone. */
function globalTime(timestamp: number): string {
  return `<time:${new Date(timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
}

function reportHeader(engine: Engine, reporter: UserRecord, reported: UserRecord, message: StoredMessage): string {
  const start = `${silentMention(reporter)} reported a message sent by ${silentMention(reported)}`;
  const at = `at ${globalTime(message.timestamp)}.`;
  if (message.streamId !== null) return `${start} ${at}`;
  const ids = message.dmUserIds ?? [];
  if (ids.length <= 2) {
    if (reported.id !== reporter.id) return `${start} ${at}`;
    // Reporting one's own 1:1 message names the other participant (oneself, for a note to self).
    const otherId = ids.find((id) => id !== reporter.id);
    const recipient = otherId === undefined ? reporter : getUser(engine, otherId)!;
    return `${start} to ${silentMention(recipient)} ${at}`;
  }
  const others = ids.filter((id) => id !== reported.id).map((id) => silentMention(getUser(engine, id)!));
  return `${start} to ${others.join(', ')} ${at}`;
}

export interface ReportInput {
  reportType: string;
  description: string;
}

export function reportMessage(engine: Engine, reporter: UserRecord, messageId: number, input: ReportInput): Outcome<Record<string, never>> {
  // The parameters were checked by the route (report_type among the reasons, description's length).
  if (input.reportType === 'other' && input.description === '') throw ChatError.badRequest('An explanation is required.');
  const channelId = engine.state.realm.moderation_request_channel_id;
  const channel = channelId === null ? undefined : engine.state.streams.get(channelId);
  if (!channel) throw ChatError.badRequest('Message reporting is not enabled in this organization.');
  const message = getMessage(engine.state.messages, messageId);
  if (!message || !hasMessageAccess(engine, reporter, message, false)) throw ChatError.badRequest('Invalid message(s)');

  const reported = getUser(engine, message.senderId)!;
  let original: string;
  if (message.streamId !== null) {
    const stream = engine.state.streams.get(message.streamId)!;
    original = `Original message at ${messageLinkSyntax(stream.id, stream.name, message.topic, message.id)}`;
  } else {
    original = `[Original message](${directMessageUrl(engine.state.realm.url, message.dmUserIds ?? [], message.id)})`;
  }
  // MAX_REPORT_MESSAGE_SNIPPET_LENGTH: room left for the explanation and the report's own words.
  const snippetLength = engine.state.realm.max_message_length - MAX_REPORT_MESSAGE_EXPLANATION_LENGTH - 500;
  const quoted = truncateContent(message.content, snippetLength, '\n[message truncated]');
  const fence = unusedFence(quoted);
  const content =
    reportHeader(engine, reporter, reported, message) +
    `\n\`\`\`quote\n**${REPORT_MESSAGE_REASONS[input.reportType]}**. ${input.description}\n\`\`\`\n\n` +
    `${fence} spoiler ${original}\n${quoted}\n${fence}\n`;
  const topic = channel.topics_policy === 'empty_topic_only' ? '' : truncateTopic(engine, `${reported.full_name} moderation`);

  const bot = notificationBot(engine);
  if (!bot) return outcome({});
  const sent = sendNotice(engine, bot, { kind: 'stream', stream: channel, topic }, normalizeContent(engine, content), [], reporter);
  return outcome({}, sent.events);
}
