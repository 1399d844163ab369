/**
 * The simulator's fuzzer (scripts/fuzz/chat/): a seeded sample of it, and the fuzzer's own
 * behaviour: it reaches every route of the table, its invariants catch what they guard, and a
 * failure comes back shrunk to a minimal sequence that replays. Long runs: `npm run fuzz`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCampaign } from '../../scripts/fuzz/chat/campaign.ts';
import { responseProblems, startTracking, stateProblems } from '../../scripts/fuzz/chat/invariants.ts';
import { requestSpace, type FuzzRequest } from '../../scripts/fuzz/chat/requests.ts';
import { runSequence, type Sequence } from '../../scripts/fuzz/chat/run.ts';
import { createWorld, type World } from '../../scripts/fuzz/chat/world.ts';
import { routes } from '../../simulator/index.ts';
import type { Route } from '../../simulator/http/route.ts';
import { ID } from './helpers.ts';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => {
  await world.close();
});

it('a seeded sample: a few hundred requests, in process and over HTTP, break no invariant', async () => {
  const result = await runCampaign(world, { runs: 60, seed: 20_261_126, chunk: 60, maxLength: 12, httpShare: 0.1, auditShare: 0.3 });
  expect(result.found.map((f) => `${f.report}\nReplay: npm run fuzz -- --seed ${f.replay.seed} --path ${f.replay.path}`)).toEqual([]);
  expect(result.requests).toBeGreaterThan(200);
  expect(result.coverage.statuses.get(200)).toBeGreaterThan(20);
});

it('the same seed sends the same requests and gets the same answers', async () => {
  const once = await runCampaign(world, { runs: 15, seed: 99, chunk: 15 });
  const again = await runCampaign(world, { runs: 15, seed: 99, chunk: 15 });
  expect(again.requests).toBe(once.requests);
  expect([...again.coverage.statuses]).toEqual([...once.coverage.statuses]);
  expect([...again.coverage.routes]).toEqual([...once.coverage.routes]);
});

it('requests are generated for every route of the table, new ones included', () => {
  const space = requestSpace(world.routes, world.pools, world.queueIds);
  const made = new Set(fc.sample(space.request, { numRuns: 20_000, seed: 3 }).map((r) => r.route));
  expect(routes.map((r) => `${r.method} ${r.path}`).filter((label) => !made.has(label))).toEqual([]);
});

describe('the invariants catch what they guard', () => {
  const breakages: [string, (w: World) => void, RegExp][] = [
    ['a subscription to a channel that is gone', (w) => w.engine.state.streams.delete(3), /subscribed to channel 3, which does not exist/],
    ['an API key index that still knows an old key', (w) => w.engine.state.usersByApiKey.set('x'.repeat(32), ID.hamlet), /stale key still names user 10/],
    ['a group member who does not exist', (w) => w.engine.state.userGroups.values().next().value!.members.add(999), /member 999, who does not exist/],
    ['a role group that does not follow the role', (w) => (w.engine.state.users.get(ID.hamlet)!.role = 200), /user 10 \(role 200\) is not a direct member of role:administrators/],
    ['a message id that goes backwards', (w) => w.engine.state.messages.messages.reverse(), /stored after message/],
    ['a channel index that lost a message', (w) => w.engine.state.messages.byStream.get(w.engine.state.messages.messages[0]!.streamId!)!.shift(), /index byStream/],
  ];
  it.each(breakages)('%s', (_name, breakIt, expected) => {
    world.fresh();
    const tracker = startTracking(world.engine);
    expect(stateProblems(world.engine, tracker)).toEqual([]);
    breakIt(world);
    expect(stateProblems(world.engine, tracker).join('\n')).toMatch(expected);
  });

  it('a new message must have an id above every id seen, deleted ones included', () => {
    world.fresh();
    const tracker = startTracking(world.engine);
    const store = world.engine.state.messages;
    const newest = store.messages.pop()!;
    expect(stateProblems(world.engine, tracker).filter((p) => p.includes('id above'))).toEqual([]);
    store.messages.push(newest);
    expect(stateProblems(world.engine, tracker).join('\n')).toMatch(`new message ${newest.id} does not have an id above ${newest.id}`);
  });

  const request: FuzzRequest = { route: 'GET /users/me', actor: 'member', method: 'GET', path: '/api/v1/users/me', encoding: 'query', fields: [], files: [], headers: {} };
  const json = { 'content-type': 'application/json' };
  it.each([
    ['a 500', { status: 500, headers: json, body: '{"result":"error","msg":"Internal server error"}' }, /answered 500/],
    ['an error without a code', { status: 400, headers: json, body: '{"result":"error","msg":"No"}' }, /error without a code/],
    ['an error without a msg', { status: 400, headers: json, body: '{"result":"error","msg":"","code":"BAD_REQUEST"}' }, /error without a msg/],
    ['a success that says error', { status: 200, headers: json, body: '{"result":"error","msg":""}' }, /200 without result "success"/],
    ['HTML from the API', { status: 404, headers: { 'content-type': 'text/html' }, body: '<p>Not found</p>' }, /not Zulip's JSON envelope/],
    ['JSON that does not parse', { status: 200, headers: json, body: '{"result":' }, /not a JSON object/],
  ])('%s', (_name, response, expected) => {
    expect(responseProblems(request, response, world.engine).join('\n')).toMatch(expected);
  });

  // What ignored_parameters_unsupported may list: never a declared form parameter, but a text
  // field named like a declared file (Zulip reads files from request.FILES only).
  const route = (method: string, path: string) => world.routes.find((r) => r.method === method && r.path === path)!;
  const ignoring = (names: string[]) => ({ status: 200, headers: json, body: JSON.stringify({ result: 'success', msg: '', ignored_parameters_unsupported: names }) });
  it('a declared parameter reported as ignored', () => {
    expect(responseProblems(request, ignoring(['content']), world.engine, route('POST', '/messages')).join('\n')).toMatch(
      /ignored_parameters_unsupported lists content, which POST \/messages declares/,
    );
  });
  it('a text field named like the file is not a declared parameter', () => {
    expect(responseProblems(request, ignoring(['file']), world.engine, route('POST', '/user_uploads'))).toEqual([]);
  });
});

describe('a failure', () => {
  /** A route that crashes when an administrator sends it `trap`: the fuzzer must find, shrink and replay it. */
  const trap: Route = {
    method: 'POST',
    path: '/fuzz_trap',
    auth: 'admin',
    params: [{ name: 'trap', type: 'int' }],
    handler: ({ params }) => {
      if (params.trap !== undefined) throw new TypeError('the trap went off');
      return {};
    },
  };
  let trapped: World;
  beforeAll(async () => {
    trapped = await createWorld({ routes: [...routes, trap] });
  });
  afterAll(async () => {
    await trapped.close();
  });

  it('is shrunk to the one request that breaks it, with the exception, and replays from its seed and path', async () => {
    const result = await runCampaign(trapped, { runs: 3000, seed: 5, chunk: 3000 });
    // The path may come in with its first letter percent-encoded (a mutation the fuzzer makes), which routes the same.
    expect(result.found).toHaveLength(1);
    const [found] = result.found;
    expect(found!.signature).toBe('POST /fuzz_trap: answered N');
    expect(found!.report).toMatch(/^ {2}1\. POST \/(api|%61pi)\/v1\/fuzz_trap {2}as (owner|admin) {2}\[\w+\] {2}trap="\d+"  \(from POST \/fuzz_trap\)$/m);
    expect(found!.report).not.toMatch(/^ {2}2\./m);
    expect(found!.report).toContain('TypeError: the trap went off');
    const replay = await runCampaign(trapped, { runs: 1, seed: found!.replay.seed, path: found!.replay.path });
    expect(replay.found.map((f) => f.report)).toEqual([found!.report]);
  });

  it('stops the sequence at the request that broke something', async () => {
    const sequence: Sequence = {
      http: false,
      audit: false,
      requests: [
        { route: 'POST /fuzz_trap', actor: 'admin', method: 'POST', path: '/api/v1/fuzz_trap', encoding: 'form', fields: [{ name: 'trap', value: '1' }], files: [], headers: {} },
        { route: 'GET /users/me', actor: 'member', method: 'GET', path: '/api/v1/users/me', encoding: 'query', fields: [], files: [], headers: {} },
      ],
    };
    const result = await runSequence(trapped, sequence);
    expect(result.sent).toBe(1);
    expect(result.failure?.problems).toEqual(['answered 500']);
  });
});
