/**
 * Outgoing webhooks delivered (simulator/delivery/), against a real bot server on loopback for
 * every case: what Zulip's worker POSTs (zerver/lib/outgoing_webhook.py make_request), what it
 * posts back (process_success_response), how it fails and tells the bot's owner
 * (fail_with_message, notify_bot_owner), its retries (MAX_REQUEST_RETRIES) on the simulated
 * clock, both interfaces, and that no bot server can stall or break the simulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, manualClock, type Simulator, type SimulatorOptions } from '../../../simulator/index.ts';
import { botServer, closedPortUrl, reply, type BotServer } from './bot-server.ts';

const T = 1_700_300_000;
const OWNER = 'hamlet@zulip.com';
const SENDER = 'iago@zulip.com';

const servers: BotServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(answer: Parameters<typeof botServer>[0]): Promise<BotServer> {
  const server = await botServer(answer);
  servers.push(server);
  return server;
}

const simulator = (options: SimulatorOptions = {}): Simulator => createSimulator({ seed: 3, clock: manualClock(T), deliverWebhooks: true, ...options });

async function outgoingBot(s: Simulator, url: string, interfaceType: 1 | 2 = 1, shortName = 'echo'): Promise<{ id: number; token: string; email: string }> {
  const res = await s.request({
    method: 'POST',
    path: '/api/v1/bots',
    as: OWNER,
    body: { full_name: `Hook ${shortName}`, short_name: shortName, bot_type: 3, payload_url: JSON.stringify(url), interface_type: interfaceType },
  });
  expect(res.status).toBe(200);
  const bot = s.engine.state.users.get(res.body.user_id as number)!;
  return { id: bot.id, token: bot.bot_services[0]!.token, email: bot.email };
}

async function send(s: Simulator, body: Record<string, unknown>, as = SENDER): Promise<number> {
  const res = await s.request({ method: 'POST', path: '/api/v1/messages', as, body });
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const mention = (s: Simulator, text = '@**Hook echo** ping', topic = 'hooks') => send(s, { type: 'stream', to: 'Denmark', topic, content: text });

/** A message as `as` reads it, raw Markdown. */
async function read(s: Simulator, id: number, as = OWNER) {
  const res = await s.request({ method: 'GET', path: `/api/v1/messages/${id}`, as, query: { apply_markdown: false } });
  expect(res.status).toBe(200);
  return res.body.message as { content: string; sender_email: string; type: string; display_recipient: unknown; subject: string; client: string; stream_id?: number };
}

/** The latest messages of a narrow, oldest first. */
async function latest(s: Simulator, narrow: unknown[], as = OWNER, count = 5) {
  const res = await s.request({ method: 'GET', path: '/api/v1/messages', as, query: { anchor: 'newest', num_before: count, num_after: 0, apply_markdown: false, narrow } });
  return res.body.messages as { id: number; content: string; sender_email: string }[];
}

const delivery = (s: Simulator, index = -1) => s.outbox().outgoing_webhooks.at(index)!.delivery;

describe('the generic (Zulip) interface', () => {
  it('POSTs the recorded request with Zulip\'s headers, and posts the answer\'s content as the bot in the same topic', async () => {
    const server = await serve((_, res) => reply(res, 200, { content: 'pong **loud**' }));
    const s = simulator();
    const bot = await outgoingBot(s, server.url);
    const sent = await mention(s);
    await s.webhooks.settled();
    const [request] = server.received;
    const [hook] = s.outbox().outgoing_webhooks;
    expect(request).toMatchObject({ method: 'POST', url: '/hook', body: hook!.body });
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'ZulipOutgoingWebhook/12.0-dev' });
    expect(JSON.parse(request!.body)).toMatchObject({ data: '@**Hook echo** ping', token: bot.token, trigger: 'mention', bot_email: bot.email, message: { id: sent } });
    expect(hook!.delivery).toMatchObject({ status: 'delivered', attempts: 1, http_status: 200, error: null, next_attempt_at: null });
    const answer = await read(s, hook!.delivery!.message_ids[0]!);
    expect(answer).toMatchObject({ content: 'pong **loud**', sender_email: bot.email, type: 'stream', display_recipient: 'Denmark', subject: 'hooks', client: 'OutgoingWebhookResponse' });
    // Through the normal send path: the journal saw it as the bot's request.
    expect(s.journal.entries({ route: 'POST /messages', user: bot.email }).map((e) => e.response?.status)).toEqual([200]);
  });

  it('answers a direct message in that conversation, all its participants included', async () => {
    const server = await serve((_, res) => reply(res, 200, { content: 'hello both' }));
    const s = simulator();
    const bot = await outgoingBot(s, server.url);
    await send(s, { type: 'direct', to: JSON.stringify([bot.id, 12]), content: 'hi bot' });
    await s.webhooks.settled();
    expect(JSON.parse(server.received[0]!.body)).toMatchObject({ trigger: 'direct_message', data: 'hi bot' });
    const answer = await read(s, delivery(s)!.message_ids[0]!, SENDER);
    expect(answer.type).toBe('private');
    expect((answer.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b)).toEqual([11, 12, bot.id]);
    expect(answer.content).toBe('hello both');
  });

  it.each([
    ['response_not_required, before content', { response_not_required: true, content: 'never' }],
    ['an empty object', {}],
    ['blank content', { content: '  \n ' }],
    ['json.dumps("") (zulip_botserver before 2021-05)', ''],
  ])('posts nothing for %s, and counts it delivered', async (_, answer) => {
    const server = await serve((_, res) => reply(res, 200, answer === '' ? '""' : answer));
    const s = simulator();
    await outgoingBot(s, server.url);
    const sent = await mention(s);
    await s.webhooks.settled();
    expect(server.received).toHaveLength(1);
    expect(delivery(s)).toMatchObject({ status: 'delivered', attempts: 1, message_ids: [] });
    expect((await latest(s, [{ operator: 'channel', operand: 'Denmark' }])).at(-1)!.id).toBe(sent);
  });

  it.each([
    [{ response_string: 'legacy', content: 'new' }, 'legacy'],
    [{ content: 42 }, '42'],
    [{ content: ['a', true, null] }, "['a', True, None]"],
  ])('reads %j as Python\'s str() of it', async (answer, posted) => {
    const server = await serve((_, res) => reply(res, 200, answer));
    const s = simulator();
    await outgoingBot(s, server.url);
    await mention(s);
    await s.webhooks.settled();
    expect((await read(s, delivery(s)!.message_ids[0]!)).content).toBe(posted);
  });
});

describe('failures, in Zulip\'s words, to the conversation and to the bot\'s owner', () => {
  it('a non-2xx answer is not retried: "Third party responded with 500", and the owner gets the status and the body as bytes', async () => {
    const server = await serve((_, res) => reply(res, 500, "it's broken", 'text/plain'));
    const s = simulator();
    const bot = await outgoingBot(s, server.url);
    const sent = await mention(s);
    await s.webhooks.settled();
    s.clock.advance(60);
    await s.webhooks.settled();
    expect(server.received).toHaveLength(1);
    expect(delivery(s)).toMatchObject({ status: 'failed', attempts: 1, http_status: 500, error: 'Third party responded with 500' });
    const [failure, notice] = await Promise.all(delivery(s)!.message_ids.map((id) => read(s, id)));
    expect(failure).toMatchObject({ content: 'Failure! Third party responded with 500', display_recipient: 'Denmark', subject: 'hooks', sender_email: bot.email });
    expect(notice!.type).toBe('private');
    expect(notice!.content).toBe(
      `[A message](http://zulip.testserver/#narrow/channel/4-Denmark/topic/hooks/near/${sent}) to your bot @_**Hook echo** triggered an outgoing webhook.\n` +
        'The webhook got a response with status code *500*.\n' +
        'The response contains the following payload:\n```\nb"it\'s broken"\n```',
    );
  });

  it('an answer that is not JSON (an empty body too): "Invalid JSON in response", and the owner sees the text', async () => {
    const server = await serve((req, res) => reply(res, 200, req.body.includes('empty') ? '' : 'OK!', 'text/plain'));
    const s = simulator();
    await outgoingBot(s, server.url);
    await mention(s, '@**Hook echo** text');
    await s.webhooks.settled();
    const [failure, notice] = await Promise.all(delivery(s)!.message_ids.map((id) => read(s, id)));
    expect(failure!.content).toBe('Failure! Invalid JSON in response');
    expect(notice!.content).toMatch(
      /triggered an outgoing webhook\.\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\nThe response contains the following payload:\n```\n'OK!'\n```$/,
    );
    await mention(s, '@**Hook echo** empty');
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'failed', error: 'Invalid JSON in response' });
    // No payload to show for an empty body.
    expect((await read(s, delivery(s)!.message_ids[1]!)).content).toMatch(/> Invalid JSON in response$/);
  });

  it('a JSON answer that is not an object: "Invalid response format"', async () => {
    const server = await serve((_, res) => reply(res, 200, [1, 2]));
    const s = simulator();
    await outgoingBot(s, server.url);
    await mention(s);
    await s.webhooks.settled();
    expect((await read(s, delivery(s)!.message_ids[0]!)).content).toBe('Failure! Invalid response format');
  });

  it('a refused connection is retried 3 times on the simulated clock, then "Bot is unavailable" and the owner is asked whether the server is down', async () => {
    const s = simulator({ deliverWebhooks: { retryDelaySeconds: 5 } });
    await outgoingBot(s, await closedPortUrl());
    const sent = await mention(s);
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'retrying', attempts: 1, http_status: null, error: 'A connection error occurred. Is my bot server down?', next_attempt_at: T + 5 });
    s.clock.advance(4);
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'retrying', attempts: 1 });
    s.clock.advance(1);
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'retrying', attempts: 2, next_attempt_at: T + 10 });
    // Counted from the first attempt: one jump runs every retry that came due on the way.
    s.clock.advance(60);
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
    const [failure, notice] = await Promise.all(delivery(s)!.message_ids.map((id) => read(s, id)));
    expect(failure).toMatchObject({ content: 'Failure! Bot is unavailable', subject: 'hooks' });
    expect(notice!.content).toBe(
      `[A message](http://zulip.testserver/#narrow/channel/4-Denmark/topic/hooks/near/${sent}) to your bot @_**Hook echo** triggered an outgoing webhook.\nA connection error occurred. Is my bot server down?`,
    );
  });

  it('a server that does not answer in time is a timeout, retried; a later success is posted', async () => {
    let calls = 0;
    const server = await serve((_, res) => {
      calls += 1;
      if (calls < 3) return; // never answers
      reply(res, 200, { content: 'late but here' });
    });
    const s = simulator({ deliverWebhooks: { timeoutSeconds: 0.2 } });
    await outgoingBot(s, server.url);
    await mention(s);
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'retrying', attempts: 1, error: 'Request timed out after 0.2 seconds.' });
    s.clock.advance(10);
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'delivered', attempts: 3, http_status: 200 });
    expect((await read(s, delivery(s)!.message_ids[0]!)).content).toBe('late but here');
  });

  it('a file: payload URL is refused when the bot is created; another scheme fails at delivery with Zulip\'s exception notice', async () => {
    const s = simulator();
    const refused = await s.request({
      method: 'POST',
      path: '/api/v1/bots',
      as: OWNER,
      body: { full_name: 'Hook file', short_name: 'file', bot_type: 3, payload_url: JSON.stringify('file:///etc/passwd'), interface_type: 1 },
    });
    expect(refused.body).toMatchObject({ result: 'error', msg: 'payload_url is not a URL' });
    await outgoingBot(s, 'ftp://127.0.0.1/hook');
    await mention(s, '@**Hook echo** over ftp');
    await s.webhooks.settled();
    expect(delivery(s)).toMatchObject({ status: 'failed', attempts: 1 });
    const [failure, notice] = await Promise.all(delivery(s)!.message_ids.map((id) => read(s, id)));
    expect(failure!.content).toBe('Failure! An exception of type *InvalidSchema* occurred for message `@**Hook echo** over ftp`! See the Zulip server logs for more information.');
    expect(notice!.content).toMatch(
      /\nWhen trying to send a request to the webhook service, an exception of type InvalidSchema occurred:\n```\nNo connection adapters were found for 'ftp:\/\/127\.0\.0\.1\/hook'\n```$/,
    );
  });
});

describe('the Slack-compatible interface', () => {
  it("POSTs the Slack form and posts the answer's text", async () => {
    const server = await serve((_, res) => reply(res, 200, { text: 'slack says hi', content: 'ignored' }));
    const s = simulator();
    const bot = await outgoingBot(s, server.url, 2, 'slacky');
    await mention(s, '@**Hook slacky** hi');
    await s.webhooks.settled();
    const request = server.received[0]!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toMatchObject({ token: bot.token, channel_name: 'Denmark', text: '@**Hook slacky** hi', user_id: 'U11', service_id: String(bot.id) });
    expect((await read(s, delivery(s)!.message_ids[0]!)).content).toBe('slack says hi');
  });

  it("a direct message gets no request, and Zulip's answer in that conversation", async () => {
    const server = await serve((_, res) => reply(res, 200, { text: 'never asked' }));
    const s = simulator();
    const bot = await outgoingBot(s, server.url, 2, 'slacky');
    await send(s, { type: 'direct', to: JSON.stringify([bot.id]), content: 'psst' });
    await s.webhooks.settled();
    expect(server.received).toEqual([]);
    expect(s.outbox().outgoing_webhooks).toEqual([]);
    const [last] = (await latest(s, [{ operator: 'dm', operand: [bot.id] }], SENDER, 1));
    expect(last).toMatchObject({ sender_email: bot.email, content: "Failure! Slack outgoing webhooks don't support direct messages." });
  });
});

describe('the simulator stays in charge', () => {
  it('delivers in the order of the messages, one at a time', async () => {
    const server = await serve((req, res) => {
      const { data } = JSON.parse(req.body) as { data: string };
      // The first answer is the slowest: order must not depend on it.
      setTimeout(() => reply(res, 200, { content: `re: ${data}` }), data.endsWith('1') ? 50 : 0);
    });
    const s = simulator();
    await outgoingBot(s, server.url);
    for (const n of [1, 2, 3]) await mention(s, `@**Hook echo** ${n}`);
    await s.webhooks.settled();
    expect(server.received.map((r) => (JSON.parse(r.body) as { data: string }).data)).toEqual(['@**Hook echo** 1', '@**Hook echo** 2', '@**Hook echo** 3']);
    const answers = (await latest(s, [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'hooks' }], OWNER, 6)).filter((m) => m.content.startsWith('re: '));
    expect(answers.map((m) => m.content)).toEqual(['re: @**Hook echo** 1', 're: @**Hook echo** 2', 're: @**Hook echo** 3']);
  });

  it('answers requests while a bot server hangs, and a reset abandons the delivery without posting into the new state', async () => {
    const server = await serve(() => undefined); // never answers
    const s = simulator();
    await outgoingBot(s, server.url);
    await mention(s);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.received).toHaveLength(1);
    const me = await s.request({ method: 'GET', path: '/api/v1/users/me', as: SENDER });
    expect(me.status).toBe(200);
    s.reset();
    await s.webhooks.settled();
    expect(s.outbox().outgoing_webhooks).toEqual([]);
    expect(s.engine.state.users.get(me.body.user_id as number)).toBeDefined();
  });

  it('survives a server that resets the connection (retried) or floods its answer (read up to 1 MiB)', async () => {
    const flood = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const write = (): void => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', write);
      res.on('error', () => undefined);
      write();
    });
    const reset = await serve((_, res) => res.socket?.destroy());
    const s = simulator();
    await outgoingBot(s, flood.url, 1, 'flood');
    await outgoingBot(s, reset.url, 1, 'reset');
    await mention(s, '@**Hook flood** go');
    await mention(s, '@**Hook reset** go');
    await s.webhooks.settled();
    const [flooded, wasReset] = s.outbox().outgoing_webhooks.map((h) => h.delivery);
    expect(flooded).toMatchObject({ status: 'failed', attempts: 1, http_status: 200, error: 'Invalid JSON in response' });
    expect(wasReset).toMatchObject({ status: 'retrying', attempts: 1, error: 'A connection error occurred. Is my bot server down?' });
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: SENDER })).status).toBe(200);
  });

  it('is on by default when serving over HTTP, and off when told false', async () => {
    const server = await serve((_, res) => reply(res, 200, { content: 'over http' }));
    const on = createSimulator({ seed: 3, clock: manualClock(T) });
    expect(on.webhooks.enabled).toBe(false);
    const listening = await on.listen(0);
    try {
      expect(on.webhooks.enabled).toBe(true);
      await outgoingBot(on, server.url);
      await mention(on);
      await on.webhooks.settled();
      expect(delivery(on)).toMatchObject({ status: 'delivered' });
    } finally {
      await listening.close();
    }
    const off = createSimulator({ seed: 3, clock: manualClock(T), deliverWebhooks: false });
    const closed = await off.listen(0);
    await closed.close();
    expect(off.webhooks.enabled).toBe(false);
    await outgoingBot(off, server.url);
    await mention(off);
    await off.webhooks.settled();
    expect(server.received).toHaveLength(1);
    expect(off.outbox().outgoing_webhooks[0]!.delivery).toBeUndefined();
  });

  it('takes a fetch function instead of sockets', async () => {
    const seen: string[] = [];
    const s = simulator({
      deliverWebhooks: async (url, init) => {
        seen.push(`${init.method} ${url} ${init.headers['user-agent']}`);
        return new Response(JSON.stringify({ content: 'from fetch' }), { status: 200 });
      },
    });
    await outgoingBot(s, 'http://bot.invalid/hook');
    await mention(s);
    await s.webhooks.settled();
    expect(seen).toEqual(['POST http://bot.invalid/hook ZulipOutgoingWebhook/12.0-dev']);
    expect((await read(s, delivery(s)!.message_ids[0]!)).content).toBe('from fetch');
  });
});
