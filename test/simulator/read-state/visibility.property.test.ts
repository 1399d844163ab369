// Property: after random topic policies (POST /user_topics) and channel mutes, every narrow —
// is:followed, is:muted and in:home among random others — returns exactly what a brute-force reading
// of the stored settings returns.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bruteForce, conversations, narrowArbitrary, topics, words, type NarrowTermLike } from '../messages/narrow-oracle.ts';
import { call, fetchMessages, HAMLET, IAGO, stillSim } from './helpers.ts';

// Conversations of the dev realm (spelled as stored, or not), and one that does not exist.
const conversationsWithTopics: [number, string][] = [
  [3, 'welcome'],
  [3, 'LUNCH PLANS'],
  [4, 'castle security'],
  [4, 'release 2.0'],
  [4, 'Release'],
  [8, 'roadmap'],
  [6, 'weather'],
  [4, 'nothing'],
];

const setting = fc.record({
  as: fc.constantFrom(HAMLET, IAGO),
  conversation: fc.constantFrom(...conversationsWithTopics),
  policy: fc.integer({ min: 0, max: 3 }),
});
// Mostly muting: an unmuted channel is the default already.
const channelMute = fc.record({ as: fc.constantFrom(HAMLET, IAGO), streamId: fc.constantFrom(3, 4, 8), muted: fc.constantFrom(true, true, true, false) });

/** A visibility term (possibly negated) in front of a random narrow, so every query exercises one. */
const visibilityNarrows = fc
  .tuple(
    fc.constantFrom(['is', 'followed'], ['is', 'muted'], ['in', 'home']),
    fc.boolean(),
    narrowArbitrary({ topics, words, conversations }),
  )
  .map(([[operator, operand], negated, rest]) => [{ operator, operand, negated }, ...(rest as unknown[])]);

describe('topic visibility in narrows', () => {
  test('indexed narrows agree with a brute-force reading of the settings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(setting, { minLength: 1, maxLength: 8 }),
        fc.array(channelMute, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom(HAMLET, IAGO), visibilityNarrows), { minLength: 1, maxLength: 6 }),
        async (settings, mutes, queries) => {
          const s = stillSim();
          for (const { as, conversation: [streamId, topic], policy } of settings) {
            await call(s, 'POST', as, '/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
          }
          for (const { as, streamId, muted } of mutes) {
            await call(s, 'POST', as, '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property: 'is_muted', value: muted }] });
          }
          for (const [as, narrow] of queries) {
            const res = await fetchMessages(s, as, { anchor: 'oldest', num_after: 5000, narrow: JSON.stringify(narrow) });
            if (res.status !== 200) continue;
            const got = (res.body.messages as { id: number }[]).map((m) => m.id);
            expect(got).toEqual(bruteForce(s.engine.state, as, narrow as NarrowTermLike[]));
          }
        },
      ),
      { numRuns: 40, seed: 12 },
    );
  });
});
