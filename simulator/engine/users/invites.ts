/**
 * Reusable invitation links (zerver/views/invite.py, actions/invites.py):
 * creating one with its role, channels and groups, listing the links a user controls, revoking
 * one, and the invites_changed events administrators (and the link's creator) receive. Expiry
 * follows the injected clock.
 */
import { isAdmin, isOwner, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { outcome, type Effect, type Outcome } from '../events/effects.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import { ROLE, nextId, type MultiuseInvite, type Role, type UserRecord } from '../state.ts';
import { accessGroupForUpdate } from '../groups/user-groups.ts';
import { expireEmailInvitesBy, listEmailInvites, type EmailInviteDict } from './email-invites.ts';
import { accessStreamsForInvite, checkInviteRole, controlledInvites, invitesChanged } from './invite-rules.ts';

/** INVITATION_LINK_VALIDITY_DAYS (10) in minutes: the default lifetime of a link. */
export const INVITATION_LINK_VALIDITY_MINUTES = 14_400;
/** PreregistrationUser.INVITE_AS values. */
export const INVITE_AS_VALUES: readonly Role[] = [ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest];
/** Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH, in code points. */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

/** Confirmation keys: 24 characters of lower-case base32 (generate_key). */
const KEY_LENGTH = 24;
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export interface CreateInviteParams {
  invite_as: Role;
  /** null: the link never expires. */
  invite_expires_in_minutes: number | null;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  welcome_message_custom_text: string | null;
}

/** The invitation object of GET /invites (reusable links carry link_url and no email). */
export interface InviteDict {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: Role;
  link_url: string;
  is_multiuse: true;
}

function inviteLink(engine: Engine, invite: MultiuseInvite): string {
  return `${engine.state.realm.url}/join/${invite.key}/`;
}

/**
 * POST /invites/multiuse, in generate_multiuse_invite_backend's order: the realm's
 * create_multiuse_invite_group, the role bound, the channels, the groups (the creator must be
 * able to add members to each; never a system group), and a custom welcome text only from an
 * administrator.
 */
export function createMultiuseInvite(engine: Engine, actor: UserRecord, p: CreateInviteParams): Outcome<{ invite_link: string }> {
  if (!hasRealmGroupPermission(engine, actor, 'create_multiuse_invite_group')) {
    throw ChatError.insufficientPermission();
  }
  checkInviteRole(actor, p.invite_as);
  accessStreamsForInvite(engine, actor, p.stream_ids);
  for (const id of p.group_ids) accessGroupForUpdate(engine, actor, id, 'can_add_members_group');
  if (p.welcome_message_custom_text !== null && !isAdmin(actor)) throw ChatError.badRequest('Must be an organization administrator');

  const now = nowSeconds(engine);
  const invite: MultiuseInvite = {
    id: nextId(engine.state, 'multiuse_invite'),
    key: engine.deps.random.string(KEY_LENGTH, KEY_ALPHABET),
    referred_by: actor.id,
    invited_as: p.invite_as,
    stream_ids: [...new Set(p.stream_ids)],
    group_ids: [...new Set(p.group_ids)],
    include_realm_default_subscriptions: p.include_realm_default_subscriptions,
    welcome_message_custom_text: p.welcome_message_custom_text,
    date_sent: now,
    expiry_date: p.invite_expires_in_minutes === null ? null : now + p.invite_expires_in_minutes * 60,
    revoked: false,
  };
  engine.state.invites.set(invite.id, invite);
  return outcome({ invite_link: inviteLink(engine, invite) }, [invitesChanged(engine, actor.id)]);
}

/**
 * Still usable: not revoked and not expired. Upstream lists a link while `expiry >= now`; the
 * simulated clock may stand still, so a link that ends at this very second (zero minutes, or a
 * creator just deactivated) counts as expired here, as it would a moment later upstream.
 */
function isValid(invite: MultiuseInvite, now: number): boolean {
  return !invite.revoked && (invite.expiry_date === null || invite.expiry_date > now);
}

/** GET /invites (do_get_invites_controlled_by_user): every valid invitation for administrators, one's own otherwise; email invitations first. */
export function listInvites(engine: Engine, user: UserRecord): (InviteDict | EmailInviteDict)[] {
  return [...listEmailInvites(engine, user), ...listMultiuseInvites(engine, user)];
}

function listMultiuseInvites(engine: Engine, user: UserRecord): InviteDict[] {
  const now = nowSeconds(engine);
  return controlledInvites(user, engine.state.invites.values(), (invite) => isValid(invite, now)).map((invite) => ({
    id: invite.id,
    invited_by_user_id: invite.referred_by,
    invited: invite.date_sent,
    expiry_date: invite.expiry_date,
    invited_as: invite.invited_as,
    link_url: inviteLink(engine, invite),
    is_multiuse: true,
  }));
}

/**
 * DELETE /invites/multiuse/{id} (access_multiuse_invite_by_id): someone else's link needs an
 * administrator (an owner for an owner invitation); revoking twice is an error; an expired but
 * unrevoked link may still be revoked.
 */
export function revokeMultiuseInvite(engine: Engine, actor: UserRecord, inviteId: number): Outcome<Record<string, never>> {
  const invite = accessMultiuseInvite(engine, actor, inviteId);
  invite.revoked = true;
  return outcome({}, [invitesChanged(engine, invite.referred_by)]);
}

function accessMultiuseInvite(engine: Engine, actor: UserRecord, inviteId: number): MultiuseInvite {
  const invite = engine.state.invites.get(inviteId);
  if (!invite) throw ChatError.badRequest('No such invitation');
  if (invite.referred_by !== actor.id) {
    if (invite.invited_as === ROLE.owner && !isOwner(actor)) throw ChatError.ownerRequired();
    if (!isAdmin(actor)) throw ChatError.badRequest('Must be an organization administrator');
  }
  if (invite.revoked) throw ChatError.badRequest('Invitation has already been revoked');
  return invite;
}

export interface EditInviteParams {
  invite_as?: Role;
  stream_ids?: number[];
  group_ids?: number[];
  include_realm_default_subscriptions?: boolean;
}

/**
 * PATCH /invites/multiuse/{invite_id} (edit-invite-link; python_examples.py's
 * edit_reusable_invitation_link): the link found as DELETE finds it (access_multiuse_invite_by_id),
 * then each field given checked as POST /invites/multiuse checks it, the role bound, the channels,
 * the groups; nothing is changed unless all pass. The link's creator and the administrators hear
 * of it (invites_changed). The key, and so the URL, stays.
 */
export function editMultiuseInvite(engine: Engine, actor: UserRecord, inviteId: number, p: EditInviteParams): Outcome<Record<string, never>> {
  const invite = accessMultiuseInvite(engine, actor, inviteId);
  if (p.invite_as !== undefined) checkInviteRole(actor, p.invite_as);
  if (p.stream_ids !== undefined) accessStreamsForInvite(engine, actor, p.stream_ids);
  for (const id of p.group_ids ?? []) accessGroupForUpdate(engine, actor, id, 'can_add_members_group');
  if (p.invite_as !== undefined) invite.invited_as = p.invite_as;
  if (p.stream_ids !== undefined) invite.stream_ids = [...new Set(p.stream_ids)];
  if (p.group_ids !== undefined) invite.group_ids = [...new Set(p.group_ids)];
  if (p.include_realm_default_subscriptions !== undefined) invite.include_realm_default_subscriptions = p.include_realm_default_subscriptions;
  return outcome({}, [invitesChanged(engine, invite.referred_by)]);
}

/**
 * revoke_invites_generated_by_user, when a user is deactivated: their valid links expire now,
 * and administrators hear about it.
 */
export function expireInvitesBy(engine: Engine, user: UserRecord): Effect[] {
  const now = nowSeconds(engine);
  const mine = [...engine.state.invites.values()].filter((invite) => invite.referred_by === user.id && isValid(invite, now));
  for (const invite of mine) invite.expiry_date = now;
  const emailInvites = expireEmailInvitesBy(engine, user);
  return mine.length > 0 || emailInvites ? [invitesChanged(engine)] : [];
}
