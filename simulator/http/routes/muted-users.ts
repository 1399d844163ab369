/** Muting another user: POST and DELETE /users/me/muted_users/{muted_user_id}. */
import { muteUser, unmuteUser } from '../../engine/users/muted-users.ts';
import { intInPath } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const mutedUserIdInPath = intInPath('muted_user_id');

export const mutedUserRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/users/me/muted_users/{muted_user_id}',
    response: 'empty',
    auth: 'user',
    summary: "mute a user: their messages so far are marked read, and later ones arrive read",
    params: [mutedUserIdInPath],
    handler({ engine, user, params }) {
      return muteUser(engine, user, params.muted_user_id);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/me/muted_users/{muted_user_id}',
    response: 'empty',
    auth: 'user',
    summary: 'unmute a user',
    params: [mutedUserIdInPath],
    handler({ engine, user, params }) {
      return unmuteUser(engine, user, params.muted_user_id);
    },
  }),
];
