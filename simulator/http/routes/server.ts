/** Server and realm information clients read before and right after logging in (zerver/views/auth.py, zerver/views/realm.py). */
import { serverSettings } from '../../engine/realm/server-settings.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const serverRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/server_settings',
    response: 'get-server-settings',
    // No credentials are read at all: clients call it before they have any.
    auth: 'none',
    summary: 'server version, feature level, authentication methods and realm basics',
    params: [],
    handler({ engine, headers }) {
      return { ...serverSettings(engine, { userAgent: headers['user-agent'] }) };
    },
  }),
];
