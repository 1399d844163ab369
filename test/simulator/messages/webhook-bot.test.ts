// Incoming-webhook bots (bot_type 2): Zulip's rest_dispatch lets them call only views tagged
// allow_incoming_webhooks, and among message routes that is POST /messages alone.
import { describe, expect, test } from 'vitest';
import { del, error, get, post, sim } from './helpers.ts';

const WEBHOOK_BOT = 'webhook-bot@zulip.com';
const refused = error('UNAUTHORIZED', 'This API is not available to incoming webhook bots.');

describe('incoming-webhook bot on message routes', () => {
  test('POST /messages: the bot can send to a channel and the message is stored with it as sender', async () => {
    const s = sim();
    const res = await post(s, WEBHOOK_BOT, '/messages', { type: 'stream', to: 'Denmark', topic: 'alerts', content: 'build passed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const read = await get(s, 'iago@zulip.com', `/messages/${res.body.id}`);
    expect(read.body.message).toMatchObject({ sender_email: WEBHOOK_BOT, subject: 'alerts', content: '<p>build passed</p>' });
  });

  test('POST /messages: a direct message to a user', async () => {
    const res = await post(sim(), WEBHOOK_BOT, '/messages', { type: 'direct', to: '[10]', content: 'ping' });
    expect([res.status, res.body.result]).toEqual([200, 'success']);
  });

  const otherRoutes: [string, (s: ReturnType<typeof sim>) => ReturnType<typeof get>][] = [
    ['GET /messages', (s) => get(s, WEBHOOK_BOT, '/messages', { anchor: 'newest' })],
    ['GET /messages/{id}', (s) => get(s, WEBHOOK_BOT, '/messages/1')],
    ['GET /messages/matches_narrow', (s) => get(s, WEBHOOK_BOT, '/messages/matches_narrow', { msg_ids: '[1]', narrow: '[]' })],
    ['POST /messages/{id}/reactions', (s) => post(s, WEBHOOK_BOT, '/messages/1/reactions', { emoji_name: 'smile' })],
    ['DELETE /messages/{id}/reactions', (s) => del(s, WEBHOOK_BOT, '/messages/1/reactions', { emoji_name: 'smile' })],
  ];
  test.each(otherRoutes)('%s: 401, not available to incoming webhook bots', async (_name, call) => {
    const res = await call(sim());
    expect([res.status, res.body]).toEqual([401, refused]);
  });
});
