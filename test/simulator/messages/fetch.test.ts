// GET /messages, GET /messages/{id} and GET /messages/matches_narrow through the in-process API.
import { describe, expect, test, vi } from 'vitest';
import { CORDELIA, error, fetchMessages, get, HAMLET, IAGO, OTHELLO, POLONIUS, post, sim } from './helpers.ts';

type M = { id: number; flags: string[]; display_recipient: unknown; subject: string; content: string };
const ids = (body: { messages: M[] }) => body.messages.map((m) => m.id);

describe('GET /messages anchors and windows', () => {
  test('newest with num_before: the latest messages the user received, ascending', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'newest', num_before: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', msg: '', anchor: 10_000_000_000_000_000, found_anchor: false, found_newest: true, found_oldest: false, history_limited: false });
    const got = ids(res.body);
    expect(got).toHaveLength(5);
    expect([...got].sort((a, b) => a - b)).toEqual(got);
    const mine = s.engine.state.messages.byUser.get(10)!;
    expect(got).toEqual(mine.slice(-5));
  });

  test('oldest with num_after covers the start', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'oldest', num_after: 3 });
    expect(res.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false, found_anchor: false });
    expect(ids(res.body)).toEqual(s.engine.state.messages.byUser.get(10)!.slice(0, 3));
  });

  test('integer anchor: found_anchor, include_anchor=false drops it', async () => {
    const s = sim();
    const mine = s.engine.state.messages.byUser.get(10)!;
    const anchor = mine[5]!;
    const a = await fetchMessages(s, HAMLET, { anchor: String(anchor), num_before: 2, num_after: 2 });
    expect(ids(a.body)).toEqual(mine.slice(3, 8));
    expect(a.body).toMatchObject({ anchor, found_anchor: true, found_oldest: false, found_newest: false });
    const b = await fetchMessages(s, HAMLET, { anchor: String(anchor), num_before: 0, num_after: 2, include_anchor: 'false' });
    expect(ids(b.body)).toEqual(mine.slice(6, 8));
    expect(b.body.found_anchor).toBe(false);
  });

  test('negative anchors clamp to 0 and huge ones to the newest marker', async () => {
    const s = sim();
    expect((await fetchMessages(s, HAMLET, { anchor: '-5', num_after: 1 })).body.anchor).toBe(0);
    expect((await fetchMessages(s, HAMLET, { anchor: '99999999999999999999', num_before: 1 })).body.anchor).toBe(10_000_000_000_000_000);
  });

  test('first_unread anchors at the first unread message in the narrow', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_before: 0, num_after: 1 });
    const first = res.body.messages[0] as M;
    expect(first.flags).not.toContain('read');
    expect(res.body.anchor).toBe(first.id);
    expect(res.body.found_anchor).toBe(true);
  });

  test('first_unread skips muted channels unless the narrow names the channel', async () => {
    const s = sim();
    const first = (await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_after: 1 })).body.anchor as number;
    const channel = s.engine.state.messages.messages.find((m) => m.id === first)!.streamId!;
    s.engine.state.subscriptions.get(channel)!.get(10)!.is_muted = true;
    const skipping = (await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_after: 1 })).body.anchor as number;
    expect(skipping).toBeGreaterThan(first);
    const name = s.engine.state.streams.get(channel)!.name;
    const inside = await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_after: 1, narrow: [['channel', name]] });
    expect(inside.body.anchor).toBe(first);
  });

  test('first_unread without unread messages means newest', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_before: 1, narrow: [{ operator: 'channel', operand: 'sandbox' }] });
    expect(res.body.anchor).toBe(10_000_000_000_000_000);
  });

  test('message_ids: only those, no anchor key, found_* false', async () => {
    const s = sim();
    const mine = s.engine.state.messages.byUser.get(10)!;
    const res = await fetchMessages(s, HAMLET, { message_ids: JSON.stringify([mine[1], mine[0], 99999]) });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      messages: expect.any(Array),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    });
    expect(ids(res.body)).toEqual([mine[0], mine[1]]);
  });

  test('apply_markdown=false gives raw Markdown', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'oldest', num_after: 1, apply_markdown: 'false' });
    expect(res.body.messages[0]).toMatchObject({ content_type: 'text/x-markdown', content: expect.stringContaining('**Verona**') });
  });

  test('client_gravatar=false always gives avatar URLs', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'oldest', num_after: 1, client_gravatar: 'false' });
    expect(res.body.messages[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });
});

describe('GET /messages access', () => {
  test('no narrow: only messages the user received', async () => {
    const s = sim();
    const res = await fetchMessages(s, POLONIUS, { anchor: 'newest', num_before: 1000 });
    const verona = s.engine.state.streamsByName.get('verona')!;
    for (const m of res.body.messages as (M & { stream_id?: number })[]) expect(m.stream_id).toBe(verona);
  });

  test('public channel narrow includes history the user never received, flagged historical', async () => {
    const s = sim();
    const res = await fetchMessages(s, CORDELIA, { anchor: 'newest', num_before: 100, narrow: [{ operator: 'channel', operand: 'Denmark' }] });
    expect(res.body.messages.length).toBeGreaterThan(0);
    for (const m of res.body.messages as M[]) expect(m.flags).toEqual(['read', 'historical']);
  });

  test('guests get no history of unsubscribed public channels', async () => {
    const s = sim();
    const res = await fetchMessages(s, POLONIUS, { anchor: 'newest', num_before: 100, narrow: [{ operator: 'channel', operand: 'Denmark' }] });
    expect(res.body.messages).toEqual([]);
  });

  test('private channel with protected history: non-subscribers see nothing', async () => {
    const s = sim();
    const res = await fetchMessages(s, OTHELLO, { anchor: 'newest', num_before: 100, narrow: [{ operator: 'channel', operand: 'core team' }] });
    expect(res.body.messages).toEqual([]);
  });

  test('DMs only for participants', async () => {
    const s = sim();
    const sent = await post(s, HAMLET, '/messages', { type: 'direct', to: '[11]', content: 'secret' });
    expect((await get(s, OTHELLO, `/messages/${sent.body.id}`)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await get(s, IAGO, `/messages/${sent.body.id}`)).status).toBe(200);
  });

  // Zulip serves spectators on /json only (allow_anonymous_user_web); rest_dispatch refuses an
  // /api request without an Authorization header whatever the narrow.
  test.each([
    ['web-public narrow', [{ operator: 'channels', operand: 'web-public' }]],
    ['web-public channel', [['channels', 'web-public'], ['channel', 'Rome']]],
    ['no narrow', []],
  ])('no credentials on /api/v1 (%s): 401', async (_name, narrow) => {
    const res = await fetchMessages(sim(), null, { anchor: 'newest', num_before: 10, narrow });
    expect([res.status, res.body]).toEqual([401, error('UNAUTHORIZED', 'Not logged in: API authentication or user session required')]);
  });
});

describe('GET /messages errors', () => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['no anchor', { num_before: 1 }, error('BAD_REQUEST', "Missing 'anchor' argument.")],
    ['non-numeric anchor', { anchor: 'middle' }, error('BAD_REQUEST', 'Invalid anchor')],
    ['too many', { anchor: 'newest', num_before: 4000, num_after: 1001 }, error('BAD_REQUEST', 'Too many messages requested (maximum 5000).')],
    ['anchor excluded mid-range', { anchor: '5', num_before: 1, num_after: 1, include_anchor: 'false' }, error('BAD_REQUEST', 'The anchor can only be excluded at an end of the range')],
    [
      'message_ids with anchor',
      { anchor: 'newest', message_ids: '[1]' },
      error('BAD_REQUEST', 'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor', {
        parameters: 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
      }),
    ],
    ['num_before not an integer', { anchor: 'newest', num_before: 'x' }, error('BAD_REQUEST', 'num_before is not valid JSON')],
    ['num_after a float', { anchor: 'newest', num_after: '1.5' }, error('BAD_REQUEST', 'num_after is not an integer')],
    ['include_anchor not a boolean', { anchor: 'newest', include_anchor: 'yes' }, error('BAD_REQUEST', 'include_anchor is not valid JSON')],
    ['narrow not JSON', { anchor: 'newest', narrow: 'channel:Denmark' }, error('BAD_REQUEST', 'narrow is not valid JSON')],
  ];
  test.each(rows)('%s', async (_name, query, expected) => {
    const res = await fetchMessages(sim(), HAMLET, query);
    expect([res.status, res.body]).toEqual([400, expected]);
  });
});

describe('GET /messages parameters as get_messages_backend reads them', () => {
  // Zulip answers a bare 500 for a negative NonNegativeInt (no template for pydantic's
  // greater_than_equal); the simulator never answers 5xx to a malformed request, so it says 400.
  const rows: [string, Record<string, unknown>, number, Record<string, unknown>][] = [
    ['negative num_before', { anchor: 'newest', num_before: -1 }, 400, error('BAD_REQUEST', 'num_before is too small')],
    ['negative num_after', { anchor: 'oldest', num_after: '-5' }, 400, error('BAD_REQUEST', 'num_after is too small')],
    ['negative id in message_ids', { message_ids: '[1,-2]' }, 400, error('BAD_REQUEST', 'message_ids[1] is too small')],
    // Keyword parameters are declared alphabetically; the first invalid one is reported.
    ['num_after before num_before', { anchor: 'newest', num_before: 'x', num_after: 'y' }, 400, error('BAD_REQUEST', 'num_after is not valid JSON')],
    ['include_anchor before num_before', { anchor: 'newest', num_before: 'x', include_anchor: '1.5' }, 400, error('BAD_REQUEST', 'include_anchor is not a boolean')],
    ['message_ids before narrow', { message_ids: '["a"]', narrow: '[{"operator":"is"}]' }, 400, error('BAD_REQUEST', 'message_ids[0] is not an integer')],
    ['narrow before num_before', { anchor: 'newest', num_before: -1, narrow: '[{"operator":"is"}]' }, 400, error('BAD_REQUEST', 'Invalid narrow[0]: Value error, operand is missing')],
    ['empty anchor', { anchor: '' }, 400, error('BAD_REQUEST', 'Invalid anchor')],
    ['decimal anchor', { anchor: '12.5' }, 400, error('BAD_REQUEST', 'Invalid anchor')],
    ['anchor with a word', { anchor: 'latest' }, 400, error('BAD_REQUEST', 'Invalid anchor')],
    ['too many message_ids', { message_ids: JSON.stringify(Array.from({ length: 5001 }, (_, i) => i + 1)) }, 400, error('BAD_REQUEST', 'Too many messages requested (maximum 5000).')],
    [
      'message_ids with num_after',
      { message_ids: '[1]', num_after: 1 },
      400,
      error('BAD_REQUEST', 'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor', {
        parameters: 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
      }),
    ],
  ];
  test.each(rows)('%s', async (_name, query, status, expected) => {
    // Nothing here is a server error: none of these requests may be logged as one.
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await fetchMessages(sim(), HAMLET, query);
      expect([res.status, res.body]).toEqual([status, expected]);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  // parse_anchor_value: Python int() (whitespace, sign, underscores), clamped to [0, 10^16].
  test.each([
    [' 42 ', 42],
    ['+42', 42],
    ['4_2', 42],
    ['-5', 0],
    ['99999999999999999999', 10_000_000_000_000_000],
    ['oldest', 0],
    ['newest', 10_000_000_000_000_000],
  ])('anchor %j resolves to %d', async (anchor, expected) => {
    const res = await fetchMessages(sim(), HAMLET, { anchor, num_before: 1 });
    expect([res.status, res.body.anchor]).toEqual([200, expected]);
  });

  test('first_unread, and the deprecated use_first_unread_anchor, resolve to the first unread id', async () => {
    const s = sim();
    const a = await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_after: 1 });
    const b = await fetchMessages(s, HAMLET, { use_first_unread_anchor: 'true', num_after: 1 });
    expect(a.body.anchor).toBe(a.body.messages[0].id);
    expect(a.body.messages[0].flags).not.toContain('read');
    expect(b.body).toEqual(a.body);
  });

  // Zulip checks num_before / num_after / anchor / use_first_unread_anchor by truthiness and never
  // looks at include_anchor (message_ids force it to false).
  test.each([
    ['include_anchor', { include_anchor: 'false' }],
    ['num_before=0', { num_before: 0 }],
    ['use_first_unread_anchor=false', { use_first_unread_anchor: 'false' }],
  ])('message_ids with %s is accepted', async (_name, extra) => {
    const res = await fetchMessages(sim(), HAMLET, { message_ids: '[1,2,999999]', ...extra });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: false, history_limited: false });
    expect(res.body).not.toHaveProperty('anchor');
    expect(ids(res.body)).toEqual([1, 2]);
  });
});

describe('GET /messages/{message_id}', () => {
  test('unknown id', async () => {
    const res = await get(sim(), HAMLET, '/messages/999999');
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', 'Invalid message(s)')]);
  });

  test('historical public-channel message for a non-subscriber', async () => {
    const s = sim();
    const id = s.engine.state.messages.byStream.get(s.engine.state.streamsByName.get('denmark')!)![0]!;
    const res = await get(s, CORDELIA, `/messages/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.message.flags).toEqual(['read', 'historical']);
  });

  test('apply_markdown=false returns the raw content', async () => {
    const s = sim();
    const id = s.engine.state.messages.byUser.get(10)![0]!;
    const res = await get(s, HAMLET, `/messages/${id}`, { apply_markdown: 'false' });
    expect(res.body.message.content).toBe(res.body.raw_content);
    expect(res.body.message.content_type).toBe('text/x-markdown');
  });
});

describe('GET /messages/matches_narrow', () => {
  test('search narrows return highlighted content and subject for matches only', async () => {
    const s = sim();
    const a = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'Castle walls', content: 'The castle is cold' });
    const b = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'other', content: 'Nothing here' });
    const res = await get(s, IAGO, '/messages/matches_narrow', {
      msg_ids: JSON.stringify([a.body.id, b.body.id]),
      narrow: JSON.stringify([{ operator: 'search', operand: 'castle' }]),
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      messages: {
        [a.body.id]: {
          match_content: '<p>The <span class="highlight">castle</span> is cold</p>',
          match_subject: '<span class="highlight">Castle</span> walls',
        },
      },
    });
  });

  test('non-search narrows return content and subject unchanged; unreceived messages are skipped', async () => {
    const s = sim();
    const a = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: '<t>', content: 'hi' });
    const narrow = JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]);
    const res = await get(s, IAGO, '/messages/matches_narrow', { msg_ids: JSON.stringify([a.body.id]), narrow });
    expect(res.body.messages).toEqual({ [a.body.id]: { match_content: '<p>hi</p>', match_subject: '&lt;t&gt;' } });
    const cordelia = await get(s, CORDELIA, '/messages/matches_narrow', { msg_ids: JSON.stringify([a.body.id]), narrow });
    expect(cordelia.body.messages).toEqual({});
  });

  // match_subject is Zulip's SQL escape_html() of the stored topic: quotes escaped too, and the
  // empty topic stays "" (only `subject` shows the display name).
  test.each([
    ['quotes, brackets, ampersand', `Tom's "x" <y> & z`, 'Tom&#39;s &quot;x&quot; &lt;y&gt; &amp; z'],
    ['the empty topic', '', ''],
  ])('match_subject escaping: %s', async (_name, topic, escaped) => {
    const s = sim();
    const sent = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic, content: 'needle here' });
    const narrow = (operator: string, operand: string) => JSON.stringify([{ operator, operand }]);
    const plain = await get(s, IAGO, '/messages/matches_narrow', { msg_ids: JSON.stringify([sent.body.id]), narrow: narrow('channel', 'Denmark') });
    expect(plain.body.messages).toEqual({ [sent.body.id]: { match_content: '<p>needle here</p>', match_subject: escaped } });
    const search = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 1, narrow: [{ operator: 'search', operand: 'needle' }] });
    expect(search.body.messages[0]).toMatchObject({ id: sent.body.id, match_subject: escaped, match_content: '<p><span class="highlight">needle</span> here</p>' });
  });

  test('msg_ids is required', async () => {
    const res = await get(sim(), IAGO, '/messages/matches_narrow', { narrow: '[]' });
    expect([res.status, res.body]).toEqual([400, error('REQUEST_VARIABLE_MISSING', "Missing 'msg_ids' argument", { var_name: 'msg_ids' })]);
  });

  test('search in GET /messages adds match fields', async () => {
    const s = sim();
    const res = await fetchMessages(s, HAMLET, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'search', operand: 'ghost' }] });
    expect(res.body.messages.length).toBeGreaterThan(0);
    for (const m of res.body.messages) expect(m.match_content).toContain('<span class="highlight">');
  });
});
