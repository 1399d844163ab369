/**
 * Routes commit nothing themselves: a handler returns the Outcome of what it did and the
 * dispatcher publishes its events once the handler has answered (Zulip's send_event_on_commit in
 * zerver/tornado/django_api.py: a request's events go out when its transaction commits, and a
 * failing request sends none).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commit } from '../../simulator/engine/core.ts';
import { ChatError } from '../../simulator/engine/errors.ts';
import { combineOutcomes, effect, outcome } from '../../simulator/engine/events/effects.ts';
import { defineRoute } from '../../simulator/http/define-route.ts';
import { createDispatcher } from '../../simulator/http/dispatch.ts';
import { Refusal, type Route } from '../../simulator/http/route.ts';
import { basicAuth, encodeForm, routes } from '../../simulator/index.ts';
import { ID, sim } from './helpers.ts';

/** An alert_words event to the caller: a real event type, so every queue takes it. */
const alertWords = (userId: number, word: string) => effect({ type: 'alert_words', alert_words: [word] }, [userId]);

const testRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/test/returns',
    auth: 'user',
    params: [{ name: 'word', type: 'string', required: true }],
    handler: ({ user, params }) => outcome({ said: params.word }, [alertWords(user.id, params.word)]),
  }),
  defineRoute({
    method: 'POST',
    path: '/test/returns_later',
    auth: 'user',
    params: [{ name: 'word', type: 'string', required: true }],
    handler: async ({ user, params }) => {
      await Promise.resolve();
      return outcome({ said: params.word }, [alertWords(user.id, params.word)]);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/test/two_actions',
    auth: 'user',
    params: [],
    handler: ({ user }) => combineOutcomes({}, outcome(1, [alertWords(user.id, 'first')]), outcome(2, [alertWords(user.id, 'second')])),
  }),
  defineRoute({
    method: 'POST',
    path: '/test/throws_after',
    auth: 'user',
    params: [],
    handler: ({ user }) => {
      const done = outcome({}, [alertWords(user.id, 'never')]);
      if (done.events.length > 0) throw ChatError.badRequest('Refused after the work');
      return done;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/test/refusal',
    auth: 'user',
    params: [],
    handler: ({ user }) => new Refusal(ChatError.badRequest('Refused, work kept'), outcome(null, [alertWords(user.id, 'kept')])),
  }),
  // The shape other branches still add: the handler commits itself and returns its fields.
  {
    method: 'POST',
    path: '/test/legacy',
    auth: 'user',
    params: [],
    handler: ({ engine, user }) => commit(engine, outcome({ legacy: true }, [alertWords(user!.id, 'legacy')])),
  },
];

function setup() {
  const s = sim();
  const handle = createDispatcher(() => s.engine, [...routes, ...testRoutes]);
  const auth = basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key);
  const post = async (path: string, body: Record<string, unknown> = {}) => {
    const res = await handle({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeForm(body),
    });
    return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
  };
  return { post, handle, auth };
}

/** A queue of hamlet's for alert_words, and a way to read what reached it. */
async function alertQueue(t: ReturnType<typeof setup>) {
  const reg = await t.post('/register', { event_types: JSON.stringify(['alert_words']) });
  expect(reg.status).toBe(200);
  const queueId = String(reg.body.queue_id);
  return async (): Promise<unknown[]> => {
    const res = await t.handle({
      method: 'GET',
      url: `/api/v1/events?queue_id=${queueId}&last_event_id=-1&dont_block=true`,
      headers: { authorization: t.auth },
    });
    const events = (JSON.parse(res.body) as { events: { type: string; alert_words?: string[] }[] }).events;
    return events.filter((e) => e.type === 'alert_words').map((e) => e.alert_words);
  };
}

describe('the dispatcher commits what a handler returns', () => {
  it.each([
    ['at once', '/test/returns'],
    ['from a promise', '/test/returns_later'],
  ])("a handler's Outcome %s: its events reach the queue, its value is the answer", async (_how, path) => {
    const t = setup();
    const read = await alertQueue(t);
    const res = await t.post(path, { word: 'pineapple' });
    expect(res).toEqual({ status: 200, body: { result: 'success', msg: '', said: 'pineapple' } });
    expect(await read()).toEqual([['pineapple']]);
  });

  it('combined outcomes publish every action, in the order they ran', async () => {
    const t = setup();
    const read = await alertQueue(t);
    expect((await t.post('/test/two_actions')).status).toBe(200);
    expect(await read()).toEqual([['first'], ['second']]);
  });

  it('a handler that throws after building its outcome publishes nothing', async () => {
    const t = setup();
    const read = await alertQueue(t);
    const res = await t.post('/test/throws_after');
    expect(res).toEqual({ status: 400, body: { result: 'error', msg: 'Refused after the work', code: 'BAD_REQUEST' } });
    expect(await read()).toEqual([]);
  });

  it('a Refusal publishes the work it keeps, then answers its error', async () => {
    const t = setup();
    const read = await alertQueue(t);
    const res = await t.post('/test/refusal');
    expect(res).toEqual({ status: 400, body: { result: 'error', msg: 'Refused, work kept', code: 'BAD_REQUEST' } });
    expect(await read()).toEqual([['kept']]);
  });

  it('a legacy handler that commits itself still works (and is not committed twice)', async () => {
    const t = setup();
    const read = await alertQueue(t);
    expect(await t.post('/test/legacy')).toEqual({ status: 200, body: { result: 'success', msg: '', legacy: true } });
    expect(await read()).toEqual([['legacy']]);
  });

  it('a real route: POST /users/me/alert_words returns its Outcome and its event reaches the queue', async () => {
    const t = setup();
    const read = await alertQueue(t);
    const res = await t.post('/users/me/alert_words', { alert_words: JSON.stringify(['mango']) });
    expect(res.status).toBe(200);
    expect(await read()).toEqual([['mango']]);
  });
});

describe('an answer is told from an Outcome by its shape', () => {
  it('no success schema has both a top-level `value` and `events` (isOutcome would mistake it)', () => {
    const dir = join(import.meta.dirname, '../../schemas/chat/responses');
    const both = readdirSync(dir)
      .filter((f) => f.endsWith('.schema.json'))
      .filter((f) => {
        const props = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { properties?: Record<string, unknown> }).properties ?? {};
        return 'value' in props && 'events' in props;
      });
    expect(both).toEqual([]);
  });
});
