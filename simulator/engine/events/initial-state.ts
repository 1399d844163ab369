/**
 * POST /register's initial state (zerver/lib/events.py:fetch_initial_state_data): ONE table, fetch type → the function
 * giving its keys. Each resource module exports the function for its fetch types and adds one
 * line here; a fetch type the simulator does not know is ignored, as Zulip ignores unknown names.
 * Every function answers what the resource's REST endpoints answer at the same moment.
 */
import { realmDomains } from '../realm/domains.ts';
import { alertWordsRegisterState } from '../users/alert-words.ts';
import type { Capabilities } from './queues.ts';
import type { Engine } from '../core.ts';
import { embeddedBotsRegisterState } from '../bots/rules.ts';
import { channelFoldersRegisterState } from '../channels/folders.ts';
import { defaultStreamsState, streamState } from '../channels/channels.ts';
import { customProfileFieldsRegisterState } from '../users/profile-fields.ts';
import { devicesRegisterState } from '../integrations/devices.ts';
import { draftsRegisterState } from '../messages/drafts.ts';
import {
  maxMessageIdState,
  recentPrivateConversationsState,
  starredMessagesState,
  unreadMsgsState,
} from '../messages/initial-state.ts';
import { linkifiersForApi } from '../realm/linkifiers.ts';
import { playgroundsForApi } from '../realm/playgrounds.ts';
import { mutedUsersRegisterState } from '../users/muted-users.ts';
import { navigationViewsRegisterState } from '../users/navigation-views.ts';
import { realmPresence } from '../users/presence.ts';
import { realmEmojiDict } from '../realm/custom-emoji.ts';
import { realmState } from '../realm/register-state.ts';
import { savedSnippetsRegisterState } from '../messages/saved-snippets.ts';
import { scheduledMessagesRegisterState } from '../messages/scheduled.ts';
import { remindersRegisterState } from '../messages/reminders.ts';
import type { UserRecord } from '../state.ts';
import { subscriptionState } from '../channels/subscriptions.ts';
import { userGroupsRegisterState } from '../groups/user-groups.ts';
import { userStatusRegisterState } from '../users/status.ts';
import { mutedTopicsRegisterState, userTopicsRegisterState } from '../channels/user-topics.ts';
import {
  legacyDisplaySettingsState,
  legacyNotificationSettingsState,
  realmUserSettingsDefaultsState,
  userSettingsState,
} from '../users/settings.ts';
import { realmBotState, realmUserState } from '../users/users.ts';
import { videoCallsRegisterState } from '../integrations/video-calls.ts';

export interface StateContext {
  engine: Engine;
  user: UserRecord;
  clientGravatar: boolean;
  includeSubscribers: boolean | 'partial';
  slimPresence: boolean;
  /** How many days of presence history (null: the server's default). */
  presenceHistoryLimitDays: number | null;
  capabilities: Capabilities;
  /** False for old mobile apps (by User-Agent): pronouns fields are shown as short text. */
  pronounsFieldTypeSupported: boolean;
  /** Is this fetch type wanted (fetch_event_types, else event_types, else all)? */
  want(type: string): boolean;
  /** Was this type listed explicitly in event_types (muted_topics yields to user_topic)? */
  listedEventType(type: string): boolean;
}

export type StateFetcher = (ctx: StateContext) => Record<string, unknown>;

const nothing = {};

/** In Zulip's fetch_initial_state_data order, so keys come out in the same order. */
export const INITIAL_STATE: ReadonlyMap<string, StateFetcher> = new Map<string, StateFetcher>([
  ['alert_words', (c) => alertWordsRegisterState(c.engine, c.user)],
  ['custom_profile_fields', (c) => customProfileFieldsRegisterState(c.engine, { pronounsFieldTypeSupported: c.pronounsFieldTypeSupported })],
  ['default_stream_groups', () => ({ realm_default_stream_groups: [] })],
  ['default_streams', (c) => defaultStreamsState(c.engine, c.user)],
  ['device', (c) => devicesRegisterState(c.engine, c.user)],
  ['drafts', (c) => draftsRegisterState(c.engine, c.user)],
  ['message', (c) => maxMessageIdState(c.engine, c.user)],
  ['muted_topics', (c) => (c.listedEventType('user_topic') ? nothing : mutedTopicsRegisterState(c.engine, c.user))],
  ['muted_users', (c) => mutedUsersRegisterState(c.engine, c.user)],
  ['navigation_views', (c) => navigationViewsRegisterState(c.engine, c.user)],
  // No onboarding is simulated; a null video URL is Zulip's "navigation tour video disabled".
  ['onboarding_steps', () => ({ onboarding_steps: [], navigation_tour_video_url: null })],
  // simplified_presence_events clients get the modern format too, as their events have it.
  [
    'presence',
    (c) =>
      realmPresence(c.engine, {
        slim: c.slimPresence || c.capabilities.simplified_presence_events,
        historyLimitDays: c.presenceHistoryLimitDays,
      }),
  ],
  ['realm', (c) => realmState(c.engine)],
  ['realm_bot', (c) => realmBotState(c.engine, c.user)],
  // get_realm_domains: the allowed domains (the dev realm's zulip.com), whoever asks.
  ['realm_domains', (c) => ({ realm_domains: realmDomains(c.engine) })],
  ['realm_emoji', (c) => ({ realm_emoji: realmEmojiDict(c.engine) })],
  // Clients without linkifier_url_template cannot read the templates (Zulip sends them nothing).
  ['realm_linkifiers', (c) => ({ realm_linkifiers: c.capabilities.linkifier_url_template ? linkifiersForApi(c.engine) : [] })],
  ['realm_filters', () => ({ realm_filters: [] })],
  ['realm_playgrounds', (c) => ({ realm_playgrounds: playgroundsForApi(c.engine) })],
  // No billing is simulated: nobody has a sponsorship request pending.
  ['realm_billing', () => ({ realm_billing: { has_pending_sponsorship_request: false } })],
  ['realm_user_groups', (c) => userGroupsRegisterState(c.engine, { includeDeactivatedGroups: c.capabilities.include_deactivated_groups })],
  ['realm_user', (c) => realmUserState(c.engine, c.user, { clientGravatar: c.clientGravatar })],
  ['realm_user_settings_defaults', (c) => realmUserSettingsDefaultsState(c.engine)],
  ['recent_private_conversations', (c) => recentPrivateConversationsState(c.engine, c.user)],
  ['saved_snippets', (c) => savedSnippetsRegisterState(c.engine, c.user)],
  ['scheduled_messages', (c) => scheduledMessagesRegisterState(c.engine, c.user)],
  ['reminders', (c) => remindersRegisterState(c.engine, c.user)],
  ['starred_messages', (c) => starredMessagesState(c.engine, c.user)],
  ['stream', (c) => streamState(c.engine, c.user, { archivedChannels: c.capabilities.archived_channels })],
  [
    'subscription',
    (c) =>
      subscriptionState(c.engine, c.user, {
        includeSubscribers: c.includeSubscribers,
        notificationSettingsNull: c.capabilities.notification_settings_null,
        archivedChannels: c.capabilities.archived_channels,
      }),
  ],
  // unread_msgs needs both `message` and `update_message_flags` (zerver/lib/events.py:do_events_register).
  [
    'update_message_flags',
    (c) => (c.want('message') ? unreadMsgsState(c.engine, c.user, { allowEmptyTopicName: c.capabilities.empty_topic_name }) : nothing),
  ],
  ['update_display_settings', (c) => (c.capabilities.user_settings_object ? nothing : legacyDisplaySettingsState(c.engine, c.user))],
  ['update_global_notifications', (c) => (c.capabilities.user_settings_object ? nothing : legacyNotificationSettingsState(c.engine, c.user))],
  ['user_settings', (c) => userSettingsState(c.engine, c.user)],
  ['user_status', (c) => userStatusRegisterState(c.engine, c.user)],
  ['user_topic', (c) => userTopicsRegisterState(c.engine, c.user, { allowEmptyTopicName: c.capabilities.empty_topic_name })],
  ['channel_folders', (c) => channelFoldersRegisterState(c.engine)],
  ['video_calls', (c) => videoCallsRegisterState(c.engine, c.user)],
  // The server's GIPHY key: none configured.
  ['giphy', () => ({ giphy_api_key: '' })],
  ['stop_words', () => ({ stop_words: [] })],
  ['realm_embedded_bots', () => embeddedBotsRegisterState()],
  ['realm_incoming_webhook_bots', () => ({ realm_incoming_webhook_bots: [] })],
]);

/** The initial state for a register call: every wanted, known fetch type's keys. */
export function initialState(ctx: StateContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [type, fetch] of INITIAL_STATE) if (ctx.want(type)) Object.assign(out, fetch(ctx));
  return out;
}
