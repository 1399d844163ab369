/** Muting another user: POST and DELETE /users/me/muted_users/{muted_user_id}. */
import { commit } from '../../engine/core.ts';
import { muteUser, unmuteUser } from '../../engine/muted-users.ts';
import type { ParamSpec, Route } from '../route.ts';

const mutedUserIdInPath: ParamSpec = { name: 'muted_user_id', type: 'int', in: 'path', required: true };

export const mutedUserRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/muted_users/{muted_user_id}',
    response: 'empty',
    auth: 'user',
    summary: "mute a user: their messages so far are marked read, and later ones arrive read",
    params: [mutedUserIdInPath],
    handler({ engine, user, params }) {
      return commit(engine, muteUser(engine, user!, params.muted_user_id as number));
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/muted_users/{muted_user_id}',
    response: 'empty',
    auth: 'user',
    summary: 'unmute a user',
    params: [mutedUserIdInPath],
    handler({ engine, user, params }) {
      return commit(engine, unmuteUser(engine, user!, params.muted_user_id as number));
    },
  },
];
