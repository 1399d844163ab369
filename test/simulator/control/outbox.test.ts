/**
 * The outbox (simulator/control/outbox.ts, engine/integrations/outgoing-webhooks.ts): what the server sends out
 * of the organization, recorded instead of sent: emails, pushes, Notification Bot's messages and
 * the requests outgoing-webhook bots would get, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { pythonJsonDumps } from '../../../simulator/engine/integrations/outgoing-webhooks.ts';
import { CONTROL_PREFIX, createSimulator, fixedClock, type Simulator } from '../../../simulator/index.ts';

const T = 1_700_200_000;
const fresh = () => createSimulator({ seed: 11, clock: fixedClock(T) });
const post = (s: Simulator, as: string, path: string, body: Record<string, unknown>) => s.request({ method: 'POST', path: `/api/v1${path}`, as, body });

async function outgoingBot(s: Simulator, shortName: string, interfaceType: 1 | 2): Promise<{ id: number; token: string }> {
  const res = await post(s, 'hamlet@zulip.com', '/bots', {
    full_name: `Hook ${shortName}`,
    short_name: shortName,
    bot_type: 3,
    payload_url: JSON.stringify(`https://bots.example.com/${shortName}`),
    interface_type: interfaceType,
  });
  expect(res.status).toBe(200);
  return { id: res.body.user_id as number, token: s.engine.state.users.get(res.body.user_id as number)!.bot_services[0]!.token };
}

describe('outgoing webhooks', () => {
  it("a mention in a channel: Zulip's JSON payload, as Python's json.dumps writes it", async () => {
    const s = fresh();
    const bot = await outgoingBot(s, 'echo', 1);
    const sent = await post(s, 'hamlet@zulip.com', '/messages', { type: 'stream', to: 'Denmark', topic: 'café', content: '@**Hook echo** what’s up?' });
    const [hook] = s.outbox().outgoing_webhooks;
    expect(hook).toMatchObject({ bot_id: bot.id, url: 'https://bots.example.com/echo', content_type: 'application/json', trigger: 'mention', message_id: sent.body.id, timestamp: T });
    expect(hook!.payload).toEqual({
      data: '@**Hook echo** what’s up?',
      message: {
        id: sent.body.id,
        sender_id: 10,
        content: '@**Hook echo** what’s up?',
        recipient_id: expect.any(Number),
        timestamp: T,
        client: 'Unspecified',
        subject: 'café',
        topic_links: [],
        is_me_message: false,
        reactions: [],
        submessages: [],
        sender_full_name: 'King Hamlet',
        sender_email: 'user10@zulip.testserver',
        sender_realm_str: 'zulip',
        display_recipient: 'Denmark',
        type: 'stream',
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
        content_type: 'text/x-markdown',
        stream_id: 4,
        rendered_content: `<p><span class="user-mention" data-user-id="${bot.id}">@Hook echo</span> what’s up?</p>`,
      },
      bot_email: 'echo-bot@zulip.testserver',
      bot_full_name: 'Hook echo',
      token: bot.token,
      trigger: 'mention',
    });
    expect(hook!.body).toBe(pythonJsonDumps(hook!.payload));
    expect(hook!.body).toContain('"subject": "caf\\u00e9"');
    expect(hook!.body).toContain('"data": "@**Hook echo** what\\u2019s up?"');
  });

  it('a direct message to the bot triggers direct_message; a silent mention, a mere channel message and messages from bots trigger nothing', async () => {
    const s = fresh();
    const bot = await outgoingBot(s, 'echo', 1);
    await post(s, 'hamlet@zulip.com', '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: '@_**Hook echo** quietly' });
    await post(s, 'hamlet@zulip.com', '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'nobody named' });
    await post(s, 'default-bot@zulip.com', '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: '@**Hook echo** from a bot' });
    expect(s.outbox().outgoing_webhooks).toEqual([]);
    await post(s, 'othello@zulip.com', '/messages', { type: 'direct', to: JSON.stringify([bot.id, 10]), content: 'psst' });
    expect(s.outbox().outgoing_webhooks.map((h) => [h.bot_id, h.trigger, (h.payload as { data?: string }).data])).toEqual([[bot.id, 'direct_message', 'psst']]);
  });

  it('a Slack-compatible bot gets the Slack form for channel messages, nothing for direct messages', async () => {
    const s = fresh();
    const bot = await outgoingBot(s, 'slacky', 2);
    const sent = await post(s, 'hamlet@zulip.com', '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: "@**Hook slacky** it's 50% (done)!" });
    await post(s, 'hamlet@zulip.com', '/messages', { type: 'direct', to: JSON.stringify([bot.id]), content: 'dm' });
    const hooks = s.outbox().outgoing_webhooks;
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.content_type).toBe('application/x-www-form-urlencoded');
    expect(hooks[0]!.body).toBe(
      `token=${bot.token}&team_id=T2&team_domain=zulip.testserver&channel_id=C4&channel_name=Denmark&thread_ts=${T}&timestamp=${T}` +
        `&user_id=U10&user_name=King+Hamlet&text=%40%2A%2AHook+slacky%2A%2A+it%27s+50%25+%28done%29%21&trigger_word=mention&service_id=${bot.id}`,
    );
    expect(hooks[0]!.payload).toMatchObject({ text: "@**Hook slacky** it's 50% (done)!", channel_name: 'Denmark', user_name: 'King Hamlet' });
    expect(hooks[0]!.message_id).toBe(sent.body.id);
  });
});

describe('the rest of the outbox', () => {
  it("emails, pushes and Notification Bot's messages; DELETE /outbox forgets all but the messages", async () => {
    const s = fresh();
    await s.request({ method: 'PATCH', path: '/api/v1/settings', as: 'hamlet@zulip.com', body: { email: 'prince@zulip.com' } });
    await post(s, 'iago@zulip.com', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'Rome' }]), principals: JSON.stringify([10]) });
    const device = await post(s, 'hamlet@zulip.com', '/register_client_device', {});
    await post(s, 'hamlet@zulip.com', '/mobile_push/register', {
      device_id: device.body.device_id,
      push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64'),
      push_key_id: 1,
      token_kind: 'fcm',
      token_id: Buffer.alloc(8, 1).toString('base64'),
      bouncer_public_key: 'key',
      encrypted_push_registration: 'ciphertext',
    });
    await post(s, 'hamlet@zulip.com', '/mobile_push/e2ee/test_notification', {});
    const outbox = (await s.request({ method: 'GET', path: `${CONTROL_PREFIX}/outbox` })).body;
    expect(outbox.emails).toEqual([
      {
        to: 'prince@zulip.com',
        template: 'zerver/emails/confirm_new_email',
        context: { old_email: 'hamlet@zulip.com', new_email: 'prince@zulip.com', realm_name: 'Zulip Dev' },
        timestamp: T,
      },
    ]);
    expect(outbox.pushes).toEqual([
      { user_id: 10, device_id: 1, token_kind: 'fcm', payload: { event: 'test', realm_url: 'http://zulip.testserver', realm_name: 'Zulip Dev', user_id: 10, time: T }, timestamp: T },
    ]);
    expect(outbox.notification_bot).toEqual([
      { id: expect.any(Number), timestamp: T, type: 'private', recipient_ids: [10], content: '@_**Iago|11** subscribed you to #**Rome**.' },
    ]);
    expect((await s.request({ method: 'DELETE', path: `${CONTROL_PREFIX}/outbox` })).status).toBe(204);
    expect(s.outbox()).toEqual({ emails: [], pushes: [], notification_bot: outbox.notification_bot, outgoing_webhooks: [] });
  });
});

describe("pythonJsonDumps writes what Python's json.dumps writes", () => {
  it.each([
    [{ a: 1, b: [true, null, 'x'] }, '{"a": 1, "b": [true, null, "x"]}'],
    [{ s: 'é\u2019😀\n"' }, '{"s": "\\u00e9\\u2019\\ud83d\\ude00\\n\\""}'],
    [{ f: 1.5, i: -3, e: {} , l: [] }, '{"f": 1.5, "i": -3, "e": {}, "l": []}'],
  ])('%j', (value, text) => {
    expect(pythonJsonDumps(value)).toBe(text);
  });
});
