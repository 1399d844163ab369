// Narrows through GET /messages: Zulip's errors for malformed and unknown terms, each operator's
// meaning, and two properties: random narrows never cause a 5xx, and the indexed fetch returns
// exactly what a brute-force filter over every stored message returns.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FLAG_BITS, userFlagBits, type StoredMessage } from '../../../simulator/engine/messages/store.ts';
import { CORDELIA, error, fetchMessages, HAMLET, IAGO, POLONIUS, post, sim } from './helpers.ts';

const badNarrow = (desc: string) => error('BAD_NARROW', `Invalid narrow operator: ${desc}`, { desc });

describe('narrow errors', () => {
  const rows: [string, unknown, Record<string, unknown>][] = [
    ['not a list', { operator: 'channel' }, error('BAD_REQUEST', 'narrow is not a list')],
    ['term neither list nor dict', ['channel'], error('BAD_REQUEST', 'Invalid narrow[0]: Value error, dict or list required')],
    ['legacy pair of wrong length', [['channel', 'Denmark', 'x']], error('BAD_REQUEST', 'Invalid narrow[0]: Value error, element is not a string pair')],
    ['missing operand', [{ operator: 'channel' }], error('BAD_REQUEST', 'Invalid narrow[0]: Value error, operand is missing')],
    ['missing operator', [{ operand: 'Denmark' }], error('BAD_REQUEST', 'Invalid narrow[0]: Value error, operator is missing')],
    ['second term malformed', [['channel', 'Denmark'], {}], error('BAD_REQUEST', 'Invalid narrow[1]: Value error, operand is missing')],
    ['operand of the wrong type', [{ operator: 'topic', operand: 5 }], error('BAD_REQUEST', 'operand is not a string')],
    // validator.py: check_string_or_int says "string or integer"; check_string_or_int_list takes a
    // string or a list of integers (check_list(check_int) names the first bad item).
    ['channel operand a list', [{ operator: 'channel', operand: ['a'] }], error('BAD_REQUEST', 'operand is not a string or integer')],
    ['dm operand an integer', [{ operator: 'dm', operand: 10 }], error('BAD_REQUEST', 'operand is not a string or an integer list')],
    ['dm operand a list of emails', [{ operator: 'dm', operand: ['iago@zulip.com'] }], error('BAD_REQUEST', 'operand[0] is not an integer')],
    ['dm operand a mixed list', [{ operator: 'dm', operand: [10, 'x'] }], error('BAD_REQUEST', 'operand[1] is not an integer')],
    ['dm operand an object', [{ operator: 'dm', operand: { a: 1 } }], error('BAD_REQUEST', 'operand is not a string or an integer list')],
    ['blank search', [{ operator: 'search', operand: '  ' }], error('BAD_REQUEST', 'operand cannot be blank.')],
    // NarrowParameter's fields are validated strictly by pydantic, before the operand checks.
    ['negated not a boolean', [{ operator: 'channel', operand: 'Denmark', negated: 'yes' }], error('BAD_REQUEST', 'narrow[0]["negated"] is not a boolean')],
    ['negated null', [['channel', 'Denmark'], { operator: 'channel', operand: 'Denmark', negated: null }], error('BAD_REQUEST', 'narrow[1]["negated"] is not a boolean')],
    ['negated checked before the operand', [{ operator: 'topic', operand: 5, negated: 1 }], error('BAD_REQUEST', 'narrow[0]["negated"] is not a boolean')],
    ['operator not a string', [{ operator: 5, operand: 'x' }], error('BAD_REQUEST', 'narrow[0]["operator"] is not a string')],
    ['unknown operator', [['color', 'blue']], badNarrow('unknown operator color')],
    ['unknown channel', [['channel', 'Atlantis']], badNarrow('unknown channel Atlantis')],
    ['unknown channel id', [{ operator: 'channel', operand: 999 }], badNarrow('unknown channel 999')],
    ['unknown is operand', [['is', 'shiny']], badNarrow("unknown 'is' operand shiny")],
    ['unknown has operand', [['has', 'cheese']], badNarrow("unknown 'has' operand cheese")],
    ['unknown in operand', [['in', 'nowhere']], badNarrow("unknown 'in' operand nowhere")],
    ['unknown channels operand', [['channels', 'all']], badNarrow('unknown channels operand all')],
    ['unknown sender', [['sender', 'nobody@zulip.com']], badNarrow('unknown user nobody@zulip.com')],
    // by_sender looks the operand up by API email: a hidden real address names nobody.
    ['sender by a hidden real address', [['sender', 'iago@zulip.com']], badNarrow('unknown user iago@zulip.com')],
    ['unknown dm user', [['dm', 'iago@zulip.com,nobody@zulip.com']], badNarrow('unknown user in iago@zulip.com,nobody@zulip.com')],
    ['unknown dm user id, shown as a Python list', [{ operator: 'dm', operand: [10, 9999] }], badNarrow('unknown user in [10, 9999]')],
    ['channel and dm mixed', [['channel', 'Denmark'], ['dm', 'iago@zulip.com']], badNarrow('No message can be both a channel message and direct message')],
    ['topic and is:dm mixed', [['topic', 'x'], ['is', 'dm']], badNarrow('No message can be both a channel message and direct message')],
    ['non-numeric id', [{ operator: 'id', operand: 'abc' }], badNarrow('Invalid message ID')],
  ];
  test.each(rows)('%s', async (_name, narrow, expected) => {
    const res = await fetchMessages(sim(), HAMLET, { anchor: 'newest', num_before: 10, narrow: JSON.stringify(narrow) });
    expect([res.status, res.body]).toEqual([400, expected]);
  });

  test('a negated channel term does not count as a channel narrow for the mixing check', async () => {
    const res = await fetchMessages(sim(), HAMLET, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'channel', operand: 'Denmark', negated: true }, { operator: 'dm', operand: 'user11@zulip.testserver' }] });
    expect(res.status).toBe(200);
  });
});

describe('narrow operators', () => {
  const s = sim();
  const fetch = async (narrow: unknown, as = HAMLET) => {
    const res = await fetchMessages(s, as, { anchor: 'newest', num_before: 1000, narrow });
    expect(res.status).toBe(200);
    return res.body.messages as Record<string, any>[];
  };

  test('legacy pairs and objects, stream/channel aliases and ids mean the same', async () => {
    const denmark = s.engine.state.streamsByName.get('denmark')!;
    const a = await fetch([['stream', 'Denmark']]);
    const b = await fetch([{ operator: 'channel', operand: denmark }]);
    const c = await fetch([{ operator: 'channel', operand: 'denmark' }]);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  test('topic is case-insensitive; subject is an alias', async () => {
    const a = await fetch([['channel', 'Denmark'], ['topic', 'RELEASE 2.0']]);
    const b = await fetch([['channel', 'Denmark'], ['subject', 'release 2.0']]);
    expect(a.map((m) => m.subject)).toEqual(['release 2.0', 'release 2.0', 'release 2.0', 'release 2.0']);
    expect(b).toEqual(a);
  });

  test('sender by email or id', async () => {
    const a = await fetch([['sender', 'user11@zulip.testserver']]);
    const b = await fetch([{ operator: 'sender', operand: 11 }]);
    expect(a.length).toBeGreaterThan(0);
    expect(a.every((m) => m.sender_id === 11)).toBe(true);
    expect(b).toEqual(a);
  });

  test('dm with one user, a group, and is:dm', async () => {
    const oneToOne = await fetch([['dm', 'user11@zulip.testserver']]);
    expect(oneToOne.length).toBe(4);
    const group = await fetch([{ operator: 'dm', operand: [8, 11, 12] }]);
    expect(group.length).toBe(4);
    const all = await fetch([['is', 'dm']]);
    expect(all.length).toBe(8);
    const including = await fetch([{ operator: 'dm-including', operand: 8 }]);
    expect(including).toEqual(group);
  });

  test('is:starred, is:unread, is:mentioned, has:reaction, has:link, negation', async () => {
    expect((await fetch([['is', 'starred']])).every((m) => m.flags.includes('starred'))).toBe(true);
    expect((await fetch([['is', 'starred']])).length).toBe(1);
    const unread = await fetch([['is', 'unread']]);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.every((m) => !m.flags.includes('read'))).toBe(true);
    const mentioned = await fetch([['is', 'mentioned']]);
    expect(mentioned.length).toBeGreaterThan(0);
    expect(mentioned.every((m) => m.flags.includes('mentioned') || m.flags.includes('wildcard_mentioned'))).toBe(true);
    expect((await fetch([['has', 'reaction']])).every((m) => m.reactions.length > 0)).toBe(true);
    expect((await fetch([['has', 'link']], IAGO)).length).toBeGreaterThan(0);
    const notDenmark = await fetch([{ operator: 'channel', operand: 'Denmark', negated: true }]);
    expect(notDenmark.some((m) => m.display_recipient === 'Denmark')).toBe(false);
  });

  test('id and with', async () => {
    const some = (await fetch([['channel', 'Denmark']]))[2]!;
    expect((await fetch([{ operator: 'id', operand: some.id }])).map((m) => m.id)).toEqual([some.id]);
    const conversation = await fetch([{ operator: 'with', operand: some.id }]);
    expect(conversation.length).toBeGreaterThan(1);
    expect(conversation.every((m) => m.subject === some.subject && m.display_recipient === 'Denmark')).toBe(true);
  });

  test('channels:public and channels:web-public', async () => {
    const pub = await fetch([['channels', 'public']], CORDELIA);
    expect(pub.some((m) => m.display_recipient === 'Denmark')).toBe(true);
    expect(pub.some((m) => m.display_recipient === 'core team')).toBe(false);
    // For a signed-in user only channels:public opens history (Zulip's ok_to_include_history).
    expect(await fetch([['channels', 'web-public']], CORDELIA)).toEqual([]);
    const web = await fetch([['channels', 'web-public']], 'ZOE@zulip.com');
    expect(web.length).toBeGreaterThan(0);
    expect(web.every((m) => m.display_recipient === 'Rome')).toBe(true);
  });
});

// ------------------------------------------------------------------ properties

const viewers = [HAMLET, IAGO, POLONIUS, CORDELIA];
const channelNames = ['Denmark', 'Verona', 'Scotland', 'core team', 'Rome', 'Atlantis'];
const topics = ['release 2.0', 'castle security', 'welcome', 'lunch plans', 'nothing'];
const emails = ['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com', 'cordelia@zulip.com', 'nobody@zulip.com'];
const words = ['castle', 'the', 'release', 'zebra', 'CI is', 'Rel'];

const termArb = fc.oneof(
  fc.record({ operator: fc.constantFrom('channel', 'stream'), operand: fc.constantFrom<string | number>(...channelNames, 4, 999) }),
  fc.record({ operator: fc.constantFrom('topic', 'subject'), operand: fc.constantFrom(...topics) }),
  fc.record({ operator: fc.constant('sender'), operand: fc.constantFrom<string | number>(...emails, 10, 12) }),
  fc.record({ operator: fc.constantFrom('dm', 'pm-with'), operand: fc.constantFrom<string | number[]>(...emails, [11], [8, 11, 12]) }),
  fc.record({ operator: fc.constant('is'), operand: fc.constantFrom('dm', 'private', 'starred', 'unread', 'mentioned', 'resolved', 'shiny') }),
  fc.record({ operator: fc.constant('has'), operand: fc.constantFrom('reaction', 'link', 'image', 'attachment', 'cheese') }),
  fc.record({ operator: fc.constant('search'), operand: fc.constantFrom(...words) }),
  fc.record({ operator: fc.constantFrom('near', 'id'), operand: fc.integer({ min: 0, max: 70 }) }),
  fc.record({ operator: fc.constantFrom('in', 'color'), operand: fc.constantFrom('home', 'all', 'x') }),
  fc.anything(),
);
const conversations: [string | number, string][] = [
  ['Denmark', 'release 2.0'],
  [4, 'castle security'],
  ['Verona', 'welcome'],
  ['verona', 'LUNCH PLANS'],
  ['core team', 'roadmap'],
];
const withNegation = fc
  .tuple(termArb, fc.boolean())
  .map(([t, negated]) => (typeof t === 'object' && t !== null && 'operator' in t ? { ...t, negated } : t));
const narrowArb = fc.oneof(
  fc.array(withNegation, { maxLength: 3 }),
  // Real channel + topic pairs, so the topic index is exercised, plus up to one more term.
  fc.tuple(fc.constantFrom(...conversations), fc.array(withNegation, { maxLength: 1 })).map(([[channel, topic], rest]) => [
    { operator: 'channel', operand: channel, negated: false },
    { operator: 'topic', operand: topic, negated: false },
    ...rest,
  ]),
);

describe('narrow properties', () => {
  const s = sim();

  test('random narrows never answer 5xx, and errors are BAD_NARROW or BAD_REQUEST', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...viewers), narrowArb, fc.constantFrom('newest', 'oldest', 'first_unread', '20'), async (as, narrow, anchor) => {
        const res = await fetchMessages(s, as, { anchor, num_before: 20, num_after: 20, narrow: JSON.stringify(narrow) });
        expect(res.status === 200 || res.status === 400).toBe(true);
        if (res.status === 400) expect(['BAD_NARROW', 'BAD_REQUEST']).toContain(res.body.code);
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  // An independent reading of the semantics, over every stored message.
  function bruteForce(viewerEmail: string, narrow: { operator: string; operand: any; negated: boolean }[]): number[] {
    const state = s.engine.state;
    const viewer = [...state.users.values()].find((u) => u.delivery_email.toLowerCase() === viewerEmail)!;
    const userId = (x: string | number) => (typeof x === 'number' ? x : [...state.users.values()].find((u) => u.delivery_email.toLowerCase() === x)?.id);
    const channel = (x: string | number) => [...state.streams.values()].find((c) => (typeof x === 'number' ? c.id === x : c.name.toLowerCase() === x.toLowerCase()));
    const subscribed = (streamId: number) => state.subscriptions.get(streamId)?.get(viewer.id)?.active === true;
    const historyOk = (streamId: number) => {
      const c = state.streams.get(streamId)!;
      if (c.is_web_public) return true;
      if (!c.history_public_to_subscribers) return false;
      return c.invite_only || viewer.role === 600 ? subscribed(c.id) : true;
    };
    let history = false;
    for (const t of narrow) if ((t.operator === 'channel' || t.operator === 'stream') && !t.negated) history = historyOk(channel(t.operand)!.id);
    if (narrow.some((t) => t.operator === 'is' && t.operand !== 'resolved')) history = false;
    const text = (m: StoredMessage) => m.renderedContent.replace(/<[^>]*>/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    const wordIn = (hay: string, w: string) => new RegExp(`(^|[^\\p{L}\\p{N}_])${w}($|[^\\p{L}\\p{N}_])`, 'iu').test(hay);
    const out: number[] = [];
    for (const m of state.messages.messages) {
      let bits = userFlagBits(m, viewer.id);
      if (bits === undefined) {
        if (!history || m.streamId === null || !historyOk(m.streamId)) continue;
        bits = FLAG_BITS.read | FLAG_BITS.historical;
      }
      const ok = narrow.every((t) => {
        let r: boolean;
        switch (t.operator) {
          case 'channel':
          case 'stream':
            r = m.streamId === channel(t.operand)!.id;
            break;
          case 'topic':
          case 'subject':
            r = m.streamId !== null && m.topic.toLowerCase() === String(t.operand).toLowerCase();
            break;
          case 'sender':
            r = m.senderId === userId(t.operand);
            break;
          case 'dm':
          case 'pm-with': {
            const list = Array.isArray(t.operand) ? t.operand : String(t.operand).split(',');
            const set = new Set([...list.map(userId), viewer.id]);
            r = m.dmUserIds !== null && m.dmUserIds.length === set.size && m.dmUserIds.every((u) => set.has(u));
            break;
          }
          case 'is':
            r =
              t.operand === 'dm' || t.operand === 'private'
                ? m.streamId === null
                : t.operand === 'starred'
                  ? (bits! & FLAG_BITS.starred) !== 0
                  : t.operand === 'unread'
                    ? (bits! & FLAG_BITS.read) === 0
                    : t.operand === 'mentioned'
                      ? (bits! & (FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0
                      : m.streamId !== null && m.topic.startsWith('✔ ');
            break;
          case 'has':
            r = t.operand === 'reaction' ? (m.reactions?.length ?? 0) > 0 : t.operand === 'link' ? m.hasLink : t.operand === 'image' ? m.hasImage : m.hasAttachment;
            break;
          case 'search':
            r = String(t.operand)
              .split(/\s+/)
              .every((w) => wordIn(text(m), w) || wordIn(m.topic, w));
            break;
          case 'id':
            r = m.id === t.operand;
            break;
          default:
            r = true;
        }
        return t.negated ? !r : r;
      });
      if (ok) out.push(m.id);
    }
    return out;
  }

  test('the indexed fetch agrees with a brute-force filter', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...viewers), narrowArb, async (as, narrow) => {
        const res = await fetchMessages(s, as, { anchor: 'oldest', num_after: 5000, narrow: JSON.stringify(narrow) });
        fc.pre(res.status === 200);
        const got = (res.body.messages as { id: number }[]).map((m) => m.id);
        expect(got).toEqual(bruteForce(as, narrow as { operator: string; operand: any; negated: boolean }[]));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('the same requests give the same answers (determinism)', async () => {
    const run = async () => {
      const t = sim();
      await post(t, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'd', content: 'det @**Iago**' });
      return (await fetchMessages(t, IAGO, { anchor: 'newest', num_before: 100 })).body;
    };
    expect(await run()).toEqual(await run());
  });
});
