/**
 * The dispatcher remembers what each Authorization header says (its username and key), never
 * whether they are right: a header that worked stops working the moment its key is replaced, its
 * account deactivated, or the state it was valid in is reset or restored away, and works again
 * when the state that made it valid comes back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, createCredentialsReader, parseBasicAuth } from '../../simulator/http/auth.ts';
import { basicAuth, type Simulator } from '../../simulator/index.ts';
import { ID, sim } from './helpers.ts';

const BOT = 'default-bot@zulip.com';

/** GET /users/me with `authorization` as sent: the status, and the user's id or the refusal's message. */
async function whoAmI(s: Simulator, authorization: string): Promise<[number, number | string]> {
  const res = await s.handle({ method: 'GET', url: '/api/v1/users/me', headers: { authorization } });
  const body = JSON.parse(res.body) as { msg: string; user_id?: number };
  return [res.status, res.status === 200 ? body.user_id! : body.msg];
}

function botHeader(s: Simulator): string {
  return basicAuth(BOT, s.engine.state.users.get(ID.defaultBot)!.api_key);
}

/** The bot's owner asks for a new key: the header that carried the old one is the one returned. */
async function regenerateBotKey(s: Simulator): Promise<string> {
  const res = await s.request({ method: 'POST', path: `/api/v1/bots/${ID.defaultBot}/api_key/regenerate`, as: ID.desdemona });
  expect(res.status).toBe(200);
  return basicAuth(BOT, (res.body as { api_key: string }).api_key);
}

const REFUSED: [number, number | string] = [401, 'Invalid API key'];

describe('a remembered Authorization header is judged afresh on every request', () => {
  it('stops working when its key is regenerated; the new key works at once', async () => {
    const s = sim();
    const old = botHeader(s);
    expect(await whoAmI(s, old)).toEqual([200, ID.defaultBot]);
    const renewed = await regenerateBotKey(s);
    expect(await whoAmI(s, old)).toEqual(REFUSED);
    expect(await whoAmI(s, renewed)).toEqual([200, ID.defaultBot]);
  });

  it('stops working while its account is deactivated, and works again once it is reactivated', async () => {
    const s = sim();
    const hamlet = basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key);
    expect(await whoAmI(s, hamlet)).toEqual([200, ID.hamlet]);
    expect((await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.hamlet}`, as: ID.iago })).status).toBe(200);
    expect(await whoAmI(s, hamlet)).toEqual([401, 'Account is deactivated']);
    expect((await s.request({ method: 'POST', path: `/api/v1/users/${ID.hamlet}/reactivate`, as: ID.iago })).status).toBe(200);
    expect(await whoAmI(s, hamlet)).toEqual([200, ID.hamlet]);
  });

  it('follows a restored snapshot: the key it holds works, the one made after it does not', async () => {
    const s = sim();
    const before = botHeader(s);
    const snapshot = s.snapshot();
    const renewed = await regenerateBotKey(s);
    expect(await whoAmI(s, renewed)).toEqual([200, ID.defaultBot]);
    s.restore(snapshot);
    expect(await whoAmI(s, renewed)).toEqual(REFUSED);
    expect(await whoAmI(s, before)).toEqual([200, ID.defaultBot]);
  });

  it('follows a reset: the fixture key works again, the regenerated one no longer', async () => {
    const s = sim();
    const fixtureKey = botHeader(s);
    const renewed = await regenerateBotKey(s);
    expect(await whoAmI(s, fixtureKey)).toEqual(REFUSED);
    s.reset();
    expect(await whoAmI(s, renewed)).toEqual(REFUSED);
    expect(await whoAmI(s, fixtureKey)).toEqual([200, ID.defaultBot]);
  });
});

/** What reading a header gives: the credentials, or the refusal's message. */
function outcome(read: (header: string) => unknown, header: string): unknown {
  try {
    return { credentials: read(header) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe('a credentials reader', () => {
  const key = 'abcdefghijklmnopqrstuvwxyz012345';
  const headers = [
    basicAuth('hamlet@zulip.com', key),
    basicAuth('iago@zulip.com', key),
    basicAuth('iago@zulip.com', key.toUpperCase()),
    basicAuth('hamlet@zulip.com', 'short'),
    `Basic ${Buffer.from('no-colon').toString('base64')}`,
    'Bearer token',
    '',
  ];

  it('reads every header as parseBasicAuth does, whatever it remembers and forgets on the way', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(fc.oneof(fc.constantFrom(...headers), fc.string()), { maxLength: 40 }), (limit, sent) => {
        const read = createCredentialsReader(limit);
        for (const header of sent) expect(outcome(read, header)).toEqual(outcome(parseBasicAuth, header));
      }),
    );
  });
});

describe('constantTimeEqual', () => {
  it('says two secrets are equal exactly when they are the same text, whatever their lengths and characters (property)', () => {
    // Short alphabets make equal and nearly equal pairs common; full Unicode covers astral characters.
    const text = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀'), maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
    fc.assert(
      fc.property(text, text, (expected, given) => {
        expect(constantTimeEqual(expected, given)).toBe(expected === given);
        expect(constantTimeEqual(expected, expected)).toBe(true);
      }),
    );
  });

  it('tells apart secrets that differ only in their last character or their length', () => {
    const key = 'x'.repeat(31) + 'a';
    expect([constantTimeEqual(key, key), constantTimeEqual(key, 'x'.repeat(31) + 'b'), constantTimeEqual(key, key + 'a'), constantTimeEqual(key, ''), constantTimeEqual('', '')]).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
  });
});
