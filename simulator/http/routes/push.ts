/** Push registrations and devices (zerver/views/push_notifications.py, zerver/views/devices.py). */
import { commit } from '../../engine/core.ts';
import { PUSH_TOKEN_KINDS, registerClientDevice, registerPushDevice, removeClientDevice } from '../../engine/devices.ts';
import { ChatError } from '../../engine/errors.ts';
import { addPushToken, removePushToken, sendE2eeTestNotification } from '../../engine/push.ts';
import type { ParamSpec, Route } from '../route.ts';

/** Zulip's ApnsAppId: a bundle id such as `org.zulip.Zulip`. */
function checkAppId(value: unknown, name: string): string {
  if (!/^[.a-zA-Z0-9-]+$/.test(value as string)) throw ChatError.badRequest(`${name} has invalid format`);
  return value as string;
}

/** Zulip's custom-validator template: `Invalid {name}: Value error, {why}`. */
function valueCheck(ok: (value: unknown) => boolean, why: string) {
  return (value: unknown, name: string) => {
    if (!ok(value)) throw ChatError.badRequest(`Invalid ${name}: Value error, ${why}`);
    return value;
  };
}

const token: ParamSpec = { name: 'token', type: 'string', required: true };

/** The legacy token endpoints: one per platform and method, each also at Zulip's own path. */
function tokenRoutes(kind: 'push_a' | 'push_b', path: string, zulipPath: string): Route[] {
  return [
    {
      method: 'POST',
      path,
      aliasPaths: [zulipPath],
      response: 'empty',
      auth: 'human',
      summary: `register a ${kind} device token (deprecated)`,
      params: kind === 'push_a' ? [{ name: 'appid', type: 'string', required: true, validate: checkAppId }, token] : [token],
      handler({ engine, user, params }) {
        return commit(engine, addPushToken(engine, user!, kind, params.token as string, (params.appid as string | undefined) ?? null));
      },
    },
    {
      method: 'DELETE',
      path,
      aliasPaths: [zulipPath],
      response: 'empty',
      auth: 'human',
      summary: `forget a ${kind} device token (deprecated)`,
      params: [token],
      handler({ engine, user, params }) {
        return commit(engine, removePushToken(engine, user!, kind, params.token as string));
      },
    },
  ];
}

export const pushRoutes: Route[] = [
  ...tokenRoutes('push_a', '/users/me/push_a_device_token', '/users/me/apns_device_token'),
  ...tokenRoutes('push_b', '/users/me/push_b_reg_id', '/users/me/android_gcm_reg_id'),
  {
    method: 'POST',
    path: '/register_client_device',
    response: 'register-client-device',
    auth: 'user',
    summary: 'register this mobile client as a device',
    params: [],
    handler: ({ engine, user }) => commit(engine, registerClientDevice(engine, user!)),
  },
  {
    method: 'POST',
    path: '/remove_client_device',
    response: 'empty',
    auth: 'user',
    summary: 'forget one of your devices (on logout)',
    params: [{ name: 'device_id', type: 'int', required: true }],
    handler: ({ engine, user, params }) => commit(engine, removeClientDevice(engine, user!, params.device_id as number)),
  },
  {
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
        validate: valueCheck((v) => (PUSH_TOKEN_KINDS as readonly unknown[]).includes(v), 'Not in the list of possible values'),
      },
      { name: 'push_key', type: 'string' },
      {
        name: 'push_key_id',
        type: 'int',
        validate: valueCheck((v) => (v as number) >= 0 && (v as number) <= 0xffff_ffff, 'Not a valid unsigned 32-bit integer'),
      },
      { name: 'bouncer_public_key', type: 'string' },
      { name: 'encrypted_push_registration', type: 'string' },
      { name: 'token_id', type: 'string' },
    ],
    handler({ engine, user, params }) {
      const registration = {
        deviceId: params.device_id as number,
        tokenKind: params.token_kind as string | undefined,
        pushKey: params.push_key as string | undefined,
        pushKeyId: params.push_key_id as number | undefined,
        bouncerPublicKey: params.bouncer_public_key as string | undefined,
        encryptedPushRegistration: params.encrypted_push_registration as string | undefined,
        tokenId: params.token_id as string | undefined,
      };
      return commit(engine, registerPushDevice(engine, user!, registration));
    },
  },
  {
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    response: 'empty',
    auth: 'human',
    summary: 'send an end-to-end encrypted test push to your devices (or one of them)',
    params: [{ name: 'device_id', type: 'int' }],
    handler: ({ engine, user, params }) => commit(engine, sendE2eeTestNotification(engine, user!, params.device_id as number | undefined)),
  },
];
