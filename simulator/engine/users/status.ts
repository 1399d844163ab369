/**
 * User statuses (Zulip's zerver/lib/user_status.py and
 * zerver/actions/user_status.py): a short text and an emoji per user, plus the deprecated `away`
 * flag, which is really the inverse of the user's presence_enabled setting.
 */
import { activeUsers, userIdsWhoCanAccessUser, type Engine } from '../core.ts';
import { checkEmojiRequest, emojiDataForName } from '../emoji/check.ts';
import { normalizeReactionType } from '../emoji/index.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { presenceEnabledChanged } from './presence.ts';
import type { UserRecord, UserStatusRecord } from '../state.ts';
import type { UserStatus } from '../../../schemas/generated/types/chat/user-status.ts';
import { accessUser } from './users.ts';

/** The most code points a status text may have (after trimming). */
export const MAX_STATUS_TEXT_LENGTH = 60;

/** The status as GET /users/{id}/status, /register and clients show it: only what is set. */
/** A status as the API shows it (schemas/chat/user-status.schema.json): each field only when set. */
export type { UserStatus };

/** What a status request carries; undefined = not sent (Zulip distinguishes absent from ""). */
export interface StatusChange {
  away?: boolean | undefined;
  statusText?: string | undefined;
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

const EMPTY_STATUS: UserStatusRecord = { status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' };

/** Zulip's format_user_status: `away` only when true, the emoji fields only with a name. */
function formatStatus(user: UserRecord, record: UserStatusRecord): UserStatus {
  const out: UserStatus = {};
  if (!user.presence_enabled) out.away = true;
  if (record.status_text) out.status_text = record.status_text;
  if (record.emoji_name) {
    out.emoji_name = record.emoji_name;
    out.emoji_code = record.emoji_code;
    out.reaction_type = record.reaction_type as UserStatus['reaction_type'];
  }
  return out;
}

/** Zulip's get_user_status: `{}` for a user who never set a status. */
export function statusOf(engine: Engine, user: UserRecord): UserStatus {
  const record = engine.state.userStatuses.get(user.id);
  return record ? formatStatus(user, record) : {};
}

/**
 * Zulip's check_update_user_status, in its order: something must be sent; an empty emoji name
 * clears the emoji; a name alone is resolved to its code and type; a code or type without a name
 * is refused; a named emoji must exist as given.
 */
function checkStatusChange(engine: Engine, change: StatusChange): StatusChange {
  const { away, statusText, emojiName } = change;
  if (away === undefined && statusText === undefined && emojiName === undefined) {
    throw ChatError.badRequest('Client did not pass any new values.');
  }
  let emojiCode = change.emojiCode;
  let reactionType = change.reactionType === undefined ? undefined : normalizeReactionType(change.reactionType);
  if (emojiName === '') {
    emojiCode = '';
    reactionType = 'unicode_emoji';
  } else if (emojiName !== undefined) {
    if (emojiCode === undefined || reactionType === undefined) {
      const data = emojiDataForName(engine.state.realm.emoji, emojiName);
      emojiCode ??= data.emojiCode;
      reactionType ??= data.reactionType;
    }
    checkEmojiRequest(engine.state.realm.emoji, { name: emojiName, code: emojiCode, type: reactionType });
  } else if (emojiCode || reactionType) {
    // Empty strings count as not sent here, as in Zulip.
    throw ChatError.badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  return { away, statusText, emojiName, emojiCode, reactionType };
}

/**
 * Zulip's do_update_user_status: only the fields sent change, and the event carries only them.
 * `away` changes the presence_enabled setting, with that setting's own events to the user.
 */
function applyStatusChange(engine: Engine, user: UserRecord, change: StatusChange): Effect[] {
  const events: Effect[] = [];
  if (change.away !== undefined) {
    user.presence_enabled = !change.away;
    events.push(effect({ type: 'user_settings', op: 'update', property: 'presence_enabled', value: user.presence_enabled }, [user.id]));
    // Clients from before feature level 89 read settings changes from the legacy event.
    events.push(
      effect(
        { type: 'update_global_notifications', user: user.email, notification_name: 'presence_enabled', setting: user.presence_enabled },
        [user.id],
      ),
    );
    events.push(...presenceEnabledChanged(engine, user));
  }
  const record = { ...(engine.state.userStatuses.get(user.id) ?? EMPTY_STATUS) };
  const event: Record<string, unknown> & { type: string } = { type: 'user_status', user_id: user.id };
  if (change.away !== undefined) event.away = change.away;
  if (change.statusText !== undefined) {
    record.status_text = change.statusText;
    event.status_text = change.statusText;
  }
  if (change.emojiName !== undefined) {
    record.emoji_name = change.emojiName;
    record.emoji_code = change.emojiCode!;
    record.reaction_type = change.reactionType!;
    event.emoji_name = record.emoji_name;
    event.emoji_code = record.emoji_code;
    event.reaction_type = record.reaction_type;
  }
  engine.state.userStatuses.set(user.id, record);
  events.push(effect(event, userIdsWhoCanAccessUser(engine, user)));
  return events;
}

/** POST /users/me/status. */
export function updateOwnStatus(engine: Engine, user: UserRecord, change: StatusChange): Outcome<Record<string, never>> {
  const checked = checkStatusChange(engine, change);
  return outcome({}, applyStatusChange(engine, user, checked));
}

/**
 * POST /users/{user_id}/status: an administrator sets another human's status (no `away`). The
 * target is checked before the caller's right to it (No such user, User is deactivated, then
 * Insufficient permission), as Zulip's access_user_by_id does.
 */
export function updateStatusOf(
  engine: Engine,
  actor: UserRecord,
  userId: number,
  change: Omit<StatusChange, 'away'>,
): Outcome<Record<string, never>> {
  const target = accessUser(engine, actor, userId, { forAdmin: true });
  const checked = checkStatusChange(engine, change);
  return outcome({}, applyStatusChange(engine, target, checked));
}

/** GET /users/{user_id}/status: any human of the realm who is active. */
export function getStatusOf(engine: Engine, viewer: UserRecord, userId: number): UserStatus {
  return statusOf(engine, accessUser(engine, viewer, userId, { forAdmin: false }));
}

/**
 * The `user_status` key of /register (fetch type `user_status`): active users whose status shows
 * anything, keyed by user id as a string.
 */
export function userStatusRegisterState(engine: Engine, _viewer: UserRecord): { user_status: Record<string, UserStatus> } {
  const out: Record<string, UserStatus> = {};
  for (const user of activeUsers(engine)) {
    const status = statusOf(engine, user);
    if (Object.keys(status).length > 0) out[String(user.id)] = status;
  }
  return { user_status: out };
}
