// Who receives what (zerver/openapi/zulip.yaml:get-events, zerver/actions/message_send.py:do_send_messages): one row per action, with the users whose queues
// must get each kind of event and, implicitly, everyone else who must not (the sets are exact).
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../simulator/index.ts';
import { ID, sim, watchEvents, type Delivered } from '../helpers.ts';
import { send } from './helpers.ts';

const { aaron, zoe, cordelia, desdemona, hamlet, iago, othello, polonius, prospero, shiva, defaultBot, webhookBot, outgoingBot } = ID;
const EVERYONE = [aaron, zoe, cordelia, desdemona, hamlet, iago, othello, polonius, prospero, shiva, defaultBot, webhookBot, outgoingBot];
const but = (...out: number[]) => EVERYONE.filter((id) => !out.includes(id));
const DENMARK = [zoe, desdemona, hamlet, iago, othello, prospero, shiva];
const CORE_TEAM = [desdemona, hamlet, iago];

const call = (s: Simulator, as: number, method: string, path: string, body: Record<string, unknown> = {}) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

async function denmarkMessage(s: Simulator): Promise<number> {
  return (await send(s, iago, { type: 'stream', to: 'Denmark', topic: 'audience', content: 'hello' })).body.id;
}

/** kind ("type/op") → every user whose queue got at least one event of that kind. */
function byKind(events: Delivered[]): Record<string, number[]> {
  const out: Record<string, Set<number>> = {};
  for (const e of events) {
    const kind = e.event.op === undefined ? String(e.event.type) : `${e.event.type}/${e.event.op}`;
    out[kind] ??= new Set();
    for (const u of e.users) out[kind].add(u);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort((a, b) => a - b)]));
}

type Row = [name: string, setup: (s: Simulator) => Promise<unknown>, action: (s: Simulator, setup: any) => Promise<unknown>, expected: Record<string, number[]>];

const rows: Row[] = [
  [
    'a channel message: the subscribers, the sender among them',
    async () => undefined,
    (s) => denmarkMessage(s),
    { message: DENMARK },
  ],
  [
    'a channel message from a non-subscriber: no echo to the sender',
    async () => undefined,
    (s) => send(s, cordelia, { type: 'stream', to: 'Denmark', topic: 'visit', content: 'hi' }),
    { message: DENMARK },
  ],
  [
    'a channel message mentioning a generic bot not subscribed: the bot too (a mentioned UserMessage row)',
    async () => undefined,
    (s) => send(s, iago, { type: 'stream', to: 'Denmark', topic: 'bots', content: 'ping @**Zulip Default Bot**, @**Zulip Webhook Bot** and @**Outgoing Webhook**' }),
    { message: [...DENMARK, defaultBot].sort((a, b) => a - b) },
  ],
  [
    'a private channel message: its subscribers only',
    async () => undefined,
    (s) => send(s, hamlet, { type: 'stream', to: 'core team', topic: 'secret', content: 'psst' }),
    { message: CORE_TEAM },
  ],
  ['a direct message: both participants', async () => undefined, (s) => send(s, hamlet, { type: 'direct', to: `[${othello}]`, content: 'hi' }), { message: [hamlet, othello] }],
  [
    'a group direct message: every participant',
    async () => undefined,
    (s) => send(s, hamlet, { type: 'direct', to: `[${othello}, ${iago}]`, content: 'hi all' }),
    { message: [hamlet, iago, othello] },
  ],
  [
    'a direct message to an outgoing-webhook bot: the bot gets it (without a UserMessage row)',
    async () => undefined,
    (s) => send(s, hamlet, { type: 'direct', to: `[${outgoingBot}]`, content: 'ping' }),
    { message: [hamlet, outgoingBot] },
  ],
  [
    'a reaction in a public channel: its subscribers',
    (s) => denmarkMessage(s),
    (s, id: number) => call(s, othello, 'POST', `/messages/${id}/reactions`, { emoji_name: 'smile' }),
    { 'reaction/add': DENMARK },
  ],
  [
    'a reaction in a public channel also reaches non-guests holding a row (a former subscriber)',
    async (s) => {
      const id = await denmarkMessage(s);
      await call(s, prospero, 'DELETE', '/users/me/subscriptions', { subscriptions: ['Denmark'] });
      return id;
    },
    (s, id: number) => call(s, othello, 'POST', `/messages/${id}/reactions`, { emoji_name: 'smile' }),
    { 'reaction/add': DENMARK },
  ],
  [
    'a reaction in a private channel with protected history: subscribers who received it',
    async (s) => (await send(s, hamlet, { type: 'stream', to: 'core team', topic: 'x', content: 'y' })).body.id,
    (s, id: number) => call(s, iago, 'POST', `/messages/${id}/reactions`, { emoji_name: 'smile' }),
    { 'reaction/add': CORE_TEAM },
  ],
  [
    'a reaction on a direct message: its participants',
    async (s) => (await send(s, hamlet, { type: 'direct', to: `[${othello}]`, content: 'hi' })).body.id,
    (s, id: number) => call(s, othello, 'DELETE', `/messages/${id}/reactions`, { emoji_name: 'smile' }).then(() =>
      call(s, othello, 'POST', `/messages/${id}/reactions`, { emoji_name: 'smile' }),
    ),
    { 'reaction/add': [hamlet, othello] },
  ],
  [
    'subscribing oneself to a public channel: add to self, peer_add to all who can see it',
    async () => undefined,
    (s) => call(s, hamlet, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] }),
    { 'subscription/add': [hamlet], 'subscription/peer_add': but(hamlet, polonius) },
  ],
  [
    'subscribing a guest to a public channel: the guest first hears of the channel, then a DM from Notification Bot',
    async () => undefined,
    (s) => call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [polonius] }),
    { 'stream/create': [polonius], 'subscription/add': [polonius], 'subscription/peer_add': but(polonius), message: [polonius] },
  ],
  [
    'leaving a public channel: remove to self, peer_remove to all who can see it',
    async () => undefined,
    (s) => call(s, othello, 'DELETE', '/users/me/subscriptions', { subscriptions: ['Denmark'] }),
    { 'subscription/remove': [othello], 'subscription/peer_remove': but(othello, polonius) },
  ],
  [
    'leaving a channel with unread messages: they are marked read, for the leaver only',
    (s) => denmarkMessage(s),
    (s) => call(s, othello, 'DELETE', '/users/me/subscriptions', { subscriptions: ['Denmark'] }),
    { 'subscription/remove': [othello], 'subscription/peer_remove': but(othello, polonius), 'update_message_flags/add': [othello] },
  ],
  [
    'leaving a private channel one can no longer see: remove, then the channel is deleted for the user',
    (s) => call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [othello] }),
    (s) => call(s, othello, 'DELETE', '/users/me/subscriptions', { subscriptions: ['core team'] }),
    { 'subscription/remove': [othello], 'stream/delete': [othello], 'subscription/peer_remove': CORE_TEAM },
  ],
  [
    'muting a channel: two update events, to the user only',
    async () => undefined,
    (s) => call(s, hamlet, 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: 4, property: 'is_muted', value: true }] }),
    { 'subscription/update': [hamlet] },
  ],
  [
    'creating a public channel: every non-guest hears of it',
    async () => undefined,
    (s) => call(s, hamlet, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'open house' }] }),
    { 'stream/create': but(polonius), 'subscription/add': [hamlet], 'subscription/peer_add': but(hamlet, polonius), message: [hamlet] },
  ],
  [
    'creating a private channel: administrators, the creator and the new subscribers',
    async () => undefined,
    (s) => call(s, hamlet, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'hideout' }], invite_only: true, principals: [hamlet, othello] }),
    {
      'stream/create': [desdemona, hamlet, iago, othello],
      'subscription/add': [hamlet, othello],
      'subscription/peer_add': [desdemona, iago],
      message: [hamlet, othello],
    },
  ],
  [
    'deactivating a user: every other active user, with peer_remove where they were subscribed',
    async () => undefined,
    (s) => call(s, iago, 'DELETE', `/users/${prospero}`),
    { 'realm_user/update': but(prospero), 'subscription/peer_remove': but(prospero) },
  ],
  [
    'a draft: its author only',
    async () => undefined,
    (s) => call(s, hamlet, 'POST', '/drafts', { drafts: [{ type: 'stream', to: [3], topic: 't', content: 'c' }] }),
    { 'drafts/add': [hamlet] },
  ],
  [
    'a user status: everyone who can see the user',
    async () => undefined,
    (s) => call(s, hamlet, 'POST', '/users/me/status', { status_text: 'busy' }),
    { user_status: EVERYONE },
  ],
];

describe('who receives each event (watching one queue per active user)', () => {
  it.each(rows)('%s', async (_name, setup, action, expected) => {
    const s = sim();
    const prepared = await setup(s);
    const watch = watchEvents(s);
    const res = (await action(s, prepared)) as { status?: number; body?: unknown } | undefined;
    if (res && typeof res === 'object' && 'status' in res) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(byKind(watch.take())).toEqual(expected);
  });

  it('sends the bulk is_muted / in_home_view update as its two events, in_home_view first', async () => {
    const s = sim();
    const watch = watchEvents(s);
    await call(s, hamlet, 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: 4, property: 'in_home_view', value: false }] });
    expect(watch.of(hamlet)).toEqual([
      { type: 'subscription', op: 'update', stream_id: 4, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: 4, property: 'is_muted', value: true },
    ]);
  });
});
