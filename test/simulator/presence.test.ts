// Presence (zerver/views/presence.py, zerver/actions/presence.py, zerver/lib/presence.py) on the
// simulated clock: reports, the realm's and one user's presence in both formats, the intervals
// Zulip uses (offline after OFFLINE_THRESHOLD_SECS, updates stored at most every
// PRESENCE_UPDATE_MIN_FREQ_SECONDS, "back online" after a long silence), presence_enabled, and who
// receives `presence` events in which form.
import { describe, expect, it } from 'vitest';
import {
  OFFLINE_THRESHOLD_SECS,
  PRESENCE_UPDATE_MIN_FREQ_SECONDS,
  USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS,
} from '../../simulator/engine/users/presence.ts';
import { createSimulator, type Simulator } from '../../simulator/index.ts';
import type { Fixture } from '../../schemas/generated/types/chat/fixture.ts';
import { pending, register } from './events/helpers.ts';
import { devFixture, devFixtureWithoutPresence, ID, watchEvents } from './helpers.ts';

const { hamlet, iago, othello, prospero, defaultBot } = ID;
const T0 = 1_700_200_000;
const DAY = 86_400;

const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code, ...extra });

/** A simulator whose clock stands still until the test moves it (by default, the dev realm before anyone reported presence). */
function clocked(fixture: Fixture = devFixtureWithoutPresence()) {
  let t = T0;
  const s = createSimulator({ seed: 1, clock: { now: () => t }, fixture });
  return {
    s,
    advance(seconds: number) {
      t += seconds;
    },
    now: () => t,
  };
}

function report(s: Simulator, as: number, body: Record<string, unknown>) {
  return s.request({ method: 'POST', path: '/api/v1/users/me/presence', as, body });
}

function get(s: Simulator, as: number, path: string, query: Record<string, unknown> = {}) {
  return s.request({ method: 'GET', path: `/api/v1${path}`, as, query });
}

const email = (s: Simulator, id: number) => s.engine.state.users.get(id)!.email;
const joined = (s: Simulator, id: number) => s.engine.state.users.get(id)!.date_joined;

function legacy(status: 'active' | 'idle', timestamp: number) {
  return { aggregated: { client: 'website', status, timestamp }, website: { client: 'website', status, timestamp, pushable: false } };
}

/** Every active user of the realm, bots included: who hears of presence changes. */
function everyone(s: Simulator): number[] {
  return [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
}

describe('POST /users/me/presence', () => {
  it("stores the report and answers the realm's presence in the legacy format, keyed by API email", async () => {
    const { s, advance } = clocked();
    expect((await report(s, othello, { status: 'active' })).status).toBe(200);
    advance(10);
    const res = await report(s, hamlet, { status: 'active' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      presences: { [email(s, hamlet)]: legacy('active', T0 + 10), [email(s, othello)]: legacy('active', T0) },
      server_timestamp: T0 + 10,
      presence_last_update_id: 2,
    });
    expect(Object.keys(res.body.presences)).toEqual([email(s, hamlet), email(s, othello)]);
  });

  it('a first report that is idle: never active, shown idle since the report (active_timestamp is date_joined)', async () => {
    const { s } = clocked();
    const res = await report(s, hamlet, { status: 'idle', slim_presence: true });
    expect(res.body.presences).toEqual({ [String(hamlet)]: { active_timestamp: joined(s, hamlet), idle_timestamp: T0 } });
    expect((await report(s, othello, { status: 'idle' })).body.presences[email(s, hamlet)]).toEqual(legacy('idle', T0));
  });

  it('slim_presence answers the modern format keyed by user ID; last_update_id does too, and only what changed since', async () => {
    const { s, advance } = clocked();
    await report(s, hamlet, { status: 'active' });
    advance(30);
    const slim = await report(s, othello, { status: 'idle', slim_presence: true });
    expect(slim.body).toEqual({
      result: 'success',
      msg: '',
      presences: {
        [String(hamlet)]: { active_timestamp: T0, idle_timestamp: T0 },
        [String(othello)]: { active_timestamp: joined(s, othello), idle_timestamp: T0 + 30 },
      },
      server_timestamp: T0 + 30,
      presence_last_update_id: 2,
    });
    const since1 = await report(s, iago, { status: 'active', last_update_id: 1 });
    expect(since1.body.presences).toEqual({
      [String(othello)]: { active_timestamp: joined(s, othello), idle_timestamp: T0 + 30 },
      [String(iago)]: { active_timestamp: T0 + 30, idle_timestamp: T0 + 30 },
    });
    expect(since1.body.presence_last_update_id).toBe(3);
    // Nothing new since 3 (Othello's report within 55 s stores nothing): the same ID comes back.
    const since3 = await report(s, othello, { status: 'idle', last_update_id: 3 });
    expect(since3.body).toMatchObject({ presences: {}, presence_last_update_id: 3 });
    // -1 means "send everything".
    expect(Object.keys((await report(s, othello, { status: 'idle', last_update_id: -1 })).body.presences)).toEqual(['10', '11', '12']);
  });

  it('history_limit_days: 14 days by default, another limit when asked, none at 0; a positive last_update_id ignores it', async () => {
    const { s, advance } = clocked();
    await report(s, othello, { status: 'active' });
    advance(15 * DAY);
    const keys = async (body: Record<string, unknown>) => Object.keys((await report(s, hamlet, { status: 'active', ...body })).body.presences);
    expect(await keys({})).toEqual([email(s, hamlet)]);
    expect(await keys({ history_limit_days: 16 })).toEqual([email(s, hamlet), email(s, othello)]);
    expect(await keys({ history_limit_days: 1, last_update_id: 0 })).toEqual(['10']);
    expect(await keys({ history_limit_days: 1, last_update_id: -1 })).toEqual(['10']);
    expect(await keys({ history_limit_days: 1, last_update_id: 1 })).toEqual(['10']);
    const none = await report(s, hamlet, { status: 'active', history_limit_days: 0 });
    expect(none.body).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    const noneSince = await report(s, hamlet, { status: 'active', history_limit_days: 0, last_update_id: 1 });
    expect(noneSince.body).toMatchObject({ presences: {}, presence_last_update_id: 1 });
  });

  it('a positive last_update_id reaches rows older than the history limit', async () => {
    const { s, advance } = clocked();
    await report(s, hamlet, { status: 'active' });
    await report(s, othello, { status: 'active' });
    advance(2 * DAY);
    await report(s, hamlet, { status: 'active' });
    const keys = async (body: Record<string, unknown>) => Object.keys((await report(s, hamlet, { status: 'active', history_limit_days: 1, ...body })).body.presences);
    expect(await keys({ last_update_id: 0 })).toEqual(['10']);
    expect(await keys({ last_update_id: 1 })).toEqual(['10', '12']);
    expect(await keys({ last_update_id: 2 })).toEqual(['10']);
  });

  it('ping_only: stored, but the answer carries no presence data', async () => {
    const { s } = clocked();
    expect((await report(s, hamlet, { status: 'active', ping_only: true, new_user_input: true })).body).toEqual({ result: 'success', msg: '' });
    expect((await get(s, othello, `/users/${hamlet}/presence`)).body.presence.aggregated).toEqual({ status: 'active', timestamp: T0 });
  });

  it.each([
    ['an unknown status', { status: 'away' }, error('Invalid status: away')],
    ['a status of another case', { status: 'Active' }, error('Invalid status: Active')],
    ['no status', {}, error("Missing 'status' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'status' })],
    ['history_limit_days before status', { history_limit_days: 'x' }, error('history_limit_days is not valid JSON')],
    ['a non-integer last_update_id', { status: 'active', last_update_id: '"5"' }, error('last_update_id is not an integer')],
    ['a non-boolean ping_only', { status: 'active', ping_only: '1' }, error('ping_only is not a boolean')],
    ['a non-boolean slim_presence', { status: 'active', slim_presence: 'yes' }, error('slim_presence is not valid JSON')],
  ])('%s', async (_name, body, expected) => {
    const { s } = clocked();
    const watch = watchEvents(s);
    const res = await report(s, hamlet, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(s.engine.state.presences.size).toBe(0);
    expect(watch.take()).toEqual([]);
  });

  it('bots may not report presence', async () => {
    const { s } = clocked();
    expect((await report(s, defaultBot, { status: 'active' })).body).toEqual(error('This endpoint does not accept bot requests.'));
  });
});

describe('the intervals, on the simulated clock', () => {
  it(`a report changes what is stored only when more than ${PRESENCE_UPDATE_MIN_FREQ_SECONDS} s newer`, async () => {
    const { s, advance } = clocked();
    await report(s, hamlet, { status: 'active' });
    advance(PRESENCE_UPDATE_MIN_FREQ_SECONDS);
    let res = await report(s, hamlet, { status: 'active', slim_presence: true });
    expect(res.body).toMatchObject({ presences: { '10': { active_timestamp: T0, idle_timestamp: T0 } }, presence_last_update_id: 1 });
    advance(1);
    res = await report(s, hamlet, { status: 'active', slim_presence: true });
    const t = T0 + PRESENCE_UPDATE_MIN_FREQ_SECONDS + 1;
    expect(res.body).toMatchObject({ presences: { '10': { active_timestamp: t, idle_timestamp: t } }, presence_last_update_id: 2 });
    // Idle moves only the connection time, which then reads idle once 70 s past the last activity.
    advance(56);
    res = await report(s, hamlet, { status: 'idle', slim_presence: true });
    expect(res.body.presences['10']).toEqual({ active_timestamp: t, idle_timestamp: t + 56 });
    expect((await report(s, othello, { status: 'idle' })).body.presences[email(s, hamlet)]).toEqual(legacy('active', t));
    advance(60);
    await report(s, hamlet, { status: 'idle' });
    expect((await report(s, othello, { status: 'idle' })).body.presences[email(s, hamlet)]).toEqual(legacy('idle', t + 116));
  });

  it(`GET /users/{id}/presence calls a user offline once their latest timestamp is over ${OFFLINE_THRESHOLD_SECS} s old`, async () => {
    const { s, advance } = clocked();
    await report(s, hamlet, { status: 'active' });
    const aggregated = async () => (await get(s, othello, `/users/${hamlet}/presence`)).body.presence;
    advance(OFFLINE_THRESHOLD_SECS);
    expect(await aggregated()).toEqual({ aggregated: { status: 'active', timestamp: T0 }, website: { status: 'active', timestamp: T0 } });
    advance(1);
    expect(await aggregated()).toEqual({ aggregated: { status: 'offline', timestamp: T0 }, website: { status: 'active', timestamp: T0 } });
    // The modern format has no status: clients compare the timestamps with the threshold themselves.
    expect((await get(s, othello, `/users/${hamlet}/presence`, { slim_presence: true })).body.presence).toEqual({ active_timestamp: T0, idle_timestamp: T0 });
  });

  it('presence events: the first report, and an active report after more than 130 s without activity; not routine ones', async () => {
    const { s, advance } = clocked();
    const watch = watchEvents(s);
    await report(s, hamlet, { status: 'idle' });
    expect(watch.take().map((d) => d.event.type)).toEqual(['presence']);
    advance(60);
    await report(s, hamlet, { status: 'idle' });
    advance(60);
    await report(s, hamlet, { status: 'active' });
    // Hamlet was never active before: that is "back online".
    expect(watch.take().map((d) => d.event.presence.website)).toEqual([{ client: 'website', status: 'active', timestamp: T0 + 120, pushable: false }]);
    advance(60);
    await report(s, hamlet, { status: 'active' });
    advance(130);
    await report(s, hamlet, { status: 'active' });
    expect(watch.take()).toEqual([]);
    advance(131);
    await report(s, hamlet, { status: 'idle' });
    expect(watch.take()).toEqual([]);
    advance(1);
    await report(s, hamlet, { status: 'active' });
    expect(watch.take().map((d) => d.event.presence.website.timestamp)).toEqual([T0 + 120 + 60 + 130 + 132]);
  });

  it('every active user of the realm hears it, bots included, deactivated users not', async () => {
    const { s } = clocked();
    expect((await s.request({ method: 'DELETE', path: `/api/v1/users/${prospero}`, as: iago })).status).toBe(200);
    const watch = watchEvents(s);
    await report(s, hamlet, { status: 'active' });
    const [delivered] = watch.take();
    expect(delivered!.event).toEqual({
      type: 'presence',
      user_id: hamlet,
      email: email(s, hamlet),
      server_timestamp: T0,
      presence: { website: { client: 'website', status: 'active', timestamp: T0, pushable: false } },
    });
    expect(delivered!.users).toEqual(everyone(s));
    expect(delivered!.users).toContain(defaultBot);
    expect(delivered!.users).not.toContain(prospero);
  });

  it(`a realm of more than ${USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS} active users gets no presence events, except the forced ones`, async () => {
    const fixture = devFixtureWithoutPresence();
    const extra = USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS - everyone(clocked().s).length;
    fixture.users.push(...Array.from({ length: extra }, (_, i) => ({ id: 100 + i, email: `reader${i}@zulip.com`, full_name: `Reader ${i}`, role: 'member' as const })));
    const { s } = clocked(fixture);
    expect(everyone(s)).toHaveLength(USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS);
    let watch = watchEvents(s);
    await report(s, hamlet, { status: 'active' });
    expect(watch.take()[0]!.users).toHaveLength(USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS);
    expect((await s.request({ method: 'POST', path: '/api/v1/users', as: iago, body: { email: 'one-more@zulip.com', password: 'pw-one-more', full_name: 'One More' } })).status).toBe(200);
    watch = watchEvents(s);
    await report(s, othello, { status: 'active' });
    expect(watch.take()).toEqual([]);
    await s.request({ method: 'PATCH', path: '/api/v1/settings', as: othello, body: { presence_enabled: false } });
    expect(watch.take().filter((d) => d.event.type === 'presence')[0]!.users).toHaveLength(USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS + 1);
  });
});

describe('presence_enabled', () => {
  it("turned off: the user reads offline (idle, 320 s ago) at once, everyone is told, and reports no longer count", async () => {
    const { s, advance, now } = clocked();
    await report(s, hamlet, { status: 'active' });
    advance(30);
    const watch = watchEvents(s);
    expect((await s.request({ method: 'PATCH', path: '/api/v1/settings', as: hamlet, body: { presence_enabled: false } })).status).toBe(200);
    const hidden = now() - OFFLINE_THRESHOLD_SECS - 120;
    const presenceEvents = watch.take().filter((d) => d.event.type === 'presence');
    expect(presenceEvents).toEqual([
      {
        event: {
          type: 'presence',
          user_id: hamlet,
          email: email(s, hamlet),
          server_timestamp: now(),
          presence: { website: { client: 'website', status: 'idle', timestamp: hidden, pushable: false } },
        },
        users: everyone(s),
      },
    ]);
    expect((await get(s, othello, `/users/${hamlet}/presence`)).body.presence.aggregated).toEqual({ status: 'offline', timestamp: hidden });
    expect((await report(s, othello, { status: 'idle', slim_presence: true })).body.presences['10']).toEqual({ active_timestamp: joined(s, hamlet), idle_timestamp: hidden });
    // Hamlet's own reports change nothing while it is off, and tell nobody.
    advance(300);
    const mine = await report(s, hamlet, { status: 'active', slim_presence: true });
    expect(mine.body.presences['10']).toEqual({ active_timestamp: joined(s, hamlet), idle_timestamp: hidden });
    expect(watch.take().filter((d) => d.event.type === 'presence' && d.event.user_id === hamlet)).toEqual([]);
  });

  it('turned back on: active now, announced', async () => {
    const { s, advance, now } = clocked();
    await s.request({ method: 'PATCH', path: '/api/v1/settings', as: hamlet, body: { presence_enabled: false } });
    advance(1000);
    const watch = watchEvents(s);
    await s.request({ method: 'PATCH', path: '/api/v1/settings', as: hamlet, body: { presence_enabled: true } });
    expect(watch.take().filter((d) => d.event.type === 'presence').map((d) => d.event.presence.website)).toEqual([
      { client: 'website', status: 'active', timestamp: now(), pushable: false },
    ]);
    expect((await get(s, othello, `/users/${hamlet}/presence`)).body.presence.aggregated).toEqual({ status: 'active', timestamp: now() });
  });

  it("the status's deprecated away flag is the same setting, with the same presence event", async () => {
    const { s, now } = clocked();
    const watch = watchEvents(s);
    await s.request({ method: 'POST', path: '/api/v1/users/me/status', as: hamlet, body: { away: true } });
    expect(watch.take().map((d) => d.event.type)).toEqual(['user_settings', 'presence', 'user_status']);
    expect((await get(s, othello, `/users/${hamlet}/presence`)).body.presence.website).toEqual({ status: 'idle', timestamp: now() - 320 });
  });
});

describe('presence events in each queue format', () => {
  it('legacy with email; slim_presence without it; simplified_presence_events as {presences: {id: timestamps}}', async () => {
    const { s } = clocked();
    const legacyQueue = await register(s, othello, { event_types: JSON.stringify(['presence']) });
    const slimQueue = await register(s, othello, { event_types: JSON.stringify(['presence']), slim_presence: true });
    const modernQueue = await register(s, othello, {
      event_types: JSON.stringify(['presence']),
      slim_presence: true,
      client_capabilities: JSON.stringify({ notification_settings_null: true, simplified_presence_events: true }),
    });
    await report(s, hamlet, { status: 'active' });
    const website = { client: 'website', status: 'active', timestamp: T0, pushable: false };
    expect(await pending(s, othello, legacyQueue.queue_id)).toEqual([
      { id: 0, type: 'presence', user_id: hamlet, email: email(s, hamlet), server_timestamp: T0, presence: { website } },
    ]);
    expect(await pending(s, othello, slimQueue.queue_id)).toEqual([{ id: 0, type: 'presence', user_id: hamlet, server_timestamp: T0, presence: { website } }]);
    expect(await pending(s, othello, modernQueue.queue_id)).toEqual([
      { id: 0, type: 'presence', presences: { [String(hamlet)]: { active_timestamp: T0, idle_timestamp: T0 } } },
    ]);
  });
});

describe('GET /realm/presence', () => {
  it('the legacy format without presence_last_update_id, for any user, bots included; only active humans listed', async () => {
    const { s, advance } = clocked();
    await report(s, hamlet, { status: 'active' });
    await report(s, prospero, { status: 'idle' });
    expect((await s.request({ method: 'DELETE', path: `/api/v1/users/${prospero}`, as: iago })).status).toBe(200);
    advance(5);
    const res = await get(s, defaultBot, '/realm/presence');
    expect(res.body).toEqual({ result: 'success', msg: '', presences: { [email(s, hamlet)]: legacy('active', T0) }, server_timestamp: T0 + 5 });
  });

  it('an empty realm of presence answers {}', async () => {
    const { s } = clocked();
    expect((await get(s, hamlet, '/realm/presence')).body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: T0 });
  });
});

describe('GET /users/{user_id_or_email}/presence', () => {
  it('by user ID or API email: the legacy pair without client and pushable', async () => {
    const { s } = clocked();
    await report(s, hamlet, { status: 'active' });
    const expected = { result: 'success', msg: '', presence: { aggregated: { status: 'active', timestamp: T0 }, website: { status: 'active', timestamp: T0 } } };
    for (const key of [String(hamlet), ` +${hamlet} `, '1_0', email(s, hamlet), email(s, hamlet).toUpperCase()]) {
      expect((await get(s, othello, `/users/${encodeURIComponent(key)}/presence`)).body, key).toEqual(expected);
    }
  });

  it.each([
    ['an unknown ID', '99999', 'No such user'],
    ['a negative ID', '-10', 'No such user'],
    ['the real address when the API email is another', 'hamlet@zulip.com', 'No such user'],
    ['a system bot', '4', 'No such user'],
    ['a bot', String(ID.defaultBot), 'Presence is not supported for bot users.'],
    ['a user without presence', String(ID.hamlet), `No presence data for ${ID.hamlet}`],
    ['a user without presence, by email', 'user10@zulip.testserver', 'No presence data for user10@zulip.testserver'],
  ])('%s: %s', async (_name, key, msg) => {
    const { s } = clocked();
    expect((await get(s, othello, `/users/${encodeURIComponent(key)}/presence`)).body).toEqual(error(msg));
  });

  it('a deactivated user is no such user, even with presence data', async () => {
    const { s } = clocked();
    await report(s, prospero, { status: 'active' });
    await s.request({ method: 'DELETE', path: `/api/v1/users/${prospero}`, as: iago });
    expect((await get(s, othello, `/users/${prospero}/presence`)).body).toEqual(error('No such user'));
  });

  it('GET /users/me/presence is the report endpoint: only POST is allowed', async () => {
    const { s } = clocked();
    const res = await get(s, hamlet, '/users/me/presence');
    expect(res.status).toBe(405);
  });
});

describe('/register presence state', () => {
  it('presences, presence_last_update_id and server_timestamp; the modern format for slim_presence or simplified_presence_events', async () => {
    const { s, advance } = clocked();
    await report(s, hamlet, { status: 'active' });
    advance(20);
    await report(s, othello, { status: 'idle' });
    const fetch = JSON.stringify(['presence']);
    expect(await register(s, iago, { fetch_event_types: fetch })).toMatchObject({
      presences: { [email(s, hamlet)]: legacy('active', T0), [email(s, othello)]: legacy('idle', T0 + 20) },
      presence_last_update_id: 2,
      server_timestamp: T0 + 20,
    });
    const modern = { '10': { active_timestamp: T0, idle_timestamp: T0 }, '12': { active_timestamp: joined(s, othello), idle_timestamp: T0 + 20 } };
    expect((await register(s, iago, { fetch_event_types: fetch, slim_presence: true })).presences).toEqual(modern);
    const simplified = JSON.stringify({ notification_settings_null: true, simplified_presence_events: true });
    expect((await register(s, iago, { fetch_event_types: fetch, client_capabilities: simplified })).presences).toEqual(modern);
  });

  it('presence_history_limit_days bounds it; without presence rows, -1', async () => {
    const { s, advance } = clocked();
    const fetch = JSON.stringify(['presence']);
    expect(await register(s, iago, { fetch_event_types: fetch })).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    await report(s, hamlet, { status: 'active' });
    advance(20 * DAY);
    expect((await register(s, iago, { fetch_event_types: fetch })).presences).toEqual({});
    expect(Object.keys((await register(s, iago, { fetch_event_types: fetch, presence_history_limit_days: 21 })).presences)).toEqual([email(s, hamlet)]);
    expect((await s.request({ method: 'POST', path: '/api/v1/register', as: iago, body: { presence_history_limit_days: '"x"' } })).body).toEqual(
      error('presence_history_limit_days is not an integer'),
    );
  });
});

describe("the dev realm's presence at its moment", () => {
  /** The web app's rule (web/src/presence.ts): active, else idle, within the offline threshold. */
  const statusAt = (p: { active_timestamp: number; idle_timestamp: number } | undefined, now: number) =>
    !p ? 'offline' : now - p.active_timestamp < OFFLINE_THRESHOLD_SECS ? 'active' : now - p.idle_timestamp < OFFLINE_THRESHOLD_SECS ? 'idle' : 'offline';
  const modern = { slim_presence: 'true', client_capabilities: JSON.stringify({ notification_settings_null: true, simplified_presence_events: true }) };

  it('has Iago and Zoe active, Othello and Prospero idle, the rest offline, and all offline once the threshold has passed', async () => {
    const { s, advance, now } = clocked(devFixture());
    const zoe = 7;
    const first = (await register(s, hamlet, { fetch_event_types: JSON.stringify(['presence']), ...modern }));
    expect(first.presences[iago]).toEqual({ active_timestamp: T0, idle_timestamp: T0 });
    expect(first.presences[zoe]).toEqual({ active_timestamp: T0 - 20, idle_timestamp: T0 - 20 });
    expect(first.presences[othello].idle_timestamp).toBe(T0 - 10);
    const seen = (p: Record<string, any>, at: number) => Object.fromEntries([iago, zoe, othello, prospero, hamlet].map((id) => [id, statusAt(p[id], at)]));
    expect(seen(first.presences, now())).toEqual({ [iago]: 'active', [zoe]: 'active', [othello]: 'idle', [prospero]: 'idle', [hamlet]: 'offline' });
    advance(OFFLINE_THRESHOLD_SECS - 15);
    const later = (await register(s, hamlet, { fetch_event_types: JSON.stringify(['presence']), ...modern }));
    expect(seen(later.presences, later.server_timestamp)).toEqual({ [iago]: 'active', [zoe]: 'offline', [othello]: 'idle', [prospero]: 'offline', [hamlet]: 'offline' });
    advance(15);
    const gone = (await register(s, hamlet, { fetch_event_types: JSON.stringify(['presence']), ...modern }));
    expect(seen(gone.presences, gone.server_timestamp)).toEqual({ [iago]: 'offline', [zoe]: 'offline', [othello]: 'offline', [prospero]: 'offline', [hamlet]: 'offline' });
  });
});
