// PATCH /messages/{id} through the in-process API: content edits (re-rendering, mention flags,
// search), topic and channel moves with propagate_mode, resolving, Notification Bot's notices,
// UserMessage rows on channel moves, the events and their recipients, and every error of
// check_update_message (zerver/actions/message_edit.py) in Zulip's order, before and after each time limit.
import { describe, expect, test } from 'vitest';
import { sha256Hex } from '../../../simulator/engine/sha256.ts';
import { rowUserIds, userFlagBits, FLAG_BITS } from '../../../simulator/engine/messages/store.ts';
import type { Simulator } from '../../../simulator/index.ts';
import { devFixture, ID, watchEvents, type Delivered } from '../helpers.ts';
import {
  clockedSim,
  CORDELIA,
  DESDEMONA,
  error,
  eventsSince,
  fetchMessages,
  get,
  HAMLET,
  IAGO,
  LATER,
  OTHELLO,
  patch,
  POLONIUS,
  post,
  PROSPERO,
} from './helpers.ts';

const SHIVA = 'shiva@zulip.com';

async function send(s: Simulator, as: string, to: string, topic: string, content: string): Promise<number> {
  const res = await post(s, as, '/messages', { type: 'stream', to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

function stored(s: Simulator, id: number) {
  const m = s.engine.state.messages.messages.find((x) => x.id === id);
  if (!m) throw new Error(`no message ${id}`);
  return m;
}

function streamId(s: Simulator, name: string): number {
  return s.engine.state.streamsByName.get(name.toLowerCase())!;
}

const ofType = (events: Delivered[], type: string) => events.filter((e) => e.event.type === type);

async function topicIds(s: Simulator, as: string, channel: string, topic: string): Promise<number[]> {
  const res = await fetchMessages(s, as, { anchor: 'oldest', num_after: 1000, narrow: [['channel', channel], ['topic', topic]] });
  expect(res.status).toBe(200);
  return (res.body.messages as { id: number }[]).map((m) => m.id);
}

describe('PATCH /messages/{id}: content', () => {
  test('the sender edits: success shape, new content everywhere, search follows the words', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'the zebra crossing');
    const res = await patch(s, HAMLET, `/messages/${id}`, { content: 'the giraffe crossing' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    const one = await get(s, OTHELLO, `/messages/${id}`);
    expect(one.body).toMatchObject({ raw_content: 'the giraffe crossing', message: { content: '<p>the giraffe crossing</p>', subject: 'plans' } });
    const search = async (word: string) =>
      ((await fetchMessages(s, OTHELLO, { anchor: 'newest', num_before: 100, narrow: [['search', word]] })).body.messages as { id: number }[]).map((m) => m.id);
    expect(await search('giraffe')).toEqual([id]);
    expect(await search('zebra')).toEqual([]);
  });

  test('the search index built before the edit is kept up to date', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'the zebra crossing');
    await fetchMessages(s, OTHELLO, { anchor: 'newest', num_before: 1, narrow: [['search', 'zebra']] });
    await patch(s, HAMLET, `/messages/${id}`, { content: 'an okapi' });
    const hits = (word: string) => fetchMessages(s, OTHELLO, { anchor: 'newest', num_before: 100, narrow: [['search', word]] });
    expect((await hits('zebra')).body.messages).toEqual([]);
    expect(((await hits('okapi')).body.messages as { id: number }[]).map((m) => m.id)).toEqual([id]);
  });

  test('blank content becomes "(deleted)"; trailing whitespace is dropped as on send', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'oops');
    await patch(s, HAMLET, `/messages/${id}`, { content: '   \n ' });
    expect(stored(s, id).content).toBe('(deleted)');
    await patch(s, HAMLET, `/messages/${id}`, { content: '\n\nfixed  \n' });
    expect(stored(s, id).content).toBe('fixed');
  });

  test('mentions are re-rendered: the newly mentioned user gets the flag, the old one loses it', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'ping @**Iago**');
    const flags = async (as: string) => (await get(s, as, `/messages/${id}`)).body.message.flags as string[];
    expect(await flags(IAGO)).toContain('mentioned');
    const mark = watchEvents(s);
    await patch(s, HAMLET, `/messages/${id}`, { content: 'ping @**Othello, the Moor of Venice** and @**all**' });
    expect(await flags(IAGO)).not.toContain('mentioned');
    expect(await flags(OTHELLO)).toEqual(expect.arrayContaining(['mentioned', 'stream_wildcard_mentioned']));
    const updates = ofType(eventsSince(mark), 'update_message');
    const othello = updates.find((e) => e.users.includes(ID.othello))!;
    expect(othello.event).toEqual({
      type: 'update_message',
      user_id: ID.hamlet,
      edit_timestamp: LATER,
      message_id: id,
      rendering_only: false,
      orig_content: 'ping @**Iago**',
      orig_rendered_content: '<p>ping <span class="user-mention" data-user-id="11">@Iago</span></p>',
      content: 'ping @**Othello, the Moor of Venice** and @**all**',
      rendered_content: expect.stringContaining('data-user-id="12"'),
      is_me_message: false,
      stream_name: 'Denmark',
      stream_id: streamId(s, 'Denmark'),
      message_ids: [id],
      flags: ['mentioned', 'stream_wildcard_mentioned'],
    });
    // Everyone who received the message hears about the edit, once.
    const heard = updates.flatMap((e) => e.users).sort((a, b) => a - b);
    expect(heard).toEqual(rowUserIds(stored(s, id)));
  });

  test('a direct message edit goes to its participants only, without channel fields', async () => {
    const { s } = clockedSim();
    const dm = await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'psst' });
    const mark = watchEvents(s);
    expect((await patch(s, HAMLET, `/messages/${dm.body.id}`, { content: '/me whispers' })).status).toBe(200);
    const [update] = ofType(eventsSince(mark), 'update_message');
    expect(update!.users).toEqual([ID.hamlet, ID.othello]);
    expect(update!.event).not.toHaveProperty('stream_id');
    expect(update!.event).toMatchObject({ message_ids: [dm.body.id], is_me_message: true, content: '/me whispers' });
  });

  test('prev_content_sha256 of the current content is accepted, even for a move', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'version one');
    const ok = await patch(s, HAMLET, `/messages/${id}`, { content: 'version two', prev_content_sha256: sha256Hex('version one') });
    expect(ok.status).toBe(200);
    const moved = await patch(s, HAMLET, `/messages/${id}`, { topic: 'later', prev_content_sha256: sha256Hex('version two') });
    expect(moved.status).toBe(200);
  });
});

describe('PATCH /messages/{id}: content time limit and permissions', () => {
  test('600 s plus 20 s of grace, on the simulated clock', async () => {
    const { s, advance } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'first');
    advance(620);
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'second' })).status).toBe(200);
    advance(1);
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'third' })).body).toEqual(
      error('BAD_REQUEST', 'The time limit for editing this message has passed'),
    );
  });

  test('no limit when the realm sets none', async () => {
    const fixture = devFixture();
    fixture.realm.message_content_edit_limit_seconds = null;
    const { s, advance } = clockedSim(fixture);
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'first');
    advance(10 * 86_400);
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'second' })).status).toBe(200);
  });

  test('only the sender edits content: not an administrator, not the owner', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'mine');
    for (const as of [IAGO, DESDEMONA, OTHELLO]) {
      expect((await patch(s, as, `/messages/${id}`, { content: 'theirs' })).body).toEqual(
        error('BAD_REQUEST', "You don't have permission to edit this message"),
      );
    }
  });

  test('a realm without message editing refuses content edits before anything else, but still moves topics', async () => {
    const fixture = devFixture();
    fixture.realm.allow_message_editing = false;
    const { s } = clockedSim(fixture);
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'mine');
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'x', stream_id: 'bad' })).body).toEqual(
      error('BAD_REQUEST', 'stream_id is not valid JSON'),
    );
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Your organization has turned off message editing'),
    );
    expect((await patch(s, HAMLET, `/messages/${id}`, { topic: 'moved' })).status).toBe(200);
  });
});

describe('PATCH /messages/{id}: validation order and errors', () => {
  type Ids = { mine: number; dm: number; verona: number };
  type Row = [string, (s: Simulator, ids: Ids) => [string, string, Record<string, unknown>], Record<string, unknown>];
  const rows: Row[] = [
    ['unknown message', () => [HAMLET, '/messages/999999', { content: 'x' }], error('BAD_REQUEST', 'Invalid message(s)')],
    ['a DM one did not receive', (_s, ids) => [PROSPERO, `/messages/${ids.dm}`, { content: 'x' }], error('BAD_REQUEST', 'Invalid message(s)')],
    [
      'a private channel one cannot read',
      (s) => [OTHELLO, `/messages/${s.engine.state.messages.byStream.get(streamId(s, 'core team'))![0]}`, { topic: 'x' }],
      error('BAD_REQUEST', 'Invalid message(s)'),
    ],
    ['nothing', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, {}], error('BAD_REQUEST', 'Nothing to change')],
    ['the same topic is no change', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { topic: '  plans ' }], error('BAD_REQUEST', 'Nothing to change')],
    ['a DM to a channel', (_s, ids) => [HAMLET, `/messages/${ids.dm}`, { stream_id: 3 }], error('BAD_REQUEST', 'Direct messages cannot be moved to channels.')],
    ['a DM topic', (_s, ids) => [HAMLET, `/messages/${ids.dm}`, { topic: 'x' }], error('BAD_REQUEST', 'Direct messages cannot have topics.')],
    [
      'propagate_mode without a move',
      (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { content: 'x', propagate_mode: 'change_all' }],
      error('BAD_REQUEST', 'Invalid propagate_mode without topic edit'),
    ],
    ['an unknown propagate_mode', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { topic: 'x', propagate_mode: 'change_some' }], error('BAD_REQUEST', 'Invalid propagate_mode')],
    ['resolving the bare prefix', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { topic: '✔ ' }], error('BAD_REQUEST', 'General chat cannot be marked as resolved')],
    ['resolving general chat', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { topic: '✔ general chat' }], error('BAD_REQUEST', 'General chat cannot be marked as resolved')],
    ['a control character in the topic', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { topic: 'a\u0007b' }], error('BAD_REQUEST', 'Invalid character in topic, at position 2!')],
    [
      'content and channel together',
      (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { content: 'x', stream_id: 3 }],
      error('BAD_REQUEST', 'Cannot change message content while changing channel'),
    ],
    [
      'a stale prev_content_sha256',
      (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { content: 'x', prev_content_sha256: sha256Hex('something else') }],
      error('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value."),
    ],
    ['an unknown channel', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { stream_id: 999 }], error('BAD_REQUEST', 'Invalid channel ID')],
    ['a private channel one cannot read', (s, ids) => [OTHELLO, `/messages/${ids.mine}`, { stream_id: streamId(s, 'core team') }], error('BAD_REQUEST', 'Invalid channel ID')],
    ['a negative channel id', (_s, ids) => [HAMLET, `/messages/${ids.mine}`, { stream_id: -1 }], error('BAD_REQUEST', 'stream_id is too small')],
    ['content by someone else', (_s, ids) => [IAGO, `/messages/${ids.mine}`, { content: 'x' }], error('BAD_REQUEST', "You don't have permission to edit this message")],
    // The content check runs before "Nothing to change" and before the payload checks.
    // The content permission is checked before the payload: this is not "content and channel together".
    ['content by someone else, with a channel too', (_s, ids) => [IAGO, `/messages/${ids.mine}`, { content: 'x', stream_id: 3 }], error('BAD_REQUEST', "You don't have permission to edit this message")],
    ['guests never move between channels', (s, ids) => [POLONIUS, `/messages/${ids.verona}`, { stream_id: streamId(s, 'Rome') }], error('BAD_REQUEST', "You don't have permission to move this message")],
  ];

  test.each(rows)('%s', async (_name, build, expected) => {
    const { s } = clockedSim();
    const mine = await send(s, HAMLET, 'Denmark', 'plans', 'mine');
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'dm' })).body.id as number;
    const verona = await send(s, POLONIUS, 'Verona', 'guests', 'hello');
    const [as, path, body] = build(s, { mine, dm, verona });
    const before = JSON.stringify(s.snapshot());
    const res = await patch(s, as, path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    // A refused edit changes nothing.
    expect(JSON.stringify(s.snapshot())).toBe(before);
  });

  test('an archived channel\'s messages cannot be changed', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'mine');
    s.engine.state.streams.get(streamId(s, 'Denmark'))!.is_archived = true;
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'x' })).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });

  test('moving into an archived channel: Invalid channel ID', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'mine');
    s.engine.state.streams.get(streamId(s, 'Verona'))!.is_archived = true;
    expect((await patch(s, IAGO, `/messages/${id}`, { stream_id: streamId(s, 'Verona') })).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
  });

  test.each([
    ['disable_empty_topic refuses moving into general chat', 'disable_empty_topic', { topic: '' }, 'Sending messages to the general chat is not allowed in this channel.'],
    ['disable_empty_topic: the display name means the empty topic', 'disable_empty_topic', { topic: 'general chat' }, 'Sending messages to the general chat is not allowed in this channel.'],
    ['empty_topic_only refuses any named topic, even a content edit', 'empty_topic_only', { content: 'x' }, 'Only the general chat topic is allowed in this channel.'],
  ] as const)('%s', async (_name, policy, body, msg) => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'mine');
    s.engine.state.streams.get(streamId(s, 'Denmark'))!.topics_policy = policy;
    expect((await patch(s, HAMLET, `/messages/${id}`, body)).body).toEqual(error('BAD_REQUEST', msg));
  });
});

describe('PATCH /messages/{id}: topics', () => {
  async function topicWithThree(s: Simulator) {
    const a = await send(s, HAMLET, 'Denmark', 'plans', 'one');
    const b = await send(s, OTHELLO, 'Denmark', 'Plans', 'two');
    const c = await send(s, HAMLET, 'Denmark', 'plans', 'three');
    return [a, b, c] as const;
  }

  test.each([
    ['change_one', [false, true, false]],
    ['change_later', [false, true, true]],
    ['change_all', [true, true, true]],
  ] as const)('%s moves the right messages (topics match case-insensitively)', async (mode, expectMoved) => {
    const { s } = clockedSim();
    const ids = await topicWithThree(s);
    const res = await patch(s, HAMLET, `/messages/${ids[1]}`, { topic: 'new plans', propagate_mode: mode, send_notification_to_new_thread: false });
    expect(res.status).toBe(200);
    const moved = ids.filter((_id, i) => expectMoved[i]);
    const stayed = ids.filter((_id, i) => !expectMoved[i]);
    expect(await topicIds(s, HAMLET, 'Denmark', 'new plans')).toEqual(moved);
    expect(await topicIds(s, HAMLET, 'Denmark', 'plans')).toEqual(stayed);
    for (const id of moved) expect(stored(s, id).topic).toBe('new plans');
  });

  test('the edit history: the edited message records it first, the others topic keys first, with its old topic', async () => {
    const { s } = clockedSim();
    const [a, b] = await topicWithThree(s);
    await patch(s, IAGO, `/messages/${a}`, { topic: 'renamed', propagate_mode: 'change_all' });
    expect(stored(s, a).editHistory).toEqual([{ user_id: ID.iago, timestamp: LATER, prev_topic: 'plans', topic: 'renamed' }]);
    // Zulip records the edited message's old topic for every moved message, whatever its own casing.
    expect(stored(s, b).topic).toBe('renamed');
    expect(JSON.stringify(stored(s, b).editHistory)).toBe(JSON.stringify([{ user_id: ID.iago, timestamp: LATER, prev_topic: 'plans', topic: 'renamed' }]));
    expect(stored(s, b).lastEditTimestamp).toBe(LATER);
  });

  test('the update_message event: move fields, message_ids, subscribers who never received it get ["read"]', async () => {
    const { s } = clockedSim();
    const [a, b, c] = await topicWithThree(s);
    const mark = watchEvents(s);
    await patch(s, IAGO, `/messages/${a}`, { topic: 'renamed', propagate_mode: 'change_all', send_notification_to_new_thread: false });
    const updates = ofType(eventsSince(mark), 'update_message');
    expect(updates[0]!.event).toMatchObject({
      user_id: ID.iago,
      message_id: a,
      message_ids: [a, b, c],
      stream_id: streamId(s, 'Denmark'),
      stream_name: 'Denmark',
      propagate_mode: 'change_all',
      orig_subject: 'plans',
      subject: 'renamed',
      topic_links: [],
      rendering_only: false,
    });
    expect(updates[0]!.event).not.toHaveProperty('new_stream_id');
    expect(updates[0]!.event).not.toHaveProperty('content');
    const everyone = updates.flatMap((e) => e.users).sort((x, y) => x - y);
    expect(everyone).toEqual(rowUserIds(stored(s, a)));
  });

  test('a topic is truncated to 60 characters like on send', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    await patch(s, HAMLET, `/messages/${id}`, { topic: 'y'.repeat(70) });
    expect(stored(s, id).topic).toBe(`${'y'.repeat(57)}...`);
  });

  test('moving into general chat with the display name; subject is an alias of topic', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    expect((await patch(s, HAMLET, `/messages/${id}`, { subject: 'general chat' })).status).toBe(200);
    expect(stored(s, id).topic).toBe('');
  });

  test('members move topics within 7 days (+20 s); moderators any time', async () => {
    const { s, advance } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    advance(604_820);
    expect((await patch(s, OTHELLO, `/messages/${id}`, { topic: 'a' })).status).toBe(200);
    advance(1);
    expect((await patch(s, OTHELLO, `/messages/${id}`, { topic: 'b' })).body).toEqual(
      error('BAD_REQUEST', "The time limit for editing this message's topic has passed."),
    );
    expect((await patch(s, SHIVA, `/messages/${id}`, { topic: 'c' })).status).toBe(200);
  });

  test('the realm group decides who moves topics; a channel group can grant it too', async () => {
    const fixture = devFixture();
    fixture.realm.can_move_messages_between_topics_group = 'role:moderators';
    const { s } = clockedSim(fixture);
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    expect((await patch(s, OTHELLO, `/messages/${id}`, { topic: 'a' })).body).toEqual(error('BAD_REQUEST', "You don't have permission to edit this message"));
    expect((await patch(s, SHIVA, `/messages/${id}`, { topic: 'a' })).status).toBe(200);
    const denmark = s.engine.state.streams.get(streamId(s, 'Denmark'))!;
    denmark.groups.can_move_messages_within_channel_group = { direct_members: [ID.othello], direct_subgroups: [] };
    expect((await patch(s, OTHELLO, `/messages/${id}`, { topic: 'b' })).status).toBe(200);
  });

  test('change_all below moderator: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED names what may move', async () => {
    const fixture = devFixture();
    fixture.realm.move_messages_within_stream_limit_seconds = 3600;
    const { s, advance } = clockedSim(fixture);
    const old = await send(s, HAMLET, 'Denmark', 'plans', 'old');
    advance(4000);
    const recent = await send(s, HAMLET, 'Denmark', 'plans', 'recent');
    const newest = await send(s, OTHELLO, 'Denmark', 'plans', 'newest');
    const res = await patch(s, OTHELLO, `/messages/${newest}`, { topic: 'moved', propagate_mode: 'change_all' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      msg: 'You only have permission to move the 2/3 most recent messages in this topic.',
      first_message_id_allowed_to_move: recent,
      total_messages_in_topic: 3,
      total_messages_allowed_to_move: 2,
    });
    // What clients then do: move what they may.
    expect((await patch(s, OTHELLO, `/messages/${recent}`, { topic: 'moved', propagate_mode: 'change_later' })).status).toBe(200);
    expect(await topicIds(s, OTHELLO, 'Denmark', 'plans')).toEqual([old]);
    expect((await patch(s, SHIVA, `/messages/${old}`, { topic: 'moved', propagate_mode: 'change_all' })).status).toBe(200);
  });
});

describe('PATCH /messages/{id}: resolving topics', () => {
  test('resolving renames the whole topic and posts a read notice; undoing within the grace period deletes it', async () => {
    const { s, advance } = clockedSim();
    const a = await send(s, HAMLET, 'Denmark', 'plans', 'one');
    const b = await send(s, OTHELLO, 'Denmark', 'plans', 'two');
    const mark = watchEvents(s);
    const res = await patch(s, OTHELLO, `/messages/${a}`, { topic: '✔ plans', propagate_mode: 'change_all' });
    expect(res.status).toBe(200);
    const resolved = await topicIds(s, HAMLET, 'Denmark', '✔ plans');
    expect(resolved.slice(0, 2)).toEqual([a, b]);
    const noticeId = resolved[2]!;
    const notice = (await get(s, HAMLET, `/messages/${noticeId}`)).body;
    expect(notice.raw_content).toBe('@_**Othello, the Moor of Venice|12** has marked this topic as resolved.');
    expect(notice.message).toMatchObject({ sender_email: 'notification-bot@zulip.com', flags: ['read'] });
    // The notice is the only new message: no "moved here" breadcrumb for a resolve.
    const sent = new Set(ofType(eventsSince(mark), 'message').map((e) => (e.event.message as { id: number }).id));
    expect([...sent]).toEqual([noticeId]);
    advance(30);
    await patch(s, OTHELLO, `/messages/${a}`, { topic: 'plans', propagate_mode: 'change_all' });
    expect(await topicIds(s, HAMLET, 'Denmark', 'plans')).toEqual([a, b]);
    expect((await get(s, HAMLET, `/messages/${noticeId}`)).status).toBe(400);
  });

  test('after the grace period, unresolving posts its own notice', async () => {
    const { s, advance } = clockedSim();
    const a = await send(s, HAMLET, 'Denmark', 'plans', 'one');
    await patch(s, OTHELLO, `/messages/${a}`, { topic: '✔ plans', propagate_mode: 'change_all' });
    advance(61);
    await patch(s, OTHELLO, `/messages/${a}`, { topic: 'plans', propagate_mode: 'change_all' });
    const ids = await topicIds(s, HAMLET, 'Denmark', 'plans');
    expect(ids).toHaveLength(3);
    expect((await get(s, HAMLET, `/messages/${ids[2]}`)).body.raw_content).toBe(
      '@_**Othello, the Moor of Venice|12** has marked this topic as unresolved.',
    );
  });

  test('resolving needs can_resolve_topics_group (realm or channel), with no time limit', async () => {
    const fixture = devFixture();
    fixture.realm.can_resolve_topics_group = 'role:nobody';
    fixture.realm.can_move_messages_between_topics_group = 'role:nobody';
    const { s, advance } = clockedSim(fixture);
    const a = await send(s, HAMLET, 'Denmark', 'plans', 'one');
    expect((await patch(s, OTHELLO, `/messages/${a}`, { topic: '✔ plans' })).body).toEqual(
      error('BAD_REQUEST', "You don't have permission to resolve topics in this channel."),
    );
    s.engine.state.streams.get(streamId(s, 'Denmark'))!.groups.can_resolve_topics_group = s.engine.state.realm.system_groups['role:members']!;
    advance(30 * 86_400);
    expect((await patch(s, OTHELLO, `/messages/${a}`, { topic: '✔ plans', propagate_mode: 'change_all' })).status).toBe(200);
    // Renaming is still refused: resolving is its own permission.
    expect((await patch(s, OTHELLO, `/messages/${a}`, { topic: 'other' })).body).toEqual(error('BAD_REQUEST', "You don't have permission to edit this message"));
  });
});

describe('PATCH /messages/{id}: moving to another channel', () => {
  test('public to private: rows follow the new subscribers, others get delete_message, notices in both places', async () => {
    const { s } = clockedSim();
    const a = await send(s, HAMLET, 'Denmark', 'plans', 'one');
    const b = await send(s, HAMLET, 'Denmark', 'plans', 'two');
    const core = streamId(s, 'core team');
    const denmark = streamId(s, 'Denmark');
    // Cordelia is in core team but not in Denmark: she never received the messages.
    const coreSubs = s.engine.state.subscriptions.get(core)!;
    coreSubs.set(ID.cordelia, { ...coreSubs.get(ID.hamlet)! });
    const mark = watchEvents(s);
    const res = await patch(s, IAGO, `/messages/${a}`, {
      stream_id: core,
      topic: 'secret plans',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    expect(res.status).toBe(200);
    // Exactly core team's subscribers hold rows now (its history is protected).
    for (const id of [a, b]) {
      expect(rowUserIds(stored(s, id))).toEqual([ID.cordelia, ID.desdemona, ID.hamlet, ID.iago]);
      expect(stored(s, id).streamId).toBe(core);
    }
    // Cordelia's new row arrives read; Iago's existing row keeps its state.
    expect(userFlagBits(stored(s, a), ID.cordelia)).toBe(FLAG_BITS.read);
    expect(userFlagBits(stored(s, a), ID.iago)! & FLAG_BITS.read).toBe(0);
    const events = eventsSince(mark);
    const [deletion] = ofType(events, 'delete_message');
    expect(deletion).toEqual({
      event: { type: 'delete_message', message_ids: [a, b], message_type: 'stream', stream_id: denmark, topic: 'plans' },
      users: [ID.zoe, ID.othello, ID.prospero, ID.shiva],
    });
    const updates = ofType(events, 'update_message');
    expect(updates[0]!.event).toMatchObject({ stream_id: denmark, new_stream_id: core, orig_subject: 'plans', subject: 'secret plans', message_ids: [a, b] });
    const told = updates.flatMap((e) => e.users).sort((x, y) => x - y);
    expect(told).toEqual([ID.cordelia, ID.desdemona, ID.hamlet, ID.iago]);
    expect(updates.find((e) => e.users.includes(ID.cordelia))!.event.flags).toEqual(['read']);
    // Othello can no longer read them; the breadcrumbs say where they went.
    expect((await get(s, OTHELLO, `/messages/${a}`)).status).toBe(400);
    const oldTopic = await topicIds(s, OTHELLO, 'Denmark', 'plans');
    expect(oldTopic).toHaveLength(1);
    expect((await get(s, OTHELLO, `/messages/${oldTopic[0]}`)).body.raw_content).toBe(
      'This topic was moved to #**core team>secret plans** by @_**Iago|11**.',
    );
    const newTopic = await topicIds(s, HAMLET, 'core team', 'secret plans');
    expect((await get(s, HAMLET, `/messages/${newTopic[2]}`)).body.raw_content).toBe(
      'This topic was moved here from #**Denmark>plans** by @_**Iago|11**.',
    );
  });

  test('moving one message of several: the breadcrumbs link it and count', async () => {
    const { s } = clockedSim();
    const a = await send(s, HAMLET, 'Denmark', 'plans', 'one');
    await send(s, HAMLET, 'Denmark', 'plans', 'two');
    await send(s, HAMLET, 'Verona', 'talk', 'already here');
    const verona = streamId(s, 'Verona');
    await patch(s, HAMLET, `/messages/${a}`, { stream_id: verona, topic: 'talk', send_notification_to_old_thread: true });
    const there = await topicIds(s, HAMLET, 'Verona', 'talk');
    expect((await get(s, HAMLET, `/messages/${there[there.length - 1]}`)).body.raw_content).toBe(
      `[A message](http://zulip.testserver/#narrow/channel/${verona}-Verona/topic/talk/near/${a}) was moved here from #**Denmark>plans** by @_**King Hamlet|10**.`,
    );
    const left = await topicIds(s, HAMLET, 'Denmark', 'plans');
    expect((await get(s, HAMLET, `/messages/${left[left.length - 1]}`)).body.raw_content).toBe(
      'A message was moved from this topic to #**Verona>talk** by @_**King Hamlet|10**.',
    );
  });

  test('moving several of a longer topic counts them', async () => {
    const { s } = clockedSim();
    await send(s, HAMLET, 'Denmark', 'plans', 'one');
    const b = await send(s, HAMLET, 'Denmark', 'plans', 'two');
    await send(s, HAMLET, 'Denmark', 'plans', 'three');
    await patch(s, HAMLET, `/messages/${b}`, { topic: 'split', propagate_mode: 'change_later', send_notification_to_old_thread: true });
    const split = await topicIds(s, HAMLET, 'Denmark', 'split');
    expect((await get(s, HAMLET, `/messages/${split[2]}`)).body.raw_content).toBe('2 messages were moved here from #**Denmark>plans** by @_**King Hamlet|10**.');
    const left = await topicIds(s, HAMLET, 'Denmark', 'plans');
    expect((await get(s, HAMLET, `/messages/${left[1]}`)).body.raw_content).toBe('2 messages were moved from this topic to #**Denmark>split** by @_**King Hamlet|10**.');
  });

  test('moving to a public channel: only guests not subscribed there lose access', async () => {
    const { s } = clockedSim();
    const id = await send(s, POLONIUS, 'Verona', 'guests', 'hello');
    const mark = watchEvents(s);
    expect((await patch(s, IAGO, `/messages/${id}`, { stream_id: streamId(s, 'Denmark') })).status).toBe(200);
    const [deletion] = ofType(eventsSince(mark), 'delete_message');
    expect(deletion!.users).toEqual([ID.polonius]);
    expect((await get(s, POLONIUS, `/messages/${id}`)).status).toBe(400);
    // Cordelia (Verona only) lost her row but can still read the public channel.
    expect(rowUserIds(stored(s, id))).not.toContain(ID.cordelia);
    expect((await get(s, CORDELIA, `/messages/${id}`)).body.message.flags).toEqual(['read', 'historical']);
  });

  test('who may move between channels: members by default, not guests; the realm group and channel groups decide', async () => {
    const fixture = devFixture();
    fixture.realm.can_move_messages_between_channels_group = 'role:administrators';
    const { s } = clockedSim(fixture);
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    const verona = streamId(s, 'Verona');
    expect((await patch(s, HAMLET, `/messages/${id}`, { stream_id: verona })).body).toEqual(error('BAD_REQUEST', "You don't have permission to move this message"));
    s.engine.state.streams.get(streamId(s, 'Denmark'))!.groups.can_move_messages_out_of_channel_group = s.engine.state.realm.system_groups['role:members']!;
    expect((await patch(s, HAMLET, `/messages/${id}`, { stream_id: verona })).status).toBe(200);
  });

  test('the mover must be allowed to post in the target channel', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    const verona = s.engine.state.streams.get(streamId(s, 'Verona'))!;
    verona.groups.can_send_message_group = s.engine.state.realm.system_groups['role:administrators']!;
    expect((await patch(s, HAMLET, `/messages/${id}`, { stream_id: verona.id })).body).toEqual(
      error('BAD_REQUEST', 'You do not have permission to post in this channel.'),
    );
    expect((await patch(s, IAGO, `/messages/${id}`, { stream_id: verona.id })).status).toBe(200);
  });

  test('members move between channels within 7 days (+20 s); moderators any time', async () => {
    const { s, advance } = clockedSim();
    const id = await send(s, HAMLET, 'Denmark', 'plans', 'x');
    advance(604_821);
    expect((await patch(s, HAMLET, `/messages/${id}`, { stream_id: streamId(s, 'Verona') })).body).toEqual(
      error('BAD_REQUEST', "The time limit for editing this message's channel has passed"),
    );
    expect((await patch(s, SHIVA, `/messages/${id}`, { stream_id: streamId(s, 'Verona') })).status).toBe(200);
  });
});

describe('PATCH /messages/{id}: wildcard mentions in edits', () => {
  test('a channel wildcard in a big channel needs can_mention_many_users_group', async () => {
    const { s } = clockedSim();
    const id = await send(s, HAMLET, 'Verona', 'big', 'hello');
    const subs = s.engine.state.subscriptions.get(streamId(s, 'Verona'))!;
    const template = subs.get(ID.hamlet)!;
    for (const userId of [ID.defaultBot, ID.webhookBot, ID.outgoingBot, 1, 2, 3]) subs.set(userId, { ...template });
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'hello @**all**' })).body).toEqual(
      error('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.'),
    );
  });
});
