/** THE route table: every endpoint the simulator serves, in one list. */
import type { Route } from '../route.ts';
import { alertWordRoutes } from './alert-words.ts';
import { authRoutes } from './auth.ts';
import { botStorageRoutes } from './bot-storage.ts';
import { channelAdminRoutes } from './channel-admin.ts';
import { botRoutes } from './bots.ts';
import { channelFolderRoutes } from './channel-folders.ts';
import { channelRoutes } from './channels.ts';
import { draftRoutes } from './drafts.ts';
import { emailInviteRoutes } from './email-invites.ts';
import { eventRoutes } from './events.ts';
import { groupRoutes } from './groups.ts';
import { inviteRoutes } from './invites.ts';
import { linkifierRoutes } from './linkifiers.ts';
import { messageChangeRoutes } from './message-changes.ts';
import { messageFlagRoutes } from './message-flags.ts';
import { messageRoutes } from './messages.ts';
import { mutedUserRoutes } from './muted-users.ts';
import { personalRoutes } from './personal.ts';
import { presenceRoutes } from './presence.ts';
import { pushRoutes } from './push.ts';
import { pushTestRoutes } from './push-test.ts';
import { realmEmojiRoutes } from './realm-emoji.ts';
import { profileFieldRoutes } from './profile-fields.ts';
import { readReceiptRoutes } from './read-receipts.ts';
import { reminderRoutes } from './reminders.ts';
import { messageReportRoutes } from './message-report.ts';
import { userChannelRoutes } from './user-channels.ts';
import { realmExportRoutes } from './realm-exports.ts';
import { realmPlaygroundRoutes } from './realm-playgrounds.ts';
import { realmDomainRoutes } from './realm-domains.ts';
import { realmUserDefaultsRoutes } from './realm-user-defaults.ts';
import { realmRoutes } from './realm.ts';
import { scheduledMessageRoutes } from './scheduled-messages.ts';
import { serverRoutes } from './server.ts';
import { settingsRoutes } from './settings.ts';
import { statusRoutes } from './statuses.ts';
import { typingRoutes } from './typing.ts';
import { uploadRoutes } from './uploads.ts';
import { userTopicRoutes } from './user-topics.ts';
import { userRoutes } from './users.ts';
import { userAdminRoutes } from './user-admin.ts';
import { videoCallRoutes } from './video-calls.ts';

export const routes: readonly Route[] = [
  ...authRoutes,
  ...serverRoutes,
  ...realmRoutes,
  ...linkifierRoutes,
  ...userRoutes,
  ...userAdminRoutes,
  ...settingsRoutes,
  ...botRoutes,
  ...statusRoutes,
  ...presenceRoutes,
  ...profileFieldRoutes,
  ...botStorageRoutes,
  ...videoCallRoutes,
  ...channelRoutes,
  ...channelAdminRoutes,
  ...messageRoutes,
  ...messageChangeRoutes,
  ...messageFlagRoutes,
  ...typingRoutes,
  ...draftRoutes,
  ...scheduledMessageRoutes,
  ...personalRoutes,
  ...groupRoutes,
  ...channelFolderRoutes,
  ...pushRoutes,
  ...inviteRoutes,
  ...uploadRoutes,
  ...eventRoutes,
  ...userTopicRoutes,
  ...realmEmojiRoutes,
  ...alertWordRoutes,
  ...mutedUserRoutes,
  ...readReceiptRoutes,
  ...reminderRoutes,
  ...messageReportRoutes,
  ...userChannelRoutes,
  ...realmPlaygroundRoutes,
  ...realmExportRoutes,
  ...realmDomainRoutes,
  ...realmUserDefaultsRoutes,
  ...emailInviteRoutes,
  ...pushTestRoutes,
];
