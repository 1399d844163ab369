// Incoming-webhook bots (bot_type 2): Zulip's rest_dispatch lets them call only views tagged
// allow_incoming_webhooks, and among message routes that is POST /messages alone.
import { describe, expect, test } from 'vitest';
import { del, error, fetchMessages, get, post, sim } from './helpers.ts';

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

// send_pm_if_empty_stream: a bot's owner hears from Notification Bot when the bot sends to a
// missing channel or to one without subscribers, at most once a minute per bot.
describe("a bot's owner is told about sends to missing or empty channels", () => {
  const ZOE = 'ZOE@zulip.com';
  const notices = async (s: ReturnType<typeof sim>) => {
    const res = await fetchMessages(s, ZOE, { anchor: 'newest', num_before: 20, apply_markdown: 'false', narrow: [{ operator: 'sender', operand: 'notification-bot@zulip.com' }] });
    return (res.body.messages as { content: string }[]).map((m) => m.content);
  };

  const rows: [string, Record<string, unknown>, number, Record<string, unknown>, string][] = [
    [
      'a channel name that does not exist',
      { to: 'Atlantis' },
      400,
      error('STREAM_DOES_NOT_EXIST', "Channel 'Atlantis' does not exist", { stream: 'Atlantis' }),
      'Your bot `webhook-bot@zulip.com` tried to send a message to channel #**Atlantis**, but that channel does not exist. Click [here](#channels/new) to create it.',
    ],
    [
      'a channel ID that does not exist',
      { to: '999' },
      400,
      error('STREAM_DOES_NOT_EXIST', "Channel with ID '999' does not exist", { stream_id: 999 }),
      'Your bot `webhook-bot@zulip.com` tried to send a message to channel ID 999, but there is no channel with that ID.',
    ],
  ];
  test.each(rows)('%s', async (_name, to, status, body, notice) => {
    const s = sim();
    const before = await notices(s);
    const res = await post(s, WEBHOOK_BOT, '/messages', { type: 'stream', topic: 't', content: 'x', ...to });
    expect([res.status, res.body]).toEqual([status, body]);
    expect(await notices(s)).toEqual([...before, notice]);
    // Within the wait period the owner is not told again.
    await post(s, WEBHOOK_BOT, '/messages', { type: 'stream', topic: 't', content: 'x', ...to });
    expect(await notices(s)).toEqual([...before, notice]);
  });

  test('a channel without subscribers: the message is sent and the owner told', async () => {
    const s = sim();
    const denmark = s.engine.state.streamsByName.get('denmark')!;
    s.engine.state.subscriptions.get(denmark)!.clear();
    const before = await notices(s);
    const res = await post(s, WEBHOOK_BOT, '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'x' });
    expect([res.status, res.body.result]).toEqual([200, 'success']);
    expect(await notices(s)).toEqual([
      ...before,
      `Your bot \`webhook-bot@zulip.com\` tried to send a message to channel #**Denmark**. The channel exists but does not have any subscribers.`,
    ]);
  });

  test('a channel name that would break #**…** is written as a plain Markdown link', async () => {
    const s = sim();
    const id = s.engine.state.streamsByName.get('denmark')!;
    const stream = s.engine.state.streams.get(id)!;
    s.engine.state.streamsByName.delete('denmark');
    stream.name = 'R&D *ops* (x.y)';
    s.engine.state.streamsByName.set(stream.name.toLowerCase(), id);
    s.engine.state.subscriptions.get(id)!.clear();
    const res = await post(s, WEBHOOK_BOT, '/messages', { type: 'stream', to: String(id), topic: 't', content: 'x' });
    expect(res.status).toBe(200);
    expect((await notices(s)).at(-1)).toBe(
      `Your bot \`webhook-bot@zulip.com\` tried to send a message to channel [#R&amp;D &#42;ops&#42; (x.y)](#narrow/channel/${id}-R.26D-*ops*-.28x.2Ey.29). The channel exists but does not have any subscribers.`,
    );
  });

  test('humans get no such notice', async () => {
    const s = sim();
    const before = s.engine.state.messages.messages.length;
    await post(s, 'hamlet@zulip.com', '/messages', { type: 'stream', to: 'Atlantis', topic: 't', content: 'x' });
    expect(s.engine.state.messages.messages.length).toBe(before);
  });
});
