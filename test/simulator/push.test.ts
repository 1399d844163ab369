/** Push registrations, devices and the simulated push service (zerver/views/push_notifications.py, zerver/views/devices.py). */
import { describe, expect, it } from 'vitest';
import { devicesRegisterState } from '../../simulator/engine/integrations/devices.ts';
import { PUSH_SERVICE_FAILURES, type Simulator } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim, watchEvents } from './helpers.ts';

/** The events users' queues received while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const call = (s: Simulator, method: string, path: string, body: Record<string, unknown> = {}, as: number = ID.hamlet) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

const APNS_TOKEN = 'c0ffee'.repeat(10);
/** A secretbox push key: the 0x31 prefix and 32 key bytes, Base64. */
const pushKey = (fill = 7) => Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, fill)]).toString('base64');
const tokenId = (fill = 1) => Buffer.alloc(8, fill).toString('base64');
const tokenFields = (fill = 1) => ({ token_kind: 'fcm', token_id: tokenId(fill), bouncer_public_key: 'bouncer-key', encrypted_push_registration: 'ciphertext' });

/** Register a client device for `as` and complete its E2EE push registration; its id. */
async function pushDevice(s: Simulator, as: number = ID.hamlet): Promise<number> {
  const deviceId = (await call(s, 'POST', '/register_client_device', {}, as)).body.device_id as number;
  const res = await call(s, 'POST', '/mobile_push/register', { device_id: deviceId, push_key: pushKey(), push_key_id: 5, ...tokenFields() }, as);
  expect(res.body).toEqual({ result: 'success', msg: '' });
  return deviceId;
}

describe('legacy token registration (push_a = APNs, push_b = FCM)', () => {
  const platforms = [
    ['push_a', '/users/me/push_a_device_token', '/users/me/apns_device_token', { appid: 'org.zulip.Zulip', token: APNS_TOKEN }],
    ['push_b', '/users/me/push_b_reg_id', '/users/me/android_gcm_reg_id', { token: 'fcm:token-1' }],
  ] as const;

  it.each(platforms)('%s: registers (idempotently, at either path) and forgets a token, sending no events', async (kind, path, alias, body) => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'POST', path, body)).body).toEqual({ result: 'success', msg: '' });
      expect((await call(s, 'POST', alias, body)).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([]);
    expect(s.engine.state.pushTokens).toEqual([{ userId: ID.hamlet, kind, token: body.token, appid: kind === 'push_a' ? 'org.zulip.Zulip' : null }]);
    expect((await call(s, 'DELETE', alias, { token: body.token })).body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.pushTokens).toEqual([]);
    const again = await call(s, 'DELETE', path, { token: body.token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ result: 'error', msg: 'Device not recognized', code: 'INVALID_PUSH_DEVICE_TOKEN' });
  });

  it("another user's token is not recognized, and a token of the other platform is not either", async () => {
    const s = sim();
    await call(s, 'POST', '/users/me/push_b_reg_id', { token: 'abcd' });
    expect((await call(s, 'DELETE', '/users/me/push_b_reg_id', { token: 'abcd' }, ID.iago)).body.code).toBe('INVALID_PUSH_DEVICE_TOKEN');
    expect((await call(s, 'DELETE', '/users/me/push_a_device_token', { token: 'abcd' })).body.code).toBe('INVALID_PUSH_DEVICE_TOKEN');
  });

  const refused: [string, string, Record<string, unknown>, string][] = [
    ['push_a without appid', '/users/me/push_a_device_token', { token: APNS_TOKEN }, "Missing 'appid' argument"],
    ['push_a with a malformed appid', '/users/me/apns_device_token', { appid: 'org/zulip', token: APNS_TOKEN }, 'appid has invalid format'],
    ['push_a with an empty token', '/users/me/push_a_device_token', { appid: 'org.zulip.Zulip', token: '' }, 'Empty or invalid length token'],
    ['push_a with a token that is not hex', '/users/me/push_a_device_token', { appid: 'org.zulip.Zulip', token: 'xyz' }, 'Invalid APNS token'],
    ['push_a with an odd number of hex digits', '/users/me/apns_device_token', { appid: 'a', token: 'abc' }, 'Invalid APNS token'],
    ['push_b with an empty token', '/users/me/push_b_reg_id', { token: '' }, 'Empty or invalid length token'],
    ['push_b with a token over 4096 characters', '/users/me/android_gcm_reg_id', { token: 'x'.repeat(4097) }, 'Empty or invalid length token'],
    ['push_b without a token', '/users/me/push_b_reg_id', {}, "Missing 'token' argument"],
  ];
  it.each(refused)('refuses %s', async (_name, path, body, msg) => {
    const s = sim();
    const res = await call(s, 'POST', path, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(s.engine.state.pushTokens).toEqual([]);
  });

  it('accepts hex with whitespace (Python bytes.fromhex) and a 4096-character push_b token', async () => {
    const s = sim();
    expect((await call(s, 'POST', '/users/me/push_a_device_token', { appid: 'x', token: 'c0 ff ee' })).status).toBe(200);
    expect((await call(s, 'POST', '/users/me/push_b_reg_id', { token: 'x'.repeat(4096) })).status).toBe(200);
  });

  it.each(['/users/me/push_a_device_token', '/users/me/apns_device_token', '/users/me/push_b_reg_id', '/users/me/android_gcm_reg_id'])(
    '%s refuses bots at the alias too',
    async (path) => {
      const res = await call(sim(), 'POST', path, { appid: 'x', token: 'ab' }, ID.defaultBot);
      expect(res.body).toEqual({ result: 'error', msg: 'This endpoint does not accept bot requests.', code: 'BAD_REQUEST' });
    },
  );
});

describe('client devices and their E2EE push registration', () => {
  it('registers a device and announces it to its user only; removing it does the same', async () => {
    const s = sim();
    const added = await eventsOf(s, async () => {
      expect((await call(s, 'POST', '/register_client_device')).body).toEqual({ result: 'success', msg: '', device_id: 1 });
    });
    expect(added).toEqual([{ event: { type: 'device', op: 'add', device_id: 1 }, users: [ID.hamlet] }]);
    expect((await call(s, 'POST', '/remove_client_device', { device_id: 1 }, ID.iago)).body.msg).toBe('Invalid `device_id`');
    const removed = await eventsOf(s, async () => {
      expect((await call(s, 'POST', '/remove_client_device', { device_id: 1 })).body).toEqual({ result: 'success', msg: '' });
    });
    expect(removed).toEqual([{ event: { type: 'device', op: 'remove', device_id: 1 }, users: [ID.hamlet] }]);
  });

  it('a full registration is confirmed at once: pending, then registered', async () => {
    const s = sim();
    await call(s, 'POST', '/register_client_device');
    const events = await eventsOf(s, async () => {
      const res = await call(s, 'POST', '/mobile_push/register', { device_id: 1, push_key: pushKey(), push_key_id: 5, ...tokenFields() });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([
      {
        event: {
          type: 'device',
          op: 'update',
          device_id: 1,
          push_key_id: 5,
          pending_push_token_id: tokenId(),
          push_token_last_updated_timestamp: NOW,
          push_registration_error_code: null,
        },
        users: [ID.hamlet],
      },
      { event: { type: 'device', op: 'update', device_id: 1, push_token_id: tokenId(), pending_push_token_id: null }, users: [ID.hamlet] },
    ]);
    expect(devicesRegisterState(s.engine, s.engine.state.users.get(ID.hamlet)!)).toEqual({
      devices: {
        '1': {
          push_key_id: 5,
          push_token_id: tokenId(),
          pending_push_token_id: null,
          push_token_last_updated_timestamp: NOW,
          push_registration_error_code: null,
        },
      },
    });
    // The same registration again changes nothing.
    const repeated = await eventsOf(s, () => call(s, 'POST', '/mobile_push/register', { device_id: 1, push_key: pushKey(), push_key_id: 5, ...tokenFields() }));
    expect(repeated).toEqual([]);
  });

  it('rotates the key alone, or the token alone', async () => {
    const s = sim();
    const id = await pushDevice(s);
    const rotated = await eventsOf(s, async () => {
      expect((await call(s, 'POST', '/mobile_push/register', { device_id: id, push_key: pushKey(9), push_key_id: 6 })).status).toBe(200);
      expect((await call(s, 'POST', '/mobile_push/register', { device_id: id, ...tokenFields(2) })).status).toBe(200);
    });
    expect(rotated.map((e) => e.event)).toEqual([
      { type: 'device', op: 'update', device_id: id, push_key_id: 6 },
      {
        type: 'device',
        op: 'update',
        device_id: id,
        pending_push_token_id: tokenId(2),
        push_token_last_updated_timestamp: NOW,
        push_registration_error_code: null,
      },
      { type: 'device', op: 'update', device_id: id, push_token_id: tokenId(2), pending_push_token_id: null },
    ]);
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['no device_id', {}, "Missing 'device_id' argument"],
    ['an unknown token_kind', { device_id: 1, token_kind: 'sms' }, 'Invalid token_kind: Value error, Not in the list of possible values'],
    ['a push_key_id beyond 32 bits', { device_id: 1, push_key_id: 2 ** 32 }, 'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer'],
    ["another user's device", { device_id: 2, push_key: pushKey(), push_key_id: 1, ...tokenFields() }, 'Invalid `device_id`'],
    ['neither complete set of fields', { device_id: 1, push_key: pushKey(), token_kind: 'fcm' }, 'Missing parameters: must provide either all push key fields, all token fields, or both.'],
    ['a key rotation before any registration', { device_id: 1, push_key: pushKey(), push_key_id: 1 }, 'No push registration exists to rotate key for.'],
    ['a token rotation before any registration', { device_id: 1, ...tokenFields() }, 'No push registration exists to rotate token for.'],
    ['a token id that is not Base64', { device_id: 1, push_key: pushKey(), push_key_id: 1, ...tokenFields(), token_id: 'not base64!' }, '`token_id` is not Base64 encoded'],
    ['a push key that is not Base64', { device_id: 1, push_key: '@abcdefg', push_key_id: 1, ...tokenFields() }, 'Invalid `push_key`'],
    ['a push key of the wrong size', { device_id: 1, push_key: 'abcd', push_key_id: 1, ...tokenFields() }, 'Invalid `push_key`'],
    ['a push key for an unknown cryptosystem', { device_id: 1, push_key: Buffer.alloc(33, 0x32).toString('base64'), push_key_id: 1, ...tokenFields() }, 'Invalid `push_key`'],
  ];
  it.each(refused)('POST /mobile_push/register refuses %s', async (_name, body, msg) => {
    const s = sim();
    await call(s, 'POST', '/register_client_device');
    await call(s, 'POST', '/register_client_device', {}, ID.iago);
    const res = await call(s, 'POST', '/mobile_push/register', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(s.engine.state.clientDevices.get(1)).toMatchObject({ pushKeyId: null, pushTokenId: null });
  });
});

describe('POST /mobile_push/e2ee/test_notification', () => {
  const noDevice = { result: 'error', msg: 'No active registered push device', code: 'NO_ACTIVE_PUSH_DEVICE' };

  it('needs a device with a confirmed push registration (legacy tokens do not count)', async () => {
    const s = sim();
    await call(s, 'POST', '/users/me/push_b_reg_id', { token: 'abcd' });
    await call(s, 'POST', '/register_client_device');
    const res = await call(s, 'POST', '/mobile_push/e2ee/test_notification');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(noDevice);
  });

  it("an unknown device, or another user's, is no active device either", async () => {
    const s = sim();
    const iagos = await pushDevice(s, ID.iago);
    await pushDevice(s);
    for (const device_id of [iagos, 99]) expect((await call(s, 'POST', '/mobile_push/e2ee/test_notification', { device_id })).body).toEqual(noDevice);
  });

  it('sends to every registered device, or the chosen one, and records each push', async () => {
    const s = sim();
    const first = await pushDevice(s);
    const second = await pushDevice(s);
    expect((await call(s, 'POST', '/mobile_push/e2ee/test_notification')).body).toEqual({ result: 'success', msg: '' });
    expect((await call(s, 'POST', '/mobile_push/e2ee/test_notification', { device_id: second })).body).toEqual({ result: 'success', msg: '' });
    const payload = { event: 'test', realm_url: 'http://zulip.testserver', realm_name: 'Zulip Dev', user_id: ID.hamlet, time: NOW };
    expect(s.engine.state.pushOutbox).toEqual([
      { userId: ID.hamlet, deviceId: first, tokenKind: 'fcm', payload, timestamp: NOW },
      { userId: ID.hamlet, deviceId: second, tokenKind: 'fcm', payload, timestamp: NOW },
      { userId: ID.hamlet, deviceId: second, tokenKind: 'fcm', payload, timestamp: NOW },
    ]);
  });

  const failures = [
    ['admin_action_required', 403, 'ADMIN_ACTION_REQUIRED', 'Push notification configuration issue on server, contact the server administrator or retry later.'],
    ['failed_to_connect', 502, 'FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to the push notification service.'],
    ['server_error', 502, 'INTERNAL_SERVER_ERROR_ON_BOUNCER', 'Internal server error on the push notification service, retry later.'],
  ] as const;

  it('covers every failure the service can be set to', () => {
    expect(failures.map((f) => f[0])).toEqual([...PUSH_SERVICE_FAILURES]);
  });

  it.each(failures)('a push service set to %s answers %i %s, and delivers nothing until cleared', async (failure, status, code, msg) => {
    const s = sim();
    await pushDevice(s);
    s.setPushServiceFailure(failure);
    const res = await call(s, 'POST', '/mobile_push/e2ee/test_notification');
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ result: 'error', msg, code });
    expect(s.engine.state.pushOutbox).toEqual([]);
    s.setPushServiceFailure(null);
    expect((await call(s, 'POST', '/mobile_push/e2ee/test_notification')).status).toBe(200);
    expect(s.engine.state.pushOutbox).toHaveLength(1);
  });

  it.each(failures)('the fixture can start the service failing (%s)', async (failure, status, code) => {
    const fixture = devFixture();
    fixture.push_service = { failure };
    const s = sim({ fixture });
    // No device is still the caller's problem first.
    expect((await call(s, 'POST', '/mobile_push/e2ee/test_notification')).body).toEqual(noDevice);
    await pushDevice(s);
    const res = await call(s, 'POST', '/mobile_push/e2ee/test_notification');
    expect([res.status, res.body.code]).toEqual([status, code]);
    s.reset();
    expect(s.engine.state.pushService.failure).toBe(failure);
  });

  it('refuses bots', async () => {
    const res = await call(sim(), 'POST', '/mobile_push/e2ee/test_notification', {}, ID.defaultBot);
    expect(res.body).toEqual({ result: 'error', msg: 'This endpoint does not accept bot requests.', code: 'BAD_REQUEST' });
  });
});
