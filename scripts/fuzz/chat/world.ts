/**
 * The world a fuzzed request sequence runs in: the dev realm, prepared once (a deactivated user
 * and a deactivated bot exist from the start), then cloned afresh for every sequence so that a
 * failing sequence replays alone, from the same state, with the same answers. Requests go
 * through the simulator's own dispatcher, the one its HTTP server calls; a sequence may instead
 * go through a real HTTP server in front of that dispatcher.
 */
import { DEFAULT_FIXTURE, basicAuth, routes as tableRoutes } from '../../../simulator/index.ts';
import { createEngineCaches } from '../../../simulator/engine/fast/caches.ts';
import type { Engine } from '../../../simulator/engine/core.ts';
import { seededRandom, steppingClock } from '../../../simulator/engine/deps.ts';
import { simulatedClock } from '../../../simulator/engine/simulated-clock.ts';
import { createEngine } from '../../../simulator/engine/engine.ts';
import { createEventQueues } from '../../../simulator/engine/events/delivery.ts';
import { closeAllQueues } from '../../../simulator/engine/events/queues.ts';
import { createDispatcher, type Handle, type RawRequest, type RawResponse } from '../../../simulator/http/dispatch.ts';
import { listenHttp, type Listening } from '../../../simulator/http/node.ts';
import type { Route } from '../../../simulator/http/route.ts';
import type { UserRecord } from '../../../simulator/engine/state.ts';
import type { Fixture } from '../../../schemas/generated/types/chat/fixture.ts';

/**
 * Who sends a request: one user of each role and kind, someone deactivated, and callers with
 * no, wrong or broken credentials. Each maps to an Authorization header (or none).
 */
export const ACTORS = [
  'owner',
  'admin',
  'moderator',
  'member',
  'other_member',
  'guest',
  'bot',
  'webhook_bot',
  'outgoing_bot',
  'system_bot',
  'deactivated',
  'deactivated_bot',
  'anonymous',
  'wrong_key',
  'unknown_email',
  'malformed_header',
  'bearer',
] as const;
export type Actor = (typeof ACTORS)[number];

/** The dev realm's users behind the actors that are someone (the accounts of Zulip's zilencer/management/commands/populate_db.py). */
const ACTOR_EMAILS: Partial<Record<Actor, string>> = {
  owner: 'desdemona@zulip.com',
  admin: 'iago@zulip.com',
  moderator: 'shiva@zulip.com',
  member: 'hamlet@zulip.com',
  other_member: 'cordelia@zulip.com',
  guest: 'polonius@zulip.com',
  bot: 'default-bot@zulip.com',
  webhook_bot: 'webhook-bot@zulip.com',
  outgoing_bot: 'outgoing-webhook@zulip.com',
  system_bot: 'welcome-bot@zulip.com',
  deactivated: 'prospero@zulip.com',
};

/** The bot the fuzzer creates for Othello and then deactivates, so a deactivated bot exists. */
const DEACTIVATED_BOT = { full_name: 'Retired bot', short_name: 'retired' };

/** Values taken from the prepared realm, so that generated requests name things that exist. */
export interface Pools {
  userIds: number[];
  emails: string[];
  streamIds: number[];
  streamNames: string[];
  topics: string[];
  messageIds: number[];
  groupIds: number[];
  groupNames: string[];
  emojiNames: string[];
  profileFieldIds: number[];
  uploadPaths: string[];
  /** One past the largest id of any kind: ids a sequence creates stay below it plus a little. */
  idCeiling: number;
  /** Unix seconds when a sequence starts (its clock then moves a second per reading). */
  now: number;
}

export interface Answer {
  response: RawResponse;
  /** The exception behind a 500, when the dispatcher caught one. */
  unexpected: unknown;
  /** The route whose handler ran, and the user it ran for as they were then; undefined when none ran. */
  handled: { route: Route; user: Pick<UserRecord, 'id' | 'delivery_email' | 'is_active' | 'is_bot' | 'is_system_bot'> | undefined } | undefined;
}

export interface World {
  readonly fixture: Fixture;
  readonly routes: readonly Route[];
  readonly pools: Pools;
  /** The ids a fresh realm gives its first event queues, in order (GET /events can then name them). */
  readonly queueIds: readonly string[];
  /** The engine requests run against now (replaced by `fresh()`). */
  readonly engine: Engine;
  /** Start a sequence: a clone of the prepared realm with its own clock and random source. */
  fresh(): Engine;
  /** The Authorization header an actor sends, or undefined for none. */
  authorization(actor: Actor): string | undefined;
  /** The user an actor's credentials name, whether or not they are valid now. */
  actorUserId(actor: Actor): number | undefined;
  /** One request through the dispatcher, in process. */
  send(req: RawRequest): Promise<Answer>;
  /** The same through a real HTTP server on 127.0.0.1 (started on first use). */
  sendHttp(req: RawRequest): Promise<Answer>;
  close(): Promise<void>;
}

export interface WorldOptions {
  seed?: number;
  fixture?: Fixture;
  routes?: readonly Route[];
}

function latestTimestamp(fixture: Fixture): number {
  let latest = fixture.realm.date_created ?? 1_700_000_000;
  for (const m of fixture.messages) latest = Math.max(latest, m.timestamp);
  return Math.floor(latest);
}

export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const fixture = options.fixture ?? DEFAULT_FIXTURE;
  const routes = options.routes ?? tableRoutes;
  const seed = options.seed ?? 0;
  const setupClock = steppingClock(latestTimestamp(fixture) + 3600, 1);
  const prepared = createEngine(fixture, { seed, clock: setupClock });
  let engine = prepared;
  let unexpected: unknown;
  let handled: Answer['handled'];
  const handle: Handle = createDispatcher(() => engine, routes, {
    longPollTimeoutMs: () => 0,
    onUnexpectedError: (error) => {
      unexpected = error;
    },
    onHandled: (route, user) => {
      handled = { route, user: user && { id: user.id, delivery_email: user.delivery_email, is_active: user.is_active, is_bot: user.is_bot, is_system_bot: user.is_system_bot } };
    },
  });
  const keys = new Map<number, string>();
  const userIdByEmail = (email: string): number => {
    const id = prepared.state.usersByEmail.get(email);
    if (id === undefined) throw new Error(`the fuzz fixture has no ${email}`);
    return id;
  };
  const send = async (req: RawRequest): Promise<Answer> => {
    unexpected = undefined;
    handled = undefined;
    const response = await handle(req);
    return { response, unexpected, handled };
  };
  const asUser = (email: string): string => {
    const user = prepared.state.users.get(userIdByEmail(email))!;
    return basicAuth(user.delivery_email, user.api_key);
  };
  const setup = async (method: string, path: string, as: string, body: Record<string, string> = {}): Promise<Record<string, unknown>> => {
    const { response } = await send({
      method,
      url: `/api/v1${path}`,
      headers: { authorization: asUser(as), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    if (response.status !== 200) throw new Error(`fuzz setup ${method} ${path} failed: ${response.body}`);
    return JSON.parse(response.body) as Record<string, unknown>;
  };

  // The deactivated bot belongs to Othello, who stays active; Prospero is deactivated himself.
  const bot = await setup('POST', '/bots', 'othello@zulip.com', DEACTIVATED_BOT);
  const botId = bot.user_id as number;
  await setup('DELETE', `/bots/${botId}`, 'othello@zulip.com');
  await setup('DELETE', `/users/${userIdByEmail(ACTOR_EMAILS.deactivated!)}`, ACTOR_EMAILS.admin!);
  for (const user of prepared.state.users.values()) keys.set(user.id, user.api_key);
  const start = setupClock.now() + 60;

  const actorIds: Partial<Record<Actor, number>> = { deactivated_bot: botId };
  for (const [actor, email] of Object.entries(ACTOR_EMAILS)) actorIds[actor as Actor] = userIdByEmail(email);

  let server: Listening | undefined;
  let agent: import('node:http').Agent | undefined;
  let agentEngine: Engine | undefined;

  const queueIds: string[] = [];
  const world: World = {
    fixture,
    routes,
    pools: poolsOf(prepared, start),
    queueIds,
    get engine() {
      return engine;
    },
    fresh() {
      const previous = engine;
      const clock = simulatedClock(steppingClock(start, 1));
      const next = { state: structuredClone(prepared.state), deps: { clock, random: seededRandom(`${seed}/fuzz`) }, caches: createEngineCaches() } as Engine;
      next.queues = createEventQueues(next, seed);
      engine = next;
      if (previous !== prepared) closeAllQueues(previous);
      return next;
    },
    authorization(actor) {
      const id = actorIds[actor];
      if (id !== undefined) {
        const user = prepared.state.users.get(id)!;
        return basicAuth(user.delivery_email, keys.get(id)!);
      }
      switch (actor) {
        case 'anonymous':
          return undefined;
        case 'wrong_key':
          return basicAuth(ACTOR_EMAILS.member!, 'x'.repeat(32));
        case 'unknown_email':
          return basicAuth('nobody@zulip.com', keys.get(actorIds.member!)!);
        case 'malformed_header':
          return 'Basic not-base64!';
        case 'bearer':
          return `Bearer ${keys.get(actorIds.member!)}`;
        default:
          throw new Error(`no credentials for ${actor}`);
      }
    },
    actorUserId(actor) {
      return actorIds[actor];
    },
    send,
    async sendHttp(req) {
      if (!server) server = await listenHttp(handle, 0, '127.0.0.1');
      // One keep-alive connection per sequence: an idle one kept between sequences may be closed
      // by the server (its keep-alive timeout) just as the next request goes out on it.
      if (!agent || agentEngine !== engine) {
        agent?.destroy();
        agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
        agentEngine = engine;
      }
      unexpected = undefined;
      handled = undefined;
      const response = await overHttp(server.port, agent, req);
      return { response, unexpected, handled };
    },
    async close() {
      if (engine !== prepared) closeAllQueues(engine);
      agent?.destroy();
      await server?.close();
    },
  };
  // Queue ids come from a seeded source that every fresh realm restarts: the first few are known.
  world.fresh();
  for (let i = 0; i < 3; i++) queueIds.push((await setup('POST', '/register', ACTOR_EMAILS.member!)).queue_id as string);
  return world;
}

function poolsOf(engine: Engine, now: number): Pools {
  const s = engine.state;
  const topics = new Set<string>();
  for (const m of s.messages.messages) if (m.streamId !== null) topics.add(m.topic);
  const ids = [
    ...s.users.keys(),
    ...s.streams.keys(),
    ...s.userGroups.keys(),
    ...s.messages.messages.map((m) => m.id),
    ...s.attachments.keys(),
  ];
  return {
    userIds: [...s.users.keys()],
    emails: [...s.users.values()].flatMap((u) => (u.email === u.delivery_email ? [u.email] : [u.email, u.delivery_email])),
    streamIds: [...s.streams.keys()],
    streamNames: [...s.streams.values()].map((c) => c.name),
    topics: [...topics],
    messageIds: s.messages.messages.map((m) => m.id),
    groupIds: [...s.userGroups.keys()],
    groupNames: [...s.userGroups.values()].map((g) => g.name),
    emojiNames: ['smile', '+1', 'heart', 'zulip', 'octopus', ...s.realm.emoji.keys()].map((k) => s.realm.emoji.get(k)?.name ?? k),
    profileFieldIds: s.realm.custom_profile_fields.map((f) => f.id),
    uploadPaths: [...s.attachments.values()].map((a) => a.pathId),
    idCeiling: Math.max(...ids) + 1,
    now: Math.floor(now),
  };
}

/** One request over a real socket; the answer read back into the dispatcher's shape. */
async function overHttp(port: number, agent: import('node:http').Agent, req: RawRequest): Promise<RawResponse> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    if (body !== undefined) headers['content-length'] = String(body.length);
    const outgoing = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
        const type = out['content-type'] ?? '';
        const text = type.startsWith('application/json') || type.startsWith('text/') || bytes.length === 0;
        resolve({ status: res.statusCode ?? 0, headers: out, body: text ? bytes.toString('utf8') : '', ...(text ? {} : { bytes }) });
      });
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
