// The unread state of POST /register (`unread_msgs`): its grouping and counting rules, and a
// property: after random sends, flag changes, topic policies and channel mutes, it equals a
// brute-force reading of the stored rows, and agrees with GET /messages.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FLAG_BITS, userFlagBits } from '../../../simulator/engine/messages/store.ts';
import type { State } from '../../../simulator/engine/state.ts';
import { allReadSim, call, CORDELIA, HAMLET, IAGO, idsIn, OTHELLO, PROSPERO, sendDm, sendTo, unreadOf } from './helpers.ts';

const DENMARK = 4;
const VERONA = 3;

describe('unread_msgs', () => {
  test('groups direct messages by the other participant, group DMs by everyone, channels by case-insensitive topic', async () => {
    const s = allReadSim();
    const fromIago = await sendDm(s, IAGO, [10]);
    const self = await sendDm(s, HAMLET, [10]);
    const fromOthello = await sendDm(s, OTHELLO, [10]);
    const fromIago2 = await sendDm(s, IAGO, [10]);
    const group = await sendDm(s, CORDELIA, [10, 11]);
    const a = await sendTo(s, OTHELLO, 'Denmark', 'Castle');
    const b = await sendTo(s, IAGO, 'Denmark', 'castle');
    const c = await sendTo(s, OTHELLO, 'Verona', 'zebra');
    const d = await sendTo(s, OTHELLO, 'Denmark', 'apple');
    expect(await unreadOf(s, HAMLET)).toEqual({
      pms: [
        { other_user_id: 10, sender_id: 10, unread_message_ids: [self] },
        { other_user_id: 11, sender_id: 11, unread_message_ids: [fromIago, fromIago2] },
        { other_user_id: 12, sender_id: 12, unread_message_ids: [fromOthello] },
      ],
      streams: [
        { stream_id: VERONA, topic: 'zebra', unread_message_ids: [c] },
        { stream_id: DENMARK, topic: 'apple', unread_message_ids: [d] },
        { stream_id: DENMARK, topic: 'Castle', unread_message_ids: [a, b] },
      ],
      huddles: [{ user_ids_string: '8,10,11', unread_message_ids: [group] }],
      mentions: [],
      count: 9,
      old_unreads_missing: false,
    });
  });

  test('muted conversations are listed but not counted; their wildcard mentions are no mentions', async () => {
    const s = allReadSim();
    const personal = await sendTo(s, OTHELLO, 'Denmark', 'muted', 'hey @**King Hamlet**');
    const wildcard = await sendTo(s, OTHELLO, 'Denmark', 'muted', 'hey @**all**');
    const followedWildcard = await sendTo(s, OTHELLO, 'Verona', 'kept', 'hey @**all**');
    const inMutedChannel = await sendTo(s, OTHELLO, 'Verona', 'other');
    await call(s, 'POST', HAMLET, '/user_topics', { stream_id: DENMARK, topic: 'MUTED', visibility_policy: 1 });
    await call(s, 'POST', HAMLET, '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: VERONA, property: 'is_muted', value: true }] });
    await call(s, 'POST', HAMLET, '/user_topics', { stream_id: VERONA, topic: 'kept', visibility_policy: 3 });
    const unread = await unreadOf(s, HAMLET);
    expect(unread.streams).toEqual([
      { stream_id: VERONA, topic: 'kept', unread_message_ids: [followedWildcard] },
      { stream_id: VERONA, topic: 'other', unread_message_ids: [inMutedChannel] },
      { stream_id: DENMARK, topic: 'muted', unread_message_ids: [personal, wildcard] },
    ]);
    expect(unread.mentions).toEqual([personal, followedWildcard]);
    expect(unread.count).toBe(1);
  });

  test("a channel the user left does not count, even with unread messages in it", async () => {
    const s = allReadSim();
    await sendTo(s, OTHELLO, 'Denmark', 'left behind');
    expect((await unreadOf(s, HAMLET)).count).toBe(1);
    expect((await call(s, 'DELETE', HAMLET, '/users/me/subscriptions', { subscriptions: ['Denmark'] })).status).toBe(200);
    expect(await unreadOf(s, HAMLET)).toMatchObject({ streams: [], count: 0 });
  });
});

// ------------------------------------------------------------------ property

/** An independent reading of unread_msgs (zerver/lib/message.py:aggregate_unread_data) over every stored message (no indexes). */
function bruteUnread(state: State, userId: number) {
  const policy = (streamId: number, topic: string) => {
    for (const row of state.userTopics.get(userId)?.values() ?? []) {
      if (row.streamId === streamId && row.topicName.toLowerCase() === topic.toLowerCase()) return row.visibilityPolicy;
    }
    return 0;
  };
  const ids: number[] = [];
  const mentions: number[] = [];
  let count = 0;
  for (const m of state.messages.messages) {
    const bits = userFlagBits(m, userId);
    if (bits === undefined || bits & FLAG_BITS.read) continue;
    const sub = m.streamId === null ? undefined : state.subscriptions.get(m.streamId)?.get(userId);
    if (sub && !sub.active) continue;
    ids.push(m.id);
    const p = m.streamId === null ? 0 : policy(m.streamId, m.topic);
    const muted = m.streamId !== null && (p === 1 || (sub?.is_muted === true && p !== 2 && p !== 3));
    if (!muted) count++;
    if (bits & FLAG_BITS.mentioned || ((bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0 && !muted)) mentions.push(m.id);
  }
  return { ids, mentions, count };
}

const people = [HAMLET, IAGO, OTHELLO, CORDELIA, PROSPERO];
const action = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), as: fc.constantFrom(...people), to: fc.constantFrom('Denmark', 'Verona'), topic: fc.constantFrom('a', 'A', 'b'), content: fc.constantFrom('hi', 'hi @**all**', 'hi @**King Hamlet**', 'hi @**topic**') }),
  fc.record({ kind: fc.constant('dm' as const), as: fc.constantFrom(...people), to: fc.constantFrom([10], [10, 11], [11], [8, 10, 12]) }),
  fc.record({ kind: fc.constant('flag' as const), as: fc.constantFrom(HAMLET, IAGO), op: fc.constantFrom('add', 'remove'), back: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('topic' as const), as: fc.constantFrom(HAMLET, IAGO), stream_id: fc.constantFrom(DENMARK, VERONA), topic: fc.constantFrom('a', 'b'), policy: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('mute' as const), as: fc.constantFrom(HAMLET, IAGO), stream_id: fc.constantFrom(DENMARK, VERONA), value: fc.boolean() }),
  fc.record({ kind: fc.constant('markTopic' as const), as: fc.constantFrom(HAMLET, IAGO), stream_id: fc.constantFrom(DENMARK, VERONA), topic: fc.constantFrom('a', 'b') }),
);

describe('unread_msgs properties', () => {
  test('equals a brute-force reading of the rows and agrees with is:unread', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        const s = allReadSim();
        for (const a of actions) {
          if (a.kind === 'send') await call(s, 'POST', a.as, '/messages', { type: 'stream', to: a.to, topic: a.topic, content: a.content });
          else if (a.kind === 'dm') await call(s, 'POST', a.as, '/messages', { type: 'private', to: a.to, content: 'x' });
          else if (a.kind === 'flag') {
            const last = s.engine.state.messages.messages.at(-a.back)!.id;
            await call(s, 'POST', a.as, '/messages/flags', { messages: [last], op: a.op, flag: 'read' });
          } else if (a.kind === 'topic') await call(s, 'POST', a.as, '/user_topics', { stream_id: a.stream_id, topic: a.topic, visibility_policy: a.policy });
          else if (a.kind === 'mute') {
            await call(s, 'POST', a.as, '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: a.stream_id, property: 'is_muted', value: a.value }] });
          } else await call(s, 'POST', a.as, '/mark_topic_as_read', { stream_id: a.stream_id, topic_name: a.topic });
        }
        for (const [as, id] of [[HAMLET, 10], [IAGO, 11]] as const) {
          const unread = await unreadOf(s, as);
          const listed = [
            ...unread.pms.flatMap((g: { unread_message_ids: number[] }) => g.unread_message_ids),
            ...unread.streams.flatMap((g: { unread_message_ids: number[] }) => g.unread_message_ids),
            ...unread.huddles.flatMap((g: { unread_message_ids: number[] }) => g.unread_message_ids),
          ].sort((x, y) => x - y);
          const expected = bruteUnread(s.engine.state, id);
          expect(listed).toEqual(expected.ids);
          expect(unread.mentions).toEqual(expected.mentions);
          expect(unread.count).toBe(expected.count);
          // Nobody left a channel here, so GET /messages' is:unread shows the same messages.
          expect(await idsIn(s, as, [['is', 'unread']])).toEqual(expected.ids);
        }
      }),
      { numRuns: 40, seed: 3 },
    );
  });
});
