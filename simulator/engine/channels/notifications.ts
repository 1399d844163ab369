/**
 * Notification Bot messages that subscribing and channel creation send (zerver/views/streams.py:add_subscriptions_backend):
 * DMs to users someone else subscribed, the new-channel announcement, and the "channel events"
 * creation post. Sent through doSendMessage, the do-half of sending (no permission checks: the bot is
 * the server speaking), so they are ordinary messages with ordinary events.
 */
import { compareCodePoints } from './channels.ts';
import { notificationBot, nowSeconds, type Engine } from '../core.ts';
import type { Effect } from '../events/effects.ts';
import { doSendMessage, type Addressee } from '../messages/send.ts';
import type { StreamRecord, UserGroup, UserRecord } from '../state.ts';

/** Zulip's MAX_BULK_NEW_SUBSCRIPTION_MESSAGES: above this many recipients no DMs are sent. */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/** silent_mention_syntax_for_user: names a user without notifying them. */
export const silentMention = (user: UserRecord): string => `@_**${user.full_name}|${user.id}**`;
const mention = silentMention;

/** Notification Bot speaks: an internal send, read from the start for `readBy`. */
export function sendNotice(
  engine: Engine,
  bot: UserRecord,
  addressee: Addressee,
  content: string,
  readBy: Iterable<number>,
  actingUser?: UserRecord,
): { id: number; events: Effect[] } {
  const { value, events } = doSendMessage(engine, {
    sender: bot,
    ...(actingUser ? { actingUser } : {}),
    addressee,
    content,
    client: 'Internal',
    readBySender: true,
    queueId: undefined,
    localId: undefined,
    timestamp: nowSeconds(engine),
    readUserIds: new Set(readBy),
  });
  return { id: value.id, events };
}

function send(engine: Engine, bot: UserRecord, addressee: Addressee, content: string, readBy: number[], actingUser?: UserRecord): Effect[] {
  return sendNotice(engine, bot, addressee, content, readBy, actingUser).events;
}

function policyName(stream: StreamRecord): string {
  if (stream.is_web_public) return 'Web-public';
  if (!stream.invite_only) return 'Public';
  return stream.history_public_to_subscribers ? 'Private, shared history' : 'Private, protected history';
}

export interface SubscriptionNotices {
  actor: UserRecord;
  /** Newly subscribed user id → channels, in request order. */
  subscribed: Map<number, StreamRecord[]>;
  created: StreamRecord[];
  announce: boolean;
  sendSubscriptionMessages: boolean;
}

/** Returns the events and whether the subscription DMs were sent. */
export function sendSubscriptionNotices(engine: Engine, n: SubscriptionNotices): { events: Effect[]; sent: boolean } {
  const bot = notificationBot(engine);
  const events: Effect[] = [];
  let sent = n.sendSubscriptionMessages;
  if (!bot) return { events, sent };
  const createdIds = new Set(n.created.map((s) => s.id));

  if (n.sendSubscriptionMessages) {
    const notices: [UserRecord, string[]][] = [];
    for (const [userId, streams] of n.subscribed) {
      const user = engine.state.users.get(userId)!;
      if (userId === n.actor.id || user.is_bot) continue;
      const names = streams.filter((s) => !createdIds.has(s.id)).map((s) => s.name).sort(compareCodePoints);
      if (names.length > 0) notices.push([user, names]);
    }
    if (notices.length > MAX_BULK_NEW_SUBSCRIPTION_MESSAGES) sent = false;
    else {
      for (const [user, names] of notices) {
        const content =
          names.length === 1
            ? `${mention(n.actor)} subscribed you to #**${names[0]}**.`
            : `${mention(n.actor)} subscribed you to the following channels:\n\n${names.map((name) => `* #**${name}**\n`).join('')}`;
        events.push(...send(engine, bot, { kind: 'direct', users: [user] }, content, [], n.actor));
      }
    }
  }

  const announcementsId = engine.state.realm.new_stream_announcements_stream_id;
  const announcements = announcementsId === null ? undefined : engine.state.streams.get(announcementsId);
  // Every channel created by the request is announced, private ones too (Zulip does not filter).
  if (n.announce && announcements && n.created.length > 0) {
    const names = n.created.map((s) => `#**${s.name}**`);
    const content =
      names.length === 1
        ? `${mention(n.actor)} created a new channel ${names[0]}.`
        : `${mention(n.actor)} created the following channels: ${names.join(', ')}.`;
    events.push(...send(engine, bot, { kind: 'stream', stream: announcements, topic: 'new channels' }, content, [n.actor.id]));
  }

  if (engine.state.realm.send_channel_events_messages) {
    for (const stream of n.created) {
      // The description, or *No description.*, always sits in a quote block.
      const description = stream.description === '' ? '*No description.*' : stream.description;
      const content = `**${policyName(stream)}** channel created by ${mention(n.actor)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
      // channel_events_topic_name: a channel that only allows the empty topic gets it there.
      const topic = stream.topics_policy === 'empty_topic_only' ? '' : 'channel events';
      events.push(...send(engine, bot, { kind: 'stream', stream, topic }, content, [n.actor.id]));
    }
  }
  return { events, sent };
}

/**
 * The DMs Notification Bot sends to users someone else added to or removed from a user group
 * (notify_for_user_group_subscription_changes): not to the actor, not to bots.
 */
export function sendGroupMembershipNotices(
  engine: Engine,
  actor: UserRecord,
  group: UserGroup,
  users: readonly UserRecord[],
  change: 'added' | 'removed',
): Effect[] {
  const bot = notificationBot(engine);
  if (!bot) return [];
  const events: Effect[] = [];
  const phrase = change === 'added' ? 'added you to' : 'removed you from';
  for (const user of users) {
    if (user.id === actor.id || user.is_bot) continue;
    const content = `${mention(actor)} ${phrase} the group @_*${group.name}*.`;
    events.push(...send(engine, bot, { kind: 'direct', users: [user] }, content, [], actor));
  }
  return events;
}
