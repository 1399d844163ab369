/**
 * Muted users (zerver/views/muted_users.py, zerver/actions/muted_users.py): a user may mute anyone
 * else of the realm, bots, deactivated users and the system bots included. Muting marks the muted
 * user's messages read for the muter, and their later messages arrive already read (send.ts asks
 * `usersWhoMuted`). Every change sends the muter the whole list, with the time of each mute.
 */
import { nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { markSenderMessagesRead } from '../messages/flags.ts';
import type { UserRecord } from '../state.ts';

export interface MutedUserDict {
  id: number;
  timestamp: number;
}

/** get_user_mutes: the users `user` muted, oldest mute first. */
export function mutedUsersOf(engine: Engine, user: UserRecord): MutedUserDict[] {
  return [...(engine.state.mutedUsers.get(user.id) ?? [])].map(([id, timestamp]) => ({ id, timestamp }));
}

/** The `muted_users` fetch type of /register. */
export function mutedUsersRegisterState(engine: Engine, user: UserRecord): { muted_users: MutedUserDict[] } {
  return { muted_users: mutedUsersOf(engine, user) };
}

const NOBODY: ReadonlySet<number> = new Set();

/** get_muting_users: who muted `senderId` (deactivated users included). */
export function usersWhoMuted(engine: Engine, senderId: number): ReadonlySet<number> {
  if (engine.state.mutedUsers.size === 0) return NOBODY;
  const muting = new Set<number>();
  for (const [userId, muted] of engine.state.mutedUsers) if (muted.has(senderId)) muting.add(userId);
  return muting;
}

/**
 * access_user_by_id_including_cross_realm with bots and deactivated users allowed: any user of the
 * realm or a system bot. (No "Insufficient permission": every user may see every other here.)
 */
function accessMuteTarget(engine: Engine, userId: number): UserRecord {
  const target = engine.state.users.get(userId);
  if (!target) throw ChatError.badRequest('No such user');
  return target;
}

function mutedUsersEvent(engine: Engine, user: UserRecord) {
  return effect({ type: 'muted_users', muted_users: mutedUsersOf(engine, user) }, [user.id]);
}

/** do_mute_user: the mute, then the muted user's unread messages read (their event first), then the list. */
export function muteUser(engine: Engine, user: UserRecord, mutedUserId: number): Outcome<Record<string, never>> {
  if (mutedUserId === user.id) throw ChatError.badRequest('Cannot mute self');
  const target = accessMuteTarget(engine, mutedUserId);
  const muted = engine.state.mutedUsers.get(user.id) ?? new Map<number, number>();
  if (muted.has(target.id)) throw ChatError.badRequest('User already muted');
  muted.set(target.id, nowSeconds(engine));
  engine.state.mutedUsers.set(user.id, muted);
  const read = markSenderMessagesRead(engine, user, target.id);
  return outcome({}, [...read, mutedUsersEvent(engine, user)]);
}

/** do_unmute_user: messages marked read by the mute stay read. */
export function unmuteUser(engine: Engine, user: UserRecord, mutedUserId: number): Outcome<Record<string, never>> {
  const target = accessMuteTarget(engine, mutedUserId);
  const muted = engine.state.mutedUsers.get(user.id);
  if (!muted?.delete(target.id)) throw ChatError.badRequest('User is not muted');
  if (muted.size === 0) engine.state.mutedUsers.delete(user.id);
  return outcome({}, [mutedUsersEvent(engine, user)]);
}
