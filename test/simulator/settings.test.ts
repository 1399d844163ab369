/** Personal settings (zerver/views/user_settings.py): PATCH /settings, its legacy paths, its events and /register state. */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { USER_SETTINGS, type SettingSpec, type SettingValue } from '../../simulator/engine/users/settings.ts';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

const HAMLET_GRAVATAR = 'https://secure.gravatar.com/avatar/6d8cad0fd00256e7b40691d27ddfd466?d=identicon&version=1';
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

function change(s: Simulator, body: Record<string, unknown>, as: number = ID.hamlet, path = '/api/v1/settings') {
  return s.request({ method: 'PATCH', path, as, body });
}

async function registered(s: Simulator, as: number = ID.hamlet, body: Record<string, unknown> = { fetch_event_types: ['user_settings'] }) {
  const res = await s.request({ method: 'POST', path: '/api/v1/register', as, body });
  expect(res.status).toBe(200);
  return res.body;
}

const everyoneActive = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id).sort((a, b) => a - b);

/** A valid value other than the default, for every setting of the table. */
function otherValue(spec: SettingSpec): SettingValue {
  const special: Record<string, SettingValue> = {
    default_language: 'de',
    notification_sound: 'ding',
    timezone: 'Europe/Madrid',
    email_address_visibility: 4,
  };
  if (spec.name in special) return special[spec.name]!;
  if (spec.type === 'bool') return !spec.default;
  if (spec.values) return spec.values.find((v) => v !== spec.default)!;
  return (spec.default as number) + 1;
}

describe('PATCH /settings, every setting of the table', () => {
  it.each(USER_SETTINGS.map((spec) => [spec.name, spec] as const))('%s: stored, in /register, announced to the user', async (_name, spec) => {
    const s = sim();
    const value = otherValue(spec);
    const watch = watchEvents(s);
    const res = await change(s, { [spec.name]: value });
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '' }]);
    expect((await registered(s)).user_settings[spec.name]).toEqual(value);
    const event: Record<string, unknown> = { type: 'user_settings', op: 'update', property: spec.name, value };
    if (spec.name === 'default_language') event.language_name = 'Deutsch';
    expect(watch.take().filter((e) => e.event.type === 'user_settings')).toEqual([{ event, users: [ID.hamlet] }]);
    // Sending the same value again changes nothing and says nothing.
    const again = watchEvents(s);
    await change(s, { [spec.name]: value });
    expect(again.take()).toEqual([]);
  });

  it('sends the legacy event of the setting’s group to clients without user_settings_object', async () => {
    const s = sim();
    const watch = watchEvents(s, { user_settings_object: false });
    await change(s, { default_language: 'fr', enable_sounds: false, send_read_receipts: false });
    const mine = watch.of(ID.hamlet);
    expect(mine.filter((e) => e.type !== 'user_settings')).toEqual([
      { type: 'update_display_settings', user: 'user10@zulip.testserver', setting_name: 'default_language', setting: 'fr', language_name: 'Français' },
      { type: 'update_global_notifications', user: 'user10@zulip.testserver', notification_name: 'enable_sounds', setting: false },
    ]);
    const modern = watchEvents(s);
    await change(s, { enable_sounds: true });
    expect(modern.of(ID.hamlet).map((e) => e.type)).toEqual(['user_settings']);
  });

  it('shows the legacy top-level keys to a /register without user_settings_object', async () => {
    const s = sim();
    await change(s, { twenty_four_hour_time: true, enable_sounds: false });
    const body = await registered(s, ID.hamlet, { fetch_event_types: ['update_display_settings', 'update_global_notifications'] });
    expect(body).toMatchObject({ twenty_four_hour_time: true, enable_sounds: false, emojiset_choices: expect.any(Array), available_notification_sounds: ['chime-short', 'ding', 'zulip'] });
  });

  it('answers at the legacy paths too', async () => {
    const s = sim();
    expect((await change(s, { enable_sounds: false }, ID.hamlet, '/api/v1/settings/notifications')).status).toBe(200);
    expect((await change(s, { fluid_layout_width: true }, ID.hamlet, '/api/v1/settings/display')).status).toBe(200);
    expect((await registered(s)).user_settings).toMatchObject({ enable_sounds: false, fluid_layout_width: true });
  });

  it.each([
    [{ enter_sends: 'yes' }, 'enter_sends is not valid JSON'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    [{ color_scheme: 4 }, 'Invalid color_scheme'],
    [{ color_scheme: '"dark"' }, 'color_scheme is not an integer'],
    [{ web_home_view: 'home' }, 'Invalid web_home_view'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ email_address_visibility: 6 }, 'Invalid email_address_visibility'],
    [{ automatically_follow_topics_policy: 5 }, 'Invalid automatically_follow_topics_policy'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'beep' }, "Invalid notification sound 'beep'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ timezone: 'Mars/Olympus_Mons' }, "Invalid timezone 'Mars/Olympus_Mons'"],
  ])('refuses %j: %s', async (body, msg) => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await change(s, { enable_sounds: false, ...body })).body).toEqual(error(msg));
    // Nothing else sent in the request changed either.
    expect(watch.take()).toEqual([]);
    expect((await registered(s)).user_settings.enable_sounds).toBe(true);
  });

  it("accepts 'none' as a notification sound and '' as no time zone", async () => {
    const s = sim();
    expect((await change(s, { notification_sound: 'none', timezone: '' })).status).toBe(200);
    expect((await registered(s)).user_settings).toMatchObject({ notification_sound: 'none', timezone: '' });
  });

  it('refuses bots, and reports parameters it does not know as ignored', async () => {
    const s = sim();
    expect((await change(s, { enable_sounds: false }, ID.defaultBot)).body).toEqual(error('This endpoint does not accept bot requests.'));
    expect((await change(s, { enable_sounds: false, night_mode: true })).body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['night_mode'] });
  });
});

describe('PATCH /settings: what settings do beyond themselves', () => {
  it('timezone: everyone who can see the user learns it', async () => {
    const s = sim();
    const watch = watchEvents(s);
    await change(s, { timezone: 'Asia/Kolkata' });
    expect(watch.take().find((e) => e.event.type === 'realm_user')).toEqual({
      event: { type: 'realm_user', op: 'update', person: { email: 'user10@zulip.testserver', user_id: ID.hamlet, timezone: 'Asia/Kolkata' } },
      users: everyoneActive(s),
    });
    expect((await s.request({ method: 'GET', path: `/api/v1/users/${ID.hamlet}`, as: ID.othello })).body.user.timezone).toBe('Asia/Kolkata');
  });

  it('email_address_visibility: the API email follows, and who may see the real address is told', async () => {
    const s = sim();
    const watch = watchEvents(s);
    await change(s, { email_address_visibility: 1 });
    const realmUser = watch.take().filter((e) => e.event.type === 'realm_user');
    const admins: number[] = [ID.desdemona, ID.iago];
    expect(realmUser).toEqual([
      {
        event: { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, delivery_email: 'hamlet@zulip.com' } },
        users: everyoneActive(s).filter((id) => !admins.includes(id) && id !== ID.hamlet),
      },
      { event: { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, new_email: 'hamlet@zulip.com' } }, users: everyoneActive(s) },
      // notify_avatar_url_change: full URLs; clients with client_gravatar may now compute it themselves.
      {
        event: {
          type: 'realm_user',
          op: 'update',
          person: { avatar_source: 'G', avatar_url: HAMLET_GRAVATAR, avatar_url_medium: `${HAMLET_GRAVATAR}&s=500`, avatar_version: 1, user_id: ID.hamlet },
        },
        users: everyoneActive(s),
      },
    ]);
    const seen = (await s.request({ method: 'GET', path: `/api/v1/users/${ID.hamlet}`, as: ID.othello })).body.user;
    expect([seen.email, seen.delivery_email]).toEqual(['hamlet@zulip.com', 'hamlet@zulip.com']);
    // Back to administrators only: the others lose the address, the fake one returns.
    const back = watchEvents(s);
    await change(s, { email_address_visibility: 3 });
    const events = back.take().filter((e) => e.event.type === 'realm_user');
    expect(events.map((e) => e.event.person)).toEqual([
      { user_id: ID.hamlet, delivery_email: null },
      { user_id: ID.hamlet, new_email: 'user10@zulip.testserver' },
      { avatar_source: 'G', avatar_url: HAMLET_GRAVATAR, avatar_url_medium: `${HAMLET_GRAVATAR}&s=500`, avatar_version: 1, user_id: ID.hamlet },
    ]);
    expect((await s.request({ method: 'GET', path: '/api/v1/users/user10@zulip.testserver', as: ID.othello })).body.user.user_id).toBe(ID.hamlet);
  });

  it('presence_enabled: off shows the user as away in their status', async () => {
    const s = sim();
    await s.request({ method: 'POST', path: '/api/v1/users/me/status', as: ID.hamlet, body: { status_text: 'reading' } });
    await change(s, { presence_enabled: false });
    expect((await s.request({ method: 'GET', path: `/api/v1/users/${ID.hamlet}/status`, as: ID.othello })).body.status).toEqual({ away: true, status_text: 'reading' });
  });

  it('enable_drafts_synchronization: off deletes the server copies (without events) and refuses drafts', async () => {
    const s = sim();
    await s.request({ method: 'POST', path: '/api/v1/drafts', as: ID.hamlet, body: { drafts: [{ type: 'stream', to: [3], topic: 't', content: 'draft' }] } });
    const watch = watchEvents(s);
    await change(s, { enable_drafts_synchronization: false });
    expect(watch.take().map((e) => e.event.type)).toEqual(['user_settings']);
    expect([...s.engine.state.drafts.values()].filter((d) => d.userId === ID.hamlet)).toEqual([]);
    expect((await s.request({ method: 'GET', path: '/api/v1/drafts', as: ID.hamlet })).status).toBe(400);
  });

  it('the global channel notification settings fill the null ones of subscriptions in /register', async () => {
    const s = sim();
    await change(s, { enable_stream_desktop_notifications: true });
    const body = await registered(s, ID.hamlet, { fetch_event_types: ['subscription'] });
    expect(body.subscriptions.find((x: { name: string }) => x.name === 'Denmark').desktop_notifications).toBe(true);
  });
});

describe('PATCH /settings: name, password and email', () => {
  it('full_name: renames, with realm_user to everyone', async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await change(s, { full_name: ' Prince Hamlet ' })).status).toBe(200);
    expect(watch.take()).toEqual([{ event: { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, full_name: 'Prince Hamlet' } }, users: everyoneActive(s) }]);
    expect((await change(s, { full_name: 'Bad@name' })).body).toEqual(error('Invalid characters in name!'));
  });

  it('full_name: silently ignored where name changes are disabled, except for administrators', async () => {
    const fixture = devFixture();
    fixture.realm.name_changes_disabled = true;
    const s = sim({ fixture });
    expect((await change(s, { full_name: 'Prince Hamlet' })).body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.users.get(ID.hamlet)!.full_name).toBe('King Hamlet');
    expect((await change(s, { full_name: 'Iago the Ensign' }, ID.iago)).status).toBe(200);
    expect(s.engine.state.users.get(ID.iago)!.full_name).toBe('Iago the Ensign');
  });

  it('password: needs the old one, refuses a weak new one, then logins take the new one', async () => {
    const s = sim();
    expect((await change(s, { old_password: 'wrong', new_password: 'brand-new-secret' })).body).toEqual(error('Wrong password!'));
    expect((await change(s, { new_password: 'brand-new-secret' })).body).toEqual(error('Wrong password!'));
    // The development server's rules: only the empty password is too weak (production's: devFixture with password_min_*).
    expect((await change(s, { old_password: 'hamlet-password', new_password: '' })).body).toEqual(error('New password is too weak!'));
    expect((await change(s, { old_password: 'hamlet-password', new_password: 'brand-new-secret' })).status).toBe(200);
    const login = (password: string) => s.request({ method: 'POST', path: '/api/v1/fetch_api_key', as: null, body: { username: 'hamlet@zulip.com', password } });
    expect((await login('brand-new-secret')).status).toBe(200);
    expect((await login('hamlet-password')).status).toBe(401);
  });

  it("password: production's rules in the fixture refuse a short or guessable new one", async () => {
    const fixture = devFixture();
    Object.assign(fixture.realm, { password_min_length: 6, password_min_guesses: 10_000 });
    const s = sim({ fixture });
    for (const weak of ['abc', 'password1']) {
      expect((await change(s, { old_password: 'hamlet-password', new_password: weak })).body).toEqual(error('New password is too weak!'));
    }
    expect((await change(s, { old_password: 'hamlet-password', new_password: 'brand-new-secret' })).status).toBe(200);
  });

  it('email: starts the confirmation flow (an email to the new address); the address changes only once confirmed', async () => {
    const s = sim();
    expect((await change(s, { email: 'prince@zulip.com' })).body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.outbox.at(-1)).toMatchObject({ to: 'prince@zulip.com', context: { old_email: 'hamlet@zulip.com', new_email: 'prince@zulip.com' } });
    expect(s.engine.state.users.get(ID.hamlet)!.delivery_email).toBe('hamlet@zulip.com');
    expect((await change(s, { email: 'hamlet@zulip.com' })).status).toBe(200);
  });

  it('email: refused when disabled (not for administrators), malformed, or taken', async () => {
    const fixture = devFixture();
    fixture.realm.email_changes_disabled = true;
    const s = sim({ fixture });
    expect((await change(s, { email: 'prince@zulip.com' })).body).toEqual(error('Email address changes are disabled in this organization.'));
    expect((await change(s, { email: 'iago2@zulip.com' }, ID.iago)).status).toBe(200);
    const t = sim();
    expect((await change(t, { email: 'not an email' })).body).toEqual(error('Invalid address.'));
    expect((await change(t, { email: 'IAGO@zulip.com' })).body).toEqual(error('Already has an account.'));
    // A system bot's address is reserved (checked before the realm's own users).
    expect((await change(t, { email: 'Notification-Bot@zulip.com' })).body).toEqual(error('Reserved for system bots.'));
    expect((await change(t, { email: 'welcome-bot@zulip.com' })).body).toEqual(error('Reserved for system bots.'));
  });
});
