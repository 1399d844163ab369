/** Invitation endpoints (zerver/views/invite.py, zerver/actions/invites.py): reusable links. Guests and bots are refused first. */
import { ChatError } from '../../engine/errors.ts';
import {
  INVITATION_LINK_VALIDITY_MINUTES,
  INVITE_AS_VALUES,
  MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH,
  createMultiuseInvite,
  listInvites,
  editMultiuseInvite, revokeMultiuseInvite,
} from '../../engine/users/invites.ts';
import type { Role } from '../../engine/state.ts';
import { withValue } from '../../engine/events/effects.ts';
import { checkIn } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** invite_as: check_int_in_validator over the roles one may invite as. */
export const inviteAs: (value: number, name: string) => Role = checkIn(INVITE_AS_VALUES);

/** Json[int | None]: minutes, or null for a link that never expires. */
export function minutesOrNull(value: unknown, name: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw ChatError.badRequest(`${name} is not an integer`);
  return value;
}

export const inviteRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/invites/multiuse',
    response: 'create-invite-link',
    auth: 'human_member',
    summary: 'create a reusable invitation link',
    // generate_multiuse_invite_backend's signature order, which decides the error reported first.
    params: [
      { name: 'group_ids', type: 'int_array', default: [] },
      { name: 'include_realm_default_subscriptions', type: 'bool', default: false },
      { name: 'invite_as', type: 'int', default: 400, validate: inviteAs },
      { name: 'invite_expires_in_minutes', type: 'json', default: INVITATION_LINK_VALIDITY_MINUTES, validate: minutesOrNull },
      { name: 'stream_ids', type: 'int_array', default: [] },
      { name: 'welcome_message_custom_text', type: 'string', maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH },
    ],
    handler({ engine, user, params }) {
      return createMultiuseInvite(engine, user, {
        invite_as: params.invite_as,
        invite_expires_in_minutes: params.invite_expires_in_minutes,
        stream_ids: params.stream_ids,
        group_ids: params.group_ids,
        include_realm_default_subscriptions: params.include_realm_default_subscriptions,
        welcome_message_custom_text: (params.welcome_message_custom_text) ?? null,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/invites',
    response: 'get-invites',
    auth: 'human_member',
    summary: 'the unexpired invitations you control (all of them for administrators)',
    params: [],
    handler({ engine, user }) {
      return { invites: listInvites(engine, user) };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/invites/multiuse/{invite_id}',
    response: 'empty',
    auth: 'human_member',
    summary: 'revoke a reusable invitation link',
    params: [{ name: 'invite_id', type: 'int', in: 'path', required: true }],
    handler({ engine, user, params }) {
      return withValue(revokeMultiuseInvite(engine, user, params.invite_id), {});
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/invites/multiuse/{invite_id}',
    response: 'empty',
    auth: 'human_member',
    summary: "change a reusable invitation link's role, channels or groups",
    params: [
      { name: 'invite_id', type: 'int', in: 'path', required: true },
      { name: 'group_ids', type: 'int_array' },
      { name: 'include_realm_default_subscriptions', type: 'bool' },
      { name: 'invite_as', type: 'int', validate: inviteAs },
      { name: 'stream_ids', type: 'int_array' },
    ],
    handler({ engine, user, params }) {
      return withValue(
        editMultiuseInvite(engine, user, params.invite_id, {
          ...(params.invite_as !== undefined ? { invite_as: params.invite_as } : {}),
          ...(params.stream_ids !== undefined ? { stream_ids: params.stream_ids } : {}),
          ...(params.group_ids !== undefined ? { group_ids: params.group_ids } : {}),
          ...(params.include_realm_default_subscriptions !== undefined ? { include_realm_default_subscriptions: params.include_realm_default_subscriptions } : {}),
        }),
        {},
      );
    },
  }),
];
