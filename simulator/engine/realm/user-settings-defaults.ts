/**
 * PATCH /realm/user_settings_defaults (update_realm_user_settings_defaults, zerver/views/realm.py):
 * administrators change the settings new accounts start with. Each value changed is stored and
 * announced to every active user as `realm_user_settings_defaults` `update`, in the view's
 * parameter order; an unchanged value sends nothing. Existing accounts keep their settings.
 */
import { activeUserIds, type Engine } from '../core.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { checkSettingValue } from '../users/settings-change.ts';
import { EMAIL_VISIBILITY } from '../state.ts';
import { SPEC_BY_NAME, type SettingSpec, type SettingValue } from '../users/settings.ts';

/**
 * The view's parameters, in its signature order. enable_login_emails and enable_marketing_emails
 * stay the user's own (security, and the signup form's choice); default_language and the time
 * zone are no realm defaults.
 */
export const REALM_DEFAULT_SETTING_NAMES: readonly string[] = [
  'dense_mode',
  'web_mark_read_on_scroll_policy',
  'web_channel_default_view',
  'starred_message_counts',
  'receives_typing_notifications',
  'web_stream_unreads_count_display_policy',
  'fluid_layout_width',
  'high_contrast_mode',
  'color_scheme',
  'web_font_size_px',
  'web_line_height_percent',
  'translate_emoticons',
  'display_emoji_reaction_users',
  'web_home_view',
  'web_escape_navigates_to_home_view',
  'left_side_userlist',
  'emojiset',
  'demote_inactive_streams',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'enable_followed_topic_desktop_notifications',
  'enable_followed_topic_email_notifications',
  'enable_followed_topic_push_notifications',
  'enable_followed_topic_audible_notifications',
  'enable_followed_topic_wildcard_mentions_notify',
  'notification_sound',
  'enable_desktop_notifications',
  'enable_sounds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_digest_emails',
  'message_content_in_email_notifications',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy',
  'automatically_follow_topics_policy',
  'automatically_unmute_topics_in_muted_streams_policy',
  'automatically_follow_topics_where_mentioned',
  'presence_enabled',
  'enter_sends',
  'enable_drafts_synchronization',
  'email_notifications_batching_period_seconds',
  'twenty_four_hour_time',
  'send_stream_typing_notifications',
  'send_private_typing_notifications',
  'send_read_receipts',
  'user_list_style',
  'web_animate_image_previews',
  'email_address_visibility',
  'web_navigate_to_sent_message',
  'web_suggest_update_timezone',
].filter((name) => SPEC_BY_NAME.has(name));

/** The settings table's rows the endpoint takes, in its order. */
export const REALM_DEFAULT_SETTINGS: readonly SettingSpec[] = REALM_DEFAULT_SETTING_NAMES.map((name) => SPEC_BY_NAME.get(name)!);

function currentDefault(engine: Engine, name: string): SettingValue {
  const realm = engine.state.realm;
  if (name === 'email_address_visibility') return realm.email_address_visibility;
  return realm.user_settings_defaults[name] ?? SPEC_BY_NAME.get(name)!.default;
}

/** Every check first (notification sound, batching period), then each changed value with its event. */
export function updateRealmUserSettingsDefaults(engine: Engine, changes: Readonly<Record<string, SettingValue>>): Outcome<Record<string, never>> {
  for (const name of ['notification_sound', 'email_notifications_batching_period_seconds']) {
    if (changes[name] !== undefined) checkSettingValue(name, changes[name]!);
  }
  const realm = engine.state.realm;
  const events: Effect[] = [];
  for (const name of REALM_DEFAULT_SETTING_NAMES) {
    const value = changes[name];
    if (value === undefined || currentDefault(engine, name) === value) continue;
    if (name === 'email_address_visibility') realm.email_address_visibility = value as (typeof EMAIL_VISIBILITY)[keyof typeof EMAIL_VISIBILITY];
    else realm.user_settings_defaults[name] = value;
    events.push(effect({ type: 'realm_user_settings_defaults', op: 'update', property: name, value }, activeUserIds(engine)));
  }
  return outcome({}, events);
}
