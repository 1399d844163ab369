/**
 * The simulator side of `npm run bench:sim`: the server `npm run simulator` runs (wall clock,
 * default seed, default limits), in its own process, set up for one case: messages already
 * stored, extra users, a channel of ten of them. Stored messages go in through the engine's own
 * send action (the path POST /messages takes, minus HTTP), so the store holds exactly what
 * sending would have left.
 */
import { getStreamByName, getUserByEmail, subscribersOf } from '../../../simulator/engine/core.ts';
import { sendMessage } from '../../../simulator/engine/messages/send.ts';
import { getMessage } from '../../../simulator/engine/messages/store.ts';
import type { Simulator } from '../../../simulator/index.ts';
import { startSimulatorServer } from '../../../simulator/cli/server.ts';
import { answerCalls } from '../harness/processes.ts';

export interface SimSetup {
  /** Messages stored before the case runs (see storeMessages). */
  stored: number;
  /** Extra member accounts, bench-1@example.com …, each made through POST /users (after the realm's default channels are made ordinary ones, so that they join none). */
  users: number;
  /** A public channel `bench-10` with the first ten extra users subscribed (needs users ≥ 10). */
  channel: boolean;
}

export interface SimInfo {
  port: number;
  /** Email → API key of every active human and of the extra users. */
  credentials: Record<string, string>;
  /** Email → user id, for the same users. */
  ids: Record<string, number>;
  /** Emails of the extra users, in creation order. */
  extraUsers: string[];
}

export const BENCH_CHANNEL = 'bench-10';
const ADMIN = 'iago@zulip.com';
const CHANNELS = ['Verona', 'Denmark', 'Scotland', 'Venice'];
const SENDERS = ['iago@zulip.com', 'hamlet@zulip.com', 'othello@zulip.com', 'prospero@zulip.com', 'cordelia@zulip.com'];

/**
 * `count` messages sent now, from five senders: nine in ten to four public channels over fifty
 * topics, one in ten a direct message; a short line of words each, one in ten with Markdown in it
 * (bold, code, an emoji). Answers the characters of content they hold (raw, rendered and topic),
 * which "beyond content" excludes.
 */
export function storeMessages(simulator: Simulator, count: number): number {
  const engine = simulator.engine;
  const senders = SENDERS.map((email) => getUserByEmail(engine, email)!);
  const store = engine.state.messages;
  let contentChars = 0;
  for (let i = 0; i < count; i++) {
    const sender = senders[i % senders.length]!;
    const direct = i % 10 === 9;
    const { value } = sendMessage(engine, sender, {
      type: direct ? 'private' : 'stream',
      to: direct ? JSON.stringify([senders[(i + 1) % senders.length]!.id]) : CHANNELS[i % CHANNELS.length]!,
      topic: direct ? undefined : `topic ${i % 50}`,
      content: i % 10 === 0 ? `message number ${i} about **things** and \`code\` :smile:` : `message number ${i} about things`,
      client: 'bench',
    });
    const m = getMessage(store, value.id)!;
    contentChars += m.content.length + m.renderedContent.length + m.topic.length;
  }
  return contentChars;
}

async function setUp(simulator: Simulator, setup: SimSetup): Promise<string[]> {
  const extra: string[] = [];
  // New accounts join the default channels (Verona): keep it the fixture's ten people.
  for (const streamId of [...simulator.engine.state.realm.default_stream_ids]) {
    if (setup.users === 0) break;
    const res = await simulator.request({ method: 'DELETE', path: '/api/v1/default_streams', as: ADMIN, query: { stream_id: streamId } });
    if (res.status !== 200) throw new Error(`DELETE /default_streams: ${JSON.stringify(res.body)}`);
  }
  for (let i = 1; i <= setup.users; i++) {
    const email = `bench-${i}@example.com`;
    const res = await simulator.request({
      method: 'POST',
      path: '/api/v1/users',
      as: ADMIN,
      body: { email, password: `bench-password-${i}`, full_name: `Bench ${i}` },
    });
    if (res.status !== 200) throw new Error(`POST /users: ${JSON.stringify(res.body)}`);
    extra.push(email);
  }
  if (setup.channel) {
    if (extra.length < 10) throw new Error(`${BENCH_CHANNEL} needs ten extra users`);
    const principals = extra.slice(0, 10).map((email) => getUserByEmail(simulator.engine, email)!.id);
    const res = await simulator.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ADMIN,
      body: { subscriptions: [{ name: BENCH_CHANNEL }], principals, announce: false },
    });
    if (res.status !== 200) throw new Error(`subscribing ${BENCH_CHANNEL}: ${JSON.stringify(res.body)}`);
    const channel = getStreamByName(simulator.engine, BENCH_CHANNEL)!;
    const subscribers = subscribersOf(simulator.engine, channel.id).length;
    if (subscribers !== 10) throw new Error(`${BENCH_CHANNEL} has ${subscribers} subscribers, not 10`);
  }
  storeMessages(simulator, setup.stored);
  return extra;
}

export async function runSimulatorChild(setup: SimSetup): Promise<void> {
  const server = await startSimulatorServer({ port: 0, print: false });
  const simulator = server.simulator;
  const extraUsers = await setUp(simulator, setup);
  const credentials: Record<string, string> = {};
  const ids: Record<string, number> = {};
  for (const user of simulator.engine.state.users.values()) {
    if (!user.is_active || user.is_system_bot || user.is_bot) continue;
    credentials[user.delivery_email] = user.api_key;
    ids[user.delivery_email] = user.id;
  }
  answerCalls({ port: server.port, credentials, ids, extraUsers } satisfies SimInfo, {
    // Queues open, and those with a poll parked on them.
    queues: () => {
      const all = [...simulator.engine.queues.byId.values()];
      return { open: all.length, parked: all.filter((q) => q.waiter !== null).length };
    },
    store: (count) => storeMessages(simulator, count as number),
    // The request journal keeps its own record of every request (bounded, not per queue).
    'clear-journal': () => simulator.journal.clear(),
    messages: () => simulator.engine.state.messages.messages.length,
    // A search narrow, which builds the word index over every stored message.
    search: async () => {
      const narrow = JSON.stringify([{ operator: 'search', operand: 'things' }]);
      const res = await simulator.request({ method: 'GET', path: '/api/v1/messages', as: 'iago@zulip.com', query: { anchor: 'newest', num_before: '10', num_after: '0', narrow } });
      if (res.status !== 200) throw new Error(`search narrow: ${JSON.stringify(res.body)}`);
      return res.body.messages.length;
    },
  });
}
