/**
 * Personal settings (reference part 4 §11) as POST /register reports them: the `user_settings`
 * object and, for clients without the `user_settings_object` capability, the legacy top-level
 * copies of the `update_display_settings` and `update_global_notifications` fetch types. The
 * simulator stores no personal settings yet, so every user has Zulip's new-user defaults (their
 * own timezone and email visibility excepted).
 */
import type { Engine } from './core.ts';
import type { UserRecord } from './state.ts';

/** Zulip's UserProfile.display_settings_legacy (the `update_display_settings` fetch type). */
const DISPLAY_SETTINGS = {
  color_scheme: 1,
  default_language: 'en',
  web_home_view: 'inbox',
  demote_inactive_streams: 1,
  dense_mode: true,
  emojiset: 'google',
  enter_sends: false,
  fluid_layout_width: false,
  high_contrast_mode: false,
  left_side_userlist: false,
  starred_message_counts: true,
  translate_emoticons: true,
  display_emoji_reaction_users: true,
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  web_stream_unreads_count_display_policy: 2,
  user_list_style: 2,
  web_animate_image_previews: 'on_hover',
  web_navigate_to_sent_message: true,
  web_suggest_update_timezone: true,
  hide_ai_features: false,
} as const;

/** Zulip's UserProfile.notification_settings_legacy (the `update_global_notifications` fetch type). */
const NOTIFICATION_SETTINGS = {
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  wildcard_mentions_notify: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  enable_desktop_notifications: true,
  pm_content_in_desktop_notifications: true,
  enable_sounds: true,
  enable_offline_email_notifications: true,
  message_content_in_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  desktop_icon_count_display: 1,
  enable_digest_emails: true,
  enable_login_emails: true,
  enable_marketing_emails: true,
  presence_enabled: true,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  email_notifications_batching_period_seconds: 120,
} as const;

const OTHER_SETTINGS = {
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  receives_typing_notifications: true,
  allow_private_data_export: false,
  resolved_topic_notice_auto_read_policy: 'except_followed',
} as const;

const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

const NOTIFICATION_SOUNDS = ['chime-short', 'ding', 'zulip'];

/** A user's global notification defaults (what `null` subscription settings stand for). */
export const STREAM_NOTIFICATION_DEFAULTS = {
  desktop_notifications: NOTIFICATION_SETTINGS.enable_stream_desktop_notifications,
  audible_notifications: NOTIFICATION_SETTINGS.enable_stream_audible_notifications,
  push_notifications: NOTIFICATION_SETTINGS.enable_stream_push_notifications,
  email_notifications: NOTIFICATION_SETTINGS.enable_stream_email_notifications,
  wildcard_mentions_notify: NOTIFICATION_SETTINGS.wildcard_mentions_notify,
} as const;

function perUser(user: UserRecord) {
  return {
    timezone: user.timezone,
    email_address_visibility: user.email_address_visibility,
    enable_drafts_synchronization: user.enable_drafts_synchronization,
  };
}

/** The `user_settings` fetch type. */
export function userSettingsState(_engine: Engine, user: UserRecord): Record<string, unknown> {
  return {
    user_settings: {
      ...DISPLAY_SETTINGS,
      ...NOTIFICATION_SETTINGS,
      ...OTHER_SETTINGS,
      ...perUser(user),
      emojiset_choices: EMOJISET_CHOICES,
      available_notification_sounds: NOTIFICATION_SOUNDS,
    },
  };
}

/** The legacy `update_display_settings` fetch type (top-level keys). */
export function legacyDisplaySettingsState(_engine: Engine, user: UserRecord): Record<string, unknown> {
  return { ...DISPLAY_SETTINGS, emojiset_choices: EMOJISET_CHOICES, timezone: user.timezone };
}

/** The legacy `update_global_notifications` fetch type (top-level keys). */
export function legacyNotificationSettingsState(): Record<string, unknown> {
  return { ...NOTIFICATION_SETTINGS, available_notification_sounds: NOTIFICATION_SOUNDS };
}
