/**
 * What reusable links and email invitations share (zerver/views/invite.py, actions/invites.py):
 * who hears of a change, the role an inviter may grant, and the channels they may invite to.
 */
import { activeUsers, canAccessStreamContent, isAdmin, isModerator, isOwner, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, type Effect } from '../events/effects.ts';
import { ROLE, type Role, type UserRecord } from '../state.ts';
import { canAddSubscribers } from '../channels/subscriptions.ts';

/**
 * notify_invites_changed: every administrator and owner, bots included, and the creator of the
 * invitation that changed.
 */
export function invitesChanged(engine: Engine, referrerId?: number): Effect {
  const admins = activeUsers(engine).filter(isAdmin).map((u) => u.id);
  return effect({ type: 'invites_changed' }, referrerId === undefined ? admins : [...admins, referrerId]);
}

/**
 * The role bound. Owners are invited by owners only (`Must be an organization owner`) and
 * administrators by administrators. For moderators the project's specification ("roles equal to
 * or more restricted than its own") lets a moderator invite moderators, where Zulip's code asks for
 * an administrator; the refusal reads the same either way.
 */
export function checkInviteRole(actor: UserRecord, invitedAs: Role): void {
  if (invitedAs === ROLE.owner && !isOwner(actor)) throw ChatError.ownerRequired();
  const allowed = invitedAs === ROLE.moderator ? isModerator(actor) : invitedAs > ROLE.moderator || isAdmin(actor);
  if (!allowed) throw ChatError.badRequest('Must be an organization administrator');
}

/**
 * access_streams_for_invite: each channel must be one the creator can read (first failing id
 * named), then one they may add subscribers to, unless it is a default channel.
 */
export function accessStreamsForInvite(engine: Engine, actor: UserRecord, streamIds: readonly number[]): void {
  const streams = streamIds.map((id) => {
    const stream = engine.state.streams.get(id);
    if (!stream || stream.is_archived || !canAccessStreamContent(engine, actor, stream)) {
      throw ChatError.badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
    return stream;
  });
  const defaults = engine.state.realm.default_stream_ids;
  if (streams.some((s) => !defaults.has(s.id) && !canAddSubscribers(engine, actor, s))) {
    throw ChatError.badRequest('You do not have permission to subscribe other users to channels.');
  }
}

/**
 * do_get_invites_controlled_by_user's rule: every valid invitation for administrators, only one's
 * own for anyone else, in id order. Email invitations and reusable links differ only in validity.
 */
export function controlledInvites<T extends { id: number; referred_by: number }>(
  user: UserRecord,
  invites: Iterable<T>,
  valid: (invite: T) => boolean,
): T[] {
  return [...invites].filter((invite) => valid(invite) && (isAdmin(user) || invite.referred_by === user.id)).sort((a, b) => a.id - b.id);
}
