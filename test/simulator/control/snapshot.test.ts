/**
 * Snapshots (simulator/control/snapshot.ts, codec.ts): the whole state as JSON and back. A state
 * that has been through every resource round-trips byte for byte, and the restored simulator
 * answers every request as the original does; a snapshot that cannot be restored is refused with
 * what is wrong, and the state stays as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../../simulator/control/codec.ts';
import { SNAPSHOT_VERSION, SnapshotError, createSimulator, fixedClock, routes, type Simulator } from '../../../simulator/index.ts';
import { exerciseEveryResource } from './scenario.ts';
import { stateShape } from './state-shape.ts';

const T = 1_700_200_000;
const fresh = () => createSimulator({ seed: 7, clock: fixedClock(T) });

/** A copy through JSON text, as a snapshot travels (a file, an HTTP body). */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A simulator's snapshot with its state and queues decoded (each is encoded on its own). */
function decoded(sim: Simulator): unknown {
  const snapshot = viaJson(sim.snapshot());
  return { ...snapshot, state: decode(snapshot.state), queues: decode(snapshot.queues) };
}

async function exercised(): Promise<{ s: Simulator; queueId: string }> {
  const s = fresh();
  const { queueId } = await exerciseEveryResource(s);
  return { s, queueId };
}

describe('codec', () => {
  const leaf = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.double(),
    fc.integer(),
    fc.uint8Array({ maxLength: 8 }),
  );
  const tree = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('map'), tie('set')),
    array: fc.array(tie('node'), { maxLength: 4 }),
    object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('$', '$ref', '~', '/', '__proto__x')), tie('node'), { maxKeys: 4 }),
    map: fc.array(fc.tuple(fc.oneof(fc.integer(), fc.string()), tie('node')), { maxLength: 4 }).map((entries) => new Map(entries)),
    set: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 4 }).map((values) => new Set(values)),
  }));

  it('decode(JSON(encode(x))) is x: Maps, Sets, bytes, undefined, NaN, ±Infinity, -0 and "$" keys included', () => {
    fc.assert(
      fc.property(tree.node, (value) => {
        expect(decode(viaJson(encode(value)))).toEqual(value);
      }),
      // A `__proto__` key is data like any other (fast-check found it losing the key once).
      { examples: [[{ $: { ['__proto__']: {} } }], [{ ['__proto__']: { a: 1 } }]] },
    );
  });

  it('an object held in two places is one object again after decoding', () => {
    const shared = { direct_members: [1], direct_subgroups: [] };
    const decoded = decode(viaJson(encode({ a: shared, b: new Map([[1, shared]]), c: [shared] }))) as {
      a: typeof shared;
      b: Map<number, typeof shared>;
      c: (typeof shared)[];
    };
    expect(decoded.b.get(1)).toBe(decoded.a);
    expect(decoded.c[0]).toBe(decoded.a);
    decoded.a.direct_members.push(2);
    expect(decoded.b.get(1)!.direct_members).toEqual([1, 2]);
  });

  it('refuses what is not data, naming where it is', () => {
    expect(() => encode({ users: new Map([[1, { callback: () => 1 }]]) })).toThrow('/users/entries/0/1/callback: a function is not data');
    expect(() => encode({ when: new Date(0) })).toThrow('/when: a Date instance is not data');
  });
});

describe('snapshot → restore → snapshot', () => {
  it('after a session touching every resource, every field of the state holds something', async () => {
    const { s } = await exercised();
    const empty = Object.entries(s.engine.state)
      .filter(([, v]) => (v instanceof Map || v instanceof Set ? v.size === 0 : Array.isArray(v) ? v.length === 0 : false))
      .map(([k]) => k);
    // A new state field needs a step in scenario.ts that fills it, so that this round trip covers it.
    expect(empty).toEqual([]);
  });

  it('is byte-identical, through JSON text, into another simulator', async () => {
    const { s } = await exercised();
    const text = JSON.stringify(s.snapshot());
    const other = fresh();
    other.restore(JSON.parse(text));
    expect(JSON.stringify(other.snapshot())).toBe(text);
  });

  it('a version 4 snapshot, which kept an index of message ids, restores to the same state', async () => {
    const { s } = await exercised();
    const current = viaJson(s.snapshot()) as Record<string, any>;
    const state = decode(current.state) as { messages: { messages: { id: number }[]; indexById?: Map<number, number> } };
    state.messages.indexById = new Map(state.messages.messages.map((m, i) => [m.id, i]));
    const other = fresh();
    other.restore(viaJson({ ...current, version: 4, state: encode(state) }));
    expect(JSON.stringify(other.snapshot())).toBe(JSON.stringify(current));
  });

  it('the restored simulator answers every request as the original does', async () => {
    const { s, queueId } = await exercised();
    const other = fresh();
    other.restore(viaJson(s.snapshot()));
    // Every GET route without path parameters, for a few users; then reads and writes that depend
    // on ids, queues and the random source (new API keys, invitation keys, queue ids).
    const reads = routes.filter((r) => r.method === 'GET' && !r.path.includes('{') && !r.outsideApi && r.auth !== 'bot' && !r.longPoll).map((r) => r.path);
    const requests: Parameters<Simulator['request']>[0][] = [];
    for (const as of ['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com']) {
      for (const path of reads) requests.push({ method: 'GET', path: `/api/v1${path}`, as });
    }
    requests.push(
      { method: 'GET', path: '/api/v1/events', as: 'iago@zulip.com', query: { queue_id: queueId, last_event_id: -1, dont_block: true } },
      { method: 'GET', path: '/api/v1/messages', as: 'othello@zulip.com', query: { anchor: 'newest', num_before: 100, num_after: 0 } },
      { method: 'GET', path: '/api/v1/bot_storage', as: 'default-bot@zulip.com' },
      { method: 'POST', path: '/api/v1/bots', as: 'hamlet@zulip.com', body: { full_name: 'After Restore', short_name: 'after' } },
      { method: 'POST', path: '/api/v1/invites/multiuse', as: 'iago@zulip.com', body: {} },
      { method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com', body: {} },
      { method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 'after', content: '@**Echo Hook II** again' } },
      { method: 'POST', path: '/api/v1/mobile_push/e2ee/test_notification', as: 'hamlet@zulip.com', body: {} },
    );
    const answers = async (sim: Simulator) => {
      const out: unknown[] = [];
      for (const req of requests) {
        const res = await sim.request(req);
        out.push([req.method, req.path, res.status, res.body]);
      }
      return out;
    };
    const expected = await answers(s);
    expect(await answers(other)).toEqual(expected);
    expect(other.outbox()).toEqual(s.outbox());
    // The same state (equal, if not written the same: what the original shares with a module's
    // constant, such as an empty narrow, the restored one holds as a copy).
    expect(decoded(other)).toEqual(decoded(s));
  });
});

describe('a snapshot that cannot be restored', () => {
  const refusals: [string, (snapshot: Record<string, any>) => unknown, string][] = [
    ['not an object', () => [1, 2], 'not a snapshot: expected a JSON object'],
    ['another format', (x) => ({ ...x, format: 'something/else' }), 'not a snapshot: "format" is "something/else", expected "team-chat-simulator/snapshot"'],
    ['another version', (x) => ({ ...x, version: SNAPSHOT_VERSION + 1 }), `snapshot format version ${SNAPSHOT_VERSION + 1}, but this simulator reads version ${SNAPSHOT_VERSION} (and 4) only`],
    ['a state field missing', (x) => ({ ...x, state: { ...x.state, drafts: undefined } }), 'state.drafts is missing'],
    ['a state field it does not know', (x) => ({ ...x, state: { ...x.state, gizmos: [] } }), 'state.gizmos is not a field this simulator knows'],
    ['a realm setting missing', (x) => ({ ...x, state: { ...x.state, realm: { ...x.state.realm, name: undefined } } }), 'state.realm.name is missing'],
    ['an unknown tag', (x) => ({ ...x, state: { ...x.state, users: { $: 'mapp', entries: [] } } }), '"state" /users: unknown tag "mapp"'],
    ['a broken reference', (x) => ({ ...x, queues: { $: 'ref', to: '/nowhere' } }), '"queues" (root): a ref must point ("to") at an object placed before it'],
    ['a bad random position', (x) => ({ ...x, random: [1, 2, 3] }), '"random" must be four 32-bit integers'],
  ];

  it.each(refusals)('%s: SnapshotError saying so, and the state is untouched', async (_name, spoil, message) => {
    const s = fresh();
    await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 't', content: 'kept' } });
    const before = JSON.stringify(s.snapshot());
    const bad = spoil(viaJson(fresh().snapshot()) as Record<string, any>);
    expect(() => s.restore(viaJson(bad))).toThrow(SnapshotError);
    expect(() => s.restore(viaJson(bad))).toThrow(message);
    expect(JSON.stringify(s.snapshot())).toBe(before);
  });
});

describe('the snapshot format version', () => {
  const file = new URL('../../fixtures/chat/state-shape.json', import.meta.url);

  it("changes whenever the state's shape does (UPDATE_STATE_SHAPE=1 records a new shape)", async () => {
    const { s } = await exercised();
    const shape = { version: SNAPSHOT_VERSION, paths: stateShape(s.engine.state) };
    if (process.env.UPDATE_STATE_SHAPE === '1') writeFileSync(file, `${JSON.stringify(shape, null, 1)}\n`);
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as typeof shape;
    const added = shape.paths.filter((p) => !recorded.paths.includes(p));
    const removed = recorded.paths.filter((p) => !shape.paths.includes(p));
    const changed = added.length > 0 || removed.length > 0;
    // Same version, other shape: bump SNAPSHOT_VERSION in simulator/control/snapshot.ts (older
    // snapshots and --state files are then refused with a clear error instead of misread), then
    // record the shape with UPDATE_STATE_SHAPE=1.
    expect({ version: SNAPSHOT_VERSION, bumped: recorded.version !== SNAPSHOT_VERSION, added, removed }).toEqual({
      version: recorded.version,
      bumped: false,
      added: [],
      removed: [],
    });
    expect(changed).toBe(false);
  });
});
