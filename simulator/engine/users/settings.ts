/**
 * Personal settings (zerver/views/user_settings.py): ONE table of every setting (type, allowed values,
 * Zulip's new-user default, and which legacy group it belongs to), from which come PATCH /settings'
 * parameters and checks, the `user_settings` events, and POST /register's `user_settings` object
 * with, for clients without the `user_settings_object` capability, the legacy top-level copies of
 * the `update_display_settings` and `update_global_notifications` fetch types.
 *
 * A user's values are the defaults overlaid with `UserRecord.settings`; a few settings other
 * modules act on live in their own fields (timezone, email visibility, presence, draft sync).
 */
import type { Engine } from '../core.ts';
import { EMAIL_VISIBILITY, type UserRecord } from '../state.ts';

export type SettingValue = boolean | number | string;

/** Which legacy event (and fetch type) a setting belongs to, if any. */
export type LegacyGroup = 'display' | 'notification' | null;

export interface SettingSpec {
  name: string;
  type: 'bool' | 'int' | 'string';
  default: SettingValue;
  legacy: LegacyGroup;
  /** Allowed values (`Invalid {name}` otherwise); absent: any value of the type. */
  values?: readonly (number | string)[];
}

const bool = (name: string, value: boolean, legacy: LegacyGroup): SettingSpec => ({ name, type: 'bool', default: value, legacy });
const int = (name: string, value: number, legacy: LegacyGroup, values?: readonly number[]): SettingSpec => ({ name, type: 'int', default: value, legacy, ...(values ? { values } : {}) });
const str = (name: string, value: string, legacy: LegacyGroup, values?: readonly string[]): SettingSpec => ({ name, type: 'string', default: value, legacy, ...(values ? { values } : {}) });

const ONE_TO_THREE = [1, 2, 3] as const;

/** Zulip's languages (locale/language_name_map.json, the ones with translations), code → name. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: 'العربية',
  be: 'Беларуская',
  bg: 'Български',
  bn: 'বাংলা',
  ca: 'Català',
  cs: 'Čeština',
  cy: 'Cymraeg',
  da: 'Dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  en_GB: 'British English',
  eo: 'Esperanto',
  es: 'Español',
  fa: 'فارسی',
  fi: 'Suomi',
  fr: 'Français',
  gl: 'Galego',
  gu: 'ગુજરાતી',
  hi: 'हिंदी',
  hu: 'Magyar',
  id: 'Bahasa Indonesia',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  lt: 'Lietuvių',
  ml: 'മലയാളം',
  mn: 'Монгол',
  nl: 'Nederlands',
  no: 'Norsk',
  pa: 'ਪੰਜਾਬੀ',
  pl: 'Polski',
  pt: 'Português',
  pt_BR: 'Português Brasileiro',
  pt_PT: 'Português Europeu',
  ro: 'Română',
  ru: 'Русский',
  si: 'සිංහල',
  sr: 'Српски',
  sv: 'Svenska',
  ta: 'தமிழ்',
  te: 'తెలుగు',
  tl: 'Tagalog',
  tr: 'Türkçe',
  uk: 'Українська',
  vi: 'Tiếng Việt',
  'zh-hans': '简体中文',
  'zh-hant': '繁體中文',
};

export const NOTIFICATION_SOUNDS: readonly string[] = ['chime-short', 'ding', 'zulip'];

const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/**
 * Every setting, in the order of Zulip's UserProfile.property_types (the legacy display settings,
 * the notification settings, then the modern ones): the order PATCH /settings applies them and
 * /register lists them. Only the settings of the two legacy dicts (those older than feature level
 * 89) have legacy events and top-level /register keys; dense_mode was removed at feature level 364.
 */
export const USER_SETTINGS: readonly SettingSpec[] = [
  // display_settings_legacy: the only display settings with legacy events and top-level /register keys
  int('color_scheme', 1, 'display', ONE_TO_THREE),
  str('default_language', 'en', 'display'),
  str('web_home_view', 'inbox', 'display', ['inbox', 'recent_topics', 'all_messages']),
  int('demote_inactive_streams', 1, 'display', ONE_TO_THREE),
  str('emojiset', 'google', 'display', ['google', 'google-blob', 'twitter', 'text']),
  bool('enable_drafts_synchronization', true, 'display'),
  bool('enter_sends', false, 'display'),
  bool('fluid_layout_width', false, 'display'),
  bool('high_contrast_mode', false, 'display'),
  bool('left_side_userlist', false, 'display'),
  bool('starred_message_counts', true, 'display'),
  bool('translate_emoticons', false, 'display'),
  bool('twenty_four_hour_time', false, 'display'),
  // notification_settings_legacy: likewise for notifications
  int('desktop_icon_count_display', 1, 'notification', [1, 2, 3, 4]),
  int('email_notifications_batching_period_seconds', 120, 'notification'),
  bool('enable_desktop_notifications', true, 'notification'),
  bool('enable_digest_emails', true, 'notification'),
  bool('enable_login_emails', true, 'notification'),
  bool('enable_marketing_emails', true, 'notification'),
  bool('enable_offline_email_notifications', true, 'notification'),
  bool('enable_offline_push_notifications', true, 'notification'),
  bool('enable_online_push_notifications', true, 'notification'),
  bool('enable_sounds', true, 'notification'),
  bool('enable_stream_audible_notifications', false, 'notification'),
  bool('enable_stream_desktop_notifications', false, 'notification'),
  bool('enable_stream_email_notifications', false, 'notification'),
  bool('enable_stream_push_notifications', false, 'notification'),
  bool('message_content_in_email_notifications', true, 'notification'),
  str('notification_sound', 'zulip', 'notification'),
  bool('pm_content_in_desktop_notifications', true, 'notification'),
  bool('presence_enabled', true, 'notification'),
  int('realm_name_in_email_notifications_policy', 1, 'notification', ONE_TO_THREE),
  bool('wildcard_mentions_notify', true, 'notification'),
  // modern_notification_settings (feature level 89 on): user_settings events only
  bool('enable_followed_topic_desktop_notifications', true, null),
  bool('enable_followed_topic_email_notifications', true, null),
  bool('enable_followed_topic_push_notifications', true, null),
  bool('enable_followed_topic_audible_notifications', true, null),
  bool('enable_followed_topic_wildcard_mentions_notify', true, null),
  int('automatically_follow_topics_policy', 3, null, [1, 2, 3, 4]),
  int('automatically_unmute_topics_in_muted_streams_policy', 2, null, [1, 2, 3, 4]),
  bool('automatically_follow_topics_where_mentioned', true, null),
  // modern_settings
  bool('display_emoji_reaction_users', true, null),
  int('email_address_visibility', EMAIL_VISIBILITY.admins, null, [1, 2, 3, 4, 5]),
  bool('web_escape_navigates_to_home_view', true, null),
  bool('receives_typing_notifications', true, null),
  bool('send_private_typing_notifications', true, null),
  bool('send_read_receipts', true, null),
  bool('send_stream_typing_notifications', true, null),
  bool('allow_private_data_export', false, null),
  int('web_mark_read_on_scroll_policy', 1, null, ONE_TO_THREE),
  int('web_channel_default_view', 1, null, [1, 2, 3, 4]),
  int('user_list_style', 3, null, ONE_TO_THREE),
  str('web_animate_image_previews', 'on_hover', null, ['always', 'on_hover', 'never']),
  int('web_stream_unreads_count_display_policy', 2, null, ONE_TO_THREE),
  int('web_font_size_px', 16, null),
  int('web_line_height_percent', 140, null),
  bool('web_navigate_to_sent_message', true, null),
  bool('web_suggest_update_timezone', true, null),
  bool('hide_ai_features', false, null),
  str('resolved_topic_notice_auto_read_policy', 'except_followed', null, ['always', 'except_followed', 'never']),
  bool('web_left_sidebar_unreads_count_summary', true, null),
  bool('web_left_sidebar_show_channel_folders', true, null),
  // Not in property_types, but changed and announced the same way (with the display group's legacy event).
  str('timezone', '', 'display'),
];

export const SPEC_BY_NAME = new Map(USER_SETTINGS.map((s) => [s.name, s]));

/** A setting's value for `user`: the settings other modules act on live in the user record. */
export function settingValue(user: UserRecord, name: string): SettingValue {
  switch (name) {
    case 'timezone':
      return user.timezone;
    case 'email_address_visibility':
      return user.email_address_visibility;
    case 'presence_enabled':
      return user.presence_enabled;
    case 'enable_drafts_synchronization':
      return user.enable_drafts_synchronization;
    default:
      return user.settings[name] ?? SPEC_BY_NAME.get(name)!.default;
  }
}

function settingsOf(user: UserRecord, filter: (spec: SettingSpec) => boolean): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const spec of USER_SETTINGS) if (filter(spec)) out[spec.name] = settingValue(user, spec.name);
  return out;
}

/** What `null` subscription notification settings stand for: the user's global channel settings. */
export function streamNotificationDefaults(user: UserRecord): Record<string, boolean> {
  return {
    desktop_notifications: settingValue(user, 'enable_stream_desktop_notifications') as boolean,
    audible_notifications: settingValue(user, 'enable_stream_audible_notifications') as boolean,
    push_notifications: settingValue(user, 'enable_stream_push_notifications') as boolean,
    email_notifications: settingValue(user, 'enable_stream_email_notifications') as boolean,
    wildcard_mentions_notify: settingValue(user, 'wildcard_mentions_notify') as boolean,
  };
}

/** The `user_settings` fetch type. */
export function userSettingsState(_engine: Engine, user: UserRecord): Record<string, unknown> {
  return {
    user_settings: {
      ...settingsOf(user, () => true),
      emojiset_choices: EMOJISET_CHOICES,
      available_notification_sounds: NOTIFICATION_SOUNDS,
    },
  };
}

/** The legacy `update_display_settings` fetch type (top-level keys). */
export function legacyDisplaySettingsState(_engine: Engine, user: UserRecord): Record<string, unknown> {
  return { ...settingsOf(user, (s) => s.legacy === 'display'), emojiset_choices: EMOJISET_CHOICES };
}

/** The legacy `update_global_notifications` fetch type (top-level keys). */
export function legacyNotificationSettingsState(_engine: Engine, user: UserRecord): Record<string, unknown> {
  return { ...settingsOf(user, (s) => s.legacy === 'notification'), available_notification_sounds: NOTIFICATION_SOUNDS };
}

/**
 * The `realm_user_settings_defaults` fetch type: the settings a new account of the realm starts
 * with (Zulip's RealmUserDefault), which are this table's defaults and the realm's default email
 * visibility; the time zone is no realm default.
 */
export function realmUserSettingsDefaultsState(engine: Engine): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const spec of USER_SETTINGS) if (spec.name !== 'timezone') defaults[spec.name] = spec.default;
  Object.assign(defaults, engine.state.realm.user_settings_defaults);
  defaults.email_address_visibility = engine.state.realm.email_address_visibility;
  return {
    realm_user_settings_defaults: { ...defaults, emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: NOTIFICATION_SOUNDS },
  };
}
