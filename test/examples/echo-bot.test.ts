// simulator/examples/echo-bot.mjs, run as the README says (a separate `node` process, credentials in
// the environment) against the simulator over real HTTP: someone writes to the bot, the answer
// arrives in their event queue; a mention in a channel is answered in its topic; SIGTERM deletes
// the bot's queue and ends it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from '../../simulator/index.ts';
import { ROOT } from '../catalog/helpers.ts';
import { poll, register, send } from '../simulator/events/helpers.ts';

const HAMLET = 10;

let sim: Simulator;
let server: { url: string; close(): Promise<void> };
let bot: ChildProcess;
let botId: number;
let output = '';

/** Polls `queueId` until an event passes `match`, acknowledging the others; gives up with the test. */
async function waitForEvent(queueId: string, match: (e: Record<string, any>) => boolean): Promise<Record<string, any>> {
  let last = -1;
  for (;;) {
    const res = await poll(sim, HAMLET, { queue_id: queueId, last_event_id: last });
    expect(res.status).toBe(200);
    for (const event of res.body.events as Record<string, any>[]) {
      if (match(event)) return event;
      last = event.id;
    }
  }
}

beforeAll(async () => {
  // Heartbeats every second: the bot's polls come back often, as they would over a long session.
  sim = createSimulator({ seed: 9, longPollTimeoutMs: 1000 });
  server = await sim.listen(0, '127.0.0.1');
  const record = [...sim.engine.state.users.values()].find((u) => u.delivery_email === 'default-bot@zulip.com')!;
  botId = record.id;
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && !key.startsWith('ZULIP')));
  bot = spawn(process.execPath, [path.join('simulator', 'examples', 'echo-bot.mjs')], {
    cwd: ROOT,
    env: { ...env, ZULIP_EMAIL: record.delivery_email, ZULIP_API_KEY: record.api_key, ZULIP_SITE: new URL(server.url).origin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  bot.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  bot.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await vi.waitFor(() => expect(output).toMatch(/echo bot ready as default-bot@zulip\.com/), { timeout: 60_000, interval: 50 });
}, 90_000);

afterAll(async () => {
  if (bot.exitCode === null) bot.kill('SIGKILL');
  await server.close();
});

describe('the echo bot example', () => {
  it('answers a direct message with the same text', async () => {
    const { queue_id } = await register(sim, HAMLET, { event_types: ['message'] });
    const sent = await send(sim, HAMLET, { type: 'direct', to: `[${botId}]`, content: 'Is **this** thing on?' });
    expect(sent.status).toBe(200);
    const answer = await waitForEvent(queue_id, (e) => e.type === 'message' && e.message.sender_id === botId);
    expect(answer.message).toMatchObject({ type: 'private', content: 'Is **this** thing on?' });
    expect(answer.message.display_recipient.map((u: { id: number }) => u.id).sort()).toEqual([HAMLET, botId].sort());
  });

  it('answers a mention in a channel in the same topic, without the mention', async () => {
    const { queue_id } = await register(sim, HAMLET, { event_types: ['message'] });
    await send(sim, HAMLET, { type: 'stream', to: 'Denmark', topic: 'echoes', content: '@**Zulip Default Bot** hello there' });
    const answer = await waitForEvent(queue_id, (e) => e.type === 'message' && e.message.sender_id === botId);
    expect(answer.message).toMatchObject({ type: 'stream', display_recipient: 'Denmark', subject: 'echoes', content: 'hello there' });
  });

  it('stops on SIGTERM: its event queue is deleted and it exits 0', async () => {
    expect(sim.engine.queues.byUser.get(botId)).toHaveLength(1);
    const exited = new Promise<number | null>((resolve) => bot.once('exit', (code) => resolve(code)));
    bot.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(sim.engine.queues.byUser.has(botId)).toBe(false);
    expect(output).not.toMatch(/failed|cannot/);
  });
});
