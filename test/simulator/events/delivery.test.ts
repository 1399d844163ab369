// Per-queue delivery of message events (zerver/tornado/event_queue.py:ClientDescriptor, zerver/tornado/event_queue.py:process_message_event): narrows, event_types,
// all_public_streams, local_message_id, and the payload finalized by each queue's options.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import messageSchema from '../../../schemas/chat/message.schema.json' with { type: 'json' };
import { ID, sim } from '../helpers.ts';
import { pending, register, send } from './helpers.ts';

const { cordelia, defaultBot, hamlet, iago, othello, polonius } = ID;
const validateMessage = new Ajv({ strict: false }).compile(messageSchema);

const toDenmark = (topic = 'news', content = 'hello Denmark') => ({ type: 'stream', to: 'Denmark', topic, content });

describe('narrowed queues (zerver/lib/narrow_predicate.py)', () => {
  it('see only matching messages, including public-channel messages their owner did not receive', async () => {
    const s = sim();
    // Cordelia is not subscribed to Denmark.
    const q = await register(s, cordelia, { narrow: [['stream', 'denmark']] });
    await send(s, iago, toDenmark());
    await send(s, iago, { type: 'stream', to: 'Verona', topic: 'news', content: 'hello Verona' });
    await send(s, iago, { type: 'direct', to: `[${cordelia}]`, content: 'a DM' });
    const events = await pending(s, cordelia, q.queue_id);
    expect(events.map((e) => [e.message.content, e.flags])).toEqual([['hello Denmark', []]]);
  });

  it('never see private-channel messages their owner did not receive', async () => {
    const s = sim();
    const q = await register(s, othello, { narrow: [['stream', 'core team']] });
    await send(s, hamlet, { type: 'stream', to: 'core team', topic: 'x', content: 'secret' });
    expect(await pending(s, othello, q.queue_id)).toEqual([]);
  });

  it('filter message events only: other events still arrive', async () => {
    const s = sim();
    const q = await register(s, hamlet, { narrow: [['is', 'dm']] });
    await send(s, iago, toDenmark());
    await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions/properties', as: hamlet, body: { subscription_data: [{ stream_id: 4, property: 'pin_to_top', value: true }] } });
    await send(s, iago, { type: 'direct', to: `[${hamlet}]`, content: 'private' });
    expect((await pending(s, hamlet, q.queue_id)).map((e) => (e.type === 'message' ? e.message.content : e.type))).toEqual(['subscription', 'private']);
  });

  it.each([
    ['sender (an API email, case-insensitive)', [['sender', 'USER11@zulip.testserver']], ['by iago']],
    ['topic: the whole topic, case-insensitively', [['topic', 'LUNCH']], ['by othello']],
    ['topic with spaces', [['topic', 'team lunch']], ['by iago']],
    ['is:mentioned', [['is', 'mentioned']], ['by othello']],
    ['channel and topic (ANDed)', [['channel', 'Denmark'], ['topic', 'plans']], ['other topic']],
  ])('%s', async (_name, narrow, expected) => {
    const s = sim();
    const q = await register(s, hamlet, { narrow });
    await send(s, iago, toDenmark('Team lunch', 'by iago'));
    await send(s, othello, toDenmark('lunch', 'by othello @**King Hamlet**'));
    await send(s, othello, toDenmark('plans', 'other topic'));
    const contents = (await pending(s, hamlet, q.queue_id)).map((e) => String(e.message.content).split(' @')[0]);
    expect(contents).toEqual(expected);
  });
});

describe('narrows on flags and topics (zerver/lib/narrow_predicate.py)', () => {
  it.each([
    ['is:resolved', [['is', 'resolved']], ['done']],
    ['is:unread leaves out one’s own messages, which arrive read', [['is', 'unread']], ['by iago', 'done']],
    ['is:alerted means mentioned, as upstream: alert words do not count', [['is', 'alerted']], ['done']],
    ['a whole topic, case-insensitively', [['topic', 'CHAT']], ['by iago', 'by hamlet']],
  ])('%s', async (_name, narrow, expected) => {
    const s = sim();
    await s.request({ method: 'POST', path: '/api/v1/users/me/alert_words', as: hamlet, body: { alert_words: ['herring'] } });
    const q = await register(s, hamlet, { narrow });
    await send(s, iago, toDenmark('chat', 'by iago, a red herring'));
    await send(s, hamlet, { ...toDenmark('chat', 'by hamlet'), client: 'website' });
    await send(s, othello, toDenmark('✔ finished', 'done, @**King Hamlet**'));
    const contents = (await pending(s, hamlet, q.queue_id)).map((e) => String(e.message.content).split(',')[0]);
    expect(contents).toEqual(expected);
  });
});

describe('event_types and all_public_streams', () => {
  it('an empty event_types list gets nothing but heartbeats', async () => {
    const s = sim({ longPollTimeoutMs: 30 });
    const q = await register(s, hamlet, { event_types: [] });
    expect(Object.keys(q).sort()).toEqual(['last_event_id', 'msg', 'queue_id', 'result', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);
    await send(s, iago, { type: 'direct', to: `[${hamlet}]`, content: 'hi' });
    await s.request({ method: 'POST', path: '/api/v1/users/me/status', as: iago, body: { status_text: 'busy' } });
    const res = await s.request({ method: 'GET', path: '/api/v1/events', as: hamlet, query: { queue_id: q.queue_id, last_event_id: -1 } });
    expect(res.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('a queue for reactions only gets reactions', async () => {
    const s = sim();
    const q = await register(s, hamlet, { event_types: ['reaction'] });
    const id = (await send(s, iago, toDenmark())).body.id;
    await s.request({ method: 'POST', path: `/api/v1/messages/${id}/reactions`, as: othello, body: { emoji_name: 'smile' } });
    expect((await pending(s, hamlet, q.queue_id)).map((e) => [e.type, e.op, e.message_id])).toEqual([['reaction', 'add', id]]);
  });

  it('all_public_streams adds every public-channel message, with no flags unless received', async () => {
    const s = sim();
    const q = await register(s, cordelia, { all_public_streams: true, event_types: ['message'] });
    await send(s, iago, toDenmark());
    await send(s, iago, { type: 'stream', to: 'Verona', topic: 'v', content: '@**Cordelia, Lear\'s daughter** hi' });
    await send(s, hamlet, { type: 'stream', to: 'core team', topic: 'x', content: 'secret' });
    expect((await pending(s, cordelia, q.queue_id)).map((e) => e.flags)).toEqual([[], ['mentioned']]);
  });
});

describe('local_message_id (zerver/tornado/event_queue.py:process_message_event)', () => {
  it('goes only to the queue the sender named, next to the flags', async () => {
    const s = sim();
    const mine = await register(s, hamlet);
    const other = await register(s, hamlet);
    const theirs = await register(s, othello);
    await send(s, hamlet, { type: 'direct', to: `[${othello}]`, content: 'hi', queue_id: mine.queue_id, local_id: '12.01' });
    const [echo] = await pending(s, hamlet, mine.queue_id);
    expect(Object.keys(echo!)).toEqual(['type', 'message', 'flags', 'local_message_id', 'id']);
    expect(echo!.local_message_id).toBe('12.01');
    expect((await pending(s, hamlet, other.queue_id))[0]).not.toHaveProperty('local_message_id');
    expect((await pending(s, othello, theirs.queue_id))[0]).not.toHaveProperty('local_message_id');
  });

  it('a sender not subscribed to the channel gets no echo at all', async () => {
    const s = sim();
    const q = await register(s, cordelia);
    await send(s, cordelia, { ...toDenmark(), queue_id: q.queue_id, local_id: '1' });
    expect(await pending(s, cordelia, q.queue_id)).toEqual([]);
  });
});

describe('the message payload per queue (zerver/tornado/event_queue.py:process_message_event, zerver/lib/message_cache.py:MessageDict.finalize_payload)', () => {
  it('is raw Markdown by default on /register, rendered with apply_markdown', async () => {
    const s = sim();
    const raw = await register(s, hamlet, { event_types: ['message'] });
    const html = await register(s, hamlet, { event_types: ['message'], apply_markdown: true });
    await send(s, iago, toDenmark('t', 'some **bold**'));
    const [a] = await pending(s, hamlet, raw.queue_id);
    const [b] = await pending(s, hamlet, html.queue_id);
    expect(a!.message).toMatchObject({ content: 'some **bold**', content_type: 'text/x-markdown' });
    expect(b!.message).toMatchObject({ content: '<p>some <strong>bold</strong></p>', content_type: 'text/html' });
    for (const e of [a!, b!]) {
      expect(validateMessage(e.message), JSON.stringify(validateMessage.errors)).toBe(true);
      expect(e.message).not.toHaveProperty('flags');
      expect(e.message).not.toHaveProperty('rendered_content');
    }
  });

  it('leaves out gravatar URLs the client can compute (client_gravatar, on by default)', async () => {
    const s = sim();
    const computes = await register(s, hamlet, { event_types: ['message'] });
    const asks = await register(s, hamlet, { event_types: ['message'], client_gravatar: false });
    // A bot's address is visible to everyone, so its gravatar is computable; a human's here is not.
    await send(s, defaultBot, toDenmark('t', 'beep'));
    await send(s, iago, toDenmark('t', 'hi'));
    expect((await pending(s, hamlet, computes.queue_id)).map((e) => e.message.avatar_url === null)).toEqual([true, false]);
    expect((await pending(s, hamlet, asks.queue_id)).map((e) => typeof e.message.avatar_url)).toEqual(['string', 'string']);
  });

  it('names the empty topic for clients without empty_topic_name', async () => {
    const s = sim();
    const old = await register(s, hamlet, { event_types: ['message'] });
    const modern = await register(s, hamlet, { event_types: ['message'], client_capabilities: { notification_settings_null: false, empty_topic_name: true } });
    await send(s, iago, { type: 'stream', to: 'Denmark', topic: '', content: 'general' });
    expect((await pending(s, hamlet, old.queue_id))[0]!.message.subject).toBe('general chat');
    expect((await pending(s, hamlet, modern.queue_id))[0]!.message.subject).toBe('');
  });

  it('carries each recipient’s own flags', async () => {
    const s = sim();
    const queues = new Map<number, string>();
    for (const id of [hamlet, iago, othello]) queues.set(id, (await register(s, id, { event_types: ['message'] })).queue_id);
    await send(s, hamlet, { ...toDenmark('t', 'hey @**Iago** and @**all**'), client: 'website' });
    const flagsOf = async (id: number) => (await pending(s, id, queues.get(id)!))[0]!.flags;
    expect(await flagsOf(hamlet)).toEqual(['read', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await flagsOf(iago)).toEqual(['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await flagsOf(othello)).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
  });

  it('guests see public-channel messages only where subscribed', async () => {
    const s = sim();
    const q = await register(s, polonius, { event_types: ['message'] });
    await send(s, iago, toDenmark());
    await send(s, iago, { type: 'stream', to: 'Verona', topic: 'v', content: 'to Verona' });
    expect((await pending(s, polonius, q.queue_id)).map((e) => e.message.content)).toEqual(['to Verona']);
  });
});
