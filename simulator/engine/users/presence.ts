/**
 * Presence (zerver/actions/presence.py, zerver/lib/presence.py, zerver/views/presence.py): each
 * human's last-active and last-connected times on the simulated clock, the realm-wide sequence
 * that lets clients fetch only what changed, the legacy (keyed by email) and modern (keyed by
 * user ID) formats, and the rare `presence` events: a user's first presence, a return after being
 * away long enough to look offline, and toggles of presence_enabled. Everything else reaches
 * clients only when they poll (POST /users/me/presence every PRESENCE_PING_INTERVAL_SECS).
 */
import { activeUserIds, getUser, getUserByApiEmail, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { nextId, type PresenceRecord, type UserRecord } from '../state.ts';
import type { ClientPresence, Legacy, Presence } from '../../../schemas/generated/types/chat/presence.ts';
import type { GetUserPresenceResponse } from '../../../schemas/generated/types/chat/responses/get-user-presence.ts';

/** settings.OFFLINE_THRESHOLD_SECS: a user whose last sign of life is older shows as offline. */
export const OFFLINE_THRESHOLD_SECS = 200;
/** settings.PRESENCE_PING_INTERVAL_SECS: how often clients report (and poll). */
export const PRESENCE_PING_INTERVAL_SECS = 60;
/** settings.PRESENCE_UPDATE_MIN_FREQ_SECONDS: a newer report than this changes nothing stored. */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** settings.PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS: active this close to the last connection reads "active". */
export const PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS = 70;
/** settings.USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: bigger realms get no presence events. */
export const USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS = 100;
/** How far back realm presence reaches when the client names no history_limit_days. */
export const DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS = 14;

/** A report that comes after a silence this long announces the user as back online. */
const BACK_ONLINE_AFTER_SECS = OFFLINE_THRESHOLD_SECS - PRESENCE_PING_INTERVAL_SECS - 10;
const DAY_SECS = 24 * 60 * 60;

export const PRESENCE_STATUSES = ['active', 'idle'] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

export interface PresenceQuery {
  /** Keyed by user ID with active/idle timestamps, rather than by email in the legacy format. */
  slim: boolean;
  /** Only rows changed after this sequence number (the modern API's incremental fetch). */
  lastUpdateId?: number | null | undefined;
  /** Only users connected in that many days (default 14; 0: nobody). */
  historyLimitDays?: number | null | undefined;
}

export interface PresenceReport {
  status: string;
  pingOnly: boolean;
  /** Statistics of user activity upstream; nothing a client can see. */
  newUserInput: boolean;
  slimPresence: boolean;
  lastUpdateId: number | null | undefined;
  historyLimitDays: number | null | undefined;
}

/** datetime_to_timestamp: whole seconds. */
const wholeSeconds = (t: number): number => Math.floor(t);

/** A never-set time reads as the user's date_joined (user_presence_datetime_with_date_joined_default). */
function times(row: PresenceRecord, user: UserRecord): { active: number; connected: number } {
  return { active: row.lastActiveTime ?? user.date_joined, connected: row.lastConnectedTime ?? user.date_joined };
}

function modernInfo(row: PresenceRecord, user: UserRecord): { active_timestamp: number; idle_timestamp: number } {
  const t = times(row, user);
  return { active_timestamp: wholeSeconds(t.active), idle_timestamp: wholeSeconds(t.connected) };
}

/** format_legacy_presence_dict: one made-up "website" client, active or idle. */
function legacyClientInfo(row: PresenceRecord, user: UserRecord): ClientPresence & { status: PresenceStatus } {
  const t = times(row, user);
  const active = t.active + PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS >= t.connected;
  return { client: 'website', status: active ? 'active' : 'idle', timestamp: wholeSeconds(active ? t.active : t.connected), pushable: false };
}

/** get_legacy_user_presence_info: the client's data twice, as `aggregated` (without pushable) and `website`. */
function legacyInfo(row: PresenceRecord, user: UserRecord): Legacy {
  const website = legacyClientInfo(row, user);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

/**
 * do_update_user_presence: create the row, or move its times forward when the report is more than
 * PRESENCE_UPDATE_MIN_FREQ_SECONDS newer than what is stored (last-connected never behind
 * last-active); every change takes the realm's next update ID. A first row, or an active report
 * after a silence long enough to be shown offline, is announced (`force` always is).
 */
function recordPresence(engine: Engine, user: UserRecord, logTime: number, status: PresenceStatus, force: boolean): Effect[] {
  const presences = engine.state.presences;
  const existing = presences.get(user.id);
  const row: PresenceRecord = existing ?? {
    lastActiveTime: status === 'active' ? logTime : null,
    lastConnectedTime: logTime,
    lastUpdateId: 0,
  };
  const sinceActive = row.lastActiveTime === null ? DAY_SECS : logTime - row.lastActiveTime;
  const sinceConnected = row.lastConnectedTime === null ? DAY_SECS : logTime - row.lastConnectedTime;
  const becameOnline = status === 'active' && sinceActive > BACK_ONLINE_AFTER_SECS;
  let changed = existing === undefined;
  if (existing && sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    row.lastConnectedTime = logTime;
    changed = true;
  }
  if (existing && status === 'active' && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    row.lastActiveTime = logTime;
    if (row.lastConnectedTime === null || logTime > row.lastConnectedTime) row.lastConnectedTime = logTime;
    changed = true;
  }
  if (changed) {
    row.lastUpdateId = nextId(engine.state, 'presence_update');
    presences.set(user.id, row);
  }
  return force || existing === undefined || becameOnline ? presenceChanged(engine, user, row, force) : [];
}

/**
 * send_presence_changed: every active user of the realm (bots included) hears it, unless the realm
 * is too big for that and the change was not forced. The effect carries the legacy payload and,
 * under `presences`, the modern one: each queue gets the form it registered for (../events/queues.ts).
 */
function presenceChanged(engine: Engine, user: UserRecord, row: PresenceRecord, force: boolean): Effect[] {
  const audience = activeUserIds(engine);
  if (audience.length > USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS && !force) return [];
  const event = {
    type: 'presence',
    user_id: user.id,
    email: user.email,
    server_timestamp: engine.deps.clock.now(),
    presence: { website: legacyClientInfo(row, user) },
    presences: { [String(user.id)]: modernInfo(row, user) },
  };
  return [effect(event, audience)];
}

/** POST /users/me/presence (humans only, by the route): report, then (unless ping_only) poll the realm. */
export function reportPresence(engine: Engine, user: UserRecord, report: PresenceReport): Outcome<Record<string, unknown>> {
  if (!(PRESENCE_STATUSES as readonly string[]).includes(report.status)) throw ChatError.badRequest(`Invalid status: ${report.status}`);
  // Sending last_update_id is asking for the modern API.
  const slim = report.slimPresence || (report.lastUpdateId !== undefined && report.lastUpdateId !== null);
  // A user who turned presence off is not tracked at all: others keep seeing the stale row.
  const events = user.presence_enabled ? recordPresence(engine, user, engine.deps.clock.now(), report.status as PresenceStatus, false) : [];
  if (report.pingOnly) return outcome({}, events);
  const data = realmPresence(engine, { slim, lastUpdateId: report.lastUpdateId, historyLimitDays: report.historyLimitDays });
  return outcome(data, events);
}

/**
 * The presence_enabled setting just changed (do_change_user_setting's hack): turned on, the user
 * is active now; turned off, their presence is replaced by an idle one old enough to read offline
 * everywhere, and stays so while it is off. Announced either way.
 */
export function presenceEnabledChanged(engine: Engine, user: UserRecord): Effect[] {
  const now = engine.deps.clock.now();
  if (user.presence_enabled) return recordPresence(engine, user, now, 'active', true);
  engine.state.presences.delete(user.id);
  return recordPresence(engine, user, now - (OFFLINE_THRESHOLD_SECS + 120), 'idle', true);
}

/**
 * get_presence_response: the realm's active humans whose presence changed after `lastUpdateId`
 * (when given) and, without a positive one, who connected within the history limit; with the
 * highest update ID returned (the one sent when nothing is new, -1 without one). Ascending user IDs.
 */
export function realmPresence(
  engine: Engine,
  query: PresenceQuery & { slim: false },
): { presences: Record<string, Legacy>; server_timestamp: number; presence_last_update_id: number };
export function realmPresence(engine: Engine, query: PresenceQuery): { presences: Record<string, Presence>; server_timestamp: number; presence_last_update_id: number };
export function realmPresence(engine: Engine, query: PresenceQuery): { presences: Record<string, Presence>; server_timestamp: number; presence_last_update_id: number } {
  const now = engine.deps.clock.now();
  const days = query.historyLimitDays ?? DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS;
  const since = now - days * DAY_SECS;
  const after = query.lastUpdateId ?? null;
  const rows: [UserRecord, PresenceRecord][] = [];
  if (days !== 0) {
    for (const [userId, row] of engine.state.presences) {
      const user = getUser(engine, userId);
      if (!user || !user.is_active || user.is_bot) continue;
      if (after !== null && row.lastUpdateId <= after) continue;
      if ((after === null || after <= 0) && (row.lastConnectedTime === null || row.lastConnectedTime < since)) continue;
      rows.push([user, row]);
    }
  }
  rows.sort((a, b) => a[0].id - b[0].id);
  const presences: Record<string, Presence> = {};
  for (const [user, row] of rows) {
    if (query.slim) presences[String(user.id)] = modernInfo(row, user);
    else presences[user.email] = legacyInfo(row, user);
  }
  const lastUpdateId = rows.length > 0 ? Math.max(...rows.map(([, row]) => row.lastUpdateId)) : (after ?? -1);
  return { presences, server_timestamp: now, presence_last_update_id: lastUpdateId };
}

/**
 * GET /users/{user_id_or_email}/presence: a number names a user ID (as Python's int() reads it),
 * anything else an API email; the user must be an active human of the realm with presence data.
 * The legacy answer drops `client` and `pushable` and calls the user offline once their latest
 * timestamp is more than OFFLINE_THRESHOLD_SECS old; the slim one is the modern pair of timestamps.
 */
export function userPresence(engine: Engine, userIdOrEmail: string, slim: boolean): GetUserPresenceResponse {
  const target = lookUpActiveUser(engine, userIdOrEmail);
  if (!target) throw ChatError.badRequest('No such user');
  if (target.bot_type !== null) throw ChatError.badRequest('Presence is not supported for bot users.');
  const row = engine.state.presences.get(target.id);
  if (!row) throw ChatError.badRequest(`No presence data for ${userIdOrEmail}`);
  if (slim) return { presence: modernInfo(row, target) };
  const { status, timestamp } = legacyClientInfo(row, target);
  const aggregatedStatus = nowSeconds(engine) - timestamp > OFFLINE_THRESHOLD_SECS ? 'offline' : status;
  return { presence: { aggregated: { status: aggregatedStatus, timestamp }, website: { status, timestamp } } };
}

/** Python's int(): optional surrounding whitespace and sign, digits with single underscores between. */
const PYTHON_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

function lookUpActiveUser(engine: Engine, userIdOrEmail: string): UserRecord | undefined {
  const user = PYTHON_INT.test(userIdOrEmail)
    ? getUser(engine, Number(userIdOrEmail.replace(/_/g, '').trim()))
    : getUserByApiEmail(engine, userIdOrEmail);
  // System bots belong to another realm upstream.
  return user && user.is_active && !user.is_system_bot ? user : undefined;
}
