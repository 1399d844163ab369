/** Presence (zerver/views/presence.py, zerver/lib/presence.py): report one's own, read the realm's, read one user's. */
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { realmPresence, reportPresence, userPresence } from '../../engine/presence.ts';
import type { Route } from '../route.ts';

/** `Json[int] | None`. */
function intOrNull(value: unknown, name: string): number | null {
  if (value !== null && !Number.isSafeInteger(value)) throw ChatError.badRequest(`${name} is not an integer`);
  return value as number | null;
}

export const presenceRoutes: Route[] = [
  {
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
      return commit(
        ctx.engine,
        reportPresence(ctx.engine, ctx.user!, {
          status: p.status as string,
          pingOnly: p.ping_only as boolean,
          newUserInput: p.new_user_input as boolean,
          slimPresence: p.slim_presence as boolean,
          lastUpdateId: p.last_update_id as number | null | undefined,
          historyLimitDays: p.history_limit_days as number | null | undefined,
        }),
      );
    },
  },
  {
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
  },
  {
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
      return userPresence(ctx.engine, ctx.params.user_id_or_email as string, ctx.params.slim_presence as boolean);
    },
  },
];
