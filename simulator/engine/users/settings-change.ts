/**
 * PATCH /settings (zerver/views/user_settings.py): the password, the email address, the full name and every
 * personal setting of the table in settings.ts, with Zulip's checks and the events each change
 * sends (`user_settings` and its legacy twin to the user; what timezone and email visibility change
 * for everyone else).
 */
import { exportConsentEvent } from '../realm/exports.ts';
import { activeUserIds, canSeeDeliveryEmail, indexEmail, isAdmin, isSystemBotEmail, userIdsWhoCanAccessUser, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { presenceEnabledChanged } from './presence.ts';
import { avatarChangeEvents } from './users.ts';
import { EMAIL_VISIBILITY, type UserRecord } from '../state.ts';
import { changeFullName, checkFullName, isValidEmail, PASSWORD_MAX_LENGTH, userByDeliveryEmail } from './admin.ts';
import { isStrongEnough } from './passwords.ts';
import { LANGUAGES, NOTIFICATION_SOUNDS, USER_SETTINGS, settingValue, type SettingSpec, type SettingValue } from './settings.ts';

/** Longest email batching period (one week), Zulip's limit. */
const MAX_BATCHING_PERIOD_SECONDS = 7 * 24 * 3600;

export interface ChangeSettingsParams {
  fullName?: string | undefined;
  email?: string | undefined;
  oldPassword?: string | undefined;
  newPassword?: string | undefined;
  /** Settings sent, already typed and checked against their allowed values by the route. */
  settings: Record<string, SettingValue>;
}

/** Whether a time zone name is one the runtime's IANA database knows ('' clears it). */
function isKnownTimezone(name: string): boolean {
  if (name === '') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The checks json_change_settings makes beyond a value's type and allowed values. */
export function checkSettingValue(name: string, value: SettingValue): void {
  switch (name) {
    case 'default_language':
      if (!Object.hasOwn(LANGUAGES, value as string)) throw ChatError.badRequest('Invalid default_language');
      return;
    case 'notification_sound':
      if (value !== 'none' && !NOTIFICATION_SOUNDS.includes(value as string)) throw ChatError.badRequest(`Invalid notification sound '${value}'`);
      return;
    case 'email_notifications_batching_period_seconds':
      if ((value as number) <= 0 || (value as number) > MAX_BATCHING_PERIOD_SECONDS) {
        throw ChatError.badRequest(`Invalid email batching period: ${value} seconds`);
      }
      return;
    case 'timezone':
      if (!isKnownTimezone(value as string)) throw ChatError.badRequest(`Invalid timezone '${value}'`);
      return;
    default:
      return;
  }
}

/**
 * PATCH /settings (humans only, by the route): the password (the old one must match, the new one
 * be long enough), the email (starts Zulip's confirmation flow: an email is recorded, the address
 * only changes once confirmed), the full name (silently ignored where the realm disables name
 * changes, administrators excepted), then every setting that differs from its current value, each
 * with its events. All checks run before anything changes.
 */
export function changeSettings(
  engine: Engine,
  user: UserRecord,
  p: ChangeSettingsParams,
  secretsEqual: (expected: string, given: string) => boolean,
): Outcome<Record<string, never>> {
  const realm = engine.state.realm;
  if (p.newPassword !== undefined) {
    // Compared even when the account has no password (a stand-in), so both failures take as long.
    const matches = secretsEqual(user.password ?? '\u0000no password\u0000', p.oldPassword ?? '');
    if (!realm.password_auth_enabled || user.password === null || !matches) throw ChatError.badRequest('Wrong password!');
    if (!isStrongEnough(realm, p.newPassword) || p.newPassword.length > PASSWORD_MAX_LENGTH) {
      throw ChatError.badRequest('New password is too weak!');
    }
  }
  let newEmail: string | undefined;
  if (p.email !== undefined && p.email.trim() !== user.delivery_email) {
    const email = p.email.trim();
    if (realm.email_changes_disabled && !isAdmin(user)) throw ChatError.badRequest('Email address changes are disabled in this organization.');
    if (!isValidEmail(email)) throw ChatError.badRequest('Invalid address.');
    // validate_email_not_already_in_realm, not verbose: system bots' addresses first.
    if (isSystemBotEmail(engine, email)) throw ChatError.badRequest('Reserved for system bots.');
    if (userByDeliveryEmail(engine, email)) throw ChatError.badRequest('Already has an account.');
    newEmail = email;
  }
  let fullName: string | undefined;
  if (p.fullName !== undefined && p.fullName !== user.full_name && !(realm.name_changes_disabled && !isAdmin(user))) {
    const name = checkFullName(engine, p.fullName, user);
    if (name !== user.full_name) fullName = name;
  }
  for (const [name, value] of Object.entries(p.settings)) checkSettingValue(name, value);

  const events: Effect[] = [];
  if (p.newPassword !== undefined) user.password = p.newPassword;
  if (newEmail !== undefined) {
    engine.state.outbox.push({
      to: newEmail,
      template: 'zerver/emails/confirm_new_email',
      context: { old_email: user.delivery_email, new_email: newEmail, realm_name: realm.name },
      timestamp: engine.deps.clock.now(),
    });
  }
  if (fullName !== undefined) events.push(...changeFullName(engine, user, fullName));
  for (const spec of USER_SETTINGS) {
    if (!Object.hasOwn(p.settings, spec.name)) continue;
    const value = p.settings[spec.name]!;
    if (settingValue(user, spec.name) === value) continue;
    events.push(...changeSetting(engine, user, spec, value));
  }
  return outcome({}, events);
}

/**
 * do_change_user_setting: store the value, then `user_settings` `update` to the user (with the
 * language's name for default_language), the legacy event of the setting's group (dropped by
 * queues with `user_settings_object`), and what the setting does beyond itself.
 */
function changeSetting(engine: Engine, user: UserRecord, spec: SettingSpec, value: SettingValue): Effect[] {
  const viewersBefore = spec.name === 'email_address_visibility' ? whoSeesDeliveryEmail(engine, user) : new Set<number>();
  const oldEmail = user.email;
  storeSetting(engine, user, spec, value);
  const events: Effect[] = [];
  const event: Record<string, unknown> & { type: string } = { type: 'user_settings', op: 'update', property: spec.name, value };
  if (spec.name === 'default_language') event.language_name = LANGUAGES[value as string];
  events.push(effect(event, [user.id]));
  if (spec.legacy === 'display') {
    const legacy: Record<string, unknown> & { type: string } = { type: 'update_display_settings', user: user.email, setting_name: spec.name, setting: value };
    if (spec.name === 'default_language') legacy.language_name = LANGUAGES[value as string];
    events.push(effect(legacy, [user.id]));
  } else if (spec.legacy === 'notification') {
    events.push(effect({ type: 'update_global_notifications', user: user.email, notification_name: spec.name, setting: value }, [user.id]));
  }
  if (spec.name === 'timezone') {
    events.push(effect({ type: 'realm_user', op: 'update', person: { email: user.email, user_id: user.id, timezone: value } }, userIdsWhoCanAccessUser(engine, user)));
  }
  if (spec.name === 'email_address_visibility') events.push(...emailVisibilityEvents(engine, user, viewersBefore, oldEmail));
  if (spec.name === 'presence_enabled') events.push(...presenceEnabledChanged(engine, user));
  if (spec.name === 'allow_private_data_export') events.push(exportConsentEvent(engine, user, value as boolean));
  return events;
}

function storeSetting(engine: Engine, user: UserRecord, spec: SettingSpec, value: SettingValue): void {
  switch (spec.name) {
    case 'timezone':
      user.timezone = value as string;
      return;
    case 'presence_enabled':
      user.presence_enabled = value as boolean;
      return;
    case 'enable_drafts_synchronization':
      user.enable_drafts_synchronization = value as boolean;
      // Turning sync off deletes the server's copies without events: nothing was deleted on the client.
      if (value === false) for (const [id, draft] of engine.state.drafts) if (draft.userId === user.id) engine.state.drafts.delete(id);
      return;
    case 'email_address_visibility': {
      user.email_address_visibility = value as number;
      const apiEmail = value === EMAIL_VISIBILITY.everyone ? user.delivery_email : `user${user.id}@${engine.state.realm.host}`;
      if (apiEmail !== user.email) {
        const index = engine.state.usersByEmail;
        if (user.email.toLowerCase() !== user.delivery_email.toLowerCase()) index.delete(user.email.toLowerCase());
        user.email = apiEmail;
        indexEmail(engine.state, apiEmail, user.id);
      }
      return;
    }
    default:
      if (value === spec.default) delete user.settings[spec.name];
      else user.settings[spec.name] = value;
  }
}

function whoSeesDeliveryEmail(engine: Engine, user: UserRecord): Set<number> {
  return new Set(activeUserIds(engine).filter((id) => canSeeDeliveryEmail(engine, engine.state.users.get(id), user)));
}

/**
 * send_delivery_email_update_events and send_user_email_update_event: those who may now see the
 * real address get it, those who no longer may get null; everyone the new API email if it changed,
 * and then the avatar (notify_avatar_url_change), since whether a client may compute a gravatar
 * itself depends on the address being visible to everyone.
 */
function emailVisibilityEvents(engine: Engine, user: UserRecord, before: Set<number>, oldEmail: string): Effect[] {
  const after = whoSeesDeliveryEmail(engine, user);
  const gained = [...after].filter((id) => !before.has(id));
  const lost = [...before].filter((id) => !after.has(id));
  const events: Effect[] = [];
  if (gained.length > 0) events.push(effect({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: user.delivery_email } }, gained));
  if (lost.length > 0) events.push(effect({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: null } }, lost));
  if (user.email !== oldEmail) {
    events.push(effect({ type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: user.email } }, userIdsWhoCanAccessUser(engine, user)));
    events.push(...avatarChangeEvents(engine, user));
  }
  return events;
}
