/**
 * Faults (simulator/control/faults.ts): chosen requests answered with a chosen error, delayed, or
 * left without an answer, for a number of requests or until removed; and the simulated push
 * service failing for a number of pushes. In-process and over HTTP alike.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTROL_PREFIX, ConnectionDropped, ControlError, createSimulator, fixedClock, manualClock, type Simulator } from '../../../simulator/index.ts';

const T = 1_700_200_000;
const fresh = () => createSimulator({ seed: 5, clock: fixedClock(T) });
const send = (s: Simulator, as = 'hamlet@zulip.com', content = 'hello') =>
  s.request({ method: 'POST', path: '/api/v1/messages', as, body: { type: 'stream', to: 'Denmark', topic: 'faults', content } });

afterEach(() => {
  vi.useRealTimers();
});

describe('errors', () => {
  it('"the next 3 sends get RATE_LIMIT_HIT": Zulip\'s 429 with retry-after, then sends work again', async () => {
    const s = fresh();
    const fault = s.faults.add({ route: 'POST /messages', error: { code: 'RATE_LIMIT_HIT' }, times: 3 });
    expect(fault).toEqual({ id: 1, spec: { route: 'POST /messages', error: { code: 'RATE_LIMIT_HIT' }, times: 3 }, remaining: 3, hits: 0 });
    const before = s.engine.state.messages.messages.length;
    for (let i = 0; i < 3; i++) {
      const res = await send(s);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 1 });
      expect(res.headers['Retry-After']).toBe('1.0');
    }
    expect(s.engine.state.messages.messages.length).toBe(before);
    expect(s.faults.list()).toEqual([]);
    expect((await send(s)).status).toBe(200);
    // Other routes were never affected.
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' })).status).toBe(200);
  });

  it('a RATE_LIMIT_HIT fault answers exactly what the rate limiter answers: same status, body and headers', async () => {
    // One call a minute: the second send is refused by the limiter, 60 s to wait.
    const limited = () => createSimulator({ seed: 5, clock: manualClock(T), rateLimit: { api_by_user: [[60, 1]] } });
    const real = limited();
    expect((await send(real)).status).toBe(200);
    const refused = await send(real);
    // The same wait, from a fault, on the first send of a simulator with the same limits.
    const faulted = limited();
    faulted.faults.add({ route: 'POST /messages', error: { code: 'RATE_LIMIT_HIT', extra: { 'retry-after': 60 } }, times: 1 });
    const injected = await send(faulted);
    expect(refused.status).toBe(429);
    expect(refused.headers['Retry-After']).toBe('60.0');
    expect(injected).toEqual(refused);
  });

  it('"the next poll of this queue gets BAD_EVENT_QUEUE_ID": only that queue, once; the client re-registers', async () => {
    const s = fresh();
    const register = () => s.request({ method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com', body: { event_types: ['message'] } });
    const poll = (queue_id: string) =>
      s.request({ method: 'GET', path: '/api/v1/events', as: 'hamlet@zulip.com', query: { queue_id, last_event_id: -1, dont_block: true } });
    const doomed = (await register()).body.queue_id as string;
    const other = (await register()).body.queue_id as string;
    s.faults.add({ route: 'GET /events', params: { queue_id: doomed }, error: { code: 'BAD_EVENT_QUEUE_ID' }, times: 1 });
    expect((await poll(other)).status).toBe(200);
    const lost = await poll(doomed);
    expect(lost.status).toBe(400);
    expect(lost.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${doomed}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: doomed });
    expect((await poll(doomed)).status).toBe(200);
  });

  it('"uploads fail": every upload, until the fault is deleted, with the error asked for', async () => {
    const s = fresh();
    const upload = () =>
      s.request({ method: 'POST', path: '/api/v1/user_uploads', as: 'hamlet@zulip.com', files: { file: { filename: 'a.txt', content: 'a', type: 'text/plain' } } });
    const { id } = s.faults.add({ route: '/user_uploads', error: { code: 'BAD_REQUEST', status: 500, msg: 'Internal server error' } });
    for (let i = 0; i < 2; i++) expect(await upload()).toMatchObject({ status: 500, body: { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' } });
    expect(s.faults.list()).toMatchObject([{ id, remaining: null, hits: 2 }]);
    expect(s.faults.remove(id)).toBe(true);
    expect((await upload()).status).toBe(200);
  });

  it("only the named user's requests, and the extra keys and headers asked for", async () => {
    const s = fresh();
    s.faults.add({ user: 'OTHELLO@zulip.com', error: { code: 'BAD_REQUEST', msg: 'Go away', extra: { hint: 42 }, headers: { 'X-Why': 'test' } } });
    expect((await send(s, 'hamlet@zulip.com')).status).toBe(200);
    const refused = await send(s, 'othello@zulip.com');
    expect(refused.body).toEqual({ result: 'error', msg: 'Go away', code: 'BAD_REQUEST', hint: 42 });
    expect(refused.headers['X-Why']).toBe('test');
    // A fault acts after authentication: a request without valid credentials still gets its 401.
    const anonymous = await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: 'othello@zulip.com', password: 'wrong' } });
    expect(anonymous.status).toBe(401);
  });

  it('the first active fault that catches a request acts on it', async () => {
    const s = fresh();
    s.faults.add({ route: 'POST /messages', error: { code: 'BAD_REQUEST', msg: 'first' }, times: 1 });
    s.faults.add({ route: 'POST /messages', error: { code: 'BAD_REQUEST', msg: 'second' } });
    expect((await send(s)).body.msg).toBe('first');
    expect((await send(s)).body.msg).toBe('second');
    s.faults.clear();
    expect((await send(s)).status).toBe(200);
  });

  it.each([
    [{}, 'Invalid FaultRequest: a fault needs "error", "latency_ms" or "drop"'],
    [{ drop: true, error: { code: 'BAD_REQUEST' } }, 'Invalid FaultRequest: "error" and "drop" exclude each other'],
    [{ route: 'POST /mesages', drop: true }, 'Invalid FaultRequest: route: "POST /mesages" is no route of the API'],
    [{ route: 'messages', drop: true }, 'Invalid FaultRequest: route: must match pattern'],
    [{ error: { code: 'TEAPOT' } }, 'Invalid FaultRequest: error.code: must be one of'],
    [{ latency_ms: -1 }, 'Invalid FaultRequest: latency_ms: must be >= 0'],
    [{ drop: true, times: 0 }, 'Invalid FaultRequest: times: must be >= 1'],
  ])('refuses %j with a ControlError saying why', (spec, message) => {
    const s = fresh();
    expect(() => s.faults.add(spec as never)).toThrow(ControlError);
    expect(() => s.faults.add(spec as never)).toThrow(message);
    expect(s.faults.list()).toEqual([]);
  });
});

describe('latency and dropped connections', () => {
  it('latency_ms holds the answer that long, then answers normally', async () => {
    const s = fresh();
    s.faults.add({ route: 'GET /users/me', latency_ms: 5_000, times: 1 });
    vi.useFakeTimers();
    let answered = false;
    const pending = s.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' }).then((res) => {
      answered = true;
      return res;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('drop: in-process the request rejects with ECONNRESET; the journal says it was dropped', async () => {
    const s = fresh();
    s.faults.add({ route: 'POST /messages', drop: true, times: 1 });
    const dropped = send(s);
    await expect(dropped).rejects.toThrow(ConnectionDropped);
    await expect(dropped).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(s.journal.entries({ route: 'POST /messages' })).toMatchObject([{ outcome: 'dropped', response: null, fault_id: 1, user_email: 'hamlet@zulip.com' }]);
    expect((await send(s)).status).toBe(200);
  });

  it('drop over HTTP: the connection closes without an answer', async () => {
    const s = fresh();
    const server = await s.listen(0);
    try {
      const key = s.engine.state.users.get(10)!.api_key;
      const auth = `Basic ${Buffer.from(`hamlet@zulip.com:${key}`).toString('base64')}`;
      const add = await fetch(`http://127.0.0.1:${server.port}${CONTROL_PREFIX}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ route: 'GET /users/me', drop: true, times: 1 }),
      });
      expect(add.status).toBe(201);
      await expect(fetch(`${server.url}/users/me`, { headers: { authorization: auth } })).rejects.toThrow('fetch failed');
      expect((await fetch(`${server.url}/users/me`, { headers: { authorization: auth } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the push service', () => {
  async function pushDevice(s: Simulator): Promise<void> {
    const device = await s.request({ method: 'POST', path: '/api/v1/register_client_device', as: 'hamlet@zulip.com', body: {} });
    await s.request({
      method: 'POST',
      path: '/api/v1/mobile_push/register',
      as: 'hamlet@zulip.com',
      body: {
        device_id: device.body.device_id,
        push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64'),
        push_key_id: 1,
        token_kind: 'fcm',
        token_id: Buffer.alloc(8, 1).toString('base64'),
        bouncer_public_key: 'key',
        encrypted_push_registration: 'ciphertext',
      },
    });
  }
  const testPush = (s: Simulator) => s.request({ method: 'POST', path: '/api/v1/mobile_push/e2ee/test_notification', as: 'hamlet@zulip.com', body: {} });

  it('fails the next N pushes with the chosen failure, then delivers again (in-process)', async () => {
    const s = fresh();
    await pushDevice(s);
    s.setPushServiceFailure('failed_to_connect', { times: 2 });
    expect(s.pushService()).toEqual({ failure: 'failed_to_connect', remaining: 2 });
    for (let i = 0; i < 2; i++) {
      expect(await testPush(s)).toMatchObject({ status: 502, body: { code: 'FAILED_TO_CONNECT_BOUNCER' } });
    }
    expect(s.pushService()).toEqual({ failure: null, remaining: null });
    expect((await testPush(s)).status).toBe(200);
    expect(s.outbox().pushes).toHaveLength(1);
  });

  it('over HTTP: PUT /push-service until cleared', async () => {
    const s = fresh();
    await pushDevice(s);
    const put = (json: unknown) => s.request({ method: 'PUT', path: `${CONTROL_PREFIX}/push-service`, json });
    expect((await put({ failure: 'admin_action_required' })).body).toEqual({ failure: 'admin_action_required', remaining: null });
    for (let i = 0; i < 3; i++) expect((await testPush(s)).body.code).toBe('ADMIN_ACTION_REQUIRED');
    expect((await put({ failure: null })).body).toEqual({ failure: null, remaining: null });
    expect((await testPush(s)).status).toBe(200);
    expect((await put({ failure: 'exploded' })).body.msg).toContain('Invalid PushServiceRequest: failure: must be one of');
  });
});

describe('reset', () => {
  it('clears every fault (and the journal)', async () => {
    const s = fresh();
    s.faults.add({ error: { code: 'BAD_REQUEST' } });
    await send(s);
    s.reset();
    expect(s.faults.list()).toEqual([]);
    expect(s.journal.entries()).toEqual([]);
    expect((await send(s)).status).toBe(200);
  });
});
