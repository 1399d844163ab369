/**
 * What Notification Bot posts in a channel's "channel events" topic when the channel is changed
 * (zerver/actions/streams.py, maybe_send_channel_events_notice): renames, descriptions, access and
 * posting permissions, retention, the empty-topic policy, archiving and unarchiving. Nothing is
 * posted when the organization turned send_channel_events_messages off. Notices reach archived
 * channels too (the server speaks; no permission check applies).
 */
import { notificationBot, subscribersOf, type Engine } from '../core.ts';
import type { Effect } from '../events/effects.ts';
import { sendNotice, silentMention } from './notifications.ts';
import type { GroupSettingValue, StreamRecord, TopicsPolicy, UserRecord } from '../state.ts';

/** channel_events_topic_name: a channel that only allows the empty topic gets its notices there. */
function eventsTopic(stream: StreamRecord): string {
  return stream.topics_policy === 'empty_topic_only' ? '' : 'channel events';
}

/** Post `content`; `readByAll` marks it read for every subscriber (limit_unread_user_ids=set()). */
function post(engine: Engine, stream: StreamRecord, content: string, readByAll = false): Effect[] {
  const bot = notificationBot(engine);
  if (!bot || !engine.state.realm.send_channel_events_messages) return [];
  const readBy = readByAll ? subscribersOf(engine, stream.id) : [];
  return sendNotice(engine, bot, { kind: 'stream', stream, topic: eventsTopic(stream) }, content, readBy).events;
}

export function renameNotice(engine: Engine, stream: StreamRecord, actor: UserRecord, oldName: string): Effect[] {
  return post(engine, stream, `${silentMention(actor)} renamed channel **${oldName}** to **${stream.name}**.`);
}

export function descriptionNotice(engine: Engine, stream: StreamRecord, actor: UserRecord, oldDescription: string): Effect[] {
  const shown = (text: string): string => (text === '' ? '*No description.*' : text);
  const content =
    `${silentMention(actor)} changed the description for this channel.\n\n` +
    `* **Old description:**\n\`\`\`\` quote\n${shown(oldDescription)}\n\`\`\`\`\n` +
    `* **New description:**\n\`\`\`\` quote\n${shown(stream.description)}\n\`\`\`\``;
  return post(engine, stream, content);
}

/** Stream.PERMISSION_POLICIES' policy_name. */
export function accessPolicyName(p: { invite_only: boolean; history_public_to_subscribers: boolean; is_web_public: boolean }): string {
  if (p.is_web_public) return 'Web-public';
  if (!p.invite_only) return p.history_public_to_subscribers ? 'Public' : 'Public, protected history';
  return p.history_public_to_subscribers ? 'Private, shared history' : 'Private, protected history';
}

export function accessNotice(engine: Engine, stream: StreamRecord, actor: UserRecord, oldPolicy: string): Effect[] {
  const content =
    `${silentMention(actor)} changed the [access permissions](/help/channel-permissions) ` +
    `for this channel from **${oldPolicy}** to **${accessPolicyName(stream)}**.`;
  return post(engine, stream, content);
}

/** get_users_string_with_permission: groups by id, then users by id, as silent mentions. */
function whoHasPermission(engine: Engine, value: GroupSettingValue): string {
  const groupMention = (id: number): string => `@_*${engine.state.userGroups.get(id)?.name ?? id}*`;
  if (typeof value === 'number') return groupMention(value);
  const groups = [...value.direct_subgroups].sort((a, b) => a - b).map(groupMention);
  const users = [...value.direct_members]
    .sort((a, b) => a - b)
    .map((id) => engine.state.users.get(id))
    .filter((u): u is UserRecord => u !== undefined)
    .map(silentMention);
  return [...groups, ...users].join(', ');
}

export function postingPermissionNotice(
  engine: Engine,
  stream: StreamRecord,
  actor: UserRecord,
  oldValue: GroupSettingValue,
  newValue: GroupSettingValue,
): Effect[] {
  const content =
    `${silentMention(actor)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
    `* **Old**: ${whoHasPermission(engine, oldValue)}\n` +
    `* **New**: ${whoHasPermission(engine, newValue)}\n`;
  return post(engine, stream, content);
}

/** The retention notice; null (the organization's default) counts as the organization's value. */
export function retentionNotice(engine: Engine, stream: StreamRecord, actor: UserRecord, oldDays: number | null): Effect[] {
  const realmDays = engine.state.realm.message_retention_days ?? -1;
  const before = oldDays ?? realmDays;
  const after = stream.message_retention_days ?? realmDays;
  // Zulip's three cases, in its order: from forever, to forever, between two periods.
  const [oldPeriod, newPeriod, summary] =
    before === -1
      ? ['Forever', `${after} days`, `Messages in this channel will now be automatically deleted ${after} days after they are sent.`]
      : after === -1
        ? [`${before} days`, 'Forever', 'Messages in this channel will now be retained forever.']
        : [`${before} days`, `${after} days`, `Messages in this channel will now be automatically deleted ${after} days after they are sent.`];
  const content =
    `${silentMention(actor)} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${oldPeriod}\n` +
    `* **New retention period**: ${newPeriod}\n\n` +
    summary;
  return post(engine, stream, content);
}

export function topicsPolicyNotice(engine: Engine, stream: StreamRecord, actor: UserRecord, oldPolicy: TopicsPolicy): Effect[] {
  const empty = engine.state.realm.realm_empty_topic_display_name;
  const label: Record<TopicsPolicy, string> = {
    inherit: 'Automatic',
    allow_empty_topic: `*${empty}* topic allowed`,
    disable_empty_topic: `No *${empty}* topic`,
    empty_topic_only: `Only *${empty}* topic allowed`,
  };
  const content =
    `${silentMention(actor)} changed the "Allow posting to the *general chat* topic?" setting ` +
    `from **${label[oldPolicy]}** to **${label[stream.topics_policy]}**.`;
  return post(engine, stream, content);
}

export function archiveNotice(engine: Engine, stream: StreamRecord): Effect[] {
  return post(engine, stream, `Channel #**${stream.name}** has been archived.`, true);
}

export function unarchiveNotice(engine: Engine, stream: StreamRecord): Effect[] {
  return post(engine, stream, `Channel #**${stream.name}** has been unarchived.`);
}
