/**
 * Email invitations (zerver/views/invite.py invite_users_backend, zerver/actions/invites.py
 * do_invite_users): sending them, listing them with the reusable links, revoking and resending
 * one. Each invitation sent is an email in the outbox; administrators and the inviter hear of
 * every change (`invites_changed`).
 */
import { isAdmin, isOwner, isSystemBotEmail, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { outcome, type Effect, type Outcome } from '../events/effects.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import { accessStreamsForInvite, checkInviteRole, controlledInvites, invitesChanged } from './invite-rules.ts';
import type { CreateInviteParams } from './invites.ts';
import { ROLE, nextId, type EmailInvite, type Role, type UserRecord } from '../state.ts';
import { userByDeliveryEmail } from './emails.ts';
import { emailRefusal, realmEmailValidator } from './email-validation.ts';
import { accessGroupForUpdate } from '../groups/user-groups.ts';

/** settings.INVITES_DEFAULT_REALM_DAILY_MAX: invitations a realm may send in a day. */
export const INVITES_DAILY_MAX = 100;
/** settings.INVITES_MIN_USER_AGE_DAYS: how old a member's account must be to invite, when the realm needs no invitation to join. */
export const INVITES_MIN_USER_AGE_DAYS = 3;
const DAY_SECONDS = 86_400;

/** An email invitation as GET /invites lists it. */
export interface EmailInviteDict {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: Role;
  email: string;
  is_multiuse: false;
  notify_referrer_on_join: boolean;
}

export interface SendInvitesParams extends CreateInviteParams {
  invitee_emails: string;
  notify_referrer_on_join: boolean;
}

/** One refused address: [email, why, whether its account is deactivated], as InvitationError lists them. */
type Refusal = [string, string, boolean];

function invitationError(msg: string, errors: Refusal[], extra: { sent_invitations: boolean; daily_limit_reached?: boolean }): ChatError {
  return new ChatError('INVITATION_FAILED', msg, {
    extra: { errors, sent_invitations: extra.sent_invitations, license_limit_reached: false, daily_limit_reached: extra.daily_limit_reached ?? false },
  });
}

/** get_invitee_emails_set: split on commas and newlines, `Name <address>` reduced to the address, trimmed; first appearance order. */
export function inviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(?<email>.*)>/.exec(part);
    out.add((named ? named.groups!.email! : part).trim());
  }
  return [...out];
}

function isValid(invite: EmailInvite, now: number): boolean {
  return invite.expiry_date === null || invite.expiry_date > now;
}

/** The invitation email (zerver/emails/invitation), as the outbox records it. */
function sendInvitationEmail(engine: Engine, invite: EmailInvite, referrer: UserRecord): void {
  const realm = engine.state.realm;
  engine.state.outbox.push({
    to: invite.email,
    template: 'zerver/emails/invitation',
    context: {
      referrer_name: referrer.full_name,
      referrer_email: referrer.delivery_email,
      referrer_realm_name: realm.name,
      realm_url: realm.url,
      invite_expires_in_minutes: invite.expiry_date === null ? null : Math.round((invite.expiry_date - invite.date_sent) / 60),
    },
    timestamp: invite.date_sent,
  });
}

/**
 * POST /invites, in invite_users_backend's order: the realm's can_invite_users_group, the role
 * bound, at least one address, the channels, the groups, a custom welcome text only from an
 * administrator; then do_invite_users: the daily limit, a member's account old enough (in a realm
 * anyone may join), every address valid and allowed by the realm's email rules (else nothing is
 * sent, and the error lists those refused and those taken), then those already taken are skipped
 * (all of them: nothing sent), and each other one gets an invitation and its email.
 */
export function sendInvites(engine: Engine, actor: UserRecord, p: SendInvitesParams): Outcome<{ skipped: ChatError | null }> {
  if (!hasRealmGroupPermission(engine, actor, 'can_invite_users_group')) throw ChatError.badRequest('Insufficient permission');
  checkInviteRole(actor, p.invite_as);
  if (p.invitee_emails === '') throw ChatError.badRequest('You must specify at least one email address.');
  const emails = inviteeEmails(p.invitee_emails);
  accessStreamsForInvite(engine, actor, p.stream_ids);
  for (const id of p.group_ids) accessGroupForUpdate(engine, actor, id, 'can_add_members_group');
  if (p.welcome_message_custom_text !== null && !isAdmin(actor)) throw ChatError.badRequest('Must be an organization administrator');

  const now = nowSeconds(engine);
  const sentToday = [...engine.state.emailInvites.values()].filter((i) => i.date_sent > now - DAY_SECONDS).length;
  if (sentToday + emails.length > INVITES_DAILY_MAX) {
    throw invitationError(
      'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      [],
      { sent_invitations: false, daily_limit_reached: true },
    );
  }
  // Without invite_required, a member needs an account older than INVITES_MIN_USER_AGE_DAYS.
  if (!engine.state.realm.invite_required && !isAdmin(actor) && actor.date_joined > now - INVITES_MIN_USER_AGE_DAYS * DAY_SECONDS) {
    throw invitationError(
      'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
      [],
      { sent_invitations: false },
    );
  }
  // validate_email_is_valid on each address (an empty one is passed over), then
  // get_existing_user_errors, not verbose, on those that passed.
  const allowedInRealm = realmEmailValidator(engine);
  const errors: Refusal[] = [];
  const good: string[] = [];
  for (const email of emails) {
    if (email === '') continue;
    const refusal = emailRefusal(email, allowedInRealm);
    if (refusal === null) good.push(email);
    else errors.push([email, refusal, false]);
  }
  const skipped: Refusal[] = [];
  for (const email of good) {
    if (isSystemBotEmail(engine, email)) skipped.push([email, 'Reserved for system bots.', false]);
    else {
      const existing = userByDeliveryEmail(engine, email);
      if (existing) skipped.push([email, existing.is_active ? 'Already has an account.' : 'Account has been deactivated.', !existing.is_active]);
    }
  }
  if (errors.length > 0) throw invitationError("Some emails did not validate, so we didn't send any invitations.", [...errors, ...skipped], { sent_invitations: false });
  // Measured against every address sent, the empty one included, as Zulip measures it.
  if (skipped.length > 0 && skipped.length === emails.length) throw invitationError("We weren't able to invite anyone.", skipped, { sent_invitations: false });
  const candidates = good;

  const skippedEmails = new Set(skipped.map(([email]) => email));
  for (const email of candidates) {
    if (skippedEmails.has(email)) continue;
    const invite: EmailInvite = {
      id: nextId(engine.state, 'email_invite'),
      email,
      referred_by: actor.id,
      invited_as: p.invite_as,
      stream_ids: [...new Set(p.stream_ids)],
      group_ids: [...new Set(p.group_ids)],
      include_realm_default_subscriptions: p.include_realm_default_subscriptions,
      notify_referrer_on_join: p.notify_referrer_on_join,
      welcome_message_custom_text: p.welcome_message_custom_text,
      date_sent: now,
      expiry_date: p.invite_expires_in_minutes === null ? null : now + p.invite_expires_in_minutes * 60,
    };
    engine.state.emailInvites.set(invite.id, invite);
    sendInvitationEmail(engine, invite, actor);
  }
  const events: Effect[] = [invitesChanged(engine, actor.id)];
  // The other invitations went out (their events stand); the answer is still an error naming the skipped.
  const error =
    skipped.length === 0
      ? null
      : invitationError(
          "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
          skipped,
          { sent_invitations: true },
        );
  return outcome({ skipped: error }, events);
}

/** do_get_invites_controlled_by_user's email part: unexpired invitations, all of them for administrators. */
export function listEmailInvites(engine: Engine, user: UserRecord): EmailInviteDict[] {
  const now = nowSeconds(engine);
  return controlledInvites(user, engine.state.emailInvites.values(), (invite) => isValid(invite, now)).map((invite) => ({
    id: invite.id,
    invited_by_user_id: invite.referred_by,
    invited: invite.date_sent,
    expiry_date: invite.expiry_date,
    invited_as: invite.invited_as,
    email: invite.email,
    is_multiuse: false,
    notify_referrer_on_join: invite.notify_referrer_on_join,
  }));
}

/** access_invite_by_id: someone else's invitation needs an administrator (an owner for an owner invitation). */
function accessInvite(engine: Engine, actor: UserRecord, inviteId: number): EmailInvite {
  const invite = engine.state.emailInvites.get(inviteId);
  if (!invite) throw ChatError.badRequest('No such invitation');
  if (invite.referred_by !== actor.id) {
    if (invite.invited_as === ROLE.owner && !isOwner(actor)) throw ChatError.ownerRequired();
    if (!isAdmin(actor)) throw ChatError.badRequest('Must be an organization administrator');
  }
  return invite;
}

/** DELETE /invites/{invite_id} (do_revoke_user_invite): the invitation is gone. */
export function revokeEmailInvite(engine: Engine, actor: UserRecord, inviteId: number): Outcome<Record<string, never>> {
  const invite = accessInvite(engine, actor, inviteId);
  engine.state.emailInvites.delete(invite.id);
  return outcome({}, [invitesChanged(engine, invite.referred_by)]);
}

/** POST /invites/{invite_id}/resend (do_send_user_invite_email): the email again, the invitation dated now. */
export function resendEmailInvite(engine: Engine, actor: UserRecord, inviteId: number): Outcome<Record<string, never>> {
  const invite = accessInvite(engine, actor, inviteId);
  const now = nowSeconds(engine);
  if (invite.expiry_date !== null) invite.expiry_date = now + (invite.expiry_date - invite.date_sent);
  invite.date_sent = now;
  sendInvitationEmail(engine, invite, engine.state.users.get(invite.referred_by) ?? actor);
  return outcome({}, [invitesChanged(engine, invite.referred_by)]);
}

/** revoke_invites_generated_by_user for email invitations: a deactivated user's invitations expire now. */
export function expireEmailInvitesBy(engine: Engine, user: UserRecord): boolean {
  const now = nowSeconds(engine);
  let any = false;
  for (const invite of engine.state.emailInvites.values()) {
    if (invite.referred_by === user.id && isValid(invite, now)) {
      invite.expiry_date = now;
      any = true;
    }
  }
  return any;
}
