/** Presence (zerver/views/presence.py, zerver/lib/presence.py): report one's own, read the realm's, read one user's. */
import { realmPresence, reportPresence, userPresence } from '../../engine/users/presence.ts';
import { intOrNull } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const presenceRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/users/me/presence',
    response: 'update-presence',
    auth: 'human',
    summary: "Report one's presence (active or idle) and, unless ping_only, get the realm's",
    // update_active_status_backend's parameters, alphabetically as Zulip declares them.
    params: [
      { name: 'history_limit_days', type: 'json', validate: intOrNull },
      { name: 'last_update_id', type: 'json', validate: intOrNull },
      { name: 'new_user_input', type: 'bool', default: false },
      { name: 'ping_only', type: 'bool', default: false },
      { name: 'slim_presence', type: 'bool', default: false },
      { name: 'status', type: 'string', required: true },
    ],
    handler(ctx) {
      const p = ctx.params;
      return reportPresence(ctx.engine, ctx.user, {
        status: p.status,
        pingOnly: p.ping_only,
        newUserInput: p.new_user_input,
        slimPresence: p.slim_presence,
        lastUpdateId: p.last_update_id,
        historyLimitDays: p.history_limit_days,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/realm/presence',
    response: 'get-presence',
    auth: 'user',
    summary: "Every active human's presence in the legacy format (keyed by email)",
    params: [],
    handler(ctx) {
      // Not slim: every entry is in the legacy form (the overload says so; no cast hides drift).
      const { presences, server_timestamp } = realmPresence(ctx.engine, { slim: false });
      return { presences, server_timestamp };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{user_id_or_email}/presence',
    response: 'get-user-presence',
    auth: 'user',
    summary: "One user's presence, by user ID or email",
    params: [
      { name: 'user_id_or_email', type: 'string', in: 'path', required: true },
      { name: 'slim_presence', type: 'bool', default: false },
    ],
    handler(ctx) {
      return userPresence(ctx.engine, ctx.params.user_id_or_email, ctx.params.slim_presence);
    },
  }),
];
