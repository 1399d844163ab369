// The event system's promise: a client that registers, then applies every event it receives to
// the initial state, holds what a fresh /register would answer. Checked for several observers over
// a sequence of actions touching messages, channels, subscriptions, users, drafts, statuses, alert
// words, muted users and scheduled messages.
import { describe, expect, it } from 'vitest';
import type { SimFile, Simulator } from '../../../simulator/index.ts';
import { ID, NOW, sim } from '../helpers.ts';
import { applyEvents } from './apply-events.ts';
import { pending, register, send } from './helpers.ts';

const { cordelia, hamlet, iago, othello, polonius, prospero } = ID;

const call = (s: Simulator, as: number, method: string, path: string, body: Record<string, unknown> = {}) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

/** Every state key the test's state keeper maintains. */
const FETCH = ['message', 'update_message_flags', 'subscription', 'stream', 'realm_user', 'drafts', 'user_status', 'alert_words', 'muted_users', 'scheduled_messages'];
const OPTIONS = {
  fetch_event_types: FETCH,
  include_subscribers: 'true',
  apply_markdown: true,
  client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, empty_topic_name: true, user_settings_object: true },
};

/**
 * Left out of the comparison, as Zulip sends no event for them either: channel traffic figures
 * (an analytics job upstream), and the first_message_id of channels the observer is not
 * subscribed to (clients learn it from the message events they get).
 */
function comparable(state: Record<string, any>): Record<string, any> {
  const out = structuredClone(state);
  delete out.queue_id;
  delete out.last_event_id;
  const subscribed = new Set((out.subscriptions ?? []).map((c: { stream_id: number }) => c.stream_id));
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) {
    for (const c of out[key] ?? []) {
      delete c.stream_weekly_traffic;
      if (!subscribed.has(c.stream_id)) delete c.first_message_id;
    }
  }
  return out;
}

const actions: [string, (s: Simulator) => Promise<unknown>][] = [
  ['a channel message mentioning Hamlet', (s) => send(s, iago, { type: 'stream', to: 'Denmark', topic: 'Lunch', content: '@**King Hamlet** lunch?' })],
  ['a reply in the same topic, other case', (s) => send(s, othello, { type: 'stream', to: 'Denmark', topic: 'lunch', content: 'yes' })],
  ['a wildcard mention', (s) => send(s, iago, { type: 'stream', to: 'Verona', topic: 'all', content: '@**all** meeting' })],
  ['a direct message', (s) => send(s, othello, { type: 'direct', to: `[${hamlet}, ${polonius}]`, content: 'hi you two' })],
  ['a 1:1 direct message', (s) => send(s, iago, { type: 'direct', to: `[${hamlet}]`, content: 'psst' })],
  ['a reaction', (s) => call(s, othello, 'POST', '/messages/1/reactions', { emoji_name: 'smile' })],
  ['Hamlet mutes Denmark', (s) => call(s, hamlet, 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: 4, property: 'is_muted', value: true }] })],
  ['a message in the muted channel', (s) => send(s, iago, { type: 'stream', to: 'Denmark', topic: 'muted', content: 'quiet' })],
  ['a new public channel with two subscribers', (s) => call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'plaza' }], principals: [iago, hamlet] })],
  ['a new private channel', (s) => call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true, principals: [iago, othello] })],
  ['a message there', (s) => send(s, othello, { type: 'stream', to: 'vault', topic: 'gold', content: 'shiny' })],
  ['Cordelia joins Scotland', (s) => call(s, cordelia, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] })],
  ['Polonius is added to Denmark', (s) => call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [polonius] })],
  ['Othello leaves Verona', (s) => call(s, othello, 'DELETE', '/users/me/subscriptions', { subscriptions: ['Verona'] })],
  ['Hamlet leaves plaza', (s) => call(s, hamlet, 'DELETE', '/users/me/subscriptions', { subscriptions: ['plaza'] })],
  ['Othello leaves vault', (s) => call(s, othello, 'DELETE', '/users/me/subscriptions', { subscriptions: ['vault'] })],
  ['a status', (s) => call(s, hamlet, 'POST', '/users/me/status', { status_text: 'on a break', emoji_name: 'coffee' })],
  ['another status, clearing the text', (s) => call(s, othello, 'POST', '/users/me/status', { status_text: 'away' }).then(() => call(s, othello, 'POST', '/users/me/status', { status_text: '' }))],
  ['drafts', (s) => call(s, hamlet, 'POST', '/drafts', { drafts: [{ type: 'stream', to: [3], topic: 't', content: 'one' }, { type: 'private', to: [], topic: '', content: 'two' }] })],
  ['Hamlet sets alert words', (s) => call(s, hamlet, 'POST', '/users/me/alert_words', { alert_words: JSON.stringify(['lunch', 'Meeting']) })],
  ['a message with one', (s) => send(s, iago, { type: 'stream', to: 'Verona', topic: 'plans', content: 'Lunch after the meeting?' })],
  ['Hamlet mutes Othello, whose messages become read', (s) => call(s, hamlet, 'POST', `/users/me/muted_users/${othello}`)],
  ['Othello writes to Hamlet while muted', (s) => send(s, othello, { type: 'direct', to: `[${hamlet}]`, content: '@**King Hamlet** still there?' })],
  ['Iago mutes Hamlet', (s) => call(s, iago, 'POST', `/users/me/muted_users/${hamlet}`)],
  ['Hamlet removes an alert word', (s) => call(s, hamlet, 'DELETE', '/users/me/alert_words', { alert_words: JSON.stringify(['LUNCH']) })],
  ['Hamlet unmutes Othello', (s) => call(s, hamlet, 'DELETE', `/users/me/muted_users/${othello}`)],
  ['Hamlet schedules a message to Verona and edits it', (s) => call(s, hamlet, 'POST', '/scheduled_messages', { type: 'channel', to: 3, topic: 'later', content: 'soon', scheduled_delivery_timestamp: NOW + 60 }).then(() => call(s, hamlet, 'PATCH', '/scheduled_messages/1', { content: '@**Othello, the Moor of Venice** now' }))],
  ['Hamlet schedules a direct message for tomorrow', (s) => call(s, hamlet, 'POST', '/scheduled_messages', { type: 'direct', to: [othello], content: 'tomorrow', scheduled_delivery_timestamp: NOW + 86_400 })],
  ['Iago schedules one and deletes it', (s) => call(s, iago, 'POST', '/scheduled_messages', { type: 'direct', to: [hamlet], content: 'never', scheduled_delivery_timestamp: NOW + 30 }).then(() => call(s, iago, 'DELETE', '/scheduled_messages/3'))],
  ['a minute passes: the first scheduled message goes out', async (s) => ({ status: 200, body: s.clock.advance(60) })],
  ['Prospero is deactivated', (s) => call(s, iago, 'DELETE', `/users/${prospero}`)],
];

describe('events applied to the initial state agree with a fresh /register', () => {
  it.each([
    ['a member', hamlet],
    ['an administrator', iago],
    ['a guest', polonius],
    ['Othello, who leaves channels', othello],
  ])('as seen by %s', async (_who, observer) => {
    const s = sim();
    const start = await register(s, observer, OPTIONS);
    for (const [name, act] of actions) {
      const res = (await act(s)) as { status: number; body: unknown };
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const events = await pending(s, observer, start.queue_id);
    expect(events.length).toBeGreaterThan(5);
    const kept = structuredClone(start);
    applyEvents(kept, events, observer);
    const fresh = await register(s, observer, OPTIONS);
    expect(comparable(kept)).toEqual(comparable(fresh));
  });
});


// ---------------------------------------------------------------------------------------------
// One row per resource: the fetch types it concerns, who watches, and the actions whose events
// must keep each watcher's state equal to a fresh /register. `ctx` carries IDs between actions.

type Ctx = Record<string, any>;
type Act = [name: string, act: (s: Simulator, ctx: Ctx) => Promise<{ status: number; body: any }>, status?: number];

interface Scenario {
  name: string;
  fetch: string[];
  observers: number[];
  /** One run per set (default: only notification_settings_null, i.e. the oldest client). */
  capabilities?: Record<string, boolean>[];
  /** Observers for whom the actions change nothing (a guest who cannot see them, an old client). */
  unchangedFor?: (observer: number, capabilities: Record<string, boolean>) => boolean;
  /** Run before the observers register (the state they start from). */
  setup?: Act[];
  actions: Act[];
}

const PNG: SimFile = { filename: 'party.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: 'image/png' };
const MODERN = { notification_settings_null: true, bulk_message_deletion: true, empty_topic_name: true, user_settings_object: true, include_deactivated_groups: true, archived_channels: true, linkifier_url_template: true };
const OLDEST = { notification_settings_null: false };
const { desdemona } = ID;
const VERONA = 3;
const DENMARK = 4;

/** Keep the ID a call answered under `key` for later actions. */
const keep = (key: string, field: string) => async (res: Promise<{ status: number; body: any }>, ctx: Ctx) => {
  const r = await res;
  ctx[key] = r.body[field];
  return r;
};

const scenarios: Scenario[] = [
  {
    name: 'custom emoji',
    fetch: ['realm_emoji'],
    observers: [hamlet, polonius],
    actions: [
      ['Hamlet adds one', (s) => s.request({ method: 'POST', path: '/api/v1/realm/emoji/party_parrot', as: hamlet, files: { file: PNG } })],
      ['Iago adds another', (s) => s.request({ method: 'POST', path: '/api/v1/realm/emoji/shipit', as: iago, files: { file: PNG } })],
      ['Hamlet deactivates his', (s) => call(s, hamlet, 'DELETE', '/realm/emoji/party_parrot')],
    ],
  },
  {
    name: 'bots',
    fetch: ['realm_bot', 'realm_user', 'subscription', 'realm_user_groups'],
    observers: [hamlet, iago, othello],
    actions: [
      ['Hamlet creates a bot', (s, ctx) => keep('bot', 'user_id')(call(s, hamlet, 'POST', '/bots', { full_name: 'Helper Bot', short_name: 'helper' }), ctx)],
      ['renames it', (s, ctx) => call(s, hamlet, 'PATCH', `/bots/${ctx.bot}`, { full_name: 'Helpful Bot' })],
      ['gives it a default channel', (s, ctx) => call(s, hamlet, 'PATCH', `/bots/${ctx.bot}`, { default_sending_stream: 'Denmark', default_all_public_streams: true })],
      ['hands it to Othello', (s, ctx) => call(s, hamlet, 'PATCH', `/bots/${ctx.bot}`, { bot_owner_id: othello })],
      ['Othello regenerates its key', (s, ctx) => call(s, othello, 'POST', `/bots/${ctx.bot}/api_key/regenerate`)],
      ['Othello creates an outgoing webhook bot', (s) => call(s, othello, 'POST', '/bots', { full_name: 'Hook Bot', short_name: 'hook', bot_type: 3, payload_url: JSON.stringify('https://hooks.example/x') })],
      ['Iago deactivates the first', (s, ctx) => call(s, iago, 'DELETE', `/bots/${ctx.bot}`)],
      ['and reactivates it', (s, ctx) => call(s, iago, 'POST', `/users/${ctx.bot}/reactivate`)],
    ],
  },
  {
    name: 'personal settings',
    fetch: ['user_settings', 'update_display_settings', 'update_global_notifications', 'realm_user', 'realm_bot'],
    observers: [hamlet, iago],
    actions: [
      ['display settings', (s) => call(s, hamlet, 'PATCH', '/settings', { enter_sends: true, twenty_four_hour_time: true, emojiset: 'text' })],
      ['notification settings', (s) => call(s, hamlet, 'PATCH', '/settings', { enable_sounds: false, notification_sound: 'ding' })],
      ['language and time zone', (s) => call(s, hamlet, 'PATCH', '/settings', { default_language: 'de', timezone: 'Europe/Berlin' })],
      ['email visibility', (s) => call(s, hamlet, 'PATCH', '/settings', { email_address_visibility: 1 })],
      ['the rest', (s) => call(s, hamlet, 'PATCH', '/settings', { send_read_receipts: false, web_font_size_px: 18, full_name: 'Prince Hamlet' })],
      ['an avatar for a bot', (s) => s.request({ method: 'PATCH', path: `/api/v1/bots/${ID.defaultBot}`, as: iago, files: { avatar: PNG } })],
      ['an account scrubbed on deactivation', (s) => call(s, iago, 'DELETE', `/users/${cordelia}`, { actions: { delete_profile: true } })],
    ],
  },
  {
    name: 'linkifiers',
    fetch: ['realm_linkifiers', 'realm_filters'],
    observers: [hamlet, polonius],
    capabilities: [OLDEST, MODERN],
    // Clients that cannot read URL templates get none, before and after.
    unchangedFor: (_observer, capabilities) => capabilities === OLDEST,
    actions: [
      ['add one', (s, ctx) => keep('first', 'id')(call(s, iago, 'POST', '/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }), ctx)],
      ['add another', (s, ctx) => keep('second', 'id')(call(s, iago, 'POST', '/realm/filters', { pattern: 'PR-(?P<id>[0-9]+)', url_template: 'https://code.example/{id}' }), ctx)],
      ['change one', (s, ctx) => call(s, iago, 'PATCH', `/realm/filters/${ctx.first}`, { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' })],
      ['reorder', (s) => s.request({ method: 'GET', path: '/api/v1/realm/linkifiers', as: iago }).then((r) => call(s, iago, 'PATCH', '/realm/linkifiers', { ordered_linkifier_ids: r.body.linkifiers.map((l: { id: number }) => l.id).reverse() }))],
      ['remove one', (s, ctx) => call(s, iago, 'DELETE', `/realm/filters/${ctx.second}`)],
    ],
  },
  {
    name: 'custom profile fields',
    fetch: ['custom_profile_fields', 'realm_user'],
    observers: [hamlet, iago, polonius],
    actions: [
      ['a new field', (s, ctx) => keep('field', 'id')(call(s, iago, 'POST', '/realm/profile_fields', { name: 'Team', field_type: 1, hint: 'Which team?' }), ctx)],
      ['Hamlet fills it and another', (s, ctx) => call(s, hamlet, 'PATCH', '/users/me/profile_data', { data: [{ id: ctx.field, value: 'Castle **guard**' }, { id: 1, value: '+1-555' }] })],
      ['an administrator sets Othello’s', (s, ctx) => call(s, iago, 'PATCH', `/users/${othello}`, { profile_data: [{ id: ctx.field, value: 'Army' }] })],
      ['the field is renamed', (s, ctx) => call(s, iago, 'PATCH', `/realm/profile_fields/${ctx.field}`, { name: 'Department' })],
      ['Hamlet clears a value', (s) => call(s, hamlet, 'DELETE', '/users/me/profile_data', { data: [1] })],
      ['fields are reordered', (s) => s.request({ method: 'GET', path: '/api/v1/realm/profile_fields', as: iago }).then((r) => call(s, iago, 'PATCH', '/realm/profile_fields', { order: r.body.custom_fields.map((f: { id: number }) => f.id).reverse() }))],
      ['the new field is deleted, with its values', (s, ctx) => call(s, iago, 'DELETE', `/realm/profile_fields/${ctx.field}`)],
    ],
  },
  {
    name: 'channel administration',
    fetch: ['stream', 'subscription', 'default_streams', 'message'],
    // The guest sees only Verona's folder: not Denmark, the new channel or default channels.
    observers: [hamlet, iago, othello, polonius],
    actions: [
      ['rename and describe Denmark', (s) => call(s, iago, 'PATCH', `/streams/${DENMARK}`, { new_name: 'Danmark', description: 'A **Nordic** country' })],
      ['Verona becomes a default channel', (s) => call(s, iago, 'POST', '/default_streams', { stream_id: VERONA })],
      ['Danmark goes private, history hidden', (s) => call(s, iago, 'PATCH', `/streams/${DENMARK}`, { is_private: true, history_public_to_subscribers: false })],
      ['Danmark’s topics policy', (s) => call(s, iago, 'PATCH', `/streams/${DENMARK}`, { topics_policy: 'disable_empty_topic' })],
      ['Verona goes into a folder', (s) => call(s, iago, 'POST', '/channel_folders/create', { name: 'Italy', description: '' }).then((r) => call(s, iago, 'PATCH', `/streams/${VERONA}`, { folder_id: r.body.channel_folder_id }))],
      ['Verona stops being default', (s) => call(s, iago, 'DELETE', '/default_streams', { stream_id: VERONA })],
      ['a new channel for a folder', (s) => call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'annex' }], principals: [iago, hamlet] })],
      ['it is archived', (s) => s.request({ method: 'GET', path: '/api/v1/get_stream_id', as: iago, query: { stream: 'annex' } }).then((r) => call(s, iago, 'DELETE', `/streams/${r.body.stream_id}`))],
      ['Danmark goes public again', (s) => call(s, iago, 'PATCH', `/streams/${DENMARK}`, { is_private: false, history_public_to_subscribers: true })],
    ],
  },
  {
    name: 'subscription settings',
    fetch: ['subscription', 'stream'],
    observers: [hamlet],
    capabilities: [OLDEST, MODERN],
    actions: [
      ['color and pin', (s) => call(s, hamlet, 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: DENMARK, property: 'color', value: '#abcdef' }, { stream_id: VERONA, property: 'pin_to_top', value: true }] })],
      ['notifications', (s) => call(s, hamlet, 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: DENMARK, property: 'desktop_notifications', value: true }, { stream_id: VERONA, property: 'wildcard_mentions_notify', value: false }] })],
      ['muting by the legacy name', (s) => call(s, hamlet, 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: VERONA, property: 'in_home_view', value: false }] })],
    ],
  },
  {
    name: 'archiving, seen by clients that keep archived channels',
    fetch: ['stream', 'subscription'],
    observers: [hamlet, iago, polonius],
    capabilities: [MODERN],
    // The guest's Verona comes back as it was; Denmark is not his to see.
    unchangedFor: (observer) => observer === polonius,
    actions: [
      ['Verona is archived', (s) => call(s, iago, 'DELETE', `/streams/${VERONA}`)],
      ['and brought back', (s) => call(s, iago, 'PATCH', `/streams/${VERONA}`, { is_archived: false })],
      ['Denmark is archived', (s) => call(s, iago, 'DELETE', `/streams/${DENMARK}`)],
    ],
  },
  {
    name: 'read state',
    fetch: ['message', 'update_message_flags', 'starred_messages', 'subscription', 'user_topic'],
    observers: [hamlet],
    setup: [
      ['unread messages for Hamlet', (s, ctx) => keep('dm', 'id')(send(s, iago, { type: 'direct', to: `[${hamlet}]`, content: 'one' }), ctx)],
      ['a mention', (s, ctx) => keep('mention', 'id')(send(s, othello, { type: 'stream', to: 'Denmark', topic: 'plans', content: '@**King Hamlet** look' }), ctx)],
      ['a group DM', (s, ctx) => keep('group', 'id')(send(s, othello, { type: 'direct', to: `[${hamlet}, ${iago}]`, content: 'all of us' }), ctx)],
      ['more in a topic', (s) => send(s, iago, { type: 'stream', to: 'Verona', topic: 'news', content: 'fresh' })],
    ],
    actions: [
      ['star two', (s, ctx) => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.dm, ctx.mention], op: 'add', flag: 'starred' })],
      ['read the DM and the mention', (s, ctx) => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.dm, ctx.mention], op: 'add', flag: 'read' })],
      ['mark the mention unread again', (s, ctx) => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.mention], op: 'remove', flag: 'read' })],
      ['mute a topic, follow another', (s) => call(s, hamlet, 'POST', '/user_topics', { stream_id: VERONA, topic: 'news', visibility_policy: 1 }).then(() => call(s, hamlet, 'POST', '/user_topics', { stream_id: DENMARK, topic: 'plans', visibility_policy: 3 }))],
      ['unstar one', (s, ctx) => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.dm], op: 'remove', flag: 'starred' })],
      ['read a topic', (s) => call(s, hamlet, 'POST', '/mark_topic_as_read', { stream_id: VERONA, topic_name: 'news' })],
      ['mark the group DM unread (it was never read: no change)', (s, ctx) => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.group], op: 'remove', flag: 'read' })],
      ['unmute the topic', (s) => call(s, hamlet, 'POST', '/user_topics', { stream_id: VERONA, topic: 'news', visibility_policy: 0 })],
      ['read everything', (s) => call(s, hamlet, 'POST', '/mark_all_as_read')],
      ['a new message after that', (s) => send(s, iago, { type: 'stream', to: 'Denmark', topic: 'later', content: 'and one more' })],
    ],
  },
  {
    name: 'the empty topic, named for clients without empty_topic_name',
    fetch: ['message', 'update_message_flags', 'user_topic', 'subscription'],
    observers: [hamlet],
    capabilities: [OLDEST, MODERN],
    actions: [
      ['follow it', (s) => call(s, hamlet, 'POST', '/user_topics', { stream_id: DENMARK, topic: '', visibility_policy: 3 })],
      ['two messages there', (s, ctx) => keep('first', 'id')(send(s, iago, { type: 'stream', to: 'Denmark', topic: '', content: 'one' }), ctx).then(() => send(s, othello, { type: 'stream', to: 'Denmark', topic: '', content: 'two' }))],
      ['one read, then unread again', (s, ctx) => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.first], op: 'add', flag: 'read' }).then(() => call(s, hamlet, 'POST', '/messages/flags', { messages: [ctx.first], op: 'remove', flag: 'read' }))],
      ['muted instead', (s) => call(s, hamlet, 'POST', '/user_topics', { stream_id: DENMARK, topic: '', visibility_policy: 1 })],
    ],
  },
  {
    name: 'message edits, moves and deletions',
    fetch: ['message', 'update_message_flags', 'recent_private_conversations', 'stream', 'subscription'],
    observers: [hamlet, othello],
    capabilities: [OLDEST, MODERN],
    setup: [
      ['a topic of three', (s, ctx) => keep('a', 'id')(send(s, iago, { type: 'stream', to: 'Denmark', topic: 'move me', content: 'first' }), ctx)],
      ['', (s, ctx) => keep('b', 'id')(send(s, iago, { type: 'stream', to: 'Denmark', topic: 'move me', content: 'second' }), ctx)],
      ['', (s, ctx) => keep('c', 'id')(send(s, iago, { type: 'stream', to: 'Denmark', topic: 'move me', content: 'third' }), ctx)],
      ['a DM to delete', (s, ctx) => keep('dm', 'id')(send(s, iago, { type: 'direct', to: `[${hamlet}, ${othello}]`, content: 'oops' }), ctx)],
      ['and a later one', (s) => send(s, iago, { type: 'direct', to: `[${hamlet}, ${othello}]`, content: 'kept' })],
    ],
    actions: [
      ['an edit', (s, ctx) => call(s, iago, 'PATCH', `/messages/${ctx.a}`, { content: 'first, edited' })],
      ['the topic is renamed from the second on', (s, ctx) => call(s, iago, 'PATCH', `/messages/${ctx.b}`, { topic: 'moved', propagate_mode: 'change_later' })],
      ['the rest move to Verona', (s, ctx) => call(s, iago, 'PATCH', `/messages/${ctx.b}`, { stream_id: VERONA, propagate_mode: 'change_all' })],
      ['the topic is resolved', (s, ctx) => call(s, iago, 'PATCH', `/messages/${ctx.a}`, { topic: '✔ move me', propagate_mode: 'change_all' })],
      ['a deletion', (s, ctx) => call(s, iago, 'DELETE', `/messages/${ctx.c}`)],
      ['the DM is deleted', (s, ctx) => call(s, iago, 'DELETE', `/messages/${ctx.dm}`)],
    ],
  },
  {
    name: 'organization settings',
    fetch: ['realm', 'realm_user'],
    observers: [hamlet, iago],
    actions: [
      ['name and description', (s) => call(s, iago, 'PATCH', '/realm', { name: 'Elsinore', description: 'A **castle**' })],
      ['edit limits', (s) => call(s, iago, 'PATCH', '/realm', { message_content_edit_limit_seconds: 1200, message_content_delete_limit_seconds: JSON.stringify('unlimited') })],
      ['topics and history', (s) => call(s, iago, 'PATCH', '/realm', { topics_policy: 'disable_empty_topic', message_edit_history_visibility_policy: 'moves' })],
      ['a group setting', (s) => call(s, iago, 'PATCH', '/realm', { can_add_custom_emoji_group: { new: 11, old: 14 } })],
      ['an owner’s setting', (s) => call(s, desdemona, 'PATCH', '/realm', { invite_required: false, waiting_period_threshold: 3 })],
      ['the announcement channel', (s) => call(s, iago, 'PATCH', '/realm', { new_stream_announcements_stream_id: -1 })],
    ],
  },
  {
    name: 'user groups',
    fetch: ['realm_user_groups'],
    observers: [hamlet, polonius],
    capabilities: [OLDEST, MODERN],
    actions: [
      ['a group', (s, ctx) => keep('g', 'group_id')(call(s, hamlet, 'POST', '/user_groups/create', { name: 'players', description: 'The troupe', members: [hamlet, othello] }), ctx)],
      ['a second, inside it', (s, ctx) => keep('h', 'group_id')(call(s, hamlet, 'POST', '/user_groups/create', { name: 'leads', description: '', members: [hamlet] }), ctx)],
      ['subgroup', (s, ctx) => call(s, hamlet, 'POST', `/user_groups/${ctx.g}/subgroups`, { add: [ctx.h] })],
      ['members change', (s, ctx) => call(s, hamlet, 'POST', `/user_groups/${ctx.g}/members`, { add: [iago, cordelia], delete: [othello] })],
      ['renamed and a setting changed', (s, ctx) => call(s, hamlet, 'PATCH', `/user_groups/${ctx.g}`, { name: 'the players', can_mention_group: { new: { direct_members: [iago], direct_subgroups: [] } } })],
      ['subgroup removed', (s, ctx) => call(s, hamlet, 'POST', `/user_groups/${ctx.g}/subgroups`, { delete: [ctx.h] })],
      ['the second deactivated', (s, ctx) => call(s, hamlet, 'POST', `/user_groups/${ctx.h}/deactivate`)],
    ],
  },
  {
    name: 'user administration',
    fetch: ['realm', 'realm_user', 'realm_user_groups', 'subscription', 'stream'],
    observers: [hamlet, iago, othello],
    actions: [
      ['a new member', (s, ctx) => keep('u', 'user_id')(call(s, iago, 'POST', '/users', { email: 'newcomer@zulip.com', password: 'newcomer-password', full_name: 'Newcomer' }), ctx)],
      ['renamed by an administrator', (s, ctx) => call(s, iago, 'PATCH', `/users/${ctx.u}`, { full_name: 'Fortinbras' })],
      ['made a moderator', (s, ctx) => call(s, iago, 'PATCH', `/users/${ctx.u}`, { role: 300 })],
      ['Othello becomes a guest', (s) => call(s, iago, 'PATCH', `/users/${othello}`, { role: 600 })],
      ['the newcomer is deactivated', (s, ctx) => call(s, iago, 'DELETE', `/users/${ctx.u}`)],
      ['and reactivated', (s, ctx) => call(s, iago, 'POST', `/users/${ctx.u}/reactivate`)],
    ],
  },
  {
    name: 'alert words and muted users',
    fetch: ['alert_words', 'muted_users', 'message', 'update_message_flags'],
    observers: [hamlet],
    setup: [['an unread DM from Othello', (s) => send(s, othello, { type: 'direct', to: `[${hamlet}]`, content: 'are you there?' })]],
    actions: [
      ['alert words', (s) => call(s, hamlet, 'POST', '/users/me/alert_words', { alert_words: ['castle', 'ghost', 'Yorick'] })],
      ['one removed', (s) => call(s, hamlet, 'DELETE', '/users/me/alert_words', { alert_words: ['ghost'] })],
      ['a message with one', (s) => send(s, iago, { type: 'stream', to: 'Denmark', topic: 'tour', content: 'the castle is cold' })],
      ['Othello muted: his messages are read', (s) => call(s, hamlet, 'POST', `/users/me/muted_users/${othello}`)],
      ['he writes again', (s) => send(s, othello, { type: 'direct', to: `[${hamlet}]`, content: 'hello?' })],
      ['and is unmuted', (s) => call(s, hamlet, 'DELETE', `/users/me/muted_users/${othello}`)],
    ],
  },
  {
    name: 'video calls: a revoked token is cleared',
    fetch: ['video_calls'],
    observers: [othello],
    actions: [['a call with the revoked token', (s) => s.request({ method: 'POST', path: '/api/v1/calls/videocall/create', as: othello }), 400]],
  },
  {
    name: 'channel folders, saved snippets, navigation views',
    fetch: ['channel_folders', 'saved_snippets', 'navigation_views', 'drafts'],
    observers: [hamlet],
    actions: [
      ['a folder', (s, ctx) => keep('f', 'channel_folder_id')(call(s, iago, 'POST', '/channel_folders/create', { name: 'Places', description: 'Where **things** are' }), ctx)],
      ['another', (s, ctx) => keep('f2', 'channel_folder_id')(call(s, iago, 'POST', '/channel_folders/create', { name: 'People', description: '' }), ctx)],
      ['renamed and described', (s, ctx) => call(s, iago, 'PATCH', `/channel_folders/${ctx.f}`, { name: 'Locations', description: 'Maps' })],
      ['reordered', (s, ctx) => call(s, iago, 'PATCH', '/channel_folders', { order: [ctx.f2, ctx.f] })],
      ['archived', (s, ctx) => call(s, iago, 'PATCH', `/channel_folders/${ctx.f2}`, { is_archived: true })],
      ['a snippet', (s, ctx) => keep('snippet', 'saved_snippet_id')(call(s, hamlet, 'POST', '/saved_snippets', { title: 'Hi', content: 'Hello there' }), ctx)],
      ['edited', (s, ctx) => call(s, hamlet, 'PATCH', `/saved_snippets/${ctx.snippet}`, { content: 'Hello again' })],
      ['another snippet, removed', (s) => call(s, hamlet, 'POST', '/saved_snippets', { title: 'Bye', content: 'Farewell' }).then((r) => call(s, hamlet, 'DELETE', `/saved_snippets/${r.body.saved_snippet_id}`))],
      ['a view', (s) => call(s, hamlet, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' })],
      ['a built-in view unpinned', (s) => call(s, hamlet, 'POST', '/navigation_views', { fragment: 'inbox', is_pinned: false })],
      ['the first renamed', (s) => call(s, hamlet, 'PATCH', `/navigation_views/${encodeURIComponent('narrow/is/alerted')}`, { name: 'Alerted' })],
      ['the second removed', (s) => call(s, hamlet, 'DELETE', '/navigation_views/inbox')],
      ['drafts', (s, ctx) => call(s, hamlet, 'POST', '/drafts', { drafts: [{ type: 'stream', to: [VERONA], topic: 't', content: 'one' }] }).then((r) => { ctx.draft = r.body.ids[0]; return r; })],
      ['a draft edited', (s, ctx) => call(s, hamlet, 'PATCH', `/drafts/${ctx.draft}`, { draft: { type: 'stream', to: [VERONA], topic: 't', content: 'one, edited' } })],
      ['and removed', (s, ctx) => call(s, hamlet, 'DELETE', `/drafts/${ctx.draft}`)],
    ],
  },
];

describe('events of each resource keep the state equal to a fresh /register', () => {
  const cases = scenarios.flatMap((sc) =>
    (sc.capabilities ?? [OLDEST]).flatMap((capabilities) =>
      sc.observers.map((observer) => [sc.name, observer, capabilities === MODERN ? 'modern' : capabilities === OLDEST ? 'oldest' : 'some', sc, capabilities] as const),
    ),
  );
  it.each(cases)('%s, as user %i sees it (%s client)', async (_name, observer, _kind, sc, capabilities) => {
    const s = sim();
    const ctx: Ctx = {};
    const options = {
      fetch_event_types: sc.fetch,
      include_subscribers: 'true',
      apply_markdown: true,
      // With client_gravatar, a client cannot tell from an event whether a new account's gravatar
      // is computable (that depends on its email visibility, which events do not carry).
      client_gravatar: false,
      client_capabilities: capabilities,
    };
    for (const [name, act, status = 200] of [...(sc.setup ?? [])]) {
      const res = await act(s, ctx);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    const start = await register(s, observer, options);
    for (const [name, act, status = 200] of sc.actions) {
      const res = await act(s, ctx);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    const events = await pending(s, observer, start.queue_id);
    const kept = structuredClone(start);
    applyEvents(kept, events, observer, { includeSubscribers: true, capabilities: options.client_capabilities });
    const fresh = await register(s, observer, options);
    // The actions changed what this observer sees (or, for some, nothing), and the events carried all of it.
    if (sc.unchangedFor?.(observer, capabilities)) expect(comparable(fresh)).toEqual(comparable(start));
    else expect(comparable(fresh)).not.toEqual(comparable(start));
    expect(comparable(kept)).toEqual(comparable(fresh));
  });
});
