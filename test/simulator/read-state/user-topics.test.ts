// Topic visibility: POST /user_topics and the legacy muted_topics endpoint, their events (to the
// user alone, none when nothing changes), their errors, and what the policies do to narrows
// (is:followed, is:muted, in:home) and to the first_unread anchor.
import { describe, expect, test } from 'vitest';
import { register } from '../events/helpers.ts';
import { devFixture } from '../helpers.ts';
import { call, CORDELIA, error, fetchMessages, HAMLET, IAGO, idsIn, NOW, OTHELLO, recordEvents, sendTo, stillSim } from './helpers.ts';

const DENMARK = 4;
const VERONA = 3;
const CORE_TEAM = 8;

const setPolicy = (s: ReturnType<typeof stillSim>, as: string, body: Record<string, unknown>) => call(s, 'POST', as, '/user_topics', body);
const legacy = (s: ReturnType<typeof stillSim>, as: string, body: Record<string, unknown>) =>
  call(s, 'PATCH', as, '/users/me/subscriptions/muted_topics', body);
const success = { result: 'success', msg: '' };

describe('POST /user_topics', () => {
  test('follows a topic: the user alone hears the legacy muted_topics list, then user_topic', async () => {
    const s = stillSim();
    const events = recordEvents(s);
    const res = await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'Castle', visibility_policy: 3 });
    expect([res.status, res.body]).toEqual([200, success]);
    expect(events.take()).toEqual([
      { event: { type: 'muted_topics', muted_topics: [] }, users: [10] },
      { event: { type: 'user_topic', stream_id: DENMARK, topic_name: 'Castle', last_updated: NOW, visibility_policy: 3 }, users: [10] },
    ]);
  });

  test('muting shows in the legacy list; setting the same policy again changes nothing and sends nothing', async () => {
    const s = stillSim();
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'castle', visibility_policy: 1 });
    const events = recordEvents(s);
    await setPolicy(s, HAMLET, { stream_id: VERONA, topic: 'lunch', visibility_policy: 1 });
    expect(events.take()[0]).toEqual({
      event: { type: 'muted_topics', muted_topics: [['Denmark', 'castle', NOW], ['Verona', 'lunch', NOW]] },
      users: [10],
    });
    const again = await setPolicy(s, HAMLET, { stream_id: VERONA, topic: 'LUNCH', visibility_policy: 1 });
    expect([again.status, again.body]).toEqual([200, success]);
    expect(events.take()).toEqual([]);
  });

  test('a new policy replaces the old one and takes the new spelling; 0 removes it; removing nothing is silent', async () => {
    const s = stillSim();
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'castle', visibility_policy: 1 });
    const events = recordEvents(s);
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'CASTLE', visibility_policy: 3 });
    expect(events.take().map((e) => e.event)).toEqual([
      { type: 'muted_topics', muted_topics: [] },
      { type: 'user_topic', stream_id: DENMARK, topic_name: 'CASTLE', last_updated: NOW, visibility_policy: 3 },
    ]);
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'Castle', visibility_policy: 0 });
    expect(events.take().map((e) => e.event)).toEqual([
      { type: 'muted_topics', muted_topics: [] },
      { type: 'user_topic', stream_id: DENMARK, topic_name: 'Castle', last_updated: NOW, visibility_policy: 0 },
    ]);
    const nothing = await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'castle', visibility_policy: 0 });
    expect([nothing.status, nothing.body]).toEqual([200, success]);
    expect(events.take()).toEqual([]);
  });

  test("removing needs only the channel to exist; setting needs access to it", async () => {
    const s = stillSim();
    const denied = await setPolicy(s, CORDELIA, { stream_id: CORE_TEAM, topic: 'secrets', visibility_policy: 1 });
    expect([denied.status, denied.body]).toEqual([400, error('BAD_REQUEST', 'Invalid channel ID')]);
    const cleared = await setPolicy(s, CORDELIA, { stream_id: CORE_TEAM, topic: 'secrets', visibility_policy: 0 });
    expect([cleared.status, cleared.body]).toEqual([200, success]);
    const unknown = await setPolicy(s, CORDELIA, { stream_id: 999, topic: 'x', visibility_policy: 0 });
    expect([unknown.status, unknown.body]).toEqual([400, error('BAD_REQUEST', 'Invalid channel ID')]);
  });

  test('an archived channel takes no new policy, but an old one can be removed', async () => {
    const fixture = devFixture();
    fixture.streams.push({ id: 9, name: 'Elsinore', is_archived: true, subscribers: ['hamlet@zulip.com'] });
    const s = stillSim(fixture);
    const set = await setPolicy(s, HAMLET, { stream_id: 9, topic: 'castle', visibility_policy: 3 });
    expect([set.status, set.body]).toEqual([400, error('BAD_REQUEST', 'Invalid channel ID')]);
    const cleared = await setPolicy(s, HAMLET, { stream_id: 9, topic: 'castle', visibility_policy: 0 });
    expect(cleared.status).toBe(200);
  });

  const invalid: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['no stream_id', { topic: 't', visibility_policy: 1 }, error('REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", { var_name: 'stream_id' })],
    ['no topic', { stream_id: DENMARK, visibility_policy: 1 }, error('REQUEST_VARIABLE_MISSING', "Missing 'topic' argument", { var_name: 'topic' })],
    ['no policy', { stream_id: DENMARK, topic: 't' }, error('REQUEST_VARIABLE_MISSING', "Missing 'visibility_policy' argument", { var_name: 'visibility_policy' })],
    ['stream_id not an integer', { stream_id: 'Denmark', topic: 't', visibility_policy: 1 }, error('BAD_REQUEST', 'stream_id is not valid JSON')],
    ['topic too long', { stream_id: DENMARK, topic: 'x'.repeat(61), visibility_policy: 1 }, error('BAD_REQUEST', 'topic is too long (limit: 60 characters)')],
    ['policy out of range', { stream_id: DENMARK, topic: 't', visibility_policy: 4 }, error('BAD_REQUEST', 'Invalid visibility_policy')],
    ['policy not an integer', { stream_id: DENMARK, topic: 't', visibility_policy: '"1"' }, error('BAD_REQUEST', 'visibility_policy is not an integer')],
  ];
  test.each(invalid)('%s', async (_name, body, expected) => {
    const res = await setPolicy(stillSim(), HAMLET, body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });
});

describe('/register state', () => {
  test('user_topics lists every setting, oldest change first; the legacy muted_topics only muted ones', async () => {
    const s = stillSim();
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'castle', visibility_policy: 1 });
    await setPolicy(s, HAMLET, { stream_id: VERONA, topic: 'lunch', visibility_policy: 3 });
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'Castle', visibility_policy: 2 });
    const state = await register(s, HAMLET, { fetch_event_types: ['user_topic', 'muted_topics'] });
    expect(state.user_topics).toEqual([
      { stream_id: VERONA, topic_name: 'lunch', last_updated: NOW, visibility_policy: 3 },
      { stream_id: DENMARK, topic_name: 'Castle', last_updated: NOW, visibility_policy: 2 },
    ]);
    expect(state.muted_topics).toEqual([]);
    await setPolicy(s, HAMLET, { stream_id: VERONA, topic: 'lunch', visibility_policy: 1 });
    const legacyOnly = await register(s, HAMLET, { fetch_event_types: ['muted_topics'] });
    expect(legacyOnly.muted_topics).toEqual([['Verona', 'lunch', NOW]]);
    expect((await register(s, IAGO, { fetch_event_types: ['user_topic'] })).user_topics).toEqual([]);
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (legacy)', () => {
  test('add mutes by channel name or id; remove clears whatever policy the topic had', async () => {
    const s = stillSim();
    const events = recordEvents(s);
    expect((await legacy(s, HAMLET, { stream: 'denmark', topic: 'castle', op: 'add' })).body).toEqual(success);
    expect((await legacy(s, HAMLET, { stream_id: VERONA, topic: 'lunch', op: 'add' })).body).toEqual(success);
    expect(events.take().filter((e) => e.event.type === 'user_topic').map((e) => e.event)).toEqual([
      { type: 'user_topic', stream_id: DENMARK, topic_name: 'castle', last_updated: NOW, visibility_policy: 1 },
      { type: 'user_topic', stream_id: VERONA, topic_name: 'lunch', last_updated: NOW, visibility_policy: 1 },
    ]);
    // Muting twice is no error on current servers, and no event.
    expect((await legacy(s, HAMLET, { stream_id: DENMARK, topic: 'Castle', op: 'add' })).body).toEqual(success);
    expect(events.take()).toEqual([]);
    await setPolicy(s, HAMLET, { stream_id: VERONA, topic: 'lunch', visibility_policy: 3 });
    events.take();
    expect((await legacy(s, HAMLET, { stream: 'Verona', topic: 'lunch', op: 'remove' })).body).toEqual(success);
    expect(events.take().map((e) => e.event)).toEqual([
      { type: 'muted_topics', muted_topics: [['Denmark', 'castle', NOW]] },
      { type: 'user_topic', stream_id: VERONA, topic_name: 'lunch', last_updated: NOW, visibility_policy: 0 },
    ]);
  });

  const invalid: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['no op', { stream_id: DENMARK, topic: 't' }, error('REQUEST_VARIABLE_MISSING', "Missing 'op' argument", { var_name: 'op' })],
    ['an unknown op', { stream_id: DENMARK, topic: 't', op: 'toggle' }, error('BAD_REQUEST', 'Invalid op')],
    ['neither channel form', { topic: 't', op: 'add' }, error('BAD_REQUEST', "Missing 'stream_id' argument")],
    [
      'both channel forms',
      { stream: 'Denmark', stream_id: DENMARK, topic: 't', op: 'add' },
      error('BAD_REQUEST', 'Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' }),
    ],
    ['an unknown channel name', { stream: 'Atlantis', topic: 't', op: 'add' }, error('BAD_REQUEST', "Invalid channel name 'Atlantis'")],
    ['an unknown channel id', { stream_id: 999, topic: 't', op: 'add' }, error('BAD_REQUEST', 'Invalid channel ID')],
    ['a private channel one cannot read', { stream: 'core team', topic: 't', op: 'add', as: CORDELIA }, error('BAD_REQUEST', "Invalid channel name 'core team'")],
    ['removing in an unknown channel', { stream: 'Atlantis', topic: 't', op: 'remove' }, error('BAD_REQUEST', 'Topic is not muted')],
    ['removing in an unknown channel id', { stream_id: 999, topic: 't', op: 'remove' }, error('BAD_REQUEST', 'Topic is not muted')],
  ];
  test.each(invalid)('%s', async (_name, { as, ...body }, expected) => {
    const res = await legacy(stillSim(), (as as string | undefined) ?? HAMLET, body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });
});

describe('what the policies change in narrows', () => {
  /** The dev realm's history all read; then Othello writes three Denmark topics and one in Verona. */
  async function setup() {
    const fixture = devFixture();
    for (const m of fixture.messages) delete m.read_by;
    const s = stillSim(fixture);
    const ids = {
      castle: await sendTo(s, OTHELLO, 'Denmark', 'castle'),
      ghost: await sendTo(s, OTHELLO, 'Denmark', 'ghost'),
      moat: await sendTo(s, OTHELLO, 'Denmark', 'moat'),
      verona: await sendTo(s, OTHELLO, 'Verona', 'square'),
    };
    return { s, ids };
  }

  test('is:followed lists the followed topics, of any channel, for the follower only', async () => {
    const { s, ids } = await setup();
    expect(await idsIn(s, HAMLET, [['is', 'followed']])).toEqual([]);
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'GHOST', visibility_policy: 3 });
    await setPolicy(s, HAMLET, { stream_id: VERONA, topic: 'square', visibility_policy: 3 });
    expect(await idsIn(s, HAMLET, [['is', 'followed']])).toEqual([ids.ghost, ids.verona]);
    expect(await idsIn(s, IAGO, [['is', 'followed']])).toEqual([]);
    const notFollowed = await idsIn(s, HAMLET, [['channel', 'Denmark'], { operator: 'is', operand: 'followed', negated: true }]);
    expect(notFollowed).toContain(ids.castle);
    expect(notFollowed).not.toContain(ids.ghost);
  });

  test('a muted topic is is:muted and not in:home', async () => {
    const { s, ids } = await setup();
    expect(await idsIn(s, HAMLET, [['is', 'muted']])).toEqual([]);
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'moat', visibility_policy: 1 });
    expect(await idsIn(s, HAMLET, [['is', 'muted']])).toEqual([ids.moat]);
    const home = await idsIn(s, HAMLET, [['in', 'home']]);
    expect(home).toEqual(expect.arrayContaining([ids.castle, ids.ghost, ids.verona]));
    expect(home).not.toContain(ids.moat);
  });

  test('in a muted channel, unmuted and followed topics stay home; a muted topic in it is muted either way', async () => {
    const { s, ids } = await setup();
    const mute = await call(s, 'POST', HAMLET, '/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: DENMARK, property: 'is_muted', value: true }],
    });
    expect(mute.status).toBe(200);
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'castle', visibility_policy: 2 });
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'ghost', visibility_policy: 3 });
    const home = await idsIn(s, HAMLET, [['in', 'home']]);
    expect(home).toEqual(expect.arrayContaining([ids.castle, ids.ghost, ids.verona]));
    expect(home).not.toContain(ids.moat);
    const muted = await idsIn(s, HAMLET, [['channel', 'Denmark'], ['is', 'muted']]);
    expect(muted).toContain(ids.moat);
    expect(muted).not.toContain(ids.castle);
    expect(muted).not.toContain(ids.ghost);
  });

  test('first_unread skips muted topics, and a muted channel unless the narrow names it', async () => {
    const { s, ids } = await setup();
    const anchor = async (narrow: unknown[]) =>
      (await fetchMessages(s, HAMLET, { anchor: 'first_unread', num_before: 0, num_after: 0, narrow })).body.anchor as number;
    expect(await anchor([])).toBe(ids.castle);
    await setPolicy(s, HAMLET, { stream_id: DENMARK, topic: 'castle', visibility_policy: 1 });
    expect(await anchor([])).toBe(ids.ghost);
    expect(await anchor([['channel', 'Denmark']])).toBe(ids.ghost);
    await call(s, 'POST', HAMLET, '/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: DENMARK, property: 'is_muted', value: true }],
    });
    expect(await anchor([])).toBe(ids.verona);
    expect(await anchor([['channel', 'Denmark']])).toBe(ids.ghost);
  });
});
