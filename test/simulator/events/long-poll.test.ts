// A GET /events with nothing to report waits (zerver/tornado/event_queue.py:ClientDescriptor): woken by the next event, by a
// competing poll or DELETE, or by its heartbeat; a client that walks away releases it. In-process
// and over real HTTP, with a short heartbeat so no test waits Zulip's 45–55 s.
import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { basicAuth, manualClock } from '../../../simulator/index.ts';
import { ID, NOW, sim } from '../helpers.ts';
import { pending, poll, register, send, settledYet } from './helpers.ts';

const HAMLET = ID.hamlet;

describe('in-process long poll', () => {
  it('waits, then answers as soon as another user sends, naming the queue', async () => {
    const s = sim({ longPollTimeoutMs: 60_000 });
    const { queue_id } = await register(s, HAMLET, { event_types: ['message'] });
    const parked = poll(s, HAMLET, { queue_id, last_event_id: -1 });
    expect(await settledYet(parked)).toBe('pending');
    await send(s, ID.othello, { type: 'direct', to: `[${HAMLET}]`, content: 'wake up' });
    const res = await parked;
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      events: [{ type: 'message', message: expect.objectContaining({ content: 'wake up', sender_id: ID.othello }), flags: [], id: 0 }],
      queue_id,
    });
  });

  it('answers with a heartbeat when the timeout passes; the heartbeat is an event to acknowledge', async () => {
    const s = sim({ longPollTimeoutMs: 30 });
    const { queue_id } = await register(s, HAMLET, { event_types: ['message'] });
    const res = await poll(s, HAMLET, { queue_id, last_event_id: -1 });
    expect(res.body).toEqual({ result: 'success', msg: '', events: [{ type: 'heartbeat', id: 0 }], queue_id });
    // Acknowledging the heartbeat is like any other event; the next one gets the next ID.
    await send(s, ID.othello, { type: 'direct', to: `[${HAMLET}]`, content: 'after' });
    expect((await pending(s, HAMLET, queue_id, 0)).map((e) => [e.type, e.id])).toEqual([['message', 1]]);
  });

  it('a second poll on the queue finishes the first with the current contents', async () => {
    const s = sim({ longPollTimeoutMs: 60_000 });
    const { queue_id } = await register(s, HAMLET);
    const first = poll(s, HAMLET, { queue_id, last_event_id: -1 });
    const second = poll(s, HAMLET, { queue_id, last_event_id: -1 });
    expect((await first).body).toEqual({ result: 'success', msg: '', events: [], queue_id });
    expect(await settledYet(second)).toBe('pending');
    await send(s, ID.othello, { type: 'direct', to: `[${HAMLET}]`, content: 'x' });
    expect((await second).body.events).toHaveLength(1);
  });

  it('DELETE /events answers the parked poll before removing the queue', async () => {
    const s = sim({ longPollTimeoutMs: 60_000 });
    const { queue_id } = await register(s, HAMLET);
    const parked = poll(s, HAMLET, { queue_id, last_event_id: -1 });
    await s.request({ method: 'DELETE', path: '/api/v1/events', as: HAMLET, query: { queue_id } });
    expect((await parked).body).toEqual({ result: 'success', msg: '', events: [], queue_id });
  });

  it('a client that walks away releases the poll; the queue keeps its events for the next one', async () => {
    const s = sim({ longPollTimeoutMs: 60_000 });
    const { queue_id } = await register(s, HAMLET, { event_types: ['message'] });
    const controller = new AbortController();
    const parked = poll(s, HAMLET, { queue_id, last_event_id: -1 }, controller.signal);
    controller.abort();
    await parked;
    expect(s.engine.queues.byId.get(queue_id)!.waiter).toBeNull();
    await send(s, ID.othello, { type: 'direct', to: `[${HAMLET}]`, content: 'kept' });
    expect((await pending(s, HAMLET, queue_id)).map((e) => e.message.content)).toEqual(['kept']);
  });

  it('reset() answers parked polls; their queues are gone afterwards', async () => {
    const s = sim({ longPollTimeoutMs: 60_000 });
    const { queue_id } = await register(s, HAMLET);
    const parked = poll(s, HAMLET, { queue_id, last_event_id: -1 });
    s.reset();
    expect((await parked).body).toEqual({ result: 'success', msg: '', events: [], queue_id });
    expect((await poll(s, HAMLET, { queue_id, last_event_id: -1 })).body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});

describe('long poll over HTTP', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function server(longPollTimeoutMs: number) {
    const s = sim({ longPollTimeoutMs });
    const listening = await s.listen(0);
    close = listening.close;
    const hamlet = s.engine.state.users.get(HAMLET)!;
    const auth = basicAuth(hamlet.delivery_email, hamlet.api_key);
    return { s, url: listening.url, auth };
  }

  it('holds the request open until the event, then answers at once', async () => {
    const { s, url, auth } = await server(60_000);
    const reg = await fetch(`${url}/register`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ event_types: '["message"]' }) });
    const { queue_id } = (await reg.json()) as { queue_id: string };
    const parked = fetch(`${url}/events?queue_id=${queue_id}&last_event_id=-1`, { headers: { authorization: auth } }).then((r) => r.json());
    await vi.waitFor(() => expect(s.engine.queues.byId.get(queue_id)!.waiter).not.toBeNull(), { timeout: 10_000 });
    expect(await settledYet(parked)).toBe('pending');
    await send(s, ID.iago, { type: 'stream', to: 'Denmark', topic: 'live', content: 'over the wire' });
    const body = (await parked) as { events: { message: { content: string } }[]; queue_id: string };
    expect(body.queue_id).toBe(queue_id);
    expect(body.events.map((e) => e.message.content)).toEqual(['over the wire']);
  });

  it('answers a heartbeat after the timeout', async () => {
    const { url, auth } = await server(40);
    const reg = await fetch(`${url}/register`, { method: 'POST', headers: { authorization: auth } });
    const { queue_id } = (await reg.json()) as { queue_id: string };
    const res = await fetch(`${url}/events?queue_id=${queue_id}&last_event_id=-1`, { headers: { authorization: auth } });
    expect(await res.json()).toEqual({ result: 'success', msg: '', events: [{ type: 'heartbeat', id: 0 }], queue_id });
  });

  it('answers a collected queue with BAD_EVENT_QUEUE_ID and its queue_id, and a new register works', async () => {
    const clock = manualClock(NOW);
    const s = sim({ clock });
    const listening = await s.listen(0);
    close = listening.close;
    const hamlet = s.engine.state.users.get(HAMLET)!;
    const auth = basicAuth(hamlet.delivery_email, hamlet.api_key);
    const registerOverHttp = async () => (await (await fetch(`${listening.url}/register`, { method: 'POST', headers: { authorization: auth } })).json()) as { queue_id: string };
    const { queue_id } = await registerOverHttp();
    clock.advance(600);
    const res = await fetch(`${listening.url}/events?queue_id=${queue_id}&last_event_id=-1`, { headers: { authorization: auth } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ result: 'error', msg: `Bad event queue ID: ${queue_id}`, code: 'BAD_EVENT_QUEUE_ID', queue_id });
    const again = await registerOverHttp();
    expect(again.queue_id).not.toBe(queue_id);
    const fresh = await fetch(`${listening.url}/events?queue_id=${again.queue_id}&last_event_id=-1&dont_block=true`, { headers: { authorization: auth } });
    expect(await fresh.json()).toEqual({ result: 'success', msg: '', events: [] });
  });

  it('a disconnected client releases its poll; the queue survives', async () => {
    const { s, url, auth } = await server(60_000);
    const reg = await fetch(`${url}/register`, { method: 'POST', headers: { authorization: auth } });
    const { queue_id } = (await reg.json()) as { queue_id: string };
    const target = new URL(`${url}/events?queue_id=${queue_id}&last_event_id=-1`);
    const req = http.get({ host: target.hostname, port: target.port, path: target.pathname + target.search, headers: { authorization: auth } });
    req.on('error', () => {});
    const queue = s.engine.queues.byId.get(queue_id)!;
    await vi.waitFor(() => expect(queue.waiter).not.toBeNull(), { timeout: 10_000 });
    req.destroy();
    await vi.waitFor(() => expect(queue.waiter).toBeNull(), { timeout: 10_000 });
    expect(await pending(s, HAMLET, queue_id)).toEqual([]);
  });

  it('polls one after another on one kept-alive connection each park, and its closing releases the one held', async () => {
    const { s, url, auth } = await server(60_000);
    const reg = await fetch(`${url}/register`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ event_types: '["message"]' }) });
    const { queue_id } = (await reg.json()) as { queue_id: string };
    const queue = s.engine.queues.byId.get(queue_id)!;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const target = new URL(url);
    const pollOnAgent = (lastEventId: number) =>
      new Promise<{ status: number; body: { events: { id: number }[] } }>((resolve, reject) => {
        const path = `${target.pathname}/events?queue_id=${queue_id}&last_event_id=${lastEventId}`;
        const req = http.get({ agent, host: target.hostname, port: target.port, path, headers: { authorization: auth } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    for (let i = 0; i < 3; i++) {
      const parked = pollOnAgent(i - 1);
      await vi.waitFor(() => expect(queue.waiter).not.toBeNull(), { timeout: 10_000 });
      expect(await settledYet(parked)).toBe('pending');
      await send(s, ID.iago, { type: 'stream', to: 'Denmark', topic: 'live', content: `number ${i}` });
      expect((await parked).body.events.map((e) => e.id)).toEqual([i]);
    }
    const held = pollOnAgent(2).catch(() => 'hung up');
    await vi.waitFor(() => expect(queue.waiter).not.toBeNull(), { timeout: 10_000 });
    agent.destroy();
    expect(await held).toBe('hung up');
    await vi.waitFor(() => expect(queue.waiter).toBeNull(), { timeout: 10_000 });
    expect(s.engine.queues.byId.get(queue_id)).toBe(queue);
  });
});
