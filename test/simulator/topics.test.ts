/** A channel's topics (zerver/views/streams.py): listing them and deleting one. */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { TOPIC_DELETION_BATCH_SIZE } from '../../simulator/engine/channels/topics.ts';
import { getMessage } from '../../simulator/engine/messages/store.ts';
import { ID, sim, watchEvents } from './helpers.ts';

type Body = Record<string, unknown>;

const call = (s: Simulator, method: string, path: string, body: Body = {}, as: number = ID.iago) =>
  s.request({ method, path: `/api/v1${path}`, as, body });
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

async function send(s: Simulator, stream: string, topic: string, as: number = ID.iago): Promise<number> {
  const res = await call(s, 'POST', '/messages', { type: 'stream', to: stream, topic, content: `in ${topic}` }, as);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}

/** A fresh public channel "garden" (Iago subscribed) with no messages but the creation notice. */
async function withGarden(): Promise<{ s: Simulator; garden: number }> {
  const s = sim();
  await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'garden' }] });
  return { s, garden: s.engine.state.streamsByName.get('garden')! };
}

async function eventsOf(s: Simulator, action: () => Promise<unknown>, capabilities: Record<string, boolean> = {}) {
  const watch = watchEvents(s, capabilities);
  await action();
  return watch.take();
}

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists each topic once (any case), named as its newest message spells it, newest first', async () => {
    const { s, garden } = await withGarden();
    const roses = await send(s, 'garden', 'Roses');
    const tulips = await send(s, 'garden', 'tulips');
    const roses2 = await send(s, 'garden', 'ROSES');
    const res = await call(s, 'GET', `/users/me/${garden}/topics`, {}, ID.hamlet);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      topics: [
        { name: 'ROSES', max_id: roses2 },
        { name: 'tulips', max_id: tulips },
        { name: 'channel events', max_id: expect.any(Number) },
      ],
    });
    expect(roses).toBeLessThan(tulips);
  });

  it('shows the empty topic by its display name unless allow_empty_topic_name', async () => {
    const { s, garden } = await withGarden();
    const id = await send(s, 'garden', '');
    const names = async (query: Body) =>
      (await s.request({ method: 'GET', path: `/api/v1/users/me/${garden}/topics`, as: ID.iago, query })).body.topics[0];
    expect(await names({})).toEqual({ name: 'general chat', max_id: id });
    expect(await names({ allow_empty_topic_name: true })).toEqual({ name: '', max_id: id });
    expect((await s.request({ method: 'GET', path: `/api/v1/users/me/${garden}/topics`, as: ID.iago, query: { allow_empty_topic_name: 'yes' } })).body).toEqual(
      error('allow_empty_topic_name is not valid JSON'),
    );
  });

  it('counts only received messages in a channel with protected history', async () => {
    const s = sim();
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true });
    const vault = s.engine.state.streamsByName.get('vault')!;
    await send(s, 'vault', 'before');
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [ID.hamlet] });
    const after = await send(s, 'vault', 'after');
    expect((await call(s, 'GET', `/users/me/${vault}/topics`, {}, ID.hamlet)).body.topics).toEqual([{ name: 'after', max_id: after }]);
    expect((await call(s, 'GET', `/users/me/${vault}/topics`, {}, ID.iago)).body.topics.map((t: Body) => t.name)).toEqual([
      'after',
      'before',
      'channel events',
    ]);
  });

  const refusals: [string, number, number][] = [
    ['an unknown channel', ID.iago, 99],
    ['a private channel the caller is not in (even an administrator)', ID.othello, 8],
    ['a public channel a guest is not in', ID.polonius, 4],
  ];
  it.each(refusals)('refuses %s', async (_n, as, streamId) => {
    const res = await call(sim(), 'GET', `/users/me/${streamId}/topics`, {}, as);
    expect([res.status, res.body]).toEqual([400, error('Invalid channel ID')]);
  });

  it('still lists the topics of an archived channel', async () => {
    const { s, garden } = await withGarden();
    await send(s, 'garden', 'roses');
    await call(s, 'DELETE', `/streams/${garden}`);
    expect((await call(s, 'GET', `/users/me/${garden}/topics`, {}, ID.hamlet)).body.topics.map((t: Body) => t.name)).toEqual([
      'channel events',
      'roses',
    ]);
  });
});

describe('POST /streams/{stream_id}/delete_topic', () => {
  it("deletes the topic's messages (any case), with delete_message events, and leaves the rest", async () => {
    const { s, garden } = await withGarden();
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'garden' }], principals: [ID.hamlet] });
    const a = await send(s, 'garden', 'Weeds');
    const keep = await send(s, 'garden', 'roses');
    const b = await send(s, 'garden', 'weeds', ID.hamlet);
    const events = await eventsOf(s, async () => {
      const res = await call(s, 'POST', `/streams/${garden}/delete_topic`, { topic_name: 'WEEDS' });
      expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    });
    expect(events).toEqual([
      {
        event: { type: 'delete_message', message_ids: [a, b], message_type: 'stream', stream_id: garden, topic: 'weeds' },
        users: [ID.hamlet, ID.iago],
      },
    ]);
    const topics = (await call(s, 'GET', `/users/me/${garden}/topics`)).body.topics.map((t: Body) => t.name);
    expect(topics).toEqual(['roses', 'channel events']);
    expect(getMessage(s.engine.state.messages, keep) !== undefined).toBe(true);
  });

  it("clears everyone's visibility setting of the deleted topic, with their user_topic events", async () => {
    const { s, garden } = await withGarden();
    await send(s, 'garden', 'Weeds');
    await call(s, 'POST', '/user_topics', { stream_id: garden, topic: 'weeds', visibility_policy: 3 }, ID.hamlet);
    await call(s, 'POST', '/user_topics', { stream_id: garden, topic: 'roses', visibility_policy: 1 }, ID.hamlet);
    const events = await eventsOf(s, () => call(s, 'POST', `/streams/${garden}/delete_topic`, { topic_name: 'WEEDS' }));
    expect(events.filter((e) => e.event.type === 'user_topic')).toEqual([
      { event: { type: 'user_topic', stream_id: garden, topic_name: 'WEEDS', last_updated: expect.any(Number), visibility_policy: 0 }, users: [ID.hamlet] },
    ]);
    const registered = await s.request({ method: 'POST', path: '/api/v1/register', as: ID.hamlet, body: { fetch_event_types: ['user_topic'] } });
    expect(registered.body.user_topics.map((t: Body) => [t.topic_name, t.visibility_policy])).toEqual([['roses', 1]]);
  });

  it('deletes in batches, newest first', async () => {
    const { s, garden } = await withGarden();
    const ids: number[] = [];
    for (let i = 0; i < TOPIC_DELETION_BATCH_SIZE + 5; i++) ids.push(await send(s, 'garden', 'bulk'));
    const events = await eventsOf(s, () => call(s, 'POST', `/streams/${garden}/delete_topic`, { topic_name: 'bulk' }));
    expect(events.map((e) => e.event.message_ids)).toEqual([ids.slice(5), ids.slice(0, 5)]);
  });

  it('takes the empty topic by its display name', async () => {
    const { s, garden } = await withGarden();
    const id = await send(s, 'garden', '');
    const events = await eventsOf(s, () => call(s, 'POST', `/streams/${garden}/delete_topic`, { topic_name: 'general chat' }));
    expect(events.map((e) => e.event.message_ids)).toEqual([[id]]);
  });

  it('deletes only what the administrator received in a channel with protected history', async () => {
    const s = sim();
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true }, ID.desdemona);
    const vault = s.engine.state.streamsByName.get('vault')!;
    const hidden = await send(s, 'vault', 'plans', ID.desdemona);
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [ID.iago] }, ID.desdemona);
    const seen = await send(s, 'vault', 'plans', ID.desdemona);
    const events = await eventsOf(s, () => call(s, 'POST', `/streams/${vault}/delete_topic`, { topic_name: 'plans' }));
    expect(events.map((e) => e.event.message_ids)).toEqual([[seen]]);
    expect(getMessage(s.engine.state.messages, hidden) !== undefined).toBe(true);
  });

  const refusals: [string, number, number, Body, Body][] = [
    ['a member', ID.hamlet, 3, { topic_name: 'x' }, error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL')],
    ['an unknown channel', ID.iago, 99, { topic_name: 'x' }, error('Invalid channel ID')],
    ['no topic_name', ID.iago, 3, {}, { ...error("Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'topic_name' }],
  ];
  it.each(refusals)('refuses %s', async (_n, as, streamId, body, expected) => {
    const s = sim();
    const count = s.engine.state.messages.messages.length;
    expect((await call(s, 'POST', `/streams/${streamId}/delete_topic`, body, as)).body).toEqual(expected);
    expect(s.engine.state.messages.messages.length).toBe(count);
  });

  it('refuses a private channel the administrator is not in', async () => {
    const s = sim();
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true }, ID.desdemona);
    const vault = s.engine.state.streamsByName.get('vault')!;
    await send(s, 'vault', 'plans', ID.desdemona);
    expect((await call(s, 'POST', `/streams/${vault}/delete_topic`, { topic_name: 'plans' })).body).toEqual(error('Invalid channel ID'));
  });

  it('refuses an archived channel (its messages cannot be changed)', async () => {
    const { s, garden } = await withGarden();
    await send(s, 'garden', 'roses');
    await call(s, 'DELETE', `/streams/${garden}`);
    expect((await call(s, 'POST', `/streams/${garden}/delete_topic`, { topic_name: 'roses' })).body).toEqual(error('Invalid channel ID'));
  });
});
