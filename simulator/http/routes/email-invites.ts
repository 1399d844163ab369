/** Email invitations: POST /invites (send-invites), DELETE /invites/{invite_id}, POST /invites/{invite_id}/resend. Guests and bots are refused first. */
import { resendEmailInvite, revokeEmailInvite, sendInvites } from '../../engine/users/email-invites.ts';
import { withValue } from '../../engine/events/effects.ts';
import { INVITATION_LINK_VALIDITY_MINUTES, MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../../engine/users/invites.ts';
import { defineRoute } from '../define-route.ts';
import { Refusal, type Route } from '../route.ts';
import { inviteAs, minutesOrNull } from './invites.ts';

const inviteIdInPath = { name: 'invite_id', type: 'int', in: 'path', required: true } as const;

export const emailInviteRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/invites',
    response: 'empty',
    auth: 'human_member',
    summary: 'invite people by email',
    // invite_users_backend's signature order, which decides the error reported first.
    params: [
      { name: 'group_ids', type: 'int_array', default: [] },
      { name: 'include_realm_default_subscriptions', type: 'bool', default: false },
      { name: 'invite_as', type: 'int', default: 400, validate: inviteAs },
      { name: 'invite_expires_in_minutes', type: 'json', default: INVITATION_LINK_VALIDITY_MINUTES, validate: minutesOrNull },
      { name: 'invitee_emails', type: 'string', required: true },
      { name: 'notify_referrer_on_join', type: 'bool', default: true },
      { name: 'stream_ids', type: 'int_array', required: true },
      { name: 'welcome_message_custom_text', type: 'string', maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH },
    ],
    handler({ engine, user, params }) {
      const done = sendInvites(engine, user, {
        invitee_emails: params.invitee_emails,
        invite_as: params.invite_as,
        invite_expires_in_minutes: params.invite_expires_in_minutes,
        stream_ids: params.stream_ids,
        group_ids: params.group_ids,
        include_realm_default_subscriptions: params.include_realm_default_subscriptions,
        notify_referrer_on_join: params.notify_referrer_on_join,
        welcome_message_custom_text: params.welcome_message_custom_text ?? null,
      });
      // do_invite_users sends the valid invitations, then reports the skipped addresses as an error.
      if (done.value.skipped) return new Refusal(done.value.skipped, done);
      return withValue(done, {});
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/invites/{invite_id}',
    response: 'empty',
    auth: 'human_member',
    summary: 'revoke an email invitation',
    params: [inviteIdInPath],
    handler: ({ engine, user, params }) => revokeEmailInvite(engine, user, params.invite_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/invites/{invite_id}/resend',
    response: 'empty',
    auth: 'human_member',
    summary: 'send an email invitation again',
    params: [inviteIdInPath],
    handler: ({ engine, user, params }) => resendEmailInvite(engine, user, params.invite_id),
  }),
];
