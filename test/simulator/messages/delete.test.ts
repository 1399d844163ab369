// Deactivating a user with the delete_*_messages actions removes their messages of those kinds
// (the messages helper's deleter behind DELETE /users/{user_id}), with delete_message events; and
// DELETE /messages/{id} with its permission rules and time limit.
import { describe, expect, test } from 'vitest';
import { legacyDeleteMessageEvents } from '../../../simulator/engine/messages/delete.ts';
import type { Simulator } from '../../../simulator/index.ts';
import { devFixture, ID, watchEvents } from '../helpers.ts';
import { clockedSim, del, DESDEMONA, error, eventsSince, fetchMessages, get, HAMLET, IAGO, OTHELLO, post, sim } from './helpers.ts';

describe('message deletion on deactivation', () => {
  test.each([
    ['public channels only', { delete_public_channel_messages: true }, { channel: false, dm: true }],
    ['direct messages only', { delete_direct_messages: true }, { channel: true, dm: false }],
    ['both', { delete_public_channel_messages: true, delete_direct_messages: true }, { channel: false, dm: false }],
  ])('%s', async (_name, actions, survives) => {
    const s = sim();
    const channelMsg = await post(s, OTHELLO, '/messages', { type: 'stream', to: 'Denmark', topic: 'bye', content: 'leaving soon' });
    const dm = await post(s, OTHELLO, '/messages', { type: 'direct', to: '[11]', content: 'secret farewell' });
    // Search once first, so the word index exists before the deletion and must be refreshed.
    const early = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 100, narrow: [['search', 'farewell']] });
    expect(early.body.messages.length).toBe(1);
    const watch = watchEvents(s);
    const res = await del(s, IAGO, '/users/12', { actions });
    expect(res.status).toBe(200);
    expect((await get(s, IAGO, `/messages/${channelMsg.body.id}`)).status).toBe(survives.channel ? 200 : 400);
    expect((await get(s, IAGO, `/messages/${dm.body.id}`)).status).toBe(survives.dm ? 200 : 400);
    const deletions = watch.take().filter((e) => e.event.type === 'delete_message');
    if (!survives.dm) {
      expect(deletions).toContainEqual({
        event: { type: 'delete_message', message_ids: expect.arrayContaining([dm.body.id]), message_type: 'private' },
        users: expect.arrayContaining([11, 12]),
      });
    }
    if (!survives.channel) {
      expect(deletions.some((e) => e.event.message_type === 'stream' && (e.event.message_ids as number[]).includes(channelMsg.body.id))).toBe(true);
    }
    // Indexes stay consistent: narrowed fetches and search no longer see deleted messages.
    const bySender = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 1000, narrow: [['sender', 'user12@zulip.testserver']] });
    const ids = (bySender.body.messages as { id: number; type: string }[]).map((m) => m.id);
    expect(ids.includes(channelMsg.body.id)).toBe(survives.channel);
    const search = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 100, narrow: [['search', 'farewell']] });
    expect(search.body.messages.length).toBe(survives.dm ? 1 : 0);
  });
});

describe('DELETE /messages/{id}', () => {
  async function send(s: Simulator, as: string, to: string, topic: string, content = 'bye'): Promise<number> {
    const res = await post(s, as, '/messages', { type: 'stream', to, topic, content });
    expect(res.status).toBe(200);
    return res.body.id as number;
  }
  const refused = error('BAD_REQUEST', "You don't have permission to delete this message");
  const tooLate = error('BAD_REQUEST', 'The time limit for deleting this message has passed');

  test('the sender deletes: success, gone from every read path, delete_message to everyone who could see it', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'Farewell Party', 'a unicorn goodbye');
    await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 1, narrow: [['search', 'unicorn']] });
    const mark = watchEvents(s);
    const res = await del(s, HAMLET, `/messages/${id}`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect((await get(s, HAMLET, `/messages/${id}`)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    const search = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 100, narrow: [['search', 'unicorn']] });
    expect(search.body.messages).toEqual([]);
    const topic = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 100, narrow: [['channel', 'Denmark'], ['topic', 'Farewell Party']] });
    expect(topic.body.messages).toEqual([]);
    const denmark = s.engine.state.streamsByName.get('denmark')!;
    // The topic comes lower-cased, as Zulip groups deletions by it.
    expect(eventsSince(mark)).toEqual([
      {
        event: { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: denmark, topic: 'farewell party' },
        users: [ID.zoe, ID.desdemona, ID.hamlet, ID.iago, ID.othello, ID.prospero, ID.shiva],
      },
    ]);
  });

  test('a direct message: only its participants (and the deleter) hear it', async () => {
    const { s } = clockedSim();
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'oops' })).body.id;
    const mark = watchEvents(s);
    expect((await del(s, HAMLET, `/messages/${dm}`, {})).status).toBe(200);
    expect(eventsSince(mark)).toEqual([{ event: { type: 'delete_message', message_ids: [dm], message_type: 'private' }, users: [ID.hamlet, ID.othello] }]);
  });

  test('own messages for 600 s, no grace period; without a limit, any time', async () => {
    const { s, advance } = clockedSim();
    const a = await send(s, HAMLET, 'Denmark', 'plans');
    const b = await send(s, HAMLET, 'Denmark', 'plans');
    advance(600);
    expect((await del(s, HAMLET, `/messages/${a}`, {})).status).toBe(200);
    advance(1);
    expect((await del(s, HAMLET, `/messages/${b}`, {})).body).toEqual(tooLate);
    const fixture = devFixture();
    fixture.realm.message_content_delete_limit_seconds = null;
    const unlimited = clockedSim(fixture);
    const c = await send(unlimited.s, HAMLET, 'Denmark', 'plans');
    unlimited.advance(365 * 86_400);
    expect((await del(unlimited.s, HAMLET, `/messages/${c}`, {})).status).toBe(200);
  });

  test("someone else's message: refused to members; administrators delete anything at any time", async () => {
    const { s, advance } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans');
    expect((await del(s, OTHELLO, `/messages/${id}`, {})).body).toEqual(refused);
    expect((await del(s, 'shiva@zulip.com', `/messages/${id}`, {})).body).toEqual(refused);
    advance(86_400);
    expect((await del(s, IAGO, `/messages/${id}`, {})).status).toBe(200);
  });

  test("a bot's owner deletes the bot's messages", async () => {
    const { s } = clockedSim();
    const id = await send(s, 'default-bot@zulip.com', 'Denmark', 'bot talk');
    expect((await del(s, HAMLET, `/messages/${id}`, {})).body).toEqual(refused);
    expect((await del(s, DESDEMONA, `/messages/${id}`, {})).status).toBe(200);
  });

  test('the realm and channel groups decide who deletes', async () => {
    const fixture = devFixture();
    fixture.realm.can_delete_own_message_group = 'role:administrators';
    fixture.realm.can_delete_any_message_group = 'role:moderators';
    const { s } = clockedSim(fixture);
    const own = await send(s, HAMLET, 'Denmark', 'plans');
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'x' })).body.id;
    expect((await del(s, HAMLET, `/messages/${own}`, {})).body).toEqual(refused);
    const denmark = s.engine.state.streams.get(s.engine.state.streamsByName.get('denmark')!)!;
    const members = s.engine.state.realm.system_groups['role:members']!;
    denmark.groups.can_delete_own_message_group = members;
    expect((await del(s, HAMLET, `/messages/${own}`, {})).status).toBe(200);
    // The channel's group does not reach direct messages.
    expect((await del(s, HAMLET, `/messages/${dm}`, {})).body).toEqual(refused);
    // Moderators now delete anyone's messages; a channel can let members do it there.
    const other = await send(s, OTHELLO, 'Denmark', 'plans');
    expect((await del(s, HAMLET, `/messages/${other}`, {})).body).toEqual(refused);
    denmark.groups.can_delete_any_message_group = members;
    expect((await del(s, HAMLET, `/messages/${other}`, {})).status).toBe(200);
    expect((await del(s, 'shiva@zulip.com', `/messages/${dm}`, {})).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });

  test('messages one cannot see, or in an archived channel: Invalid message(s)', async () => {
    const { s } = clockedSim();
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'x' })).body.id;
    expect((await del(s, IAGO, `/messages/${dm}`, {})).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await del(s, IAGO, '/messages/999999', {})).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    const id = await send(s, HAMLET, 'Denmark', 'plans');
    s.engine.state.streams.get(s.engine.state.streamsByName.get('denmark')!)!.is_archived = true;
    expect((await del(s, IAGO, `/messages/${id}`, {})).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });

  test("deleting a channel's first message updates its first_message_id", async () => {
    const { s } = clockedSim();
    const rome = s.engine.state.streamsByName.get('rome')!;
    const [first, second] = s.engine.state.messages.byStream.get(rome)!;
    const mark = watchEvents(s);
    expect((await del(s, IAGO, `/messages/${first}`, {})).status).toBe(200);
    const [update, deletion] = eventsSince(mark);
    expect(update!.event).toEqual({ type: 'stream', op: 'update', property: 'first_message_id', value: second, stream_id: rome, name: 'Rome' });
    expect(deletion!.event).toMatchObject({ type: 'delete_message', message_ids: [first] });
    expect(update!.users).toEqual(deletion!.users);
    const channels = await get(s, IAGO, '/streams');
    expect(channels.body.streams.find((c: { stream_id: number }) => c.stream_id === rome).first_message_id).toBe(second);
  });

  test('queues without bulk_message_deletion get one event per id', () => {
    expect(legacyDeleteMessageEvents({ type: 'delete_message', message_ids: [4, 5], message_type: 'stream', stream_id: 3, topic: 't' })).toEqual([
      { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 't', message_id: 4 },
      { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 't', message_id: 5 },
    ]);
  });
});
