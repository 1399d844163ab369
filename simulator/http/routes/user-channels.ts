/** GET /users/{user_id}/channels (get-user-channels). */
import { userSubscribedChannelIds } from '../../engine/channels/user-channels.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const userChannelRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/users/{user_id}/channels',
    response: 'get-user-channels',
    auth: 'user',
    summary: "a user's subscribed channels that you can see",
    params: [{ name: 'user_id', type: 'int', in: 'path', required: true }],
    handler: ({ engine, user, params }) => ({ subscribed_channel_ids: userSubscribedChannelIds(engine, user, params.user_id) }),
  }),
];
