/**
 * A session that touches every resource of the simulator: users and bots, channels and
 * subscriptions, messages (sent, edited, moved, reacted to, flagged, deleted), groups, invitations,
 * settings, statuses, drafts, snippets, views, folders, uploads, custom emoji, profile fields,
 * linkifiers, topic settings, bot storage, push devices and pushes, event queues, outgoing
 * webhooks and the bot-owner alert, with some requests refused on purpose. Each step says which
 * status it expects, so a change elsewhere that breaks the session says where.
 */
import { expect } from 'vitest';
import type { Simulator, SimRequest, SimResponse } from '../../../simulator/index.ts';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const OTHELLO = 'othello@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';
const CORDELIA = 'cordelia@zulip.com';
const DEFAULT_BOT = 'default-bot@zulip.com';
const DENMARK = 4;
const VERONA = 3;

/** A one-pixel PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface ScenarioResult {
  /** Every response, in order (for comparisons). */
  responses: SimResponse[];
  /** The queue registered along the way, with events still unread. */
  queueId: string;
}

export async function exerciseEveryResource(sim: Simulator, round = 0): Promise<ScenarioResult> {
  const responses: SimResponse[] = [];
  const failures: unknown[] = [];
  const call = async (status: number, req: Omit<SimRequest, 'path'> & { path: string }): Promise<SimResponse> => {
    const res = await sim.request({ ...req, path: `/api/v1${req.path}` });
    responses.push(res);
    if (res.status !== status) failures.push({ step: `${req.method} ${req.path}`, expected: status, got: res.status, body: res.body });
    return res;
  };
  const r = (text: string): string => (round === 0 ? text : `${text} ${round}`);

  // Event queues: one long-lived, read at the end; one that reads as it goes.
  const queue = await call(200, { method: 'POST', path: '/register', as: IAGO, body: { apply_markdown: true, client_capabilities: { bulk_message_deletion: true } } });
  const watcher = await call(200, { method: 'POST', path: '/register', as: OTHELLO, body: { event_types: ['message', 'reaction'] } });

  // Users and bots.
  await call(200, { method: 'GET', path: '/users', as: HAMLET });
  await call(200, { method: 'GET', path: '/users/8', as: HAMLET });
  const newUser = await call(200, { method: 'POST', path: '/users', as: IAGO, body: { email: `newbie${round}@zulip.com`, password: 'newbie-password', full_name: r('New Bie') } });
  const newUserId = newUser.body.user_id as number;
  await call(200, { method: 'PATCH', path: `/users/${newUserId}`, as: IAGO, body: { full_name: r('Newly Named'), role: 300 } });
  await call(200, { method: 'DELETE', path: `/users/${newUserId}`, as: IAGO });
  await call(200, { method: 'POST', path: `/users/${newUserId}/reactivate`, as: IAGO });
  await call(400, { method: 'PATCH', path: `/users/${newUserId}`, as: IAGO, body: { full_name: 'bad*name' } });
  const hook = await call(200, {
    method: 'POST',
    path: '/bots',
    as: HAMLET,
    body: { full_name: r('Echo Hook'), short_name: `echo${round}`, bot_type: 3, payload_url: JSON.stringify('https://bots.example.com/echo'), interface_type: 1 },
  });
  const slack = await call(200, {
    method: 'POST',
    path: '/bots',
    as: HAMLET,
    body: { full_name: r('Slack Hook'), short_name: `slack${round}`, bot_type: 3, payload_url: JSON.stringify('https://bots.example.com/slack'), interface_type: 2 },
  });
  await call(200, { method: 'PATCH', path: `/bots/${hook.body.user_id as number}`, as: HAMLET, body: { full_name: r('Echo Hook II') } });
  await call(200, { method: 'POST', path: `/bots/${slack.body.user_id as number}/api_key/regenerate`, as: HAMLET });
  await call(200, { method: 'GET', path: '/bots', as: HAMLET });
  await call(200, { method: 'PUT', path: '/bot_storage', as: DEFAULT_BOT, body: { storage: { greeting: 'hello', round: String(round) } } });
  await call(200, { method: 'GET', path: '/bot_storage', as: DEFAULT_BOT, query: { keys: ['greeting'] } });

  // Settings, statuses, profile data.
  await call(200, { method: 'PATCH', path: '/settings', as: CORDELIA, body: { email: `cordelia.new${round}@zulip.com` } });
  await call(200, { method: 'PATCH', path: '/settings', as: HAMLET, body: { twenty_four_hour_time: round % 2 === 0 } });
  await call(200, { method: 'POST', path: '/users/me/presence', as: HAMLET, body: { status: 'active', new_user_input: true } });
  await call(200, { method: 'GET', path: '/realm/presence', as: OTHELLO });
  await call(200, { method: 'POST', path: '/users/me/alert_words', as: OTHELLO, body: { alert_words: JSON.stringify(['ghost', r('sentry')]) } });
  await call(200, { method: 'POST', path: `/users/me/muted_users/${[13, 14, 15, 6][round % 4]!}`, as: HAMLET });
  await call(200, { method: 'POST', path: '/users/me/status', as: HAMLET, body: { status_text: r('On the ramparts'), emoji_name: 'ghost' } });
  await call(200, { method: 'GET', path: '/users/10/status', as: IAGO });
  await call(200, { method: 'PATCH', path: '/users/me/profile_data', as: HAMLET, body: { data: [{ id: 1, value: `+1-555-01${round}` }] } });
  const field = await call(200, { method: 'POST', path: '/realm/profile_fields', as: IAGO, body: { name: r('Shoe size'), field_type: 1, hint: 'EU' } });
  await call(200, { method: 'PATCH', path: `/realm/profile_fields/${field.body.id as number}`, as: IAGO, body: { hint: 'EU sizes' } });

  // Realm: settings, linkifiers, emoji, folders.
  await call(200, { method: 'PATCH', path: '/realm', as: IAGO, body: { description: r('A realm under test') } });
  await call(400, { method: 'PATCH', path: '/realm', as: IAGO, body: { waiting_period_threshold: 3 } });
  const linkifier = await call(200, { method: 'POST', path: '/realm/filters', as: IAGO, body: { pattern: `TICKET${round}-(?P<id>[0-9]+)`, url_template: 'https://tickets.example.com/{id}' } });
  await call(200, { method: 'PATCH', path: `/realm/filters/${linkifier.body.id as number}`, as: IAGO, body: { pattern: `TKT${round}-(?P<id>[0-9]+)`, url_template: 'https://tickets.example.com/{id}' } });
  await call(200, { method: 'POST', path: `/realm/emoji/party_parrot${round}`, as: HAMLET, files: { file: { filename: 'parrot.png', content: PNG, type: 'image/png' } } });
  await call(200, { method: 'GET', path: '/realm/emoji', as: HAMLET });
  const folder = await call(200, { method: 'POST', path: '/channel_folders/create', as: IAGO, body: { name: r('Projects'), description: 'Work channels' } });
  await call(200, { method: 'PATCH', path: `/channel_folders/${folder.body.channel_folder_id as number}`, as: IAGO, body: { description: 'All work channels' } });

  // Channels and subscriptions.
  await call(200, { method: 'POST', path: '/users/me/subscriptions', as: HAMLET, body: { subscriptions: [{ name: r('ramparts'), description: 'Night watch' }], principals: JSON.stringify([10, 12]) } });
  const ramparts = (await call(200, { method: 'GET', path: '/get_stream_id', as: HAMLET, query: { stream: r('ramparts') } })).body.stream_id as number;
  await call(200, { method: 'PATCH', path: `/streams/${ramparts}`, as: IAGO, body: { description: 'Night watch, all hands', folder_id: folder.body.channel_folder_id } });
  await call(200, { method: 'POST', path: '/users/me/subscriptions/properties', as: HAMLET, body: { subscription_data: [{ stream_id: ramparts, property: 'color', value: '#76ce90' }] } });
  await call(200, { method: 'POST', path: '/default_streams', as: IAGO, body: { stream_id: ramparts } });
  await call(200, { method: 'GET', path: `/streams/${ramparts}/members`, as: HAMLET });
  const created = await call(200, { method: 'POST', path: '/channels/create', as: IAGO, body: { name: r('archive me'), subscribers: JSON.stringify([11]) } });
  await call(200, { method: 'DELETE', path: `/streams/${created.body.id as number}`, as: IAGO });
  await call(400, { method: 'POST', path: '/users/me/subscriptions', as: CORDELIA, body: { subscriptions: [{ name: 'core team' }] } });

  // Messages: sent, rendered, mentioned, edited, moved, reacted to, flagged, deleted.
  const first = await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'stream', to: 'Denmark', topic: r('watch'), content: `Who goes there? @**Othello, the Moor of Venice** TKT${round}-42` } });
  const firstId = first.body.id as number;
  await call(200, { method: 'POST', path: '/messages', as: OTHELLO, body: { type: 'stream', to: String(ramparts), topic: 'night', content: 'Nay, answer me.' } });
  await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'direct', to: JSON.stringify([12, 11]), content: r('A word, both of you') } });
  await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'stream', to: 'Denmark', topic: 'bots', content: `@**${r('Echo Hook II')}** ping` } });
  await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'stream', to: 'Denmark', topic: 'bots', content: `@**${r('Slack Hook')}** ping` } });
  await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'direct', to: JSON.stringify([hook.body.user_id]), content: 'private ping' } });
  await call(400, { method: 'POST', path: '/messages', as: DEFAULT_BOT, body: { type: 'stream', to: 'no such channel', topic: 'x', content: 'lost' } });
  await call(400, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'stream', to: 'Denmark', content: 'no topic' } });
  await call(200, { method: 'POST', path: '/messages/render', as: HAMLET, body: { content: '**bold** @**Iago**' } });
  await call(200, { method: 'PATCH', path: `/messages/${firstId}`, as: HAMLET, body: { content: 'Who goes there? Stand and unfold yourself.' } });
  await call(200, { method: 'GET', path: `/messages/${firstId}/history`, as: HAMLET });
  await call(200, { method: 'PATCH', path: `/messages/${firstId}`, as: IAGO, body: { topic: r('sentries'), propagate_mode: 'change_all' } });
  await call(200, { method: 'POST', path: `/messages/${firstId}/reactions`, as: OTHELLO, body: { emoji_name: 'octopus' } });
  await call(200, { method: 'POST', path: `/messages/${firstId}/reactions`, as: IAGO, body: { emoji_name: `party_parrot${round}` } });
  await call(200, { method: 'DELETE', path: `/messages/${firstId}/reactions`, as: OTHELLO, body: { emoji_name: 'octopus' } });
  await call(200, { method: 'POST', path: '/messages/flags', as: OTHELLO, body: { messages: JSON.stringify([firstId]), op: 'add', flag: 'starred' } });
  await call(200, { method: 'POST', path: '/mark_topic_as_read', as: OTHELLO, body: { stream_id: DENMARK, topic_name: 'bots' } });
  await call(200, {
    method: 'GET',
    path: '/messages',
    as: OTHELLO,
    query: { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: 'Denmark' }] },
  });
  await call(200, { method: 'GET', path: '/messages', as: IAGO, query: { anchor: 'first_unread', num_before: 2, num_after: 5, narrow: [{ operator: 'is', operand: 'dm' }] } });
  await call(200, { method: 'GET', path: `/messages/${firstId}`, as: OTHELLO });
  const doomed = await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'stream', to: 'Verona', topic: 'oops', content: 'wrong channel' } });
  await call(200, { method: 'DELETE', path: `/messages/${doomed.body.id as number}`, as: HAMLET });
  await call(200, { method: 'POST', path: `/messages/${firstId}/typing`, as: HAMLET, body: { op: 'start' } });
  await call(200, { method: 'POST', path: '/user_topics', as: OTHELLO, body: { stream_id: VERONA, topic: 'welcome', visibility_policy: 1 } });
  await call(200, { method: 'POST', path: '/user_topics', as: OTHELLO, body: { stream_id: DENMARK, topic: r('sentries'), visibility_policy: 3 } });

  const later = Math.floor(sim.clock.now()) + 86_400;
  await call(200, { method: 'POST', path: '/scheduled_messages', as: HAMLET, body: { type: 'stream', to: DENMARK, topic: 'tomorrow', content: r('The play is the thing'), scheduled_delivery_timestamp: later } });
  await call(400, { method: 'POST', path: '/scheduled_messages', as: HAMLET, body: { type: 'stream', to: DENMARK, topic: 'past', content: 'too late', scheduled_delivery_timestamp: 1_000_000_000 } });

  // Groups and invitations.
  const group = await call(200, { method: 'POST', path: '/user_groups/create', as: HAMLET, body: { name: r('watchmen'), description: 'Castle watch', members: JSON.stringify([10, 12]) } });
  const groupId = group.body.group_id as number;
  await call(200, { method: 'POST', path: `/user_groups/${groupId}/members`, as: HAMLET, body: { add: JSON.stringify([9]) } });
  await call(200, { method: 'GET', path: `/user_groups/${groupId}/members`, as: HAMLET });
  const invite = await call(200, { method: 'POST', path: '/invites/multiuse', as: IAGO, body: { invite_expires_in_minutes: 60, stream_ids: JSON.stringify([DENMARK]) } });
  expect(invite.body.invite_link).toMatch(/\/join\//);
  await call(200, { method: 'POST', path: '/invites/multiuse', as: IAGO, body: {} });
  await call(200, { method: 'POST', path: '/invites', as: IAGO, body: { invitee_emails: 'guest-to-be@zulip.com', stream_ids: JSON.stringify([DENMARK]), invite_as: 600 } });
  await call(200, { method: 'POST', path: '/realm/playgrounds', as: IAGO, body: { name: r('Python'), pygments_language: 'Python', url_template: 'https://python.example/?code={code}' } });
  await call(200, { method: 'PATCH', path: '/realm/user_settings_defaults', as: IAGO, body: { left_side_userlist: 'true' } });
  const invites = (await call(200, { method: 'GET', path: '/invites', as: IAGO })).body.invites as { id: number }[];
  await call(200, { method: 'DELETE', path: `/invites/multiuse/${invites[invites.length - 1]!.id}`, as: IAGO });

  // Personal data.
  const drafts = await call(200, { method: 'POST', path: '/drafts', as: HAMLET, body: { drafts: [{ type: 'stream', to: [DENMARK], topic: 'plans', content: r('To be'), timestamp: 1_700_000_000 }] } });
  await call(200, { method: 'PATCH', path: `/drafts/${(drafts.body.ids as number[])[0]!}`, as: HAMLET, body: { draft: { type: 'stream', to: [DENMARK], topic: 'plans', content: 'or not to be', timestamp: 1_700_000_100 } } });
  await call(200, { method: 'POST', path: '/saved_snippets', as: HAMLET, body: { title: r('Sign-off'), content: 'The rest is silence.' } });
  await call(200, { method: 'POST', path: '/navigation_views', as: HAMLET, body: { fragment: `narrow/channel/${DENMARK}-Denmark/${round}`, is_pinned: true, name: r('Denmark') } });
  await call(200, { method: 'GET', path: '/navigation_views', as: HAMLET });

  // Files.
  const upload = await call(200, { method: 'POST', path: '/user_uploads', as: HAMLET, files: { file: { filename: `notes${round}.txt`, content: `watch notes ${round}\n`, type: 'text/plain' } } });
  await call(200, { method: 'POST', path: '/messages', as: HAMLET, body: { type: 'stream', to: 'Denmark', topic: 'files', content: `[notes](${upload.body.url as string})` } });
  await call(200, { method: 'GET', path: `${(upload.body.url as string).replace('/user_uploads/', '/user_uploads/')}`, as: HAMLET });
  await call(200, { method: 'GET', path: '/attachments', as: HAMLET });

  // Push: a legacy token, and a device with an end-to-end encrypted registration and a test push.
  await call(200, { method: 'POST', path: '/users/me/push_b_reg_id', as: HAMLET, body: { token: `fcm-token-${round}` } });
  const device = await call(200, { method: 'POST', path: '/register_client_device', as: HAMLET, body: {} });
  await call(200, {
    method: 'POST',
    path: '/mobile_push/register',
    as: HAMLET,
    body: {
      device_id: device.body.device_id,
      push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64'),
      push_key_id: 5,
      token_kind: 'fcm',
      token_id: Buffer.alloc(8, 1 + round).toString('base64'),
      bouncer_public_key: 'bouncer-key',
      encrypted_push_registration: 'ciphertext',
    },
  });
  await call(200, { method: 'POST', path: '/mobile_push/e2ee/test_notification', as: HAMLET, body: {} });

  // The queues: one read as it goes (acknowledged), one left with its events.
  await call(200, { method: 'GET', path: '/events', as: OTHELLO, query: { queue_id: watcher.body.queue_id, last_event_id: -1, dont_block: true } });
  await call(200, { method: 'GET', path: '/users/me/subscriptions', as: OTHELLO });
  await call(200, { method: 'GET', path: '/streams', as: OTHELLO });
  await call(401, { method: 'GET', path: '/users/me', as: { username: HAMLET, password: 'not-the-key' } });
  await call(200, { method: 'GET', path: '/server_settings', as: null });
  await call(200, { method: 'POST', path: '/dev_fetch_api_key', as: null, body: { username: DESDEMONA } });
  // Every step answered as expected (the list names those that did not).
  expect(failures).toEqual([]);
  return { responses, queueId: queue.body.queue_id as string };
}
