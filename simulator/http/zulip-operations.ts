/**
 * Every operation of Zulip's REST API description (zerver/openapi/zulip.yaml, its operationId,
 * method and path), for the inventory in docs/zulip-api-inventory.md: test/simulator/api-inventory
 * .test.ts holds the route table to it. An operation the simulator does not serve says why; a
 * route the description does not name (a neutral name of the specification, an endpoint Zulip
 * serves without documenting it) says what it is.
 *
 * The table was checked operation by operation against the zulip.yaml that ZULIP_YAML names: every
 * `operationId` under its `paths:` is here. Operations marked `source: 'later'` are not in that
 * snapshot: they come from Zulip's endpoint index (operations documented after it, up to the
 * feature level the simulator reports, or served by zproject/urls.py); `source: 'proposed'` is in
 * no Zulip release or main branch, only in a pull request, and is listed so that nobody serves it
 * by mistake.
 */

/** The zulip.yaml this table was read from (its `info.version` is always 1.0.0; the feature level is the changelog's). */
export const ZULIP_YAML = {
  repo: 'zulip/zulip',
  path: 'zerver/openapi/zulip.yaml',
  commit: '0002748a98b5f0d1193545565d6214f32e41c7aa',
  infoVersion: '1.0.0',
  /** The highest feature level its **Changes** notes mention (Zulip 11.0-dev). */
  newestFeatureLevelMentioned: 377,
  /** Operations with an operationId under `paths:` (`/real-time` has none: it only documents call_on_each_event's parameters). */
  operationCount: 120,
} as const;

export interface ZulipOperation {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Zulip's path, below /api/v1. */
  path: string;
  /** Absent: in the ZULIP_YAML snapshot. `later`: not in it, from Zulip's endpoint index. `proposed`: only in an unmerged pull request. */
  source?: 'later' | 'proposed';
  /** Set when the route table has no route for it: why. */
  notImplemented?: string;
}

export const ZULIP_OPERATIONS: readonly ZulipOperation[] = [
  // Authentication and development helpers
  { operationId: 'fetch-api-key', method: 'POST', path: '/fetch_api_key' },
  { operationId: 'jwt-fetch-api-key', method: 'POST', path: '/jwt/fetch_api_key', source: 'later' },
  { operationId: 'dev-fetch-api-key', method: 'POST', path: '/dev_fetch_api_key' },
  { operationId: 'dev-list-users', method: 'GET', path: '/dev_list_users', source: 'later' },
  // Bots' storage
  { operationId: 'get-bot-storage', method: 'GET', path: '/bot_storage', source: 'later' },
  { operationId: 'update-bot-storage', method: 'PUT', path: '/bot_storage', source: 'later' },
  { operationId: 'remove-bot-storage', method: 'DELETE', path: '/bot_storage', source: 'later' },
  // Channels
  { operationId: 'get-stream-id', method: 'GET', path: '/get_stream_id' },
  { operationId: 'add-default-stream', method: 'POST', path: '/default_streams' },
  { operationId: 'remove-default-stream', method: 'DELETE', path: '/default_streams' },
  { operationId: 'get-stream-topics', method: 'GET', path: '/users/me/{stream_id}/topics' },
  { operationId: 'get-subscriptions', method: 'GET', path: '/users/me/subscriptions' },
  { operationId: 'subscribe', method: 'POST', path: '/users/me/subscriptions' },
  { operationId: 'update-subscriptions', method: 'PATCH', path: '/users/me/subscriptions' },
  { operationId: 'unsubscribe', method: 'DELETE', path: '/users/me/subscriptions' },
  { operationId: 'mute-topic', method: 'PATCH', path: '/users/me/subscriptions/muted_topics' },
  { operationId: 'update-user-topic', method: 'POST', path: '/user_topics' },
  { operationId: 'get-subscription-status', method: 'GET', path: '/users/{user_id}/subscriptions/{stream_id}' },
  { operationId: 'get-user-channels', method: 'GET', path: '/users/{user_id}/channels', source: 'later' },
  { operationId: 'update-subscription-settings', method: 'POST', path: '/users/me/subscriptions/properties' },
  { operationId: 'update-subscription-property', method: 'PATCH', path: '/users/me/subscriptions/{stream_id}', source: 'later' },
  { operationId: 'get-subscribers', method: 'GET', path: '/streams/{stream_id}/members' },
  { operationId: 'get-streams', method: 'GET', path: '/streams' },
  { operationId: 'get-stream-by-id', method: 'GET', path: '/streams/{stream_id}' },
  { operationId: 'archive-stream', method: 'DELETE', path: '/streams/{stream_id}' },
  { operationId: 'update-stream', method: 'PATCH', path: '/streams/{stream_id}' },
  { operationId: 'get-stream-email-address', method: 'GET', path: '/streams/{stream_id}/email_address' },
  { operationId: 'delete-topic', method: 'POST', path: '/streams/{stream_id}/delete_topic' },
  { operationId: 'create-channel', method: 'POST', path: '/channels/create', source: 'later' },
  { operationId: 'create-channel-folder', method: 'POST', path: '/channel_folders/create', source: 'later' },
  { operationId: 'get-channel-folders', method: 'GET', path: '/channel_folders', source: 'later' },
  { operationId: 'patch-channel-folders', method: 'PATCH', path: '/channel_folders', source: 'later' },
  { operationId: 'update-channel-folder', method: 'PATCH', path: '/channel_folders/{channel_folder_id}', source: 'later' },
  // Video calls
  { operationId: 'create-big-blue-button-video-call', method: 'GET', path: '/calls/bigbluebutton/create' },
  { operationId: 'create-nextcloud-talk-video-call', method: 'POST', path: '/calls/nextcloud_talk/create', source: 'later', notImplemented: 'no Nextcloud Talk server to create rooms on' },
  { operationId: 'create-webex-video-call', method: 'POST', path: '/calls/webex/create', source: 'later' },
  { operationId: 'create-constructor-groups-video-call', method: 'POST', path: '/calls/constructorgroups/create', source: 'later', notImplemented: 'no Constructor Groups server to create rooms on' },
  // Drafts and saved snippets
  { operationId: 'get-drafts', method: 'GET', path: '/drafts' },
  { operationId: 'create-drafts', method: 'POST', path: '/drafts' },
  { operationId: 'edit-draft', method: 'PATCH', path: '/drafts/{draft_id}' },
  { operationId: 'delete-draft', method: 'DELETE', path: '/drafts/{draft_id}' },
  { operationId: 'get-saved-snippets', method: 'GET', path: '/saved_snippets' },
  { operationId: 'create-saved-snippet', method: 'POST', path: '/saved_snippets' },
  { operationId: 'edit-saved-snippet', method: 'PATCH', path: '/saved_snippets/{saved_snippet_id}' },
  { operationId: 'delete-saved-snippet', method: 'DELETE', path: '/saved_snippets/{saved_snippet_id}' },
  // Invitations
  { operationId: 'get-invites', method: 'GET', path: '/invites' },
  { operationId: 'send-invites', method: 'POST', path: '/invites' },
  { operationId: 'create-invite-link', method: 'POST', path: '/invites/multiuse' },
  { operationId: 'revoke-email-invite', method: 'DELETE', path: '/invites/{invite_id}' },
  { operationId: 'revoke-invite-link', method: 'DELETE', path: '/invites/multiuse/{invite_id}' },
  { operationId: 'resend-email-invite', method: 'POST', path: '/invites/{invite_id}/resend' },
  // python_examples.py (edit_reusable_invitation_link) documents and tests it.
  { operationId: 'edit-invite-link', method: 'PATCH', path: '/invites/multiuse/{invite_id}', source: 'later' },
  // Messages
  { operationId: 'mark-all-as-read', method: 'POST', path: '/mark_all_as_read' },
  { operationId: 'mark-stream-as-read', method: 'POST', path: '/mark_stream_as_read' },
  { operationId: 'mark-topic-as-read', method: 'POST', path: '/mark_topic_as_read' },
  { operationId: 'get-messages', method: 'GET', path: '/messages' },
  { operationId: 'send-message', method: 'POST', path: '/messages' },
  { operationId: 'get-message-history', method: 'GET', path: '/messages/{message_id}/history' },
  { operationId: 'update-message-flags', method: 'POST', path: '/messages/flags' },
  { operationId: 'update-message-flags-for-narrow', method: 'POST', path: '/messages/flags/narrow' },
  { operationId: 'render-message', method: 'POST', path: '/messages/render' },
  { operationId: 'add-reaction', method: 'POST', path: '/messages/{message_id}/reactions' },
  { operationId: 'remove-reaction', method: 'DELETE', path: '/messages/{message_id}/reactions' },
  { operationId: 'get-read-receipts', method: 'GET', path: '/messages/{message_id}/read_receipts' },
  { operationId: 'check-messages-match-narrow', method: 'GET', path: '/messages/matches_narrow' },
  { operationId: 'get-message', method: 'GET', path: '/messages/{message_id}' },
  { operationId: 'update-message', method: 'PATCH', path: '/messages/{message_id}' },
  { operationId: 'delete-message', method: 'DELETE', path: '/messages/{message_id}' },
  { operationId: 'report-message', method: 'POST', path: '/messages/{message_id}/report', source: 'later' },
  { operationId: 'upload-file', method: 'POST', path: '/user_uploads' },
  { operationId: 'check-thumbnail-status', method: 'GET', path: '/thumbnail/status/{realm_id_str}/{filename}', source: 'later', notImplemented: 'the simulator makes no thumbnails' },
  { operationId: 'get-file-temporary-url', method: 'GET', path: '/user_uploads/{realm_id_str}/{filename}' },
  { operationId: 'set-typing-status', method: 'POST', path: '/typing' },
  { operationId: 'set-typing-status-for-message-edit', method: 'POST', path: '/messages/{message_id}/typing' },
  // Mobile push and devices
  { operationId: 'test-notify', method: 'POST', path: '/mobile_push/test_notification' },
  { operationId: 'e2ee-test-notify', method: 'POST', path: '/mobile_push/e2ee/test_notification', source: 'later' },
  { operationId: 'register-push-device', method: 'POST', path: '/mobile_push/register', source: 'later' },
  { operationId: 'register-remote-push-device', method: 'POST', path: '/remotes/push/e2ee/register', source: 'later', notImplemented: "the push bouncer's own endpoint (servers call it, clients do not)" },
  { operationId: 'register-client-device', method: 'POST', path: '/register_client_device', source: 'later' },
  { operationId: 'remove-client-device', method: 'POST', path: '/remove_client_device', source: 'later' },
  { operationId: 'add-apns-token', method: 'POST', path: '/users/me/apns_device_token' },
  { operationId: 'remove-apns-token', method: 'DELETE', path: '/users/me/apns_device_token' },
  { operationId: 'add-fcm-token', method: 'POST', path: '/users/me/android_gcm_reg_id' },
  { operationId: 'remove-fcm-token', method: 'DELETE', path: '/users/me/android_gcm_reg_id' },
  // Navigation views
  { operationId: 'get-navigation-views', method: 'GET', path: '/navigation_views', source: 'later' },
  { operationId: 'add-navigation-view', method: 'POST', path: '/navigation_views', source: 'later' },
  { operationId: 'edit-navigation-view', method: 'PATCH', path: '/navigation_views/{fragment}', source: 'later' },
  { operationId: 'remove-navigation-view', method: 'DELETE', path: '/navigation_views/{fragment}', source: 'later' },
  // Real-time events
  { operationId: 'get-events', method: 'GET', path: '/events' },
  { operationId: 'delete-queue', method: 'DELETE', path: '/events' },
  { operationId: 'register-queue', method: 'POST', path: '/register' },
  // Reminders and scheduled messages
  { operationId: 'get-reminders', method: 'GET', path: '/reminders', source: 'later' },
  { operationId: 'create-message-reminder', method: 'POST', path: '/reminders', source: 'later' },
  { operationId: 'delete-reminder', method: 'DELETE', path: '/reminders/{reminder_id}', source: 'later' },
  { operationId: 'get-scheduled-messages', method: 'GET', path: '/scheduled_messages' },
  { operationId: 'create-scheduled-message', method: 'POST', path: '/scheduled_messages' },
  { operationId: 'update-scheduled-message', method: 'PATCH', path: '/scheduled_messages/{scheduled_message_id}' },
  { operationId: 'delete-scheduled-message', method: 'DELETE', path: '/scheduled_messages/{scheduled_message_id}' },
  // Server and organization
  { operationId: 'get-server-settings', method: 'GET', path: '/server_settings' },
  { operationId: 'update-realm', method: 'PATCH', path: '/realm', source: 'later' },
  { operationId: 'update-realm-user-settings-defaults', method: 'PATCH', path: '/realm/user_settings_defaults' },
  { operationId: 'upload-custom-emoji', method: 'POST', path: '/realm/emoji/{emoji_name}' },
  { operationId: 'deactivate-custom-emoji', method: 'DELETE', path: '/realm/emoji/{emoji_name}' },
  { operationId: 'get-custom-emoji', method: 'GET', path: '/realm/emoji' },
  { operationId: 'get-presence', method: 'GET', path: '/realm/presence' },
  { operationId: 'get-realm-domains', method: 'GET', path: '/realm/domains', source: 'later' },
  { operationId: 'add-realm-domain', method: 'POST', path: '/realm/domains', source: 'later' },
  { operationId: 'patch-realm-domain', method: 'PATCH', path: '/realm/domains/{domain}', source: 'later' },
  { operationId: 'delete-realm-domain', method: 'DELETE', path: '/realm/domains/{domain}', source: 'later' },
  { operationId: 'get-custom-profile-fields', method: 'GET', path: '/realm/profile_fields' },
  { operationId: 'reorder-custom-profile-fields', method: 'PATCH', path: '/realm/profile_fields' },
  { operationId: 'create-custom-profile-field', method: 'POST', path: '/realm/profile_fields' },
  { operationId: 'get-linkifiers', method: 'GET', path: '/realm/linkifiers' },
  { operationId: 'reorder-linkifiers', method: 'PATCH', path: '/realm/linkifiers' },
  { operationId: 'add-linkifier', method: 'POST', path: '/realm/filters' },
  { operationId: 'update-linkifier', method: 'PATCH', path: '/realm/filters/{filter_id}' },
  { operationId: 'remove-linkifier', method: 'DELETE', path: '/realm/filters/{filter_id}' },
  { operationId: 'add-code-playground', method: 'POST', path: '/realm/playgrounds' },
  { operationId: 'remove-code-playground', method: 'DELETE', path: '/realm/playgrounds/{playground_id}' },
  { operationId: 'get-realm-exports', method: 'GET', path: '/export/realm' },
  { operationId: 'export-realm', method: 'POST', path: '/export/realm' },
  { operationId: 'get-realm-export-consents', method: 'GET', path: '/export/realm/consents' },
  { operationId: 'test-welcome-bot-custom-message', method: 'POST', path: '/realm/test_welcome_bot_custom_message', source: 'later' },
  // Users
  { operationId: 'get-users', method: 'GET', path: '/users' },
  { operationId: 'create-user', method: 'POST', path: '/users' },
  { operationId: 'get-own-user', method: 'GET', path: '/users/me' },
  { operationId: 'deactivate-own-user', method: 'DELETE', path: '/users/me' },
  { operationId: 'get-user', method: 'GET', path: '/users/{user_id}' },
  { operationId: 'update-user', method: 'PATCH', path: '/users/{user_id}' },
  { operationId: 'deactivate-user', method: 'DELETE', path: '/users/{user_id}' },
  { operationId: 'get-user-by-email', method: 'GET', path: '/users/{email}' },
  { operationId: 'update-user-by-email', method: 'PATCH', path: '/users/{email}' },
  { operationId: 'reactivate-user', method: 'POST', path: '/users/{user_id}/reactivate' },
  { operationId: 'get-user-status', method: 'GET', path: '/users/{user_id}/status' },
  { operationId: 'update-status', method: 'POST', path: '/users/me/status' },
  { operationId: 'update-status-for-user', method: 'POST', path: '/users/{user_id}/status', source: 'later' },
  { operationId: 'update-profile-data', method: 'PATCH', path: '/users/me/profile_data', source: 'later' },
  { operationId: 'remove-profile-data', method: 'DELETE', path: '/users/me/profile_data', source: 'later' },
  { operationId: 'get-user-presence', method: 'GET', path: '/users/{user_id_or_email}/presence' },
  { operationId: 'update-presence', method: 'POST', path: '/users/me/presence' },
  { operationId: 'get-attachments', method: 'GET', path: '/attachments' },
  { operationId: 'remove-attachment', method: 'DELETE', path: '/attachments/{attachment_id}' },
  { operationId: 'update-settings', method: 'PATCH', path: '/settings' },
  { operationId: 'get-user-groups', method: 'GET', path: '/user_groups' },
  { operationId: 'create-user-group', method: 'POST', path: '/user_groups/create' },
  { operationId: 'update-user-group', method: 'PATCH', path: '/user_groups/{user_group_id}' },
  { operationId: 'deactivate-user-group', method: 'POST', path: '/user_groups/{user_group_id}/deactivate' },
  { operationId: 'update-user-group-members', method: 'POST', path: '/user_groups/{user_group_id}/members' },
  { operationId: 'update-user-group-subgroups', method: 'POST', path: '/user_groups/{user_group_id}/subgroups' },
  { operationId: 'get-is-user-group-member', method: 'GET', path: '/user_groups/{user_group_id}/members/{user_id}' },
  { operationId: 'get-user-group-members', method: 'GET', path: '/user_groups/{user_group_id}/members' },
  { operationId: 'get-user-group-subgroups', method: 'GET', path: '/user_groups/{user_group_id}/subgroups' },
  { operationId: 'mute-user', method: 'POST', path: '/users/me/muted_users/{muted_user_id}' },
  { operationId: 'unmute-user', method: 'DELETE', path: '/users/me/muted_users/{muted_user_id}' },
  { operationId: 'get-alert-words', method: 'GET', path: '/users/me/alert_words' },
  { operationId: 'add-alert-words', method: 'POST', path: '/users/me/alert_words' },
  { operationId: 'remove-alert-words', method: 'DELETE', path: '/users/me/alert_words' },
  { operationId: 'regenerate-api-key', method: 'POST', path: '/users/me/api_key/regenerate', source: 'later' },
  { operationId: 'get-bot-api-key', method: 'GET', path: '/bots/{bot_id}/api_key', source: 'later' },
  { operationId: 'regenerate-bot-api-key', method: 'POST', path: '/bots/{bot_id}/api_key/regenerate', source: 'later' },
  // Entries of the description that document rather than name an endpoint
  { operationId: 'rest-error-handling', method: 'POST', path: '/rest-error-handling', notImplemented: 'not an endpoint: the page documenting errors common to all endpoints' },
  { operationId: 'zulip-outgoing-webhooks', method: 'POST', path: '/zulip-outgoing-webhook', notImplemented: 'not an endpoint: the payload Zulip POSTs to an outgoing-webhook bot (simulator/engine/integrations/outgoing-webhooks.ts sends it)' },
];

/** Routes the description does not name, and what each is. Keyed `METHOD path` as the route table has them. */
export const SIMULATOR_ONLY_ROUTES: Readonly<Record<string, string>> = {
  'POST /dev_list_users': "Zulip's dev_list_users answers every method (a development helper)",
  'PATCH /dev_list_users': "Zulip's dev_list_users answers every method (a development helper)",
  'PUT /dev_list_users': "Zulip's dev_list_users answers every method (a development helper)",
  'DELETE /dev_list_users': "Zulip's dev_list_users answers every method (a development helper)",
  'DELETE /bots/{bot_id}': 'Zulip serves it (the web app uses it); undocumented',
  'POST /bots': 'Zulip serves it (the web app uses it); undocumented',
  'GET /bots': 'Zulip serves it (the web app uses it); undocumented',
  'PATCH /bots/{bot_id}': 'Zulip serves it (the web app uses it); undocumented',
  'PATCH /realm/profile_fields/{field_id}': 'Zulip serves it (the web app uses it); undocumented',
  'DELETE /realm/profile_fields/{field_id}': 'Zulip serves it (the web app uses it); undocumented',
  'POST /calls/videocall/create': "the specification's neutral name for creating a video call (Zulip's are per provider)",
  'POST /users/me/subscriptions/{stream_id}': 'the same handler as PATCH, as Zulip routes it',
  'POST /users/me/push_a_device_token': "the specification's neutral name; also served at Zulip's /users/me/apns_device_token",
  'DELETE /users/me/push_a_device_token': "the specification's neutral name; also served at Zulip's /users/me/apns_device_token",
  'POST /users/me/push_b_reg_id': "the specification's neutral name; also served at Zulip's /users/me/android_gcm_reg_id",
  'DELETE /users/me/push_b_reg_id': "the specification's neutral name; also served at Zulip's /users/me/android_gcm_reg_id",
  'GET /user_uploads/temporary/{token}/{filename}': 'the temporary URL get-file-temporary-url hands out',
  'DELETE /export/realm/{export_id}': "Zulip serves it (the web app's data exports page uses it); undocumented",
};
