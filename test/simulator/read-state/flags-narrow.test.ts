// POST /messages/flags/narrow: the window GET /messages would fetch, its flags changed, the
// counts and bounds it reports; its errors; and a property: over random narrows, the processed
// messages are exactly a brute-force reading of the narrow, and exactly those change.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bruteForce, narrowArb, viewers, type NarrowTermLike } from '../messages/narrow-oracle.ts';
import { allReadSim, call, CORDELIA, error, fetchMessages, flagsOf, HAMLET, OTHELLO, recordEvents, sendTo, unreadOf } from './helpers.ts';

const byNarrow = (s: ReturnType<typeof allReadSim>, as: string, body: Record<string, unknown>) =>
  call(s, 'POST', as, '/messages/flags/narrow', { ...body, narrow: JSON.stringify(body.narrow ?? []) });

async function topicOfFive() {
  const s = allReadSim();
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await sendTo(s, OTHELLO, 'Denmark', 'five', `message ${i}`));
  return { s, ids };
}
const FIVE = [['channel', 'Denmark'], ['topic', 'five']];

describe('POST /messages/flags/narrow', () => {
  test('marks a narrow read and reports what it processed and changed', async () => {
    const { s, ids } = await topicOfFive();
    await call(s, 'POST', HAMLET, '/messages/flags', { messages: [ids[1]], op: 'add', flag: 'read' });
    const events = recordEvents(s);
    const res = await byNarrow(s, HAMLET, { anchor: 'oldest', num_before: 0, num_after: 100, narrow: FIVE, op: 'add', flag: 'read' });
    expect([res.status, res.body]).toEqual([
      200,
      {
        result: 'success',
        msg: '',
        processed_count: 5,
        updated_count: 4,
        first_processed_id: ids[0],
        last_processed_id: ids[4],
        found_oldest: true,
        found_newest: true,
        ignored_because_not_subscribed_channels: [],
      },
    ]);
    expect(events.take().map((e) => [e.event.messages, e.users])).toEqual([[[ids[0], ids[2], ids[3], ids[4]], [10]]]);
    expect((await unreadOf(s, HAMLET)).count).toBe(0);
  });

  test('the window is the one GET /messages answers: anchor, counts, include_anchor', async () => {
    const { s, ids } = await topicOfFive();
    const res = await byNarrow(s, HAMLET, { anchor: String(ids[2]), num_before: 1, num_after: 1, narrow: FIVE, op: 'add', flag: 'starred' });
    expect(res.body).toMatchObject({ processed_count: 3, first_processed_id: ids[1], last_processed_id: ids[3], found_oldest: false, found_newest: false });
    const fetched = await fetchMessages(s, HAMLET, { anchor: ids[2], num_before: 1, num_after: 1, narrow: FIVE });
    expect(fetched.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[1], ids[2], ids[3]]);
    const excluded = await byNarrow(s, HAMLET, { anchor: String(ids[2]), include_anchor: false, num_before: 0, num_after: 2, narrow: FIVE, op: 'add', flag: 'collapsed' });
    expect(excluded.body).toMatchObject({ processed_count: 2, first_processed_id: ids[3], last_processed_id: ids[4], found_newest: false });
    expect(await flagsOf(s, HAMLET, ids[2]!)).toEqual(['starred']);
  });

  test('an empty range reports null bounds; narrow may be null (no narrow)', async () => {
    const { s } = await topicOfFive();
    const empty = await byNarrow(s, HAMLET, { anchor: 'newest', num_before: 0, num_after: 10, narrow: FIVE, op: 'add', flag: 'read' });
    expect(empty.body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_newest: true });
    const all = await call(s, 'POST', HAMLET, '/messages/flags/narrow', { anchor: 'newest', num_before: 3, num_after: 0, narrow: 'null', op: 'add', flag: 'read' });
    expect(all.body).toMatchObject({ processed_count: 3, updated_count: 3 });
  });

  test('asking for more than 5000 is clamped, not refused', async () => {
    const { s, ids } = await topicOfFive();
    const res = await byNarrow(s, HAMLET, { anchor: 'newest', num_before: 100_000, num_after: 100_000, narrow: FIVE, op: 'add', flag: 'read' });
    expect(res.body).toMatchObject({ processed_count: 5, first_processed_id: ids[0], found_oldest: true });
  });

  test('marking a public channel unread outside one\'s channels reports the channel', async () => {
    const { s } = await topicOfFive();
    const res = await byNarrow(s, CORDELIA, { anchor: 'newest', num_before: 5, num_after: 0, narrow: FIVE, op: 'remove', flag: 'read' });
    expect(res.body).toMatchObject({ processed_count: 5, updated_count: 0, ignored_because_not_subscribed_channels: [4] });
  });

  const base = { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([]), op: 'add', flag: 'read' };
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['no anchor', { ...base, anchor: undefined }, error('REQUEST_VARIABLE_MISSING', "Missing 'anchor' argument", { var_name: 'anchor' })],
    ['no narrow', { ...base, narrow: undefined }, error('REQUEST_VARIABLE_MISSING', "Missing 'narrow' argument", { var_name: 'narrow' })],
    ['no num_before', { ...base, num_before: undefined }, error('REQUEST_VARIABLE_MISSING', "Missing 'num_before' argument", { var_name: 'num_before' })],
    ['num_after is checked before num_before', { ...base, num_before: undefined, num_after: undefined }, error('REQUEST_VARIABLE_MISSING', "Missing 'num_after' argument", { var_name: 'num_after' })],
    ['no op', { ...base, op: undefined }, error('REQUEST_VARIABLE_MISSING', "Missing 'op' argument", { var_name: 'op' })],
    ['a bad anchor', { ...base, anchor: 'soon' }, error('BAD_REQUEST', 'Invalid anchor')],
    ['a negative count', { ...base, num_before: -1 }, error('BAD_REQUEST', 'num_before is too small')],
    ['include_anchor not a boolean', { ...base, include_anchor: 'yes' }, error('BAD_REQUEST', 'include_anchor is not valid JSON')],
    ['the anchor excluded mid-range', { ...base, num_after: 1, include_anchor: false }, error('BAD_REQUEST', 'The anchor can only be excluded at an end of the range')],
    ['narrow not a list', { ...base, narrow: '{}' }, error('BAD_REQUEST', 'narrow is not a list')],
    ['an unknown channel', { ...base, narrow: JSON.stringify([['channel', 'Atlantis']]) }, error('BAD_NARROW', 'Invalid narrow operator: unknown channel Atlantis', { desc: 'unknown channel Atlantis' })],
    ['an unknown flag', { ...base, flag: 'xyz' }, error('BAD_REQUEST', "Invalid flag: 'xyz'")],
    ['a flag one may not change', { ...base, flag: 'mentioned' }, error('BAD_REQUEST', "Flag not editable: 'mentioned'")],
  ];
  test.each(rows)('%s', async (_name, body, expected) => {
    const res = await call(allReadSim(), 'POST', HAMLET, '/messages/flags/narrow', body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });
});

describe('flags/narrow properties', () => {
  test('the processed messages are a brute-force reading of the narrow, and exactly those change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...viewers), narrowArb, fc.integer({ min: 0, max: 40 }), async (as, narrow, numAfter) => {
        const s = allReadSim();
        const res = await call(s, 'POST', as, '/messages/flags/narrow', {
          anchor: 'oldest',
          num_before: 0,
          num_after: numAfter,
          narrow: JSON.stringify(narrow),
          op: 'add',
          flag: 'starred',
        });
        fc.pre(res.status === 200);
        const expected = bruteForce(s.engine.state, as, narrow as NarrowTermLike[]).slice(0, numAfter);
        expect([res.body.processed_count, res.body.first_processed_id, res.body.last_processed_id]).toEqual([
          expected.length,
          expected[0] ?? null,
          expected[expected.length - 1] ?? null,
        ]);
        const starred = await fetchMessages(s, as, { anchor: 'oldest', num_after: 5000, narrow: JSON.stringify([['is', 'starred']]) });
        const nowStarred = (starred.body.messages as { id: number }[]).map((m) => m.id);
        // The dev realm's history has starred messages of its own: only the window's are new.
        const before = bruteForce(allReadSim().engine.state, as, [{ operator: 'is', operand: 'starred', negated: false }]);
        expect(nowStarred).toEqual([...new Set([...before, ...expected])].sort((a, b) => a - b));
        expect(res.body.updated_count).toBe(expected.filter((id) => !before.includes(id)).length);
      }),
      { numRuns: 60, seed: 5 },
    );
  });
});
