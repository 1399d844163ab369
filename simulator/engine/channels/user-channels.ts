/**
 * GET /users/{user_id}/channels (get-user-channels, feature level 440; bots too since 458): the
 * channels the target user is subscribed to, limited to those the caller has metadata access
 * to, so an administrator sees them all and nobody learns of a private channel they cannot see.
 */
import { canAccessStreamMetadata, type Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { accessUser } from '../users/users.ts';

export function userSubscribedChannelIds(engine: Engine, viewer: UserRecord, userId: number): number[] {
  const target = accessUser(engine, viewer, userId, { forAdmin: false, allowBots: true });
  const ids: number[] = [];
  for (const [streamId, subs] of engine.state.subscriptions) {
    if (subs.get(target.id)?.active !== true) continue;
    const stream = engine.state.streams.get(streamId);
    if (stream && canAccessStreamMetadata(engine, viewer, stream)) ids.push(streamId);
  }
  return ids.sort((a, b) => a - b);
}
