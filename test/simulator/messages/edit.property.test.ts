// After any sequence of content edits, topic moves (every propagate_mode, resolving included)
// and channel moves, the store's indexes still describe the messages exactly, and every narrowed
// fetch (channel, topic, search words, flags...) returns what a brute-force filter over all
// messages returns.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FLAG_SPACE, indexOfMessage, topicKey, type MessageStore } from '../../../simulator/engine/messages/store.ts';
import { clockedSim, fetchMessages, HAMLET, IAGO, patch, post } from './helpers.ts';
import { bruteForce, conversations, narrowArbitrary, topics, viewers, words, type NarrowTermLike } from './narrow-oracle.ts';

const editWords = ['okapi', 'zebra', 'castle', 'release', 'giraffe'];
const editTopics = ['Zoo', 'zoo', 'castle security', 'welcome', '✔ welcome', 'release 2.0'];
const channels = ['Denmark', 'Verona', 'Scotland', 'core team', 'Rome', 'Venice'];
const modes = ['change_one', 'change_later', 'change_all'] as const;

const action = fc.oneof(
  fc.record({ kind: fc.constant('content' as const), pick: fc.nat(), text: fc.array(fc.constantFrom(...editWords), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('topic' as const), pick: fc.nat(), topic: fc.constantFrom(...editTopics), mode: fc.constantFrom(...modes) }),
  fc.record({
    kind: fc.constant('channel' as const),
    pick: fc.nat(),
    channel: fc.constantFrom(...channels),
    topic: fc.option(fc.constantFrom(...editTopics), { nil: undefined }),
    mode: fc.constantFrom(...modes),
  }),
);

const narrows = narrowArbitrary({
  topics: [...topics, ...editTopics],
  words: [...words, ...editWords],
  conversations: [...conversations, ['Denmark', 'Zoo'], ['Verona', 'zoo'], ['core team', 'welcome'], ['Rome', '✔ welcome']],
});

/** Every index rebuilt from the messages themselves must equal the maintained one. */
function expectIndexesConsistent(store: MessageStore): void {
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  const byStream = new Map<number, number[]>();
  const byTopic = new Map<string, number[]>();
  const byUser = new Map<number, number[]>();
  store.messages.forEach((m, i) => {
    expect(indexOfMessage(store, m.id)).toBe(i);
    if (m.streamId !== null) {
      byStream.set(m.streamId, [...(byStream.get(m.streamId) ?? []), m.id]);
      const key = `${m.streamId}:${topicKey(m.topic)}`;
      byTopic.set(key, [...(byTopic.get(key) ?? []), m.id]);
    }
    for (const row of m.userFlags) {
      const user = Math.floor(row / FLAG_SPACE);
      byUser.set(user, [...(byUser.get(user) ?? []), m.id]);
    }
  });
  const nonEmpty = <K>(map: Map<K, number[]>) => new Map([...map].filter(([, ids]) => ids.length > 0).map(([k, ids]) => [k, sorted(ids)]));
  expect(nonEmpty(store.byStream)).toEqual(byStream);
  const maintainedTopics = new Map<string, number[]>();
  for (const [streamId, map] of store.byTopic) for (const [key, ids] of map) maintainedTopics.set(`${streamId}:${key}`, ids);
  expect(nonEmpty(maintainedTopics)).toEqual(byTopic);
  for (const ids of maintainedTopics.values()) expect(ids).toEqual(sorted(ids));
  expect(nonEmpty(store.byUser)).toEqual(byUser);
}

describe('indexes after edits and moves', () => {
  test('indexed fetches equal brute force after random edits and moves', async () => {
    // How many edits of each kind went through: the property must not pass on refusals alone.
    const applied = { content: 0, topic: 0, channel: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), fc.array(fc.tuple(fc.constantFrom(...viewers), narrows), { minLength: 4, maxLength: 4 }), async (actions, checks) => {
        const { s } = clockedSim();
        // Fresh messages Hamlet may still edit, next to the fixture's older history.
        const mine: number[] = [];
        for (const [to, topic] of [['Denmark', 'Zoo'], ['Verona', 'zoo'], ['Denmark', 'castle security']] as const) {
          mine.push((await post(s, HAMLET, '/messages', { type: 'stream', to, topic, content: `the ${topic} castle` })).body.id as number);
        }
        // Warm the search index first, so edits must update it rather than build it.
        await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 1, narrow: [['search', 'castle']] });
        for (const a of actions) {
          let res;
          const channelIds = s.engine.state.messages.messages.filter((m) => m.streamId !== null).map((m) => m.id);
          if (a.kind === 'content') {
            res = await patch(s, HAMLET, `/messages/${mine[a.pick % mine.length]}`, { content: a.text.join(' ') });
          } else if (a.kind === 'topic') {
            res = await patch(s, IAGO, `/messages/${channelIds[a.pick % channelIds.length]}`, { topic: a.topic, propagate_mode: a.mode });
          } else {
            const target = s.engine.state.streamsByName.get(a.channel.toLowerCase())!;
            const body: Record<string, unknown> = { stream_id: target, propagate_mode: a.mode, send_notification_to_old_thread: true };
            if (a.topic !== undefined) body.topic = a.topic;
            res = await patch(s, IAGO, `/messages/${channelIds[a.pick % channelIds.length]}`, body);
          }
          expect([200, 400]).toContain(res.status);
          if (res.status === 200) applied[a.kind]++;
        }
        expectIndexesConsistent(s.engine.state.messages);
        for (const [as, narrow] of checks) {
          const res = await fetchMessages(s, as, { anchor: 'oldest', num_after: 5000, narrow: JSON.stringify(narrow) });
          if (res.status !== 200) continue;
          const got = (res.body.messages as { id: number }[]).map((m) => m.id);
          expect(got).toEqual(bruteForce(s.engine.state, as, narrow as NarrowTermLike[]));
        }
      }),
      { numRuns: 40, seed: 12 },
    );
    expect(applied.content).toBeGreaterThan(10);
    expect(applied.topic).toBeGreaterThan(10);
    expect(applied.channel).toBeGreaterThan(10);
  });
});
