/**
 * Mobile clients and their end-to-end encrypted push registrations (zerver/views/devices.py): a
 * client registers itself as a device, then registers a push key and a push token for it. The
 * simulated push service accepts a registration at once, so the device can receive pushes as soon
 * as the request returns (Zulip completes it in a background worker).
 */
import { nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { nextId, type ClientDeviceRecord, type UserRecord } from '../state.ts';

/** The per-device fields of /register's `devices` (Zulip's DeviceInfoDict). */
export interface DeviceInfo {
  push_key_id: number | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
}

/** Token kinds of the E2EE registration, as clients send them. */
export const PUSH_TOKEN_KINDS = ['fcm', 'apns'] as const;

/** The first byte of a push key names its cryptosystem; 0x31 is libsodium's secretbox (32-byte key). */
const SECRETBOX_PREFIX = 0x31;
const PUSH_KEY_BYTES = 33;

/** Python's base64.b64decode(validate=True): the standard alphabet, padded; null when malformed. */
function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const binary = atob(text);
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

export function registerClientDevice(engine: Engine, user: UserRecord): Outcome<{ device_id: number }> {
  const device: ClientDeviceRecord = {
    id: nextId(engine.state, 'client_device'),
    userId: user.id,
    pushKey: null,
    pushKeyId: null,
    pushTokenKind: null,
    pushTokenId: null,
    pendingPushTokenId: null,
    pushTokenLastUpdated: null,
    pushRegistrationErrorCode: null,
  };
  engine.state.clientDevices.set(device.id, device);
  return outcome({ device_id: device.id }, [effect({ type: 'device', op: 'add', device_id: device.id }, [user.id])]);
}

/** check_device_id: one of the caller's own devices. */
export function accessClientDevice(engine: Engine, user: UserRecord, id: number): ClientDeviceRecord {
  const device = engine.state.clientDevices.get(id);
  if (!device || device.userId !== user.id) throw ChatError.badRequest('Invalid `device_id`');
  return device;
}

/** A client logging out forgets its device, and with it the push registration. */
export function removeClientDevice(engine: Engine, user: UserRecord, id: number): Outcome<Record<string, never>> {
  accessClientDevice(engine, user, id);
  engine.state.clientDevices.delete(id);
  return outcome({}, [effect({ type: 'device', op: 'remove', device_id: id }, [user.id])]);
}

export interface PushRegistration {
  deviceId: number;
  tokenKind?: string | undefined;
  pushKey?: string | undefined;
  pushKeyId?: number | undefined;
  bouncerPublicKey?: string | undefined;
  encryptedPushRegistration?: string | undefined;
  tokenId?: string | undefined;
}

function checkPushKey(pushKey: string): void {
  const bytes = decodeBase64(pushKey);
  if (!bytes || bytes.length !== PUSH_KEY_BYTES || bytes[0] !== SECRETBOX_PREFIX) throw ChatError.badRequest('Invalid `push_key`');
}

function checkTokenId(tokenId: string): void {
  if (!decodeBase64(tokenId)) throw ChatError.badRequest('`token_id` is not Base64 encoded');
}

/**
 * POST /mobile_push/register (register_push_device): a first registration sends the push key
 * fields and the token fields; later calls rotate one or the other. Checks in Zulip's order.
 */
export function registerPushDevice(engine: Engine, user: UserRecord, r: PushRegistration): Outcome<Record<string, never>> {
  const device = accessClientDevice(engine, user, r.deviceId);
  const keyFields = r.pushKey !== undefined && r.pushKeyId !== undefined;
  const tokenFields =
    r.bouncerPublicKey !== undefined && r.encryptedPushRegistration !== undefined && r.tokenId !== undefined && r.tokenKind !== undefined;
  if (!keyFields && !tokenFields) {
    throw ChatError.badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');
  }
  const update = (fields: Record<string, unknown>): Effect =>
    effect({ type: 'device', op: 'update', device_id: device.id, ...fields }, [user.id]);

  if (!tokenFields) {
    if (device.pushKeyId === null) throw ChatError.badRequest('No push registration exists to rotate key for.');
    checkPushKey(r.pushKey!);
    if (device.pushKeyId === r.pushKeyId && device.pushKey === r.pushKey) return outcome({});
    device.pushKey = r.pushKey!;
    device.pushKeyId = r.pushKeyId!;
    return outcome({}, [update({ push_key_id: device.pushKeyId })]);
  }

  const tokenId = r.tokenId!;
  checkTokenId(tokenId);
  const events: Effect[] = [];
  const now = nowSeconds(engine);
  if (!keyFields) {
    if (device.pushKeyId === null) throw ChatError.badRequest('No push registration exists to rotate token for.');
    if (device.pushRegistrationErrorCode === null && device.pushTokenId === tokenId) return outcome({});
    device.pendingPushTokenId = tokenId;
  } else {
    checkPushKey(r.pushKey!);
    const unchanged =
      device.pushRegistrationErrorCode === null &&
      device.pushKeyId === r.pushKeyId &&
      device.pushKey === r.pushKey &&
      device.pushTokenId === tokenId &&
      device.pushTokenKind === r.tokenKind;
    if (unchanged) return outcome({});
    device.pushKey = r.pushKey!;
    device.pushKeyId = r.pushKeyId!;
    device.pushTokenKind = r.tokenKind!;
    device.pendingPushTokenId = tokenId;
  }
  device.pushTokenLastUpdated = now;
  device.pushRegistrationErrorCode = null;
  events.push(
    update({
      ...(keyFields ? { push_key_id: device.pushKeyId } : {}),
      pending_push_token_id: tokenId,
      push_token_last_updated_timestamp: now,
      push_registration_error_code: null,
    }),
  );
  // The push service confirms the token straight away.
  device.pushTokenId = tokenId;
  device.pendingPushTokenId = null;
  events.push(update({ push_token_id: tokenId, pending_push_token_id: null }));
  return outcome({}, events);
}

export function formatDeviceInfo(device: ClientDeviceRecord): DeviceInfo {
  return {
    push_key_id: device.pushKeyId,
    push_token_id: device.pushTokenId,
    pending_push_token_id: device.pendingPushTokenId,
    push_token_last_updated_timestamp: device.pushTokenLastUpdated,
    push_registration_error_code: device.pushRegistrationErrorCode,
  };
}

/** The caller's devices that can receive E2EE pushes (a confirmed token), or just the one asked for. */
export function activePushDevices(engine: Engine, user: UserRecord, deviceId?: number): ClientDeviceRecord[] {
  return [...engine.state.clientDevices.values()].filter(
    (d) => d.userId === user.id && d.pushTokenId !== null && (deviceId === undefined || d.id === deviceId),
  );
}

/** The `devices` key of /register: the caller's devices by id. */
export function devicesRegisterState(engine: Engine, user: UserRecord): { devices: Record<string, DeviceInfo> } {
  const devices: Record<string, DeviceInfo> = {};
  for (const d of engine.state.clientDevices.values()) if (d.userId === user.id) devices[String(d.id)] = formatDeviceInfo(d);
  return { devices };
}
