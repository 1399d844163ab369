// Fast path. Oracle: JSON.stringify(formatUser(…)) (users/users.ts), the plain version; held to it byte
// for byte by test/simulator/user-json.property.test.ts.
//
// The User object written straight to JSON text, for answers that are one user (GET /users/me).
// The text is byte for byte JSON.stringify(formatUser(…)),
// but JSON.stringify leaves its fast path on profile_data, whose keys (field ids) are integer-like,
// and that made the serialisation the largest cost of the request after the socket write. Nothing
// is kept between calls: the text is written from the state as it is now.
import { avatarUrl, canSeeDeliveryEmail, type Engine } from '../core.ts';
import { ROLE, type UserRecord } from '../state.ts';
import { isoMinute, type FormatUserOptions } from '../users/users.ts';

/**
 * A value's JSON: a string needing no escapes (no quote, backslash, control character or
 * surrogate) is quoted as it is, where JSON.stringify pays a call's full cost even so.
 */
function json(value: string | number | null): string {
  return typeof value === 'string' && !NEEDS_ESCAPING.test(value) ? `"${value}"` : JSON.stringify(value);
}

const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** formatUser(engine, viewer, user, options) as JSON text, without the object's braces. */
export function userJsonMembers(engine: Engine, viewer: UserRecord | undefined, user: UserRecord, options: FormatUserOptions): string {
  const joined = isoMinute(user.date_joined);
  let out =
    `"user_id":${user.id},"email":${json(user.email)}` +
    `,"delivery_email":${canSeeDeliveryEmail(engine, viewer, user) ? json(user.delivery_email) : 'null'}` +
    // Spectators get the date only.
    `,"full_name":${json(user.full_name)},"date_joined":${json(viewer ? joined : joined.slice(0, 10))}` +
    `,"is_active":${user.is_active},"is_owner":${user.role === ROLE.owner},"is_admin":${user.role <= ROLE.administrator}` +
    `,"is_guest":${user.role === ROLE.guest},"is_bot":${user.is_bot},"role":${user.role},"timezone":${json(user.timezone)}` +
    `,"avatar_version":${user.avatar_version}` +
    `,"avatar_url":${json(avatarUrl(engine, user, { clientGravatar: options.clientGravatar, viewer }))}` +
    `,"is_imported_stub":${user.is_imported_stub}`;
  if (user.is_bot) {
    out += `,"bot_type":${json(user.bot_type)},"bot_owner_id":${user.is_system_bot ? 'null' : json(user.bot_owner_id)}`;
    if (user.is_system_bot) out += ',"is_system_bot":true';
  } else if (options.includeCustomProfileFields) {
    out += `,"profile_data":${profileDataJson(engine, user)}`;
  }
  if (user.is_deleted) out += ',"is_deleted":true';
  return out;
}

/**
 * profileDataOf(engine, user) as JSON text. An object lists integer-like keys (array indices:
 * 0 … 2^32 − 2) first, ascending, then the others in insertion order; field ids are such keys,
 * so the realm's field order (the order users see) is not the order of the text. Fields are
 * mostly listed in the order they were made, their ids' order: the text is written as they come,
 * and only a realm whose order differs has its members sorted.
 */
function profileDataJson(engine: Engine, user: UserRecord): string {
  let out = '{';
  let lastRank = -1;
  for (const field of engine.state.realm.custom_profile_fields) {
    const value = user.profile_data.get(field.id);
    if (value === undefined) continue;
    const rank = arrayIndexRank(field.id);
    if (rank < lastRank) return sortedProfileDataJson(engine, user);
    if (lastRank >= 0) out += ',';
    lastRank = rank;
    out += profileMember(field.id, value, user.profile_data_rendered.get(field.id));
  }
  return `${out}}`;
}

/** One field's member of profile_data. A number's text never needs escaping in JSON. */
function profileMember(id: number, value: string, rendered: string | undefined): string {
  return rendered === undefined ? `"${id}":{"value":${json(value)}}` : `"${id}":{"value":${json(value)},"rendered_value":${json(rendered)}}`;
}

/** profileDataJson for a realm whose fields are not in their ids' order. */
function sortedProfileDataJson(engine: Engine, user: UserRecord): string {
  const ranks: number[] = [];
  const members: string[] = [];
  for (const field of engine.state.realm.custom_profile_fields) {
    const value = user.profile_data.get(field.id);
    if (value === undefined) continue;
    ranks.push(arrayIndexRank(field.id));
    members.push(profileMember(field.id, value, user.profile_data_rendered.get(field.id)));
  }
  const order = ranks.map((_, i) => i).sort((a, b) => ranks[a]! - ranks[b]! || a - b);
  return `{${order.map((i) => members[i]!).join(',')}}`;
}

/** Where a key of this id stands among an object's keys: indices by value, every other key after them, as inserted. */
function arrayIndexRank(id: number): number {
  return Number.isInteger(id) && id >= 0 && id < 2 ** 32 - 1 ? id : 2 ** 32;
}
