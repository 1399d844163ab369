/** User administration (zerver/views/users.py): create, edit another user, reactivate. */
import { ROLES, createUser, reactivateUser, updateUser } from '../../engine/users/admin.ts';
import { withValue } from '../../engine/events/effects.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';
import { parseChanges } from './profile-fields.ts';
import { accessUserByEmail } from '../../engine/users/users.ts';

export const userAdminRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/users',
    response: 'create-user',
    // Administrators who also hold the server-level can_create_users permission.
    auth: 'admin',
    summary: 'create a user account (a member, subscribed to the default channels)',
    params: [
      { name: 'email', type: 'string', required: true },
      { name: 'password', type: 'string', required: true },
      { name: 'full_name', type: 'string', required: true },
    ],
    handler({ engine, user, params }) {
      return createUser(engine, user, { email: params.email, password: params.password, fullName: params.full_name });
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/users/{user_id}',
    response: 'empty',
    // Administrators, or a bot's owner for the bot: decided per target (access_user_by_id for_admin).
    auth: 'user',
    summary: "change another user's name, role or custom profile data",
    params: [
      { name: 'user_id', type: 'int', in: 'path', required: true },
      { name: 'full_name', type: 'string' },
      { name: 'role', type: 'int', oneOf: ROLES },
      { name: 'profile_data', type: 'json_array', validate: parseChanges },
    ],
    handler({ engine, user, params }) {
      return withValue(updateUser(engine, user, {
        userId: params.user_id,
        fullName: params.full_name,
        role: params.role,
        profileData: params.profile_data,
      }), {});
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/users/{email}',
    response: 'empty',
    // update_user_by_email_api: the target found as GET /users/{email} finds it (the real address
    // where its visibility lets the caller see it, or the user{id}@ dummy), then PATCH /users/{user_id}.
    auth: 'user',
    summary: 'the same, naming the user by email',
    params: [
      { name: 'email', type: 'string', in: 'path', required: true },
      { name: 'full_name', type: 'string' },
      { name: 'role', type: 'int', oneOf: ROLES },
      { name: 'profile_data', type: 'json_array', validate: parseChanges },
    ],
    handler({ engine, user, params }) {
      const target = accessUserByEmail(engine, user, params.email);
      return withValue(updateUser(engine, user, {
        userId: target.id,
        fullName: params.full_name,
        role: params.role,
        profileData: params.profile_data,
      }), {});
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/{user_id}/reactivate',
    response: 'empty',
    auth: 'user',
    summary: 'reactivate a deactivated user or bot',
    params: [{ name: 'user_id', type: 'int', in: 'path', required: true }],
    handler({ engine, user, params }) {
      return reactivateUser(engine, user, params.user_id);
    },
  }),
];
