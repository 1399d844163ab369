/** POST /mobile_push/test_notification (send_test_push_notification_api, zerver/views/push_notifications.py). */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim } from './helpers.ts';

const test = (s: Simulator, body: Record<string, unknown> = {}, as: number = ID.hamlet) =>
  s.request({ method: 'POST', path: '/api/v1/mobile_push/test_notification', as, body });

async function addTokens(s: Simulator) {
  expect((await s.request({ method: 'POST', path: '/api/v1/users/me/apns_device_token', as: ID.hamlet, body: { token: 'c0ffee', appid: 'org.zulip.Zulip' } })).status).toBe(200);
  expect((await s.request({ method: 'POST', path: '/api/v1/users/me/android_gcm_reg_id', as: ID.hamlet, body: { token: 'android-token' } })).status).toBe(200);
}

describe('POST /mobile_push/test_notification', () => {
  it('pushes a test notification to every token the caller registered', async () => {
    const s = sim();
    await addTokens(s);
    expect((await test(s)).body).toEqual({ result: 'success', msg: '' });
    const payload = { event: 'test', realm_url: 'http://zulip.testserver', realm_name: 'Zulip Dev', user_id: ID.hamlet, time: NOW };
    expect(s.engine.state.pushOutbox.map((p) => [p.userId, p.tokenKind, p.payload])).toEqual([
      [ID.hamlet, 'push_a', payload],
      [ID.hamlet, 'push_b', payload],
    ]);
  });

  it('pushes to the one token named', async () => {
    const s = sim();
    await addTokens(s);
    expect((await test(s, { token: 'android-token' })).status).toBe(200);
    expect(s.engine.state.pushOutbox.map((p) => p.tokenKind)).toEqual(['push_b']);
  });

  it('refuses an unknown token, and a caller with none', async () => {
    const s = sim();
    expect((await test(s)).body).toEqual({ result: 'error', msg: 'No active registered push device', code: 'NO_ACTIVE_PUSH_DEVICE' });
    await addTokens(s);
    expect((await test(s, { token: 'nope' })).body).toEqual({ result: 'error', msg: 'Device not recognized', code: 'INVALID_PUSH_DEVICE_TOKEN' });
    expect((await test(s, {}, ID.othello)).body.code).toBe('NO_ACTIVE_PUSH_DEVICE');
  });
});
