/** Fixture validation (schema + cross-references) and determinism per seed. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE, FixtureError, createSimulator, fixedClock } from '../../simulator/index.ts';
import { validateFixture } from '../../simulator/engine/fixture.ts';
import { ERROR_CODES } from '../../simulator/engine/errors.ts';
import envelopeSchema from '../../schemas/chat/envelope.schema.json' with { type: 'json' };
import { ID, devFixture, sim } from './helpers.ts';

function problemsOf(mutate: (f: ReturnType<typeof devFixture>) => void): string {
  const fixture = devFixture();
  mutate(fixture);
  try {
    sim({ fixture });
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return (error as Error).message;
  }
  throw new Error('fixture was accepted');
}

describe('the built-in fixture', () => {
  // createSimulator() skips validating it, which is right only while both hold.
  it('is valid', () => {
    expect(validateFixture(structuredClone(DEFAULT_FIXTURE))).toEqual(DEFAULT_FIXTURE);
    expect(() => validateFixture(DEFAULT_FIXTURE)).not.toThrow();
  });

  it('cannot be changed, at any depth', () => {
    const unfrozen: string[] = [];
    const walk = (value: unknown, pointer: string): void => {
      if (value === null || typeof value !== 'object') return;
      if (!Object.isFrozen(value)) unfrozen.push(pointer || '/');
      for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k}`);
    };
    walk(DEFAULT_FIXTURE, '');
    expect(unfrozen).toEqual([]);
    expect(() => {
      (DEFAULT_FIXTURE.users[0] as { full_name: string }).full_name = 'changed';
    }).toThrow(TypeError);
  });
});

describe('fixture validation', () => {
  const rows: [string, (f: ReturnType<typeof devFixture>) => void, string][] = [
    ['unknown property', (f) => Object.assign(f.realm, { colour: 'red' }), '/realm: unknown property "colour"'],
    ['bad role', (f) => Object.assign(f.users[6]!, { role: 'king' }), '/users/6/role: must be one of'],
    ['duplicate user id', (f) => Object.assign(f.users[6]!, { id: 6 }), '/users/6/id: duplicate user id 6'],
    ['duplicate email (case-insensitive)', (f) => Object.assign(f.users[6]!, { email: 'aaron@zulip.com' }), '/users/6/email: duplicate email aaron@zulip.com'],
    ['unknown bot owner', (f) => Object.assign(f.users[15]!, { bot_owner: 'ghost@zulip.com' }), '/users/15/bot_owner: no user with email ghost@zulip.com'],
    ['unknown subscriber', (f) => f.streams[0]!.subscribers!.push('ghost@zulip.com'), '/streams/0/subscribers/'],
    ['duplicate channel name', (f) => Object.assign(f.streams[1]!, { name: 'zulip' }), '/streams/1/name: duplicate channel name zulip'],
    ['unknown default channel', (f) => f.realm.default_streams!.push('Atlantis'), '/realm/default_streams/1: no channel named Atlantis'],
    ['no owner', (f) => Object.assign(f.users.find((u) => u.role === 'owner')!, { role: 'member' }), '/users: the realm needs at least one active human owner'],
    ['message to both forms', (f) => f.messages.splice(0, f.messages.length, { sender: 'hamlet@zulip.com', channel: 'Verona', topic: 't', to: ['iago@zulip.com'], content: 'x', timestamp: 1 } as never), '/messages/0'],
  ];
  it.each(rows)('%s', (_name, mutate, expected) => {
    expect(problemsOf(mutate)).toContain(expected);
  });

  it('names the file when loading from disk', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sim-fixture-'));
    try {
      const file = path.join(dir, 'broken.json');
      await writeFile(file, '{"realm": {}, "users": [], "streams": [], "messages": []}');
      expect(() => createSimulator({ fixture: file })).toThrow(/Invalid fixture .*broken\.json:\n {2}\/realm: must have required property 'string_id'/);
      await writeFile(file, '{ not json');
      expect(() => createSimulator({ fixture: file })).toThrow(/broken\.json[\s\S]*cannot read JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('determinism', () => {
  const script = [
    { method: 'GET', path: '/api/v1/users', as: ID.iago },
    { method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: [{ name: 'new' }], principals: [ID.othello] } },
    { method: 'GET', path: '/api/v1/streams/9/email_address', as: ID.hamlet },
    { method: 'POST', path: '/api/v1/dev_fetch_api_key', body: { username: 'hamlet@zulip.com' } },
    { method: 'GET', path: '/api/v1/streams', as: ID.othello, query: { include_all: true } },
  ];

  async function run(seed: number) {
    const s = createSimulator({ seed, clock: fixedClock(1_700_100_000) });
    const out = [];
    for (const req of script) out.push(await s.request(req));
    return { responses: out, snapshot: JSON.stringify(s.snapshot()) };
  }

  it('gives identical responses and state for the same seed', async () => {
    const [a, b] = [await run(7), await run(7)];
    expect(a.responses).toEqual(b.responses);
    expect(a.snapshot).toBe(b.snapshot);
  });

  it('gives different secrets for a different seed', async () => {
    const [a, b] = [await run(7), await run(8)];
    expect(a.responses[3]!.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(a.responses[3]!.body.api_key).not.toBe(b.responses[3]!.body.api_key);
  });

  it('reset() returns to the fixture state', async () => {
    const s = sim();
    const before = JSON.stringify(s.snapshot());
    await s.request(script[1]!);
    expect(JSON.stringify(s.snapshot())).not.toBe(before);
    s.reset();
    expect(JSON.stringify(s.snapshot())).toBe(before);
  });
});

describe('error registry', () => {
  it('matches the envelope schema code enum (NOT_FOUND renders as BAD_REQUEST)', () => {
    const codes = Object.keys(ERROR_CODES).filter((c) => c !== 'NOT_FOUND').sort();
    expect(codes).toEqual([...envelopeSchema.definitions.ErrorEnvelope.properties.code.enum].sort());
  });
});
