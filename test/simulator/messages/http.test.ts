// The message endpoints over real HTTP (loopback): form bodies, query strings, statuses and
// envelopes are the same as through the in-process API.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSimulator, type Simulator } from '../../../simulator/index.ts';

let sim: Simulator;
let server: { url: string; close(): Promise<void> };
let auth: string;

beforeAll(async () => {
  sim = createSimulator({ seed: 11 });
  server = await sim.listen(0, '127.0.0.1');
  const hamlet = [...sim.engine.state.users.values()].find((u) => u.delivery_email === 'hamlet@zulip.com')!;
  auth = `Basic ${Buffer.from(`${hamlet.delivery_email}:${hamlet.api_key}`).toString('base64')}`;
});

afterAll(async () => {
  await server.close();
});

function call(method: string, path: string, form?: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: auth, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

describe('messages over HTTP', () => {
  test('send, fetch with a narrow, react, unreact', async () => {
    const sent = await call('POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'over http', content: 'Hi :wave:', extra: '1' });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await sent.json()) as { id: number };
    expect(body).toEqual({ result: 'success', msg: '', id: expect.any(Number), ignored_parameters_unsupported: ['extra'] });

    const narrow = encodeURIComponent(JSON.stringify([['stream', 'Denmark'], ['topic', 'over http']]));
    const fetched = await call('GET', `/messages?anchor=newest&num_before=5&narrow=${narrow}`);
    const list = (await fetched.json()) as { messages: { id: number }[] };
    expect(list.messages.map((m) => m.id)).toEqual([body.id]);

    const react = await call('POST', `/messages/${body.id}/reactions`, { emoji_name: 'wave' });
    expect([react.status, await react.json()]).toEqual([200, { result: 'success', msg: '' }]);
    const unreact = await call('DELETE', `/messages/${body.id}/reactions`, { emoji_name: 'wave' });
    expect([unreact.status, await unreact.json()]).toEqual([200, { result: 'success', msg: '' }]);
  });

  test.each([
    ['POST', '/messages', { type: 'stream', to: 'Atlantis', topic: 't', content: 'x' }, 400, 'STREAM_DOES_NOT_EXIST'],
    ['GET', '/messages?anchor=newest&narrow=%5B%5B%22color%22%2C%22blue%22%5D%5D', undefined, 400, 'BAD_NARROW'],
    ['GET', '/messages/424242', undefined, 400, 'BAD_REQUEST'],
    ['DELETE', '/messages/1/reactions', { emoji_name: 'octopus' }, 400, 'REACTION_DOES_NOT_EXIST'],
  ] as const)('%s %s → %i %s', async (method, path, form, status, code) => {
    const res = await call(method, path, form as Record<string, string> | undefined);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { code: string }).code).toBe(code);
  });

  test('wrong method on a message route is 405 with allowed_methods', async () => {
    const res = await call('PUT', '/messages/matches_narrow');
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
  });
});
