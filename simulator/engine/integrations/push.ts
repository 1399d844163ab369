/**
 * Push notifications (zerver/views/push_notifications.py, zerver/views/devices.py): the legacy token registrations (`push_a` = APNs,
 * `push_b` = FCM), and the simulated push service that delivers E2EE test notifications to the
 * registered devices. Nothing leaves the process: each delivered push is recorded in
 * `state.pushOutbox`, and the service can be told to fail in any of the ways Zulip reports.
 */
import { nowSeconds, type Engine } from '../core.ts';
import { activePushDevices } from './devices.ts';
import { ChatError } from '../errors.ts';
import { outcome, type Outcome } from '../events/effects.ts';
import type { OutgoingPush, PushServiceFailure, PushTokenRecord, UserRecord } from '../state.ts';

/** Zulip refuses tokens longer than this (and empty ones). */
const MAX_TOKEN_LENGTH = 4096;

/** How many pushes `pushOutbox` keeps; past it, the oldest half is dropped at once. */
export const PUSH_OUTBOX_LIMIT = 1000;

/** validate_token: a push_a (APNs) token must also decode as hex; Python's bytes.fromhex skips whitespace. */
export function validatePushToken(token: string, kind: PushTokenRecord['kind']): void {
  if (token === '' || [...token].length > MAX_TOKEN_LENGTH) throw ChatError.badRequest('Empty or invalid length token');
  if (kind === 'push_a' && !/^(?:[0-9a-fA-F]{2})*$/.test(token.replace(/[ \t\n\r\f\v]/g, ''))) {
    throw ChatError.badRequest('Invalid APNS token');
  }
}

/** Registering a token twice is fine: the first registration (and its app id) stays. */
export function addPushToken(
  engine: Engine,
  user: UserRecord,
  kind: PushTokenRecord['kind'],
  token: string,
  appid: string | null,
): Outcome<Record<string, never>> {
  validatePushToken(token, kind);
  const tokens = engine.state.pushTokens;
  if (!tokens.some((t) => t.userId === user.id && t.kind === kind && t.token === token)) tokens.push({ userId: user.id, kind, token, appid });
  return outcome({});
}

export function removePushToken(engine: Engine, user: UserRecord, kind: PushTokenRecord['kind'], token: string): Outcome<Record<string, never>> {
  validatePushToken(token, kind);
  const tokens = engine.state.pushTokens;
  const index = tokens.findIndex((t) => t.userId === user.id && t.kind === kind && t.token === token);
  if (index < 0) throw new ChatError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
  tokens.splice(index, 1);
  return outcome({});
}

/** What the push service answers when told to fail (the specification's wording for the last two). */
export function pushServiceError(failure: PushServiceFailure): ChatError {
  switch (failure) {
    case 'admin_action_required':
      return new ChatError(
        'ADMIN_ACTION_REQUIRED',
        'Push notification configuration issue on server, contact the server administrator or retry later.',
      );
    case 'failed_to_connect':
      return new ChatError('FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to the push notification service.');
    case 'server_error':
      return new ChatError('INTERNAL_SERVER_ERROR_ON_BOUNCER', 'Internal server error on the push notification service, retry later.');
  }
}

/**
 * Make the simulated push service fail (or, with null, work again): for every push from now on,
 * or for the next `times` pushes only.
 */
export function setPushServiceFailure(engine: Engine, failure: PushServiceFailure | null, times: number | null = null): void {
  engine.state.pushService = { failure, remaining: failure === null ? null : times };
}

/** The failure the next push meets, if any (counted: a failure set for N pushes wears off). */
function takePushServiceFailure(engine: Engine): PushServiceFailure | null {
  const service = engine.state.pushService;
  const failure = service.failure;
  if (failure !== null && service.remaining !== null && --service.remaining === 0) engine.state.pushService = { failure: null, remaining: null };
  return failure;
}

function recordPushes(engine: Engine, pushes: OutgoingPush[]): void {
  const outbox = engine.state.pushOutbox;
  outbox.push(...pushes);
  if (outbox.length > PUSH_OUTBOX_LIMIT) outbox.splice(0, outbox.length - PUSH_OUTBOX_LIMIT / 2);
}

/**
 * POST /mobile_push/e2ee/test_notification: to every device of the caller with a confirmed push
 * registration, or only to `deviceId`. No such device is the caller's problem (400); a failing
 * push service is the server's (403 or 502).
 */
export function sendE2eeTestNotification(engine: Engine, user: UserRecord, deviceId?: number): Outcome<Record<string, never>> {
  const devices = activePushDevices(engine, user, deviceId);
  if (devices.length === 0) throw new ChatError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
  const failure = takePushServiceFailure(engine);
  if (failure !== null) throw pushServiceError(failure);
  const realm = engine.state.realm;
  const time = nowSeconds(engine);
  recordPushes(
    engine,
    devices.map((d) => ({
      userId: user.id,
      deviceId: d.id,
      tokenKind: d.pushTokenKind,
      payload: { event: 'test', realm_url: realm.url, realm_name: realm.name, user_id: user.id, time },
      timestamp: time,
    })),
  );
  return outcome({});
}

/**
 * POST /mobile_push/test_notification (send_test_push_notification_api): a test push to the
 * caller's legacy token named by `token`, or to every one they registered (none: 400, as an
 * unknown token is).
 */
export function sendTestNotification(engine: Engine, user: UserRecord, token?: string): Outcome<Record<string, never>> {
  const mine = engine.state.pushTokens.filter((t) => t.userId === user.id);
  const targets = token === undefined ? mine : mine.filter((t) => t.token === token).slice(0, 1);
  if (token !== undefined && targets.length === 0) throw new ChatError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
  if (targets.length === 0) throw new ChatError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
  const failure = takePushServiceFailure(engine);
  if (failure !== null) throw pushServiceError(failure);
  const realm = engine.state.realm;
  const time = nowSeconds(engine);
  recordPushes(
    engine,
    targets.map((t) => ({
      userId: user.id,
      // Legacy tokens belong to no registered client device.
      deviceId: 0,
      tokenKind: t.kind,
      payload: { event: 'test', realm_url: realm.url, realm_name: realm.name, user_id: user.id, time },
      timestamp: time,
    })),
  );
  return outcome({});
}
