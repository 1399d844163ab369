/** PATCH /realm/user_settings_defaults (update_realm_user_settings_defaults, zerver/views/realm.py). */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, sim, watchEvents } from './helpers.ts';

const patch = (s: Simulator, body: Record<string, unknown>, as: number = ID.iago) =>
  s.request({ method: 'PATCH', path: '/api/v1/realm/user_settings_defaults', as, body });

async function defaults(s: Simulator) {
  const res = await s.request({ method: 'POST', path: '/api/v1/register', as: ID.hamlet, body: { fetch_event_types: '["realm_user_settings_defaults"]' } });
  return res.body.realm_user_settings_defaults as Record<string, unknown>;
}

const activeUsers = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id).sort((a, b) => a - b);

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes the defaults, one realm_user_settings_defaults update per changed value to every user, in the view\'s order', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await patch(s, { left_side_userlist: 'true', emojiset: 'text', enter_sends: 'false', web_home_view: 'recent_topics', email_address_visibility: '1' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const users = activeUsers(s);
    // enter_sends is already false: nothing for it.
    expect(watch.take()).toEqual([
      { event: { type: 'realm_user_settings_defaults', op: 'update', property: 'web_home_view', value: 'recent_topics' }, users },
      { event: { type: 'realm_user_settings_defaults', op: 'update', property: 'left_side_userlist', value: true }, users },
      { event: { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'text' }, users },
      { event: { type: 'realm_user_settings_defaults', op: 'update', property: 'email_address_visibility', value: 1 }, users },
    ]);
    expect(await defaults(s)).toMatchObject({ left_side_userlist: true, emojiset: 'text', web_home_view: 'recent_topics', email_address_visibility: 1, enter_sends: false });
  });

  it('gives new accounts the changed defaults, and leaves existing ones as they were', async () => {
    const s = sim();
    await patch(s, { left_side_userlist: 'true', presence_enabled: 'false', twenty_four_hour_time: 'true' });
    const created = await s.request({ method: 'POST', path: '/api/v1/users', as: ID.iago, body: { email: 'newbie@zulip.com', password: 'temp', full_name: 'New User' } });
    const settingsOf = async (as: number) =>
      (await s.request({ method: 'POST', path: '/api/v1/register', as, body: { fetch_event_types: '["user_settings"]' } })).body.user_settings as Record<string, unknown>;
    expect(await settingsOf(created.body.user_id)).toMatchObject({ left_side_userlist: true, presence_enabled: false, twenty_four_hour_time: true });
    expect(await settingsOf(ID.hamlet)).toMatchObject({ left_side_userlist: false, presence_enabled: true, twenty_four_hour_time: false });
  });

  it('needs an administrator, and validates as PATCH /settings does', async () => {
    const s = sim();
    expect((await patch(s, { enter_sends: 'true' }, ID.hamlet)).body).toMatchObject({ result: 'error', msg: 'Must be an organization administrator' });
    expect((await patch(s, { notification_sound: 'nope' })).body).toEqual({ result: 'error', msg: "Invalid notification sound 'nope'", code: 'BAD_REQUEST' });
    expect((await patch(s, { email_notifications_batching_period_seconds: '0' })).body).toEqual({ result: 'error', msg: 'Invalid email batching period: 0 seconds', code: 'BAD_REQUEST' });
    expect((await patch(s, { color_scheme: '9' })).status).toBe(400);
    expect((await patch(s, { enter_sends: 'maybe' })).status).toBe(400);
  });

  it('does not take the settings that stay the user\'s own, reporting them as ignored', async () => {
    const res = await patch(sim(), { enable_login_emails: 'false', default_language: 'de' });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['default_language', 'enable_login_emails'] });
  });
});
