// PATCH /realm through the in-process API: the reply, the stored setting, the realm events to
// every active user, who may change what (administrators; owners for some), each validation
// error, and that a change acts on the next request (edit limits, channel creation, the
// empty-topic policy, spectators, full members).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { activeUserIds } from '../../simulator/engine/core.ts';
import { realmSettingsState } from '../../simulator/engine/realm/settings.ts';
import type { Simulator } from '../../simulator/index.ts';
import { pending, register } from './events/helpers.ts';
import { clockedSim, error, patch, post } from './messages/helpers.ts';
import { ID, sim, watchEvents } from './helpers.ts';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';
const SHIVA = 'shiva@zulip.com';
const POLONIUS = 'polonius@zulip.com';

/** The events `act` delivered, each with the users whose queues got it. */
async function eventsOf(s: Simulator, act: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await act();
  return watch.take();
}

function patchRealm(s: Simulator, as: string, body: Record<string, unknown>) {
  return patch(s, as, '/realm', body);
}

// A client applies each realm event to the `realm_*` keys it got from /register.
function apply(state: Record<string, unknown>, event: Record<string, unknown>): void {
  if (event.type !== 'realm') return;
  if (event.op === 'update') state[`realm_${event.property as string}`] = event.value;
  if (event.op === 'update_dict') {
    for (const [k, v] of Object.entries(event.data as Record<string, unknown>)) {
      if (k === 'authentication_methods') state.realm_authentication_methods = v;
      else state[`realm_${k}`] = v;
    }
  }
  state.realm_allow_edit_history = state.realm_message_edit_history_visibility_policy !== 'none';
}

const group = (s: Simulator, name: string) => s.engine.state.realm.system_groups[name]!;
const json = (v: unknown) => JSON.stringify(v);

describe('PATCH /realm: success and events', () => {
  test('an administrator renames the organization: "updated" in the reply, an update event to every active user', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { name: 'Zulip Test' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', msg: '', name: 'updated' });
    });
    expect(s.engine.state.realm.name).toBe('Zulip Test');
    expect(events).toEqual([
      { event: { type: 'realm', op: 'update', property: 'name', value: 'Zulip Test' }, users: activeUserIds(s.engine) },
    ]);
    // Bots hear it too; system bots (another realm upstream) do not.
    expect(events[0]!.users).toContain(ID.defaultBot);
    expect(events[0]!.users).not.toContain(4);
    const settings = await s.request({ method: 'GET', path: '/api/v1/server_settings' });
    expect(settings.body.realm_name).toBe('Zulip Test');
  });

  test('a value equal to the current one changes nothing: empty reply, no event', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { name: s.engine.state.realm.name, enable_spectator_access: 'true', message_content_edit_limit_seconds: '600' });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([]);
  });

  test('booleans and integers are echoed with their new value; several settings in one request, in Zulip’s order', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { video_chat_provider: '0', enable_read_receipts: 'false', digest_weekday: '4' });
      expect(res.body).toEqual({ result: 'success', msg: '', digest_weekday: 4, enable_read_receipts: false, video_chat_provider: 0 });
      expect(Object.keys(res.body)).toEqual(['result', 'msg', 'digest_weekday', 'enable_read_receipts', 'video_chat_provider']);
    });
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm', op: 'update', property: 'digest_weekday', value: 4 },
      { type: 'realm', op: 'update', property: 'enable_read_receipts', value: false },
      { type: 'realm', op: 'update', property: 'video_chat_provider', value: 0 },
    ]);
  });

  test('the edit settings use update_dict, as upstream; the delete limit a plain update', async () => {
    const s = sim();
    const events = await eventsOf(s, () =>
      patchRealm(s, IAGO, {
        allow_message_editing: 'false',
        message_content_edit_limit_seconds: '3600',
        message_content_delete_limit_seconds: '"unlimited"',
      }),
    );
    expect(events.map((e) => e.event)).toEqual([
      // "unlimited" is applied as soon as it is parsed, before the other settings.
      { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: null },
      { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 3600 } },
    ]);
    expect(s.engine.state.realm.message_content_delete_limit_seconds).toBeNull();
  });

  test('topics_policy: update_dict with mandatory_topics; the reply carries the stored integer even when unchanged', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { topics_policy: 'disable_empty_topic' });
      expect(res.body).toEqual({ result: 'success', msg: '', topics_policy: 3 });
    });
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } },
    ]);
    const again = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { topics_policy: 'disable_empty_topic', message_edit_history_visibility_policy: 'all' });
      expect(res.body).toEqual({ result: 'success', msg: '', message_edit_history_visibility_policy: 1, topics_policy: 3 });
    });
    expect(again).toEqual([]);
  });

  test('message_edit_history_visibility_policy: an update with the policy name', async () => {
    const s = sim();
    const events = await eventsOf(s, () => patchRealm(s, IAGO, { message_edit_history_visibility_policy: 'moves' }));
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'moves' },
    ]);
    expect(s.engine.state.realm.message_edit_history_visibility_policy).toBe('moves');
  });

  test('message_retention_days: "unlimited" is -1 in the event; a number of days is stored', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await patchRealm(s, DESDEMONA, { message_retention_days: '30' })).body).toEqual({ result: 'success', msg: '', message_retention_days: 30 });
      expect((await patchRealm(s, DESDEMONA, { message_retention_days: '"unlimited"' })).body).toEqual({
        result: 'success',
        msg: '',
        message_retention_days: -1,
      });
    });
    expect(events.map((e) => e.event.value)).toEqual([30, -1]);
    expect(s.engine.state.realm.message_retention_days).toBeNull();
  });

  test('a group setting: update_dict with the new value, echoed in the reply; `old` must match when sent', async () => {
    const s = sim();
    const admins = group(s, 'role:administrators');
    const members = group(s, 'role:members');
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { can_create_public_channel_group: json({ new: admins, old: members }) });
      expect(res.body).toEqual({ result: 'success', msg: '', can_create_public_channel_group: admins });
    });
    expect(events).toEqual([
      {
        event: { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_public_channel_group: admins } },
        users: activeUserIds(s.engine),
      },
    ]);
    const stale = await patchRealm(s, IAGO, { can_create_public_channel_group: json({ new: members, old: members }) });
    expect(stale.body).toEqual(error('EXPECTATION_MISMATCH', "'old' value does not match the expected value."));
  });

  test('an anonymous group is stored sorted; one subgroup and no members is that group', async () => {
    const s = sim();
    const res = await patchRealm(s, IAGO, {
      can_add_custom_emoji_group: json({ new: { direct_members: [ID.othello, ID.hamlet], direct_subgroups: [] } }),
      can_resolve_topics_group: json({ new: { direct_members: [], direct_subgroups: [group(s, 'role:moderators')] } }),
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      can_add_custom_emoji_group: { direct_members: [ID.hamlet, ID.othello], direct_subgroups: [] },
      can_resolve_topics_group: group(s, 'role:moderators'),
    });
    expect(realmSettingsState(s.engine).realm_can_add_custom_emoji_group).toEqual({ direct_members: [ID.hamlet, ID.othello], direct_subgroups: [] });
  });

  test('channel settings: -1 clears, an id must name a channel; the moderation channel must be private', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, IAGO, { new_stream_announcements_stream_id: '-1' });
      expect(res.body).toEqual({ result: 'success', msg: '', new_stream_announcements_stream_id: -1 });
    });
    expect(events.map((e) => e.event)).toEqual([{ type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: -1 }]);
    expect(s.engine.state.realm.new_stream_announcements_stream_id).toBeNull();
    expect((await patchRealm(s, IAGO, { signup_announcements_stream_id: '9999' })).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    const verona = s.engine.state.streamsByName.get('verona')!;
    const core = s.engine.state.streamsByName.get('core team')!;
    expect((await patchRealm(s, IAGO, { moderation_request_channel_id: String(verona) })).body).toEqual(
      error('BAD_REQUEST', 'Moderation request channel must be private.'),
    );
    expect((await patchRealm(s, IAGO, { moderation_request_channel_id: String(core) })).body).toEqual({
      result: 'success',
      msg: '',
      moderation_request_channel_id: core,
    });
  });

  test('authentication_methods (owners): an update_dict with every method; names and "at least one" checked', async () => {
    const s = sim();
    expect((await patchRealm(s, IAGO, { authentication_methods: json({ Dev: false }) })).body).toEqual(
      error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'),
    );
    expect((await patchRealm(s, DESDEMONA, { authentication_methods: json({ GitHub: true }) })).body).toEqual(
      error('BAD_REQUEST', "Invalid authentication method: GitHub. Valid methods are: ['Dev', 'Email']"),
    );
    expect((await patchRealm(s, DESDEMONA, { authentication_methods: json({ Dev: false, Email: false }) })).body).toEqual(
      error('BAD_REQUEST', 'At least one authentication method must be enabled.'),
    );
    const events = await eventsOf(s, () => patchRealm(s, DESDEMONA, { authentication_methods: json({ Dev: false, Email: true }) }));
    expect(events.map((e) => e.event)).toEqual([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { authentication_methods: { Dev: { enabled: false, available: true }, Email: { enabled: true, available: true } } },
      },
    ]);
    // The development login endpoints follow the setting at once.
    expect((await s.request({ method: 'POST', path: '/api/v1/dev_fetch_api_key', body: { username: HAMLET } })).body).toMatchObject({
      result: 'error',
      msg: 'DevAuthBackend not enabled.',
    });
  });

  test('jitsi_server_url: "default" is none, a URL is "updated", anything else refused', async () => {
    const s = sim();
    expect((await patchRealm(s, IAGO, { jitsi_server_url: json('https://jitsi.example.com') })).body).toEqual({
      result: 'success',
      msg: '',
      jitsi_server_url: 'updated',
    });
    expect((await patchRealm(s, IAGO, { jitsi_server_url: json('default') })).body).toEqual({ result: 'success', msg: '', jitsi_server_url: null });
    expect(s.engine.state.realm.jitsi_server_url).toBeNull();
    expect((await patchRealm(s, IAGO, { jitsi_server_url: json('meet here') })).body).toEqual(
      error('BAD_REQUEST', 'jitsi_server_url is not an allowed_type'),
    );
  });
});

describe('PATCH /realm: who may', () => {
  test.each([
    ['a member', HAMLET],
    ['a moderator', SHIVA],
    ['a guest', POLONIUS],
  ])('%s may not change anything', async (_who, as) => {
    const s = sim();
    const res = await patchRealm(s, as, { name: 'Mine' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect(s.engine.state.realm.name).toBe('Zulip Dev');
  });

  const ownerOnly: [string, (s: Simulator) => string][] = [
    ['invite_required', () => 'false'],
    ['emails_restricted_to_domains', () => 'true'],
    ['disallow_disposable_email_addresses', () => 'false'],
    ['waiting_period_threshold', () => '3'],
    ['message_retention_days', () => '30'],
    ['create_multiuse_invite_group', (s) => json({ new: group(s, 'role:moderators') })],
    ['can_create_groups', (s) => json({ new: group(s, 'role:moderators') })],
    ['can_invite_users_group', (s) => json({ new: group(s, 'role:moderators') })],
    ['can_manage_all_groups', (s) => json({ new: group(s, 'role:administrators') })],
    ['can_manage_billing_group', (s) => json({ new: group(s, 'role:owners') })],
  ];
  test.each(ownerOnly)('%s: owners only', async (setting, value) => {
    const s = sim();
    const before = structuredClone(realmSettingsState(s.engine));
    const refused = await patchRealm(s, IAGO, { [setting]: value(s) });
    expect(refused.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'));
    expect(realmSettingsState(s.engine)).toEqual(before);
    const done = await patchRealm(s, DESDEMONA, { [setting]: value(s) });
    expect(done.status).toBe(200);
    expect(Object.keys(done.body)).toContain(setting);
  });

  test('an administrator may change the settings that are not owner-only', async () => {
    const s = sim();
    const res = await patchRealm(s, IAGO, {
      description: 'New words',
      can_add_custom_emoji_group: json({ new: group(s, 'role:administrators') }),
      enable_spectator_access: 'false',
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      description: 'updated',
      enable_spectator_access: false,
      can_add_custom_emoji_group: group(s, 'role:administrators'),
    });
  });
});

describe('PATCH /realm: validation errors', () => {
  const cases: [string, Record<string, string> | ((s: Simulator) => Record<string, string>), string][] = [
    ['name too long', { name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
    ['description too long', { description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
    ['welcome text too long', { welcome_message_custom_text: 'x'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
    ['a boolean that is not', { invite_required: 'yes' }, 'invite_required is not valid JSON'],
    ['a boolean of the wrong type', { enable_read_receipts: '1' }, 'enable_read_receipts is not a boolean'],
    ['an unknown language', { default_language: 'xx' }, "Invalid language 'xx'"],
    ['a video provider the server lacks', { video_chat_provider: '3' }, 'Invalid video_chat_provider 3'],
    ['a GIPHY rating out of range', { gif_rating_policy: '9' }, 'Invalid gif_rating_policy 9'],
    ['a weekday out of range', { digest_weekday: '7' }, 'Invalid digest_weekday'],
    ['an unknown topics policy', { topics_policy: 'empty_topic_only' }, 'Invalid topics_policy'],
    ['an unknown history policy', { message_edit_history_visibility_policy: 'some' }, 'Invalid message_edit_history_visibility_policy'],
    ['a zero edit limit', { message_content_edit_limit_seconds: '0' }, "Bad value for 'message_content_edit_limit_seconds': 0"],
    ['a word for a limit', { move_messages_within_stream_limit_seconds: '"forever"' }, "Bad value for 'move_messages_within_stream_limit_seconds': forever"],
    ['a limit that is not a number', { message_content_delete_limit_seconds: 'true' }, 'message_content_delete_limit_seconds["int"] is not an integer'],
    ['a negative waiting period (owner)', { waiting_period_threshold: '-1' }, 'waiting_period_threshold is too small'],
    ['an unknown organization type', { org_type: '11' }, 'Invalid org_type'],
    ['a group setting that is not a dict', { can_create_groups: '5' }, 'can_create_groups is not a dict'],
    ['a group setting without new', { can_create_groups: '{"old": 5}' }, 'can_create_groups["new"] is missing'],
    ['an unknown group', { can_add_custom_emoji_group: '{"new": 9999}' }, 'Invalid user group'],
    [
      'role:everyone where refused',
      (s) => ({ can_create_public_channel_group: json({ new: group(s, 'role:everyone') }) }),
      "'can_create_public_channel_group' setting cannot be set to 'role:everyone' group.",
    ],
    [
      'role:nobody where refused',
      (s) => ({ can_manage_all_groups: json({ new: group(s, 'role:nobody') }) }),
      "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.",
    ],
    [
      'a system group outside the allowed ones',
      (s) => ({ can_create_web_public_channel_group: json({ new: group(s, 'role:members') }) }),
      "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.",
    ],
    [
      'an anonymous group where a system group is required',
      { can_create_web_public_channel_group: json({ new: { direct_members: [10, 11], direct_subgroups: [] } }) },
      "'can_create_web_public_channel_group' must be a system user group.",
    ],
    ['a deactivated user in an anonymous group', { can_create_bots_group: json({ new: { direct_members: [10, 99], direct_subgroups: [] } }) }, 'Invalid user ID: 99'],
    ['role:internet', (s) => ({ can_summarize_topics_group: json({ new: group(s, 'role:internet') }) }), "'can_summarize_topics_group' setting cannot be set to 'role:internet' group."],
    ['a subdomain change outside a demo organization', { string_id: 'newname' }, 'Must be a demo organization.'],
  ];
  test.each(cases)('%s', async (_name, body, msg) => {
    const s = sim();
    const before = structuredClone(realmSettingsState(s.engine));
    const res = await patchRealm(s, DESDEMONA, typeof body === 'function' ? body(s) : body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('BAD_REQUEST', msg));
    expect(realmSettingsState(s.engine)).toEqual(before);
  });

  test('a request with one bad setting changes none of the others', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patchRealm(s, DESDEMONA, {
        name: 'Changed',
        message_content_edit_limit_seconds: '"unlimited"',
        can_create_groups: json({ new: 9999 }),
      });
      expect(res.body).toEqual(error('BAD_REQUEST', 'Invalid user group'));
    });
    expect(events).toEqual([]);
    expect(s.engine.state.realm.name).toBe('Zulip Dev');
    expect(s.engine.state.realm.message_content_edit_limit_seconds).toBe(600);
  });
});

describe('PATCH /realm: the change acts on the next request', () => {
  test('the edit limit decides what PATCH /messages allows; allow_message_editing=false stops every edit', async () => {
    const { s, advance } = clockedSim();
    const sent = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'limits', content: 'first' });
    const id = sent.body.id as number;
    advance(700);
    const late = await patch(s, HAMLET, `/messages/${id}`, { content: 'second' });
    expect(late.body).toEqual(error('BAD_REQUEST', 'The time limit for editing this message has passed'));
    await patchRealm(s, IAGO, { message_content_edit_limit_seconds: '3600' });
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'second' })).status).toBe(200);
    await patchRealm(s, IAGO, { allow_message_editing: 'false' });
    expect((await patch(s, HAMLET, `/messages/${id}`, { content: 'third' })).body).toMatchObject({ result: 'error' });
  });

  test('who may create channels follows can_create_public_channel_group, an anonymous group included', async () => {
    const s = sim();
    const create = (as: string, name: string) => post(s, as, '/users/me/subscriptions', { subscriptions: json([{ name }]) });
    await patchRealm(s, IAGO, { can_create_public_channel_group: json({ new: { direct_members: [ID.othello], direct_subgroups: [] } }) });
    expect((await create(HAMLET, 'hamlet-made')).body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    expect((await create('othello@zulip.com', 'othello-made')).status).toBe(200);
    await patchRealm(s, IAGO, { can_create_public_channel_group: json({ new: group(s, 'role:members') }) });
    expect((await create(HAMLET, 'hamlet-made')).status).toBe(200);
  });

  test('topics_policy disable_empty_topic refuses the empty topic in channels that inherit it', async () => {
    const s = sim();
    const send = () => post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: '', content: 'no topic' });
    expect((await send()).status).toBe(200);
    await patchRealm(s, IAGO, { topics_policy: 'disable_empty_topic' });
    expect((await send()).body).toEqual(error('BAD_REQUEST', 'Sending messages to the general chat is not allowed in this channel.'));
  });

  test('enable_spectator_access=false stops the creation of web-public channels', async () => {
    const s = sim();
    const create = (name: string) =>
      post(s, DESDEMONA, '/users/me/subscriptions', { subscriptions: json([{ name }]), is_web_public: 'true' });
    expect((await create('open-one')).status).toBe(200);
    await patchRealm(s, IAGO, { enable_spectator_access: 'false' });
    expect((await create('open-two')).body).toEqual(error('BAD_REQUEST', 'Web-public channels are not enabled.'));
  });

  test('waiting_period_threshold moves members out of (and back into) role:fullmembers, with events', async () => {
    const s = sim();
    const full = s.engine.state.userGroups.get(group(s, 'role:fullmembers'))!;
    const before = [...full.members].sort((a, b) => a - b);
    expect(before.length).toBeGreaterThan(0);
    const events = await eventsOf(s, () => patchRealm(s, DESDEMONA, { waiting_period_threshold: '100000' }));
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 100000 },
      { type: 'user_group', op: 'remove_members', group_id: full.id, user_ids: before },
    ]);
    expect(full.members.size).toBe(0);
    const back = await eventsOf(s, () => patchRealm(s, DESDEMONA, { waiting_period_threshold: '0' }));
    expect(back.map((e) => e.event)[1]).toEqual({ type: 'user_group', op: 'add_members', group_id: full.id, user_ids: before });
  });
});

describe('PATCH /realm: events keep a client’s copy of the settings exact', () => {
  const change = fc.record(
    {
      name: fc.constantFrom('A', 'Zulip Dev', 'Another name'),
      allow_message_editing: fc.boolean().map(String),
      message_content_edit_limit_seconds: fc.constantFrom('"unlimited"', '60', '600'),
      message_content_delete_limit_seconds: fc.constantFrom('"unlimited"', '60', '600'),
      move_messages_within_stream_limit_seconds: fc.constantFrom('"unlimited"', '604800'),
      message_retention_days: fc.constantFrom('"unlimited"', '7'),
      topics_policy: fc.constantFrom('allow_empty_topic', 'disable_empty_topic'),
      message_edit_history_visibility_policy: fc.constantFrom('all', 'moves', 'none'),
      waiting_period_threshold: fc.constantFrom('0', '3'),
      jitsi_server_url: fc.constantFrom('"default"', '"https://meet.example.org"'),
      can_create_public_channel_group: fc.constantFrom(10, 11, 14).map((id) => json({ new: id })),
      can_move_messages_between_topics_group: fc.constantFrom(
        json({ new: 15 }),
        json({ new: { direct_members: [10], direct_subgroups: [12] } }),
      ),
      new_stream_announcements_stream_id: fc.constantFrom('-1', '3'),
    },
    { requiredKeys: [] },
  );

  test('applying the events of any sequence of changes to the old settings gives the new ones', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 4 }), async (changes) => {
        const s = sim();
        const client = structuredClone(realmSettingsState(s.engine));
        for (const body of changes) {
          const events = await eventsOf(s, async () => {
            expect((await patchRealm(s, DESDEMONA, body)).status).toBe(200);
          });
          for (const e of events) apply(client, e.event);
        }
        expect(client).toEqual(realmSettingsState(s.engine));
      }),
      { numRuns: 40 },
    );
  });
});

describe('PATCH /realm and /register', () => {
  test('a client that registers, then applies the realm events it polls, has the settings a new /register gives', async () => {
    const s = sim();
    const before = await register(s, HAMLET, { fetch_event_types: json(['realm']), event_types: json(['realm', 'user_group']) });
    await patchRealm(s, DESDEMONA, {
      name: 'Renamed',
      message_content_edit_limit_seconds: '"unlimited"',
      topics_policy: 'disable_empty_topic',
      can_create_private_channel_group: json({ new: group(s, 'role:moderators') }),
      invite_required: 'false',
    });
    const events = await pending(s, HAMLET, before.queue_id);
    expect(events.map((e) => e.type)).toEqual(['realm', 'realm', 'realm', 'realm', 'realm']);
    const client: Record<string, unknown> = { ...before };
    for (const e of events) apply(client, e);
    const after = await register(s, HAMLET, { fetch_event_types: json(['realm']) });
    for (const key of Object.keys(realmSettingsState(s.engine))) expect(client[key]).toEqual(after[key]);
    expect(after.realm_name).toBe('Renamed');
    expect(after.realm_message_content_edit_limit_seconds).toBeNull();
    expect(after.realm_mandatory_topics).toBe(true);
    expect(after.realm_invite_required).toBe(false);
    // The derived legacy policy and the own-user rights follow the new group.
    expect(after.realm_create_private_stream_policy).toBe(4);
    const rights = await register(s, HAMLET, { fetch_event_types: json(['realm_user']) });
    expect(rights.can_create_private_streams).toBe(false);
  });
});
