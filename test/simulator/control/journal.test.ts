/**
 * The request journal (simulator/control/journal.ts): every request to the API and its answer,
 * in arrival order, filterable by route, user and status; in-process and at GET /__simulator/journal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createJournal, DEFAULT_JOURNAL_LIMITS, MAX_RECORDED_BODY_BYTES } from '../../../simulator/control/journal.ts';
import { CONTROL_PREFIX, createSimulator, fixedClock, type Simulator } from '../../../simulator/index.ts';

const T = 1_700_200_000;
const fresh = (options: Parameters<typeof createSimulator>[0] = {}) => createSimulator({ seed: 9, clock: fixedClock(T), ...options });
const send = (s: Simulator, as: string, topic: string, content: string) =>
  s.request({ method: 'POST', path: '/api/v1/messages', as, body: { type: 'stream', to: 'Denmark', topic, content } });

describe('what the journal records', () => {
  it('every request and its answer, in order, with the route reached and who sent it', async () => {
    const s = fresh();
    await send(s, 'default-bot@zulip.com', 'reports', 'Build passed');
    await s.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
    await s.request({ method: 'GET', path: '/api/v1/no/such/endpoint', as: 'hamlet@zulip.com' });
    await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: 'hamlet@zulip.com', password: 'nope' } });
    const entries = s.journal.entries();
    expect(entries.map((e) => [e.seq, e.method, e.url, e.route, e.user_email, e.response?.status, e.outcome])).toEqual([
      [1, 'POST', '/api/v1/messages', 'POST /messages', 'default-bot@zulip.com', 200, 'answered'],
      [2, 'GET', '/api/v1/users/me', 'GET /users/me', 'hamlet@zulip.com', 200, 'answered'],
      [3, 'GET', '/api/v1/no/such/endpoint', null, null, 404, 'answered'],
      [4, 'GET', '/api/v1/users/me', 'GET /users/me', null, 401, 'answered'],
    ]);
    const [first] = entries;
    expect(first!.request).toMatchObject({ body: 'type=stream&to=Denmark&topic=reports&content=Build+passed', body_encoding: 'utf8', body_truncated: false });
    expect(first!.request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(JSON.parse(first!.response!.body)).toMatchObject({ result: 'success', id: expect.any(Number) });
    expect(first!.user_id).toBe(16);
  });

  it('answers "the bot sent exactly one message to this topic"', async () => {
    const s = fresh();
    await send(s, 'default-bot@zulip.com', 'reports', 'one');
    await send(s, 'default-bot@zulip.com', 'other', 'two');
    await send(s, 'hamlet@zulip.com', 'reports', 'three');
    const sent = s.journal
      .entries({ route: 'POST /messages', user: 'default-bot@zulip.com', status: 200 })
      .filter((e) => new URLSearchParams(e.request.body).get('topic') === 'reports');
    expect(sent).toHaveLength(1);
  });

  it('filters by route (with or without the method), user (id or email, any case), status (or class), after and limit', async () => {
    const s = fresh();
    await send(s, 'hamlet@zulip.com', 't', 'a'); // 1
    await send(s, 'iago@zulip.com', 't', 'b'); // 2
    await s.request({ method: 'GET', path: '/api/v1/messages/1', as: 'iago@zulip.com' }); // 3
    await s.request({ method: 'DELETE', path: '/api/v1/messages/1', as: 'hamlet@zulip.com' }); // 4: 400, not his
    await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: 'x@zulip.com', password: 'y' } }); // 5: 401
    const seqs = (filter: Parameters<Simulator['journal']['entries']>[0]) => s.journal.entries(filter).map((e) => e.seq);
    expect(seqs({ route: 'POST /messages' })).toEqual([1, 2]);
    expect(seqs({ route: 'post  /messages' })).toEqual([1, 2]);
    expect(seqs({ route: '/messages/{message_id}' })).toEqual([3, 4]);
    expect(seqs({ user: 'IAGO@zulip.com' })).toEqual([2, 3]);
    expect(seqs({ user: 10 })).toEqual([1, 4]);
    expect(seqs({ status: '4xx' })).toEqual([4, 5]);
    expect(seqs({ status: 401 })).toEqual([5]);
    expect(seqs({ after: 2, limit: 2 })).toEqual([3, 4]);
  });

  it('a parked poll is pending until answered', async () => {
    const s = fresh({ longPollTimeoutMs: 60_000 });
    const { queue_id } = (await s.request({ method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com', body: { event_types: ['message'] } })).body;
    const parked = s.request({ method: 'GET', path: '/api/v1/events', as: 'hamlet@zulip.com', query: { queue_id, last_event_id: -1 } });
    expect(s.journal.entries({ route: 'GET /events' })).toMatchObject([{ outcome: 'pending', response: null }]);
    await send(s, 'othello@zulip.com', 'wake', 'up');
    await parked;
    expect(s.journal.entries({ route: 'GET /events' })).toMatchObject([{ outcome: 'answered', response: { status: 200 } }]);
    // Ordered by arrival: the poll came before the send that answered it.
    expect(s.journal.entries().map((e) => e.route)).toEqual(['POST /register', 'GET /events', 'POST /messages']);
  });

  it('keeps file bytes as Base64, cuts bodies past 1 MiB, forgets the oldest entries past its limit and drops the oldest bodies past its budget', async () => {
    const journal = createJournal({ maxEntries: 2 });
    const request = (body: string | Buffer) => journal.begin({ method: 'POST', url: '/api/v1/x', headers: {}, body });
    const binary = request(Buffer.from([0xff, 0x00, 0x01]));
    journal.finish(binary, {}, { status: 200, headers: {}, body: '', bytes: new Uint8Array([0x89, 0x50]) });
    expect(journal.entries()[0]!.request).toMatchObject({ body: '/wAB', body_encoding: 'base64' });
    expect(journal.entries()[0]!.response).toMatchObject({ body: 'iVA=', body_encoding: 'base64' });
    request('x'.repeat(MAX_RECORDED_BODY_BYTES + 10));
    expect(journal.entries()[1]!.request.body_truncated).toBe(true);
    expect(journal.entries()[1]!.request.body).toHaveLength(MAX_RECORDED_BODY_BYTES);
    request('third');
    expect(journal.entries().map((e) => e.seq)).toEqual([2, 3]);
    const small = createJournal({ maxBodyBytes: 10 });
    small.begin({ method: 'POST', url: '/a', headers: {}, body: '12345678' });
    small.begin({ method: 'POST', url: '/b', headers: {}, body: '12345678' });
    expect(small.entries().map((e) => [e.url, e.request.body, e.request.body_dropped])).toEqual([
      ['/a', '', true],
      ['/b', '12345678', false],
    ]);
  });

  it('keeps the newest entries however many went before, and an evicted one finishing counts no bytes', () => {
    const journal = createJournal({ maxEntries: 3, maxBodyBytes: 12 });
    const begun = Array.from({ length: 10 }, (_, i) => journal.begin({ method: 'POST', url: `/${i + 1}`, headers: {}, body: 'ab' }));
    expect(journal.entries().map((e) => e.seq)).toEqual([8, 9, 10]);
    // Entry 1 left long ago: its 10-byte answer must not push out the ones kept.
    journal.finish(begun[0]!, {}, { status: 200, headers: {}, body: '0123456789' });
    expect(journal.entries().map((e) => e.seq)).toEqual([8, 9, 10]);
    journal.finish(begun[9]!, {}, { status: 200, headers: {}, body: '012345678' });
    // Eleven bytes of bodies: 8's and 9's went, oldest first; the entries stay.
    expect(journal.entries().map((e) => [e.seq, e.request.body, e.request.body_dropped])).toEqual([
      [8, '', true],
      [9, '', true],
      [10, 'ab', false],
    ]);
    journal.clear();
    journal.begin({ method: 'GET', url: '/after', headers: {} });
    expect(journal.entries().map((e) => [e.seq, e.url])).toEqual([[11, '/after']]);
  });

  it('counts a file body by its bytes, not by its Base64, against the byte limit', () => {
    const journal = createJournal({ maxBodyBytes: 7 });
    journal.begin({ method: 'POST', url: '/file', headers: {}, body: Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa]) });
    journal.begin({ method: 'POST', url: '/one', headers: {}, body: 'x' });
    // Six bytes (eight as Base64) and one: seven, within the limit.
    expect(journal.entries().map((e) => [e.url, e.request.body])).toEqual([
      ['/file', '//79/Pv6'],
      ['/one', 'x'],
    ]);
  });

  it('shows a request sent through handle() with its method upper-cased and header names lower-cased, and the answer as it was then', async () => {
    const s = fresh();
    const me = await s.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
    const authorization = s.journal.entries()[0]!.request.headers.authorization!;
    await s.handle({ method: 'get', url: '/api/v1/users/me', headers: { authorization, 'X-Custom': 'yes' } });
    await s.request({ method: 'PATCH', path: '/api/v1/settings', as: 'hamlet@zulip.com', body: { full_name: 'Prince Hamlet' } });
    const [, viaHandle] = s.journal.entries();
    expect(viaHandle).toMatchObject({ method: 'GET', route: 'GET /users/me', user_id: me.body.user_id, user_email: 'hamlet@zulip.com' });
    expect(viaHandle!.request.headers).toEqual({ authorization, 'x-custom': 'yes' });
    expect(viaHandle!.response).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(viaHandle!.response!.body)).toMatchObject({ full_name: 'King Hamlet' });
  });

  it('keeps the latest 1,000 requests by default', () => {
    const journal = createJournal();
    for (let i = 1; i <= 1_001; i++) journal.begin({ method: 'GET', url: `/${i}`, headers: {} });
    const kept = journal.entries();
    expect([kept.length, kept[0]!.url, kept.at(-1)!.url]).toEqual([1_000, '/2', '/1001']);
  });

  it('leaves control requests out, and records nothing when switched off', async () => {
    const s = fresh();
    await s.request({ method: 'GET', path: `${CONTROL_PREFIX}/faults` });
    expect(s.journal.entries()).toEqual([]);
    const quiet = fresh({ journal: false });
    await send(quiet, 'hamlet@zulip.com', 't', 'unrecorded');
    expect(quiet.journal.entries()).toEqual([]);
  });
});

describe('the byte budget for bodies', () => {
  it('by default keeps every request of a session but only the newest 256 KiB of bodies, saying which were dropped', async () => {
    expect(DEFAULT_JOURNAL_LIMITS.maxBodyBytes).toBe(256 * 1024);
    const s = fresh();
    // Each /register answer (the whole initial state) weighs tens of KB: enough of them pass the budget.
    for (let i = 0; i < 12; i++) await s.request({ method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com' });
    await send(s, 'hamlet@zulip.com', 'after', 'the registers');
    const entries = s.journal.entries();
    expect(entries).toHaveLength(13);
    const oldest = entries[0]!;
    expect(oldest).toMatchObject({ seq: 1, route: 'POST /register', user_email: 'hamlet@zulip.com', outcome: 'answered' });
    expect(oldest.response).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: '', body_dropped: true, body_truncated: false });
    const kept = entries.filter((e) => !e.response!.body_dropped);
    const bodyBytes = kept.reduce((sum, e) => sum + e.request.body.length + e.response!.body.length, 0);
    expect(bodyBytes).toBeLessThanOrEqual(256 * 1024);
    // The dropped ones are the oldest; the newest keep theirs whole.
    expect(entries.map((e) => e.response!.body_dropped)).toEqual([...entries.map(() => true).slice(0, 13 - kept.length), ...kept.map(() => false)]);
    expect(entries.at(-1)!.request.body).toBe('type=stream&to=Denmark&topic=after&content=the+registers');
    expect(JSON.parse(kept[0]!.response!.body)).toMatchObject({ result: 'success', queue_id: expect.any(String) });
  });

  it('always keeps the newest entry\'s bodies, and a poll answered after its bodies went keeps none', async () => {
    const journal = createJournal({ maxBodyBytes: 4 });
    const parked = journal.begin({ method: 'POST', url: '/poll', headers: {}, body: 'abc' });
    journal.begin({ method: 'POST', url: '/big', headers: {}, body: '0123456789' });
    expect(journal.entries().map((e) => [e.url, e.request.body, e.request.body_dropped])).toEqual([
      ['/poll', '', true],
      ['/big', '0123456789', false],
    ]);
    journal.finish(parked, {}, { status: 200, headers: {}, body: 'late' });
    expect(journal.entries()[0]!.response).toMatchObject({ status: 200, body: '', body_dropped: true });
    // Nothing to drop: a GET without a body does not say it lost one.
    journal.begin({ method: 'GET', url: '/empty', headers: {} });
    journal.begin({ method: 'GET', url: '/last', headers: {} });
    expect(journal.entries().map((e) => [e.url, e.request.body_dropped])).toEqual([
      ['/poll', true],
      ['/big', true],
      ['/empty', false],
      ['/last', false],
    ]);
  });

  it('keeps bodies whole and newest first within the budget, whatever the sizes (property)', () => {
    const exchange = fc.record({ request: fc.nat(40), response: fc.option(fc.nat(40), { nil: undefined }) });
    fc.assert(
      fc.property(fc.nat(100), fc.array(exchange, { maxLength: 30 }), (budget, exchanges) => {
        const journal = createJournal({ maxBodyBytes: budget });
        for (const [i, x] of exchanges.entries()) {
          const entry = journal.begin({ method: 'POST', url: `/${i}`, headers: {}, body: 'q'.repeat(x.request) });
          if (x.response !== undefined) journal.finish(entry, {}, { status: 200, headers: {}, body: 'r'.repeat(x.response) });
        }
        const entries = journal.entries();
        expect(entries).toHaveLength(exchanges.length);
        let keptBytes = 0;
        let lastDropped = -1;
        for (const [i, e] of entries.entries()) {
          const x = exchanges[i]!;
          for (const [body, length] of [[e.request, x.request], [e.response, x.response ?? 0]] as const) {
            if (body === null) continue;
            if (body.body_dropped) lastDropped = i;
            else keptBytes += body.body.length;
            expect(body.body).toBe(body.body_dropped ? '' : (body === e.request ? 'q' : 'r').repeat(length));
            expect(body.body_dropped && length === 0).toBe(false);
          }
        }
        // Every body older than the youngest dropped one is dropped too.
        for (const [i, e] of entries.slice(0, Math.max(lastDropped, 0)).entries()) {
          expect([e.request.body, e.response?.body ?? ''], `entry ${i}`).toEqual(['', '']);
        }
        // Within the budget, unless all that is kept is the newest entry's.
        const newestOnly = entries.slice(0, -1).every((e) => e.request.body === '' && (e.response?.body ?? '') === '');
        expect(keptBytes <= budget || newestOnly).toBe(true);
      }),
    );
  });
});

describe('GET and DELETE /__simulator/journal', () => {
  it('the same entries and filters over HTTP; clearing keeps counting', async () => {
    const s = fresh();
    const server = await s.listen(0);
    try {
      await send(s, 'hamlet@zulip.com', 't', 'one');
      await send(s, 'iago@zulip.com', 't', 'two');
      const base = `http://127.0.0.1:${server.port}${CONTROL_PREFIX}/journal`;
      const page = (await (await fetch(`${base}?route=${encodeURIComponent('POST /messages')}&user=iago%40zulip.com&status=200`)).json()) as { entries: unknown[] };
      expect(page.entries).toEqual(s.journal.entries({ route: 'POST /messages', user: 'iago@zulip.com', status: 200 }));
      expect(page.entries).toHaveLength(1);
      const bad = await fetch(`${base}?status=teapot`);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { msg: string }).msg).toBe('Invalid query parameter status: "teapot" (an HTTP status such as 200, or a class such as 4xx)');
      expect((await fetch(base, { method: 'DELETE' })).status).toBe(204);
      expect(s.journal.entries()).toEqual([]);
      await send(s, 'hamlet@zulip.com', 't', 'three');
      expect(s.journal.entries().map((e) => e.seq)).toEqual([3]);
    } finally {
      await server.close();
    }
  });
});
