// GET /messages/{id}/history and the edit fields of message objects (last_edit_timestamp,
// last_moved_timestamp, edit_history) under each message_edit_history_visibility_policy.
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import messageSchema from '../../../schemas/chat/message.schema.json' with { type: 'json' };
import type { Simulator } from '../../../simulator/index.ts';
import { devFixture, ID } from '../helpers.ts';
import { clockedSim, error, fetchMessages, get, HAMLET, IAGO, LATER, OTHELLO, patch, post, PROSPERO } from './helpers.ts';

const validateMessage = new Ajv({ strict: false }).compile(messageSchema);

async function send(s: Simulator, content: string, topic = 'party at my houz'): Promise<number> {
  return (await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic, content })).body.id as number;
}

/** Hamlet's message, its content edited at +10 s and its topic fixed at +20 s. */
async function editedTwice(policy?: 'all' | 'moves' | 'none') {
  const fixture = devFixture();
  if (policy) fixture.realm.message_edit_history_visibility_policy = policy;
  const { s, advance } = clockedSim(fixture);
  const id = await send(s, 'Hello!');
  advance(10);
  expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'Howdy!' })).status).toBe(200);
  advance(10);
  expect((await patch(s, HAMLET, `/messages/${id}`, { topic: 'party at my house' })).status).toBe(200);
  return { s, id };
}

const original = { content: 'Hello!', rendered_content: '<p>Hello!</p>', timestamp: LATER, topic: 'party at my houz', user_id: ID.hamlet };
const contentEdit = {
  content: 'Howdy!',
  rendered_content: '<p>Howdy!</p>',
  timestamp: LATER + 10,
  topic: 'party at my houz',
  user_id: ID.hamlet,
  prev_content: 'Hello!',
  prev_rendered_content: '<p>Hello!</p>',
  content_html_diff:
    '<div><p><span class="highlight_text_inserted">Howdy!</span></p> <p><span class="highlight_text_deleted">Hello!</span></p></div>',
};
const topicEdit = {
  content: 'Howdy!',
  rendered_content: '<p>Howdy!</p>',
  timestamp: LATER + 20,
  topic: 'party at my house',
  user_id: ID.hamlet,
  prev_topic: 'party at my houz',
};

describe('GET /messages/{id}/history', () => {
  test('a message never edited: only the original', async () => {
    const { s } = clockedSim();
    const id = await send(s, 'Hello!');
    const res = await get(s, OTHELLO, `/messages/${id}/history`);
    expect(res.body).toEqual({ result: 'success', msg: '', message_history: [original] });
  });

  test('oldest first: the original, then the state after each edit with what changed', async () => {
    const { s, id } = await editedTwice();
    const res = await get(s, OTHELLO, `/messages/${id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.message_history).toEqual([original, contentEdit, topicEdit]);
    // Zulip's key order, snapshot fields first.
    expect(Object.keys(res.body.message_history[1])).toEqual([
      'content', 'rendered_content', 'timestamp', 'topic', 'user_id', 'prev_content', 'prev_rendered_content', 'content_html_diff',
    ]);
  });

  test('a channel move records prev_stream and stream', async () => {
    const { s, advance } = clockedSim();
    const id = await send(s, 'Hello!');
    advance(5);
    await patch(s, IAGO, `/messages/${id}`, { stream_id: 3, topic: 'moved' });
    const history = (await get(s, HAMLET, `/messages/${id}/history`)).body.message_history;
    expect(history[1]).toEqual({
      content: 'Hello!',
      rendered_content: '<p>Hello!</p>',
      timestamp: LATER + 5,
      topic: 'moved',
      user_id: ID.iago,
      prev_topic: 'party at my houz',
      prev_stream: 4,
      stream: 3,
    });
  });

  test('policy "moves": content-only edits are hidden', async () => {
    const { s, id } = await editedTwice('moves');
    expect((await get(s, OTHELLO, `/messages/${id}/history`)).body.message_history).toEqual([original, topicEdit]);
  });

  test('policy "moves": an edit of content and topic keeps only its topic keys', async () => {
    const fixture = devFixture();
    fixture.realm.message_edit_history_visibility_policy = 'moves';
    const { s } = clockedSim(fixture);
    const id = await send(s, 'Hello!');
    await patch(s, HAMLET, `/messages/${id}`, { content: 'Howdy!', topic: 'party at my house' });
    const history = (await get(s, OTHELLO, `/messages/${id}/history`)).body.message_history;
    expect(history[1]).toEqual({ ...topicEdit, timestamp: LATER });
  });

  test('policy "none": refused before the message is even looked up', async () => {
    const { s, id } = await editedTwice('none');
    expect((await get(s, OTHELLO, `/messages/${id}/history`)).body).toEqual(error('BAD_REQUEST', 'Message edit history is disabled in this organization'));
    expect((await get(s, OTHELLO, '/messages/999999/history')).body).toEqual(error('BAD_REQUEST', 'Message edit history is disabled in this organization'));
  });

  test('messages one cannot read: Invalid message(s)', async () => {
    const { s } = clockedSim();
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'psst' })).body.id;
    expect((await get(s, PROSPERO, `/messages/${dm}/history`)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await get(s, PROSPERO, '/messages/999999/history')).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await get(s, OTHELLO, `/messages/${dm}/history`)).body.message_history[0].topic).toBe('');
  });

  test('the empty topic reads as the realm name for it unless allow_empty_topic_name', async () => {
    const { s } = clockedSim();
    const id = await send(s, 'Hello!', '');
    await patch(s, HAMLET, `/messages/${id}`, { topic: 'named' });
    const named = (await get(s, HAMLET, `/messages/${id}/history`)).body.message_history;
    expect(named.map((h: { topic: string }) => h.topic)).toEqual(['general chat', 'named']);
    expect(named[1].prev_topic).toBe('general chat');
    const raw = (await get(s, HAMLET, `/messages/${id}/history`, { allow_empty_topic_name: true })).body.message_history;
    expect(raw.map((h: { topic: string }) => h.topic)).toEqual(['', 'named']);
  });
});

describe('edit fields in message objects', () => {
  async function message(s: Simulator, id: number) {
    const res = await get(s, OTHELLO, `/messages/${id}`);
    expect(validateMessage(res.body.message)).toBe(true);
    return res.body.message;
  }

  test('a message never edited has none of them', async () => {
    const { s } = clockedSim();
    const m = await message(s, await send(s, 'Hello!'));
    expect(m).not.toHaveProperty('last_edit_timestamp');
    expect(m).not.toHaveProperty('last_moved_timestamp');
    expect(m).not.toHaveProperty('edit_history');
  });

  test('content and topic edits: both timestamps, and the stored history newest first', async () => {
    const { s, id } = await editedTwice();
    const m = await message(s, id);
    expect(m.last_edit_timestamp).toBe(LATER + 10);
    expect(m.last_moved_timestamp).toBe(LATER + 20);
    expect(m.edit_history).toEqual([
      { user_id: ID.hamlet, timestamp: LATER + 20, prev_topic: 'party at my houz', topic: 'party at my house' },
      { user_id: ID.hamlet, timestamp: LATER + 10, prev_content: 'Hello!', prev_rendered_content: '<p>Hello!</p>' },
    ]);
    // GET /messages shows the same.
    const listed = (await fetchMessages(s, OTHELLO, { message_ids: JSON.stringify([id]) })).body.messages[0];
    expect(listed).toMatchObject({ last_edit_timestamp: LATER + 10, last_moved_timestamp: LATER + 20, edit_history: m.edit_history });
  });

  test('a message only moved has no last_edit_timestamp', async () => {
    const { s, advance } = clockedSim();
    const id = await send(s, 'Hello!');
    advance(7);
    await patch(s, HAMLET, `/messages/${id}`, { topic: 'elsewhere' });
    const m = await message(s, id);
    expect(m).not.toHaveProperty('last_edit_timestamp');
    expect(m.last_moved_timestamp).toBe(LATER + 7);
  });

  test('resolving a topic is not a move', async () => {
    const { s } = clockedSim();
    const id = await send(s, 'Hello!');
    await patch(s, HAMLET, `/messages/${id}`, { topic: '✔ party at my houz' });
    const m = await message(s, id);
    expect(m).not.toHaveProperty('last_moved_timestamp');
    expect(m).not.toHaveProperty('last_edit_timestamp');
    expect(m.edit_history).toEqual([{ user_id: ID.hamlet, timestamp: LATER, prev_topic: 'party at my houz', topic: '✔ party at my houz' }]);
  });

  test('policy "moves" filters edit_history; "none" drops it but keeps the timestamps', async () => {
    const moves = await editedTwice('moves');
    expect((await message(moves.s, moves.id)).edit_history).toEqual([
      { user_id: ID.hamlet, timestamp: LATER + 20, prev_topic: 'party at my houz', topic: 'party at my house' },
    ]);
    const none = await editedTwice('none');
    const m = await message(none.s, none.id);
    expect(m).not.toHaveProperty('edit_history');
    expect(m).toMatchObject({ last_edit_timestamp: LATER + 10, last_moved_timestamp: LATER + 20 });
  });
});
