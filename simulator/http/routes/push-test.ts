/** POST /mobile_push/test_notification (test-notify): a test push to your legacy push tokens. */
import { sendTestNotification } from '../../engine/integrations/push.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const pushTestRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/mobile_push/test_notification',
    response: 'empty',
    auth: 'human',
    summary: 'send a test push to your registered push tokens (or one of them)',
    params: [{ name: 'token', type: 'string' }],
    handler: ({ engine, user, params }) => sendTestNotification(engine, user, params.token),
  }),
];
