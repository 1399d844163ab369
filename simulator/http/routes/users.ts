/** User endpoints (zerver/views/users.py, zerver/lib/users.py). */
import { ChatError } from '../../engine/errors.ts';
import {
  DEACTIVATION_ACTIONS,
  accessUserByEmail,
  accessUserById,
  deactivateBot,
  deactivateSelf,
  deactivateUser,
  formatUser,
  listUsers,
  type DeactivationAction,
} from '../../engine/users/users.ts';
import { userJsonMembers } from '../../engine/fast/user-json.ts';
import { SerializedFields } from '../envelope.ts';
import { withValue } from '../../engine/events/effects.ts';
import { defineRoute, paramList } from '../define-route.ts';
import type { ResponseOf, Route } from '../route.ts';

const userIdInPath = { name: 'user_id', type: 'int', in: 'path', required: true } as const;
const formatParams = paramList([
  { name: 'client_gravatar', type: 'bool', default: true },
  { name: 'include_custom_profile_fields', type: 'bool', default: false },
]);

function parseActions(value: Record<string, unknown>, name: string): Partial<Record<DeactivationAction, boolean>> {
  const out: Partial<Record<DeactivationAction, boolean>> = {};
  for (const [key, v] of Object.entries(value)) {
    const action = DEACTIVATION_ACTIONS.find((a) => a === key);
    if (action === undefined) throw ChatError.badRequest(`Argument "${key}" at ${name} is unexpected`);
    if (typeof v !== 'boolean') throw ChatError.badRequest(`${name}["${key}"] is not a boolean`);
    out[action] = v;
  }
  return out;
}

export const userRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/users',
    response: 'get-users',
    // Spectators may list users only where the organization allows it (feature level 387).
    auth: 'optional',
    summary: 'all users of the organization',
    params: [...formatParams, { name: 'user_ids', type: 'int_array' }],
    handler({ engine, user, params }) {
      if (!user && !engine.state.realm.allow_unauthenticated_user_list) throw ChatError.unauthorized();
      return {
        members: listUsers(engine, user, {
          clientGravatar: params.client_gravatar,
          includeCustomProfileFields: params.include_custom_profile_fields,
          userIds: params.user_ids,
        }),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/me',
    response: 'get-own-user',
    auth: 'user',
    summary: 'your own user, fields at the top level',
    params: [],
    handler({ engine, user }) {
      const me = user;
      const ids = engine.state.messages.byUser.get(me.id);
      // Deprecated: the highest message id the user received, or -1.
      const maxMessageId = ids && ids.length > 0 ? ids[ids.length - 1]! : -1;
      // The User object (is_active among its fields) written as text: see engine/fast/user-json.ts.
      const members = userJsonMembers(engine, me, me, { clientGravatar: false, includeCustomProfileFields: !me.is_bot });
      return new SerializedFields<ResponseOf<'get-own-user'>>(`${members},"max_message_id":${maxMessageId}`);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/me',
    response: 'empty',
    // Bots cannot deactivate themselves this way (upstream: human users only).
    auth: 'human',
    summary: 'deactivate your own account',
    params: [],
    handler({ engine, user }) {
      return withValue(deactivateSelf(engine, user), {});
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{user_id}',
    response: 'get-user',
    auth: 'user',
    summary: 'one user by id',
    params: [userIdInPath, ...formatParams],
    handler({ engine, user, params }) {
      const target = accessUserById(engine, params.user_id);
      return {
        user: formatUser(engine, user, target, {
          clientGravatar: params.client_gravatar,
          includeCustomProfileFields: params.include_custom_profile_fields,
        }),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{email}',
    response: 'get-user',
    auth: 'user',
    summary: 'one user by email (fake API address, or the real one when visible)',
    params: [{ name: 'email', type: 'string', in: 'path', required: true }, ...formatParams],
    handler({ engine, user, params }) {
      const target = accessUserByEmail(engine, user, params.email);
      return {
        user: formatUser(engine, user, target, {
          clientGravatar: params.client_gravatar,
          includeCustomProfileFields: params.include_custom_profile_fields,
        }),
      };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/{user_id}',
    response: 'empty',
    // Administrators only, but Zulip checks that while looking the target up (accessUser): an
    // unknown or bot target answers `No such user` first, and a non-administrator gets
    // `Insufficient permission` (BAD_REQUEST), not the route-level administrator error.
    auth: 'user',
    summary: 'deactivate a user (and their bots)',
    params: [
      userIdInPath,
      { name: 'actions', type: 'json_object', default: {}, validate: parseActions },
      {
        name: 'deactivation_notification_comment',
        type: 'string',
        maxLength: 2000,
        validate: (v: string) => v.trim(),
      },
    ],
    handler({ engine, user, params }) {
      return withValue(deactivateUser(engine, user, {
        userId: params.user_id,
        actions: params.actions,
        notificationComment: (params.deactivation_notification_comment) ?? null,
      }), {});
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/bots/{bot_id}',
    response: 'empty',
    // The bot's owner or an administrator (Zulip's access_bot_by_id), decided per target.
    auth: 'user',
    summary: 'deactivate a bot',
    params: [{ name: 'bot_id', type: 'int', in: 'path', required: true }],
    handler({ engine, user, params }) {
      return withValue(deactivateBot(engine, user, params.bot_id), {});
    },
  }),
];
