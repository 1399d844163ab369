// The control API's additions for the live console: the journal's live feed (a long-poll that
// answers when a request completes, in completion order), rate limits switched at run time, and
// the live watcher named by id.
import { describe, expect, it } from 'vitest';
import { CONTROL_PREFIX, createSimulator, fixedClock, type Simulator } from '../../../simulator/index.ts';

const T = 1_700_300_000;
const fresh = () => createSimulator({ seed: 9, clock: fixedClock(T) });
const feed = (s: Simulator, query: string) => s.request({ method: 'GET', path: `${CONTROL_PREFIX}/journal/feed${query}` });
const send = (s: Simulator, content: string) =>
  s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 'feed', content } });

describe('GET /__simulator/journal/feed', () => {
  it('without a cursor answers the latest entries at once, with the cursor, the clock and wall-clock completion times', async () => {
    const s = fresh();
    await send(s, 'one');
    await send(s, 'two');
    const res = await feed(s, '?limit=1');
    expect(res.status).toBe(200);
    expect(res.body.cursor).toBe(2);
    expect(res.body.entries.map((e: { seq: number; route: string }) => [e.seq, e.route])).toEqual([[2, 'POST /messages']]);
    expect(res.body.completed_at).toHaveLength(1);
    expect(res.body.clock).toEqual({ now: T, following_real_time: false });
    expect(res.body.control_changes).toBe(0);
  });

  it('with a cursor waits for the next completion and answers it', async () => {
    const s = fresh();
    const first = await feed(s, '');
    expect(first.body).toMatchObject({ cursor: 0, entries: [] });
    const waiting = feed(s, `?cursor=${first.body.cursor}&wait_ms=10000`);
    let answered = false;
    void waiting.then(() => (answered = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    await send(s, 'wakes the feed');
    const next = await waiting;
    expect(next.body.cursor).toBe(1);
    expect(next.body.entries).toHaveLength(1);
    expect(next.body.entries[0].request.body).toContain('wakes+the+feed');
  });

  it('follows completion order: a long-poll that arrived first is delivered when it completes', async () => {
    const s = fresh();
    const reg = await s.request({ method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com', body: { event_types: '["message"]' } });
    const start = (await feed(s, '')).body.cursor as number;
    const poll = s.request({ method: 'GET', path: '/api/v1/events', as: 'hamlet@zulip.com', query: { queue_id: reg.body.queue_id, last_event_id: '-1' } });
    await send(s, 'answers the poll');
    await poll;
    const page = await feed(s, `?cursor=${start}&wait_ms=0`);
    expect(page.body.entries.map((e: { route: string }) => e.route)).toEqual(['POST /messages', 'GET /events']);
  });

  it('wakes for a change made through the control API, and counts it', async () => {
    const s = fresh();
    const { cursor } = (await feed(s, '')).body;
    const waiting = feed(s, `?cursor=${cursor}&wait_ms=10000`);
    await s.request({ method: 'POST', path: `${CONTROL_PREFIX}/faults`, json: { latency_ms: 0 } });
    expect((await waiting).body).toMatchObject({ cursor, entries: [], control_changes: 1 });
  });

  it('answers after wait_ms with nothing new', async () => {
    const s = fresh();
    const { cursor } = (await feed(s, '')).body;
    expect((await feed(s, `?cursor=${cursor}&wait_ms=5`)).body).toMatchObject({ cursor, entries: [] });
  });

  it.each(['?cursor=x', '?limit=0', '?wait_ms=-1'])('refuses %s with 400', async (query) => {
    const res = await feed(fresh(), query);
    expect([res.status, res.body.code]).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('/__simulator/rate-limit', () => {
  it("is off by default; on, Zulip's limits apply with their headers; off again, they do not", async () => {
    const s = fresh();
    const get = () => s.request({ method: 'GET', path: `${CONTROL_PREFIX}/rate-limit` });
    const set = (enabled: boolean) => s.request({ method: 'PUT', path: `${CONTROL_PREFIX}/rate-limit`, json: { enabled } });
    expect((await get()).body).toEqual({ enabled: false });
    expect((await send(s, 'free')).headers['X-RateLimit-Limit']).toBeUndefined();
    expect((await set(true)).body).toEqual({ enabled: true });
    const limited = await send(s, 'counted');
    expect([limited.status, limited.headers['X-RateLimit-Limit'], limited.headers['X-RateLimit-Remaining']]).toEqual([200, '200', '199']);
    expect((await set(false)).body).toEqual({ enabled: false });
    expect((await send(s, 'free again')).headers['X-RateLimit-Limit']).toBeUndefined();
  });

  it('refuses a body that is not {enabled: boolean}', async () => {
    const res = await fresh().request({ method: 'PUT', path: `${CONTROL_PREFIX}/rate-limit`, json: { enabled: 'yes' } });
    expect([res.status, res.body.code]).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('GET /__simulator/live/watcher?as=', () => {
  it('takes a user id as well as an email', async () => {
    const s = fresh();
    const res = await s.request({ method: 'GET', path: `${CONTROL_PREFIX}/live/watcher`, query: { as: '10' } });
    expect([res.status, res.body.user_id, res.body.email]).toEqual([200, 10, 'hamlet@zulip.com']);
    const none = await s.request({ method: 'GET', path: `${CONTROL_PREFIX}/live/watcher`, query: { as: '999' } });
    expect([none.status, none.body.msg]).toEqual([404, 'No active user with the id "999" to watch as']);
  });
});
