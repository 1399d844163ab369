/** User statuses (zerver/views/presence.py, zerver/actions/user_status.py): set your own, an administrator sets another's, read one. */
import { describe, expect, it } from 'vitest';
import { userStatusRegisterState } from '../../simulator/engine/users/status.ts';
import { ID, NOW, devFixture, sim, watchEvents } from './helpers.ts';

type Sim = ReturnType<typeof sim>;

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

async function setOwn(s: Sim, as: number, body: Record<string, unknown>) {
  return s.request({ method: 'POST', path: '/api/v1/users/me/status', as, body });
}

async function statusOf(s: Sim, userId: number, as: number = ID.hamlet) {
  const res = await s.request({ method: 'GET', path: `/api/v1/users/${userId}/status`, as });
  expect(res.status).toBe(200);
  return res.body.status;
}


/** Everyone who can see a user: every active user of the realm, bots and guests included. */
function everyoneActive(s: Sim): number[] {
  return [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
}

describe('POST /users/me/status', () => {
  it('sets text and emoji (the code and type looked up from the name), and GET shows them', async () => {
    const s = sim();
    const res = await setOwn(s, ID.hamlet, { status_text: 'on vacation', emoji_name: 'car' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await statusOf(s, ID.hamlet, ID.othello)).toEqual({
      status_text: 'on vacation',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
  });

  it('sends user_status with only the fields sent, to every user who can see the user', async () => {
    const s = sim();
    await setOwn(s, ID.hamlet, { status_text: 'busy' });
    const watch = watchEvents(s);
    await setOwn(s, ID.hamlet, { emoji_name: 'green_tick' });
    const events = watch.take();
    expect(events.map((e) => e.event)).toEqual([
      { type: 'user_status', user_id: ID.hamlet, emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' },
    ]);
    expect(events[0]!.users).toEqual(everyoneActive(s));
    expect(events[0]!.users).toEqual(expect.arrayContaining([ID.polonius, ID.defaultBot, ID.hamlet]));
    // The text set before stays.
    expect(await statusOf(s, ID.hamlet)).toEqual({ status_text: 'busy', emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' });
  });

  it("resolves Zulip's extra emoji, and accepts Zulip's name for its type", async () => {
    const s = sim();
    await setOwn(s, ID.hamlet, { emoji_name: 'zulip' });
    expect(await statusOf(s, ID.hamlet)).toEqual({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
    const res = await setOwn(s, ID.othello, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect(res.status).toBe(200);
    expect(await statusOf(s, ID.othello)).toEqual({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  });

  it('accepts an explicit code and type that match the name', async () => {
    const s = sim();
    const res = await setOwn(s, ID.hamlet, { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect(res.status).toBe(200);
    expect(await statusOf(s, ID.hamlet)).toMatchObject({ emoji_code: '1f697' });
  });

  it('clears the emoji with an empty name (any code or type sent is ignored) and the text with ""', async () => {
    const s = sim();
    await setOwn(s, ID.hamlet, { status_text: 'on vacation', emoji_name: 'car' });
    const watch = watchEvents(s);
    const res = await setOwn(s, ID.hamlet, { emoji_name: '', emoji_code: '1f697', reaction_type: 'realm_emoji' });
    expect(res.status).toBe(200);
    expect(watch.take().map((e) => e.event)).toEqual([
      { type: 'user_status', user_id: ID.hamlet, emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' },
    ]);
    expect(await statusOf(s, ID.hamlet)).toEqual({ status_text: 'on vacation' });
    await setOwn(s, ID.hamlet, { status_text: '' });
    expect(await statusOf(s, ID.hamlet)).toEqual({});
  });

  it('counts the 60-character limit in code points, after trimming', async () => {
    const s = sim();
    // 60 astral emoji: 120 UTF-16 units, 60 code points.
    const sixty = '🐙'.repeat(60);
    expect((await setOwn(s, ID.hamlet, { status_text: `  ${sixty}\n` })).status).toBe(200);
    expect(await statusOf(s, ID.hamlet)).toEqual({ status_text: sixty });
    const tooLong = await setOwn(s, ID.hamlet, { status_text: '🐙'.repeat(61) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(error('status_text is too long (limit: 60 characters)'));
    expect(await statusOf(s, ID.hamlet)).toEqual({ status_text: sixty });
  });

  it('maps away onto the presence_enabled setting, with its settings events to the user', async () => {
    const s = sim();
    // A client without user_settings_object, which still gets the legacy settings event.
    const watch = watchEvents(s, { user_settings_object: false });
    expect((await setOwn(s, ID.hamlet, { away: true })).status).toBe(200);
    const events = watch.take();
    expect(events.map((e) => [e.event, e.users])).toEqual([
      [{ type: 'user_settings', op: 'update', property: 'presence_enabled', value: false }, [ID.hamlet]],
      [{ type: 'update_global_notifications', user: 'user10@zulip.testserver', notification_name: 'presence_enabled', setting: false }, [ID.hamlet]],
      // Presence turned off: shown idle since long enough ago to read offline, to everyone.
      [
        {
          type: 'presence',
          user_id: ID.hamlet,
          email: 'user10@zulip.testserver',
          server_timestamp: NOW,
          presence: { website: { client: 'website', status: 'idle', timestamp: NOW - 320, pushable: false } },
        },
        everyoneActive(s),
      ],
      [{ type: 'user_status', user_id: ID.hamlet, away: true }, everyoneActive(s)],
    ]);
    expect(s.engine.state.users.get(ID.hamlet)!.presence_enabled).toBe(false);
    expect(await statusOf(s, ID.hamlet)).toEqual({ away: true });
    await setOwn(s, ID.hamlet, { away: false });
    // `away` is never shown as false.
    expect(await statusOf(s, ID.hamlet)).toEqual({});
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['nothing to change', {}, 'Client did not pass any new values.'],
    // Without text, away or a name, a code or type alone is "no new values", not the emoji_name error.
    ['only an emoji code', { emoji_code: '1f697' }, 'Client did not pass any new values.'],
    ['only a reaction type', { reaction_type: 'unicode_emoji' }, 'Client did not pass any new values.'],
    ['a code without a name', { status_text: 'x', emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    ['a type without a name', { away: false, reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    ['an unknown emoji name', { emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
    ['a name that is not the code', { emoji_name: 'smile', emoji_code: '1f697', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    ['an unknown unicode code', { emoji_name: 'car', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    ['an unknown custom emoji', { emoji_name: 'green_tick', emoji_code: '999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ['a custom emoji under another name', { emoji_name: 'red_tick', emoji_code: '1', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    ['the extra emoji with a wrong code', { emoji_name: 'zulip', emoji_code: 'octopus', reaction_type: 'service_extra_emoji' }, 'Invalid emoji code.'],
    ['the extra emoji type under another name', { emoji_name: 'octopus', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }, 'Invalid emoji name.'],
    ['an unknown type', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ['a non-boolean away', { away: 'yes' }, 'away is not valid JSON'],
  ];
  it.each(refusals)('refuses %s, changing nothing', async (_name, body, msg) => {
    const s = sim();
    await setOwn(s, ID.hamlet, { status_text: 'before' });
    const watch = watchEvents(s);
    const res = await setOwn(s, ID.hamlet, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
    expect(watch.take()).toEqual([]);
    expect(await statusOf(s, ID.hamlet)).toEqual({ status_text: 'before' });
  });

  it('refuses a deactivated custom emoji', async () => {
    const fixture = devFixture();
    fixture.realm_emoji!.push({ id: '2', name: 'old_logo', source_url: '/user_avatars/2/emoji/images/2.png', deactivated: true });
    const s = sim({ fixture });
    const res = await setOwn(s, ID.hamlet, { emoji_name: 'old_logo', emoji_code: '2', reaction_type: 'realm_emoji' });
    expect(res.body).toEqual(error('This custom emoji has been deactivated.'));
    // By name alone a deactivated emoji is not found at all.
    const byName = await setOwn(s, ID.hamlet, { emoji_name: 'old_logo' });
    expect(byName.body).toEqual(error("Emoji 'old_logo' does not exist"));
  });

  it('refuses bots', async () => {
    const res = await setOwn(sim(), ID.defaultBot, { status_text: 'beep' });
    expect(res.body).toEqual(error('This endpoint does not accept bot requests.'));
  });
});

describe('POST /users/{user_id}/status (administrators)', () => {
  it("lets an administrator set another user's status, with the event for that user", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({
      method: 'POST',
      path: `/api/v1/users/${ID.hamlet}/status`,
      as: ID.iago,
      body: { status_text: ' In a meeting ', emoji_name: 'calendar' },
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(watch.take().map((e) => e.event)).toEqual([
      { type: 'user_status', user_id: ID.hamlet, status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' },
    ]);
    expect(await statusOf(s, ID.hamlet)).toMatchObject({ status_text: 'In a meeting', emoji_name: 'calendar' });
  });

  it('does not take away (reported as ignored)', async () => {
    const s = sim();
    const res = await s.request({ method: 'POST', path: `/api/v1/users/${ID.hamlet}/status`, as: ID.iago, body: { away: true, status_text: 'x' } });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['away'] });
    expect(s.engine.state.users.get(ID.hamlet)!.presence_enabled).toBe(true);
  });

  it('lets a bot with the administrator role do it (feature level 473)', async () => {
    const fixture = devFixture();
    fixture.users.find((u) => u.email === 'default-bot@zulip.com')!.role = 'administrator';
    const s = sim({ fixture });
    const res = await s.request({ method: 'POST', path: `/api/v1/users/${ID.hamlet}/status`, as: ID.defaultBot, body: { status_text: 'set by a bot' } });
    expect(res.status).toBe(200);
    expect(await statusOf(s, ID.hamlet)).toEqual({ status_text: 'set by a bot' });
  });

  const refusals: [string, number, number, string][] = [
    ['a member', ID.hamlet, ID.othello, 'Insufficient permission'],
    ['a moderator', ID.shiva, ID.othello, 'Insufficient permission'],
    ['a guest', ID.polonius, ID.othello, 'Insufficient permission'],
    ['a bot without the administrator role', ID.defaultBot, ID.othello, 'Insufficient permission'],
    // The target is checked first, whoever asks.
    ['an unknown user, by a member', ID.hamlet, 999, 'No such user'],
    ['an unknown user', ID.iago, 999, 'No such user'],
    ['a bot target', ID.iago, ID.defaultBot, 'No such user'],
    ["a bot target, by the bot's owner", ID.desdemona, ID.defaultBot, 'No such user'],
    ['a system bot target', ID.iago, 4, 'No such user'],
  ];
  it.each(refusals)('refuses %s', async (_name, actor, target, msg) => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({ method: 'POST', path: `/api/v1/users/${target}/status`, as: actor, body: { status_text: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
    expect(watch.take()).toEqual([]);
  });

  it('refuses a deactivated target', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const res = await s.request({ method: 'POST', path: `/api/v1/users/${ID.othello}/status`, as: ID.iago, body: { status_text: 'x' } });
    expect(res.body).toEqual(error('User is deactivated'));
  });

  it('applies the same value rules as your own status', async () => {
    const s = sim();
    const empty = await s.request({ method: 'POST', path: `/api/v1/users/${ID.hamlet}/status`, as: ID.iago });
    expect(empty.body).toEqual(error('Client did not pass any new values.'));
    const long = await s.request({ method: 'POST', path: `/api/v1/users/${ID.hamlet}/status`, as: ID.iago, body: { status_text: 'x'.repeat(61) } });
    expect(long.body).toEqual(error('status_text is too long (limit: 60 characters)'));
  });
});

describe('GET /users/{user_id}/status', () => {
  it('is {} for a user who never set a status, for any caller (guests and bots too)', async () => {
    const s = sim();
    for (const viewer of [ID.polonius, ID.defaultBot, ID.iago]) expect(await statusOf(s, ID.othello, viewer)).toEqual({});
  });

  it('shows away from the fixture (presence_enabled false)', async () => {
    const fixture = devFixture();
    fixture.users.find((u) => u.email === 'othello@zulip.com')!.presence_enabled = false;
    const s = sim({ fixture });
    // Zulip has no status row until one is set, so the fixture flag alone shows nothing…
    expect(await statusOf(s, ID.othello)).toEqual({});
    await setOwn(s, ID.othello, { status_text: 'gone fishing' });
    // …and once there is one, away shows with it.
    expect(await statusOf(s, ID.othello)).toEqual({ away: true, status_text: 'gone fishing' });
  });

  const refusals: [string, number, string][] = [
    ['an unknown user', 999, 'No such user'],
    ['a bot', ID.defaultBot, 'No such user'],
    ['a system bot', 4, 'No such user'],
  ];
  it.each(refusals)('refuses %s', async (_name, target, msg) => {
    const res = await sim().request({ method: 'GET', path: `/api/v1/users/${target}/status`, as: ID.hamlet });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it('refuses a deactivated user', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const res = await s.request({ method: 'GET', path: `/api/v1/users/${ID.othello}/status`, as: ID.hamlet });
    expect(res.body).toEqual(error('User is deactivated'));
  });
});

describe('user_status in /register', () => {
  it('lists active users whose status shows something, keyed by id', async () => {
    const s = sim();
    await setOwn(s, ID.hamlet, { status_text: 'on vacation', emoji_name: 'car' });
    await setOwn(s, ID.othello, { away: true });
    await setOwn(s, ID.cordelia, { status_text: 'x' });
    await setOwn(s, ID.cordelia, { status_text: '' });
    await setOwn(s, ID.aaron, { status_text: 'leaving' });
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.aaron}`, as: ID.iago });
    const viewer = s.engine.state.users.get(ID.iago)!;
    expect(userStatusRegisterState(s.engine, viewer)).toEqual({
      user_status: {
        [String(ID.hamlet)]: { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
        [String(ID.othello)]: { away: true },
      },
    });
  });
});
