/** Push registrations and devices (zerver/views/push_notifications.py, zerver/views/devices.py). */
import { PUSH_TOKEN_KINDS, registerClientDevice, registerPushDevice, removeClientDevice } from '../../engine/integrations/devices.ts';
import { ChatError } from '../../engine/errors.ts';
import { addPushToken, removePushToken, sendE2eeTestNotification } from '../../engine/integrations/push.ts';
import { checkIn, valueError } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** Zulip's ApnsAppId: a bundle id such as `org.zulip.Zulip`. */
function checkAppId(value: string, name: string): string {
  if (!/^[.a-zA-Z0-9-]+$/.test(value)) throw ChatError.badRequest(`${name} has invalid format`);
  return value;
}

/** token_kind: check_string_in_validator over the push services. */
const tokenKind: (value: string, name: string) => (typeof PUSH_TOKEN_KINDS)[number] = checkIn(PUSH_TOKEN_KINDS);

function unsigned32(value: number, name: string): number {
  if (value < 0 || value > 0xffff_ffff) throw valueError(name, 'Not a valid unsigned 32-bit integer');
  return value;
}

const token = { name: 'token', type: 'string', required: true } as const;

/** The legacy token endpoints: one per platform and method, each also at Zulip's own path. */
function tokenRoutes(kind: 'push_a' | 'push_b', path: string, zulipPath: string): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path,
      aliasPaths: [zulipPath],
      response: 'empty',
      auth: 'human',
      summary: `register a ${kind} device token (deprecated)`,
      params: kind === 'push_a' ? [{ name: 'appid', type: 'string', required: true, validate: checkAppId }, token] : [token],
      handler({ engine, user, params }) {
        return addPushToken(engine, user, kind, params.token, (params.appid) ?? null);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path,
      aliasPaths: [zulipPath],
      response: 'empty',
      auth: 'human',
      summary: `forget a ${kind} device token (deprecated)`,
      params: [token],
      handler({ engine, user, params }) {
        return removePushToken(engine, user, kind, params.token);
      },
    }),
  ];
}

export const pushRoutes: Route[] = [
  ...tokenRoutes('push_a', '/users/me/push_a_device_token', '/users/me/apns_device_token'),
  ...tokenRoutes('push_b', '/users/me/push_b_reg_id', '/users/me/android_gcm_reg_id'),
  defineRoute({
    method: 'POST',
    path: '/register_client_device',
    response: 'register-client-device',
    auth: 'user',
    summary: 'register this mobile client as a device',
    params: [],
    handler: ({ engine, user }) => registerClientDevice(engine, user),
  }),
  defineRoute({
    method: 'POST',
    path: '/remove_client_device',
    response: 'empty',
    auth: 'user',
    summary: 'forget one of your devices (on logout)',
    params: [{ name: 'device_id', type: 'int', required: true }],
    handler: ({ engine, user, params }) => removeClientDevice(engine, user, params.device_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/mobile_push/register',
    response: 'empty',
    auth: 'human',
    summary: 'register (or rotate) a device for end-to-end encrypted push notifications',
    // register_push_device's signature order, which decides the error reported first.
    params: [
      { name: 'device_id', type: 'int', required: true },
      {
        name: 'token_kind',
        type: 'string',
        validate: tokenKind,
      },
      { name: 'push_key', type: 'string' },
      {
        name: 'push_key_id',
        type: 'int',
        validate: unsigned32,
      },
      { name: 'bouncer_public_key', type: 'string' },
      { name: 'encrypted_push_registration', type: 'string' },
      { name: 'token_id', type: 'string' },
    ],
    handler({ engine, user, params }) {
      const registration = {
        deviceId: params.device_id,
        tokenKind: params.token_kind,
        pushKey: params.push_key,
        pushKeyId: params.push_key_id,
        bouncerPublicKey: params.bouncer_public_key,
        encryptedPushRegistration: params.encrypted_push_registration,
        tokenId: params.token_id,
      };
      return registerPushDevice(engine, user, registration);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    response: 'empty',
    auth: 'human',
    summary: 'send an end-to-end encrypted test push to your devices (or one of them)',
    params: [{ name: 'device_id', type: 'int' }],
    handler: ({ engine, user, params }) => sendE2eeTestNotification(engine, user, params.device_id),
  }),
];
