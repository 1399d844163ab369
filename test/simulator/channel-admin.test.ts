/**
 * One channel (zerver/views/streams.py): reading it and its subscribers, PATCH /streams/{id},
 * archiving and unarchiving, default channels: answers, state, events and their recipients, and
 * Notification Bot's notices in the "channel events" topic.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, assertValid, devFixture, sim, validateChannel, watchEvents } from './helpers.ts';

type Body = Record<string, unknown>;

const G = { nobody: 9, owners: 10, administrators: 11, moderators: 12, fullmembers: 13, members: 14, everyone: 15 };
const S = { zulip: 1, sandbox: 2, verona: 3, denmark: 4, rome: 5, scotland: 6, venice: 7, coreTeam: 8 };

/** Every active user but the guest (system bots live in another realm). */
const NON_GUESTS = [6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18];
const EVERYONE = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
/** Who sees the private "core team": its subscribers (Desdemona, Hamlet, Iago) and the administrators. */
const CORE_TEAM_SEERS: number[] = [ID.desdemona, ID.hamlet, ID.iago];

const call = (s: Simulator, method: string, path: string, body: Body = {}, as: number = ID.iago) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const ok = { result: 'success', msg: '' };

/** The events recorded while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>, capabilities: Record<string, boolean> = {}) {
  const watch = watchEvents(s, capabilities);
  await action();
  return watch.take();
}

/** The channel events that are not messages (Notification Bot's notices are checked on their own). */
const channelEvents = (events: Awaited<ReturnType<typeof eventsOf>>) => events.filter((e) => e.event.type !== 'message');

/** The newest message of a channel's "channel events" topic, as Iago sees it. */
async function lastNotice(s: Simulator, streamId: number, topic = 'channel events') {
  const res = await s.request({
    method: 'GET',
    path: '/api/v1/messages',
    as: ID.iago,
    query: { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: streamId }, { operator: 'topic', operand: topic }] },
  });
  return res.body.messages.at(-1) as Record<string, any> | undefined;
}

const streamOf = (s: Simulator, id: number) => s.engine.state.streams.get(id)!;

describe('GET /streams/{stream_id}', () => {
  it('answers the Channel object GET /streams has', async () => {
    const s = sim();
    const one = await call(s, 'GET', `/streams/${S.verona}`, {}, ID.hamlet);
    expect(one.status).toBe(200);
    assertValid(validateChannel, one.body.stream);
    const all = await call(s, 'GET', '/streams', {}, ID.hamlet);
    expect(one.body).toEqual({ ...ok, stream: all.body.streams.find((c: Body) => c.stream_id === S.verona) });
  });

  const rows: [string, number, number, boolean][] = [
    ['a member, a public channel', ID.othello, S.denmark, true],
    ['an administrator outside a private channel (metadata access)', ID.iago, S.coreTeam, true],
    ['a member outside a private channel', ID.othello, S.coreTeam, false],
    ['a guest, a public channel he is not in', ID.polonius, S.denmark, false],
    ['a guest, a web-public channel', ID.polonius, S.rome, true],
    ['anyone, a channel that does not exist', ID.iago, 99, false],
  ];
  it.each(rows)('%s', async (_name, as, streamId, visible) => {
    const res = await call(sim(), 'GET', `/streams/${streamId}`, {}, as);
    if (visible) expect(res.body.stream.stream_id).toBe(streamId);
    else expect([res.status, res.body]).toEqual([400, error('Invalid channel ID')]);
  });

  it('still shows an archived channel', async () => {
    const s = sim();
    await call(s, 'DELETE', `/streams/${S.denmark}`);
    expect((await call(s, 'GET', `/streams/${S.denmark}`, {}, ID.hamlet)).body.stream).toMatchObject({ name: 'Denmark', is_archived: true });
  });
});

describe('GET /streams/{stream_id}/members', () => {
  it('lists the active subscribers to whoever can see the channel', async () => {
    const s = sim();
    const res = await call(s, 'GET', `/streams/${S.coreTeam}/members`, {}, ID.iago);
    expect(res.body).toEqual({ ...ok, subscribers: [ID.desdemona, ID.hamlet, ID.iago] });
    await call(s, 'DELETE', `/users/${ID.hamlet}`);
    expect((await call(s, 'GET', `/streams/${S.coreTeam}/members`)).body.subscribers).toEqual([ID.desdemona, ID.iago]);
  });

  it('refuses a private channel to an outsider, and unknown channels', async () => {
    const s = sim();
    expect((await call(s, 'GET', `/streams/${S.coreTeam}/members`, {}, ID.othello)).body).toEqual(error('Invalid channel ID'));
    expect((await call(s, 'GET', '/streams/99/members')).body).toEqual(error('Invalid channel ID'));
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('tells whether the user is subscribed', async () => {
    const s = sim();
    expect((await call(s, 'GET', `/users/${ID.hamlet}/subscriptions/${S.verona}`, {}, ID.othello)).body).toEqual({ ...ok, is_subscribed: true });
    expect((await call(s, 'GET', `/users/${ID.othello}/subscriptions/${S.zulip}`, {}, ID.hamlet)).body).toEqual({ ...ok, is_subscribed: false });
  });

  it("answers for a bot too (feature level 458; before it, bots were 'No such user')", async () => {
    const res = await call(sim(), 'GET', `/users/${ID.defaultBot}/subscriptions/${S.verona}`, {}, ID.iago);
    expect(res.status).toBe(200);
    expect(typeof res.body.is_subscribed).toBe('boolean');
  });

  const refusals: [string, number, number, number, string][] = [
    ['an unknown user', ID.iago, 99, S.verona, 'No such user'],
    ['a system bot', ID.iago, 4, S.verona, 'No such user'],
    ['an unknown channel', ID.iago, ID.hamlet, 99, 'Invalid channel ID'],
    ['a private channel the caller cannot see', ID.othello, ID.hamlet, S.coreTeam, 'Invalid channel ID'],
  ];
  it.each(refusals)('refuses %s', async (_name, as, userId, streamId, msg) => {
    const res = await call(sim(), 'GET', `/users/${userId}/subscriptions/${streamId}`, {}, as);
    expect([res.status, res.body]).toEqual([400, error(msg)]);
  });

  it('refuses a deactivated user', async () => {
    const s = sim();
    await call(s, 'DELETE', `/users/${ID.othello}`);
    expect((await call(s, 'GET', `/users/${ID.othello}/subscriptions/${S.verona}`)).body).toEqual(error('User is deactivated'));
  });
});

describe('PATCH /streams/{stream_id}: who may', () => {
  it('lets administrators and the channel administrators in; others with access learn they may not', async () => {
    const s = sim();
    // Scotland was created by Iago, so he administers it; Othello reads it but does not.
    expect((await call(s, 'PATCH', `/streams/${S.scotland}`, { description: 'x' }, ID.othello)).body).toEqual(
      error('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL'),
    );
    // A guest without access to the channel only learns it is not there.
    expect((await call(s, 'PATCH', `/streams/${S.scotland}`, { description: 'x' }, ID.polonius)).body).toEqual(error('Invalid channel ID'));
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { description: 'x' }, ID.othello)).body).toEqual(error('Invalid channel ID'));
    expect((await call(s, 'PATCH', `/streams/99`, { description: 'x' })).body).toEqual(error('Invalid channel ID'));
    // Desdemona created "core team"; an administrator may edit it without being subscribed.
    await call(s, 'DELETE', '/users/me/subscriptions', { subscriptions: ['core team'] }, ID.iago);
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { description: 'by the creator' }, ID.desdemona)).body).toEqual(ok);
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { description: 'by an admin' }, ID.iago)).body).toEqual(ok);
    expect(streamOf(s, S.coreTeam).description).toBe('by an admin');
  });

  it('follows can_administer_channel_group, never for guests', async () => {
    const s = sim();
    const grant = { can_administer_channel_group: { new: { direct_members: [ID.othello, ID.polonius], direct_subgroups: [] } } };
    expect((await call(s, 'PATCH', `/streams/${S.verona}`, grant)).body).toEqual(ok);
    expect((await call(s, 'PATCH', `/streams/${S.verona}`, { description: 'Othello was here' }, ID.othello)).body).toEqual(ok);
    expect((await call(s, 'PATCH', `/streams/${S.verona}`, { description: 'Polonius was here' }, ID.polonius)).body).toEqual(
      error('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL'),
    );
    expect(streamOf(s, S.verona).description).toBe('Othello was here');
  });

  it('answers success for a request that changes nothing, with the ignored path id named', async () => {
    const res = await call(sim(), 'PATCH', `/streams/${S.verona}`, { stream_id: S.verona });
    expect(res.body).toEqual({ ...ok, ignored_parameters_unsupported: ['stream_id'] });
  });
});

describe('PATCH /streams/{stream_id}: name and description', () => {
  it('renames, tells everyone who sees the channel, and posts the notice', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { new_name: '  Danmark ' })).body).toEqual(ok);
    });
    expect(channelEvents(events)).toEqual([
      { event: { type: 'stream', op: 'update', property: 'name', value: 'Danmark', stream_id: S.denmark, name: 'Denmark' }, users: NON_GUESTS },
    ]);
    expect(streamOf(s, S.denmark).name).toBe('Danmark');
    expect((await call(s, 'GET', '/get_stream_id', {}, ID.hamlet)).status).toBe(400);
    expect((await s.request({ method: 'GET', path: '/api/v1/get_stream_id', as: ID.hamlet, query: { stream: 'danmark' } })).body.stream_id).toBe(S.denmark);
    expect((await lastNotice(s, S.denmark))!).toMatchObject({
      sender_id: 4,
      content: `@_**Iago|${ID.iago}** renamed channel **Denmark** to **Danmark**.`,
    });
  });

  it('changes only the case without a name check', async () => {
    const s = sim();
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { new_name: 'DENMARK' })).body).toEqual(ok);
    expect(streamOf(s, S.denmark).name).toBe('DENMARK');
  });

  const nameRefusals: [string, string, Body][] = [
    ['the same name', 'Channel already has that name.', error('Channel already has that name.')],
    ['a name in use (any case)', 'verona', error("Channel 'verona' already exists", 'CHANNEL_ALREADY_EXISTS')],
    ['a blank name', '   ', error("Channel name can't be empty.")],
    ['a control character', 'bad\u0001name', error('Invalid character in channel name, at position 4.')],
    ['a name over 60 characters', 'n'.repeat(61), error('Channel name too long (limit: 60 characters).')],
  ];
  it.each(nameRefusals)('refuses %s', async (_n, name, expected) => {
    const s = sim();
    const newName = name === 'Channel already has that name.' ? 'Denmark' : name;
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { new_name: newName })).body).toEqual(expected);
    });
    expect(events).toEqual([]);
    expect(streamOf(s, S.denmark).name).toBe('Denmark');
  });

  it('refuses the name of a private channel the caller cannot see, without naming it', async () => {
    const s = sim();
    await call(s, 'PATCH', `/streams/${S.venice}`, { can_administer_channel_group: { new: { direct_members: [ID.othello], direct_subgroups: [] } } });
    expect((await call(s, 'PATCH', `/streams/${S.venice}`, { new_name: 'Core Team' }, ID.othello)).body).toEqual(error('Insufficient permission'));
  });

  it('changes the description (newlines become spaces) with rendered_description, even to the same text', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { description: 'Plans\nfor **all**' })).body).toEqual(ok);
    });
    expect(channelEvents(events)).toEqual([
      {
        event: {
          type: 'stream',
          op: 'update',
          property: 'description',
          value: 'Plans for **all**',
          rendered_description: '<p>Plans for <strong>all</strong></p>',
          stream_id: S.coreTeam,
          name: 'core team',
        },
        users: CORE_TEAM_SEERS,
      },
    ]);
    expect((await lastNotice(s, S.coreTeam))!.content).toBe(
      `@_**Iago|${ID.iago}** changed the description for this channel.\n\n` +
        '* **Old description:**\n```` quote\nA private channel for core team members\n````\n' +
        '* **New description:**\n```` quote\nPlans for **all**\n````',
    );
    const again = await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.coreTeam}`, { description: 'Plans for **all**' }));
    expect(channelEvents(again)).toHaveLength(1);
  });

  it('shows an empty description as *No description.* in the notice; refuses one over 1024 characters', async () => {
    const s = sim();
    await call(s, 'PATCH', `/streams/${S.denmark}`, { description: '' });
    expect((await lastNotice(s, S.denmark))!.content).toContain('* **New description:**\n```` quote\n*No description.*\n````');
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { description: 'd'.repeat(1025) })).body).toEqual(
      error('description is too long (limit: 1024 characters)'),
    );
  });

  it('posts no notice when the organization turned channel event messages off', async () => {
    const fixture = devFixture();
    fixture.realm.send_channel_events_messages = false;
    const s = sim({ fixture });
    const events = await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.denmark}`, { new_name: 'Danmark' }));
    expect(events.map((e) => e.event.type)).toEqual(['stream']);
  });
});

describe('PATCH /streams/{stream_id}: privacy', () => {
  it('makes a private channel public: create and peer_add for the newcomers, update for the others', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { is_private: false })).body).toEqual(ok);
    });
    const newcomers = NON_GUESTS.filter((id) => !CORE_TEAM_SEERS.includes(id));
    const stream = (await call(s, 'GET', `/streams/${S.coreTeam}`)).body.stream;
    expect(channelEvents(events)).toEqual([
      { event: { type: 'stream', op: 'create', streams: [stream] }, users: newcomers },
      { event: { type: 'subscription', op: 'peer_add', stream_ids: [S.coreTeam], user_ids: [ID.desdemona, ID.hamlet, ID.iago] }, users: newcomers },
      {
        event: {
          type: 'stream',
          op: 'update',
          property: 'invite_only',
          value: false,
          history_public_to_subscribers: true,
          is_web_public: false,
          stream_id: S.coreTeam,
          name: 'core team',
        },
        users: CORE_TEAM_SEERS,
      },
    ]);
    expect(stream).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
    expect((await lastNotice(s, S.coreTeam))!.content).toBe(
      `@_**Iago|${ID.iago}** changed the [access permissions](/help/channel-permissions) for this channel from **Private, protected history** to **Public**.`,
    );
    expect((await call(s, 'GET', `/streams/${S.coreTeam}`, {}, ID.othello)).status).toBe(200);
  });

  it('makes a public channel private (protected history by default); those who lose sight get no event', async () => {
    const s = sim();
    const events = await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.denmark}`, { is_private: true }));
    const subscribers = [ID.zoe, ID.desdemona, ID.hamlet, ID.iago, ID.othello, ID.prospero, ID.shiva];
    expect(channelEvents(events)).toEqual([
      {
        event: expect.objectContaining({ property: 'invite_only', value: true, history_public_to_subscribers: false, is_web_public: false }),
        users: subscribers,
      },
    ]);
    expect((await call(s, 'GET', `/streams/${S.denmark}`, {}, ID.cordelia)).body).toEqual(error('Invalid channel ID'));
    expect((await lastNotice(s, S.denmark))!.content).toContain('from **Public** to **Private, protected history**.');
  });

  it('makes a channel web-public for an owner', async () => {
    const s = sim();
    const res = await call(s, 'PATCH', `/streams/${S.denmark}`, { is_web_public: true }, ID.desdemona);
    expect(res.body).toEqual(ok);
    expect(streamOf(s, S.denmark)).toMatchObject({ is_web_public: true, invite_only: false, history_public_to_subscribers: true });
    expect((await lastNotice(s, S.denmark))!.content).toContain('from **Public** to **Web-public**.');
  });

  const refusals: [string, number, number, Body, Body][] = [
    ['web-public and private', ID.desdemona, S.denmark, { is_web_public: true, is_private: true }, error('Invalid parameters')],
    ['web-public with protected history', ID.desdemona, S.denmark, { is_web_public: true, history_public_to_subscribers: false }, error('Invalid parameters')],
    ['public with protected history', ID.iago, S.denmark, { history_public_to_subscribers: false }, error('Invalid parameters')],
    ['a default channel made private', ID.iago, S.verona, { is_private: true }, error('A default channel cannot be private.')],
    ['private and default at once', ID.iago, S.denmark, { is_private: true, is_default_stream: true }, error('A default channel cannot be private.')],
    ['web-public by an administrator (owners only)', ID.iago, S.denmark, { is_web_public: true }, error('Insufficient permission')],
    [
      'protected history while topics need a group',
      ID.iago,
      S.denmark,
      { is_private: true, can_create_topic_group: { new: G.members } },
      { ...error('Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group'), parameters: 'history_public_to_subscribers, can_create_topic_group' },
    ],
  ];
  it.each(refusals)('refuses %s, changing nothing', async (_n, as, streamId, body, expected) => {
    const s = sim();
    const before = structuredClone(streamOf(s, streamId));
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${streamId}`, body, as)).body).toEqual(expected);
    });
    expect(events).toEqual([]);
    expect(streamOf(s, streamId)).toEqual(before);
  });

  it('needs content access to change privacy, even for an administrator', async () => {
    const s = sim();
    await call(s, 'DELETE', '/users/me/subscriptions', { subscriptions: ['core team'] }, ID.iago);
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { is_private: false })).body).toEqual(error('Channel content access is required.'));
  });

  it('needs the matching creation permission', async () => {
    const s = sim();
    s.engine.state.realm.can_create_public_channel_group = G.administrators;
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { is_private: false }, ID.desdemona)).body).toEqual(ok);
    await call(s, 'PATCH', `/streams/${S.coreTeam}`, { is_private: true }, ID.desdemona);
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { is_private: false }, ID.hamlet)).body).toEqual(
      error('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL'),
    );
  });

  it('refuses web-public channels where spectators are not allowed', async () => {
    const fixture = devFixture();
    fixture.realm.enable_spectator_access = false;
    const s = sim({ fixture });
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { is_web_public: true }, ID.desdemona)).body).toEqual(
      error('Web-public channels are not enabled.'),
    );
  });
});

describe('PATCH /streams/{stream_id}: settings', () => {
  it('sets the retention period (owners only) with its event and notice', async () => {
    const s = sim();
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { message_retention_days: 30 }, ID.iago)).body).toEqual(
      error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'),
    );
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { message_retention_days: 30 }, ID.desdemona)).body).toEqual(ok);
    });
    expect(channelEvents(events)).toEqual([
      { event: { type: 'stream', op: 'update', property: 'message_retention_days', value: 30, stream_id: S.denmark, name: 'Denmark' }, users: NON_GUESTS },
    ]);
    expect((await lastNotice(s, S.denmark))!.content).toBe(
      `@_**Desdemona|${ID.desdemona}** has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
        '* **Old retention period**: Forever\n* **New retention period**: 30 days\n\n' +
        'Messages in this channel will now be automatically deleted 30 days after they are sent.',
    );
    // Json[str] | Json[int]: the special values are JSON strings.
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { message_retention_days: '"unlimited"' }, ID.desdemona)).body).toEqual(ok);
    expect(streamOf(s, S.denmark).message_retention_days).toBe(-1);
    expect((await lastNotice(s, S.denmark))!.content).toContain('* **Old retention period**: 30 days\n* **New retention period**: Forever\n\nMessages in this channel will now be retained forever.');
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { message_retention_days: 0 }, ID.desdemona)).body).toEqual(
      error("Bad value for 'message_retention_days': 0"),
    );
  });

  it('sets topics_policy (a plain string) with its notice; nothing when unchanged', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { topics_policy: 'disable_empty_topic' })).body).toEqual(ok);
    });
    expect(channelEvents(events)).toEqual([
      { event: { type: 'stream', op: 'update', property: 'topics_policy', value: 'disable_empty_topic', stream_id: S.denmark, name: 'Denmark' }, users: NON_GUESTS },
    ]);
    expect((await lastNotice(s, S.denmark))!.content).toBe(
      `@_**Iago|${ID.iago}** changed the "Allow posting to the *general chat* topic?" setting from **Automatic** to **No *general chat* topic**.`,
    );
    expect(await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.denmark}`, { topics_policy: 'disable_empty_topic' }))).toEqual([]);
  });

  it('refuses a topics_policy outside the enum, or from someone outside can_set_topics_policy_group', async () => {
    const s = sim();
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { topics_policy: '"inherit"' })).body).toEqual(error('Invalid topics_policy'));
    s.engine.state.realm.can_set_topics_policy_group = G.administrators;
    await call(s, 'PATCH', `/streams/${S.denmark}`, { can_administer_channel_group: { new: G.members } });
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { topics_policy: 'allow_empty_topic' }, ID.hamlet)).body).toEqual(
      error('Insufficient permission'),
    );
    // inherit needs no permission.
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { topics_policy: 'inherit' }, ID.hamlet)).body).toEqual(ok);
  });

  it('allows empty_topic_only only in a channel whose messages are all in the empty topic', async () => {
    const s = sim();
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { topics_policy: 'empty_topic_only' })).body).toEqual(
      error('To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.'),
    );
    await call(s, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'quiet' }] });
    const quiet = s.engine.state.streamsByName.get('quiet')!;
    // The creation notice sits in "channel events": delete that topic first.
    await call(s, 'POST', `/streams/${quiet}/delete_topic`, { topic_name: 'channel events' });
    expect((await call(s, 'PATCH', `/streams/${quiet}`, { topics_policy: 'empty_topic_only' })).body).toEqual(ok);
    // Notices now go to the empty topic.
    expect((await lastNotice(s, quiet, ''))!.content).toContain('to **Only *general chat* topic allowed**.');
  });

  it('moves a channel into a folder and out again', async () => {
    const s = sim();
    await call(s, 'POST', '/channel_folders/create', { name: 'Frontend', description: '' });
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { folder_id: 1 })).body).toEqual(ok);
    });
    expect(events).toEqual([
      { event: { type: 'stream', op: 'update', property: 'folder_id', value: 1, stream_id: S.denmark, name: 'Denmark' }, users: NON_GUESTS },
    ]);
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { folder_id: null })).body).toEqual(ok);
    expect(streamOf(s, S.denmark).folder_id).toBeNull();
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { folder_id: 9 })).body).toEqual(error('Invalid channel folder ID'));
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { folder_id: 'x' })).body).toEqual(error('folder_id is not valid JSON'));
  });

  it('adds and removes a default channel (administrators only)', async () => {
    const s = sim();
    const events = await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.denmark}`, { is_default_stream: true }));
    expect(events).toEqual([{ event: { type: 'default_streams', default_streams: [S.verona, S.denmark] }, users: NON_GUESTS }]);
    await call(s, 'PATCH', `/streams/${S.denmark}`, { can_administer_channel_group: { new: G.members } });
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { is_default_stream: false }, ID.hamlet)).body).toEqual(
      error('You do not have permission to change default channels.'),
    );
    await call(s, 'PATCH', `/streams/${S.denmark}`, { is_default_stream: false });
    expect([...s.engine.state.realm.default_stream_ids]).toEqual([S.verona]);
  });
});

describe('PATCH /streams/{stream_id}: group settings as {new, old}', () => {
  it('changes a setting, with the legacy posting-policy events and the notice for can_send_message_group', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await call(s, 'PATCH', `/streams/${S.denmark}`, { can_send_message_group: { new: G.administrators, old: G.everyone } });
      expect(res.body).toEqual(ok);
    });
    const update = (property: string, value: unknown) => ({
      event: { type: 'stream', op: 'update', property, value, stream_id: S.denmark, name: 'Denmark' },
      users: NON_GUESTS,
    });
    expect(channelEvents(events)).toEqual([
      update('can_send_message_group', G.administrators),
      update('stream_post_policy', 2),
      update('is_announcement_only', true),
    ]);
    expect((await lastNotice(s, S.denmark))!.content).toBe(
      `@_**Iago|${ID.iago}** changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
        '* **Old**: @_*role:everyone*\n* **New**: @_*role:administrators*\n',
    );
    const anonymous = { direct_members: [ID.hamlet, ID.cordelia], direct_subgroups: [G.moderators] };
    await call(s, 'PATCH', `/streams/${S.denmark}`, { can_send_message_group: { new: anonymous } });
    expect((await lastNotice(s, S.denmark))!.content).toContain(
      `* **New**: @_*role:moderators*, @_**Cordelia, Lear's daughter|${ID.cordelia}**, @_**King Hamlet|${ID.hamlet}**\n`,
    );
    expect((await call(s, 'GET', `/streams/${S.denmark}`)).body.stream.can_send_message_group).toEqual({
      direct_members: [ID.cordelia, ID.hamlet],
      direct_subgroups: [G.moderators],
    });
  });

  it('skips a setting that does not change, and refuses a stale old value', async () => {
    const s = sim();
    expect(await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.denmark}`, { can_send_message_group: { new: G.everyone } }))).toEqual([]);
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { can_send_message_group: { new: G.members, old: G.moderators } })).body).toEqual(
      error("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    );
  });

  it('gives and takes sight of a private channel with can_administer_channel_group', async () => {
    const s = sim();
    const grant = await eventsOf(s, () =>
      call(s, 'PATCH', `/streams/${S.coreTeam}`, { can_administer_channel_group: { new: { direct_members: [ID.othello], direct_subgroups: [] } } }),
    );
    const stream = (await call(s, 'GET', `/streams/${S.coreTeam}`)).body.stream;
    expect(grant).toEqual([
      {
        event: { type: 'stream', op: 'update', property: 'can_administer_channel_group', value: { direct_members: [ID.othello], direct_subgroups: [] }, stream_id: S.coreTeam, name: 'core team' },
        users: CORE_TEAM_SEERS,
      },
      { event: { type: 'stream', op: 'create', streams: [stream] }, users: [ID.othello] },
      { event: { type: 'subscription', op: 'peer_add', stream_ids: [S.coreTeam], user_ids: [ID.desdemona, ID.hamlet, ID.iago] }, users: [ID.othello] },
    ]);
    const take = await eventsOf(s, () => call(s, 'PATCH', `/streams/${S.coreTeam}`, { can_administer_channel_group: { new: G.nobody } }));
    expect(take.map((e) => [e.event.op, e.users])).toEqual([
      ['update', CORE_TEAM_SEERS],
      ['delete', [ID.othello]],
    ]);
    expect(take[1]!.event).toEqual({ type: 'stream', op: 'delete', streams: [{ stream_id: S.coreTeam }], stream_ids: [S.coreTeam] });
  });

  it('needs content access for the settings that grant it, and a moderator for deletion settings', async () => {
    const s = sim();
    await call(s, 'DELETE', '/users/me/subscriptions', { subscriptions: ['core team'] }, ID.iago);
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { can_subscribe_group: { new: G.members } })).body).toEqual(
      error('Channel content access is required.'),
    );
    // Settings that do not grant content access need only metadata access.
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { can_remove_subscribers_group: { new: G.moderators } })).body).toEqual(ok);
    await call(s, 'PATCH', `/streams/${S.denmark}`, { can_administer_channel_group: { new: G.members } });
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { can_delete_any_message_group: { new: G.members } }, ID.hamlet)).body).toEqual(
      error('Insufficient permission'),
    );
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { can_delete_any_message_group: { new: G.members } }, ID.shiva)).body).toEqual(ok);
  });

  const shapeRefusals: [string, Body, string][] = [
    ['not an object', { can_send_message_group: 5 }, 'can_send_message_group is not a dict'],
    ['no new value', { can_send_message_group: { old: 5 } }, 'can_send_message_group["new"] is missing'],
    ['an unknown key', { can_send_message_group: { new: 5, newer: 6 } }, 'Argument "newer" at can_send_message_group is unexpected'],
    ['an unknown group', { can_send_message_group: { new: 999 } }, 'Invalid user group'],
    ['role:everyone where guests are kept out', { can_administer_channel_group: { new: G.everyone } }, "'can_administer_channel_group' setting cannot be set to 'role:everyone' group."],
  ];
  it.each(shapeRefusals)('refuses %s', async (_n, body, msg) => {
    expect((await call(sim(), 'PATCH', `/streams/${S.denmark}`, body)).body).toEqual(error(msg));
  });
});

describe('DELETE /streams/{stream_id} (archive) and unarchiving', () => {
  it('archives: subscriptions stay, the default list and announcements setting let go, an update or a delete by capability, a read notice', async () => {
    const s = sim();
    const modern = watchEvents(s, { archived_channels: true });
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'DELETE', `/streams/${S.verona}`)).body).toEqual(ok);
    });
    const seers = EVERYONE; // Verona is public and the guest is subscribed.
    const leading = [
      { event: { type: 'realm', op: 'update_dict', property: 'default', data: { new_stream_announcements_stream_id: -1 } }, users: EVERYONE },
      { event: { type: 'default_streams', default_streams: [] }, users: NON_GUESTS },
    ];
    // Clients without archived_channels see a deletion, the others an update.
    expect(channelEvents(events)).toEqual([
      ...leading,
      { event: { type: 'stream', op: 'delete', streams: [{ stream_id: S.verona }], stream_ids: [S.verona] }, users: seers },
    ]);
    expect(channelEvents(modern.take())).toEqual([
      ...leading,
      { event: { type: 'stream', op: 'update', property: 'is_archived', value: true, stream_id: S.verona, name: 'Verona' }, users: seers },
    ]);
    const verona = streamOf(s, S.verona);
    expect(verona.is_archived).toBe(true);
    expect(s.engine.state.realm.new_stream_announcements_stream_id).toBeNull();
    expect((await call(s, 'GET', `/streams/${S.verona}/members`)).body.subscribers).toHaveLength(10);
    const notice = (await lastNotice(s, S.verona))!;
    expect(notice).toMatchObject({ content: 'Channel #**Verona** has been archived.', flags: ['read'] });
    expect((await call(s, 'POST', '/messages', { type: 'stream', to: 'Verona', topic: 't', content: 'hi' }, ID.hamlet)).body).toEqual(
      error("Not authorized to send to channel 'Verona'"),
    );
    expect((await call(s, 'DELETE', `/streams/${S.verona}`)).body).toEqual(error('Channel is already deactivated'));
  });

  it('applies the administering rules', async () => {
    const s = sim();
    expect((await call(s, 'DELETE', `/streams/${S.scotland}`, {}, ID.hamlet)).body).toEqual(
      error('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL'),
    );
    expect((await call(s, 'DELETE', `/streams/${S.denmark}`, {}, ID.polonius)).body).toEqual(error('Invalid channel ID'));
    // Polonius created Venice, but guests never administer channels.
    expect((await call(s, 'DELETE', `/streams/${S.venice}`, {}, ID.polonius)).body).toEqual(error('Invalid channel ID'));
    expect((await call(s, 'DELETE', `/streams/${S.coreTeam}`, {}, ID.desdemona)).body).toEqual(ok);
  });

  it('unarchives with PATCH is_archived=false: update (for clients that show archived channels), create (for the others), and a notice', async () => {
    const s = sim();
    await call(s, 'DELETE', `/streams/${S.denmark}`);
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { is_archived: true })).body).toEqual(ok);
    const modern = watchEvents(s, { archived_channels: true });
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { is_archived: false })).body).toEqual(ok);
    });
    const stream = (await call(s, 'GET', `/streams/${S.denmark}`)).body.stream;
    const create = { event: { type: 'stream', op: 'create', streams: [stream] }, users: NON_GUESTS };
    expect(channelEvents(events)).toEqual([create]);
    // Clients that keep archived channels never lost it: the update only (Zulip's for_unarchiving).
    expect(channelEvents(modern.take())).toEqual([
      { event: { type: 'stream', op: 'update', property: 'is_archived', value: false, stream_id: S.denmark, name: 'Denmark' }, users: NON_GUESTS },
    ]);
    expect(stream.is_archived).toBe(false);
    expect((await lastNotice(s, S.denmark))!).toMatchObject({ content: 'Channel #**Denmark** has been unarchived.', flags: [] });
    expect((await call(s, 'PATCH', `/streams/${S.denmark}`, { is_archived: false })).body).toEqual(error('Channel is not currently deactivated'));
  });

  it('refuses to unarchive a private channel nobody is subscribed to', async () => {
    const s = sim();
    await call(s, 'DELETE', `/streams/${S.coreTeam}`);
    await call(s, 'DELETE', '/users/me/subscriptions', { subscriptions: ['core team'], principals: [ID.desdemona, ID.hamlet, ID.iago] });
    expect((await call(s, 'PATCH', `/streams/${S.coreTeam}`, { is_archived: false })).body).toEqual(error('Channel is private and have no subscribers'));
  });
});

describe('POST and DELETE /default_streams', () => {
  it('adds a channel (event only when it was not one) and removes it (event every time)', async () => {
    const s = sim();
    const added = await eventsOf(s, async () => {
      expect((await call(s, 'POST', '/default_streams', { stream_id: S.denmark })).body).toEqual(ok);
    });
    expect(added).toEqual([{ event: { type: 'default_streams', default_streams: [S.verona, S.denmark] }, users: NON_GUESTS }]);
    expect(await eventsOf(s, () => call(s, 'POST', '/default_streams', { stream_id: S.denmark }))).toEqual([]);
    const removed = await eventsOf(s, () => call(s, 'DELETE', '/default_streams', { stream_id: S.denmark }));
    expect(removed).toEqual([{ event: { type: 'default_streams', default_streams: [S.verona] }, users: NON_GUESTS }]);
    expect(await eventsOf(s, () => call(s, 'DELETE', '/default_streams', { stream_id: S.denmark }))).toHaveLength(1);
    const all = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.iago, query: { include_default: true } });
    expect(all.body.streams.filter((c: Body) => c.is_default).map((c: Body) => c.name)).toEqual(['Verona']);
  });

  const refusals: [string, number, Body, Body][] = [
    ['a member', ID.hamlet, { stream_id: S.denmark }, error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL')],
    ['a private channel', ID.iago, { stream_id: S.coreTeam }, error('Private channels cannot be made default.')],
    ['an unknown channel', ID.iago, { stream_id: 99 }, error('Invalid channel ID')],
    ['no stream_id', ID.iago, {}, { ...error("Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'stream_id' }],
  ];
  it.each(refusals)('POST refuses %s', async (_n, as, body, expected) => {
    expect((await call(sim(), 'POST', '/default_streams', body, as)).body).toEqual(expected);
  });

  it('refuses an archived channel', async () => {
    const s = sim();
    await call(s, 'DELETE', `/streams/${S.denmark}`);
    expect((await call(s, 'POST', '/default_streams', { stream_id: S.denmark })).body).toEqual(error('Invalid channel ID'));
  });
});

it('keeps date_created and the rest of the channel intact through a rename', async () => {
  const s = sim();
  await call(s, 'PATCH', `/streams/${S.denmark}`, { new_name: 'Danmark' });
  expect(streamOf(s, S.denmark)).toMatchObject({ name: 'Danmark', date_created: expect.any(Number) });
  expect(streamOf(s, S.denmark).date_created).toBeLessThanOrEqual(NOW);
});
