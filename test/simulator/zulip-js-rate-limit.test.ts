// zulip-js (the npm package, unchanged) against the simulator's real HTTP server with rate
// limiting on: the client gets Zulip's 429 envelope, and the response it read carries the
// X-RateLimit-* and Retry-After headers a client backs off on (zulip-js hands its caller only
// the JSON body, so the test watches the responses its fetch returns).
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSimulator, manualClock, type Simulator } from '../../simulator/index.ts';

type Call = (params?: Record<string, unknown>) => Promise<any>;
interface ZulipClient {
  users: { me: { getProfile: Call } };
}
const require = createRequire(import.meta.url);
const zulipInit = require('zulip-js') as (config: Record<string, string>) => Promise<ZulipClient>;
// zulip-js calls `helper.fetch` at each request: wrapping it shows what the client received.
const helper = require('zulip-js/lib/helper') as { fetch: (url: string, init: unknown) => Promise<Response> };

const START = 1_700_100_000;
let sim: Simulator;
let server: { url: string; close(): Promise<void> };
let client: ZulipClient;
const received: Response[] = [];
const originalFetch = helper.fetch;

beforeAll(async () => {
  sim = createSimulator({ seed: 3, clock: manualClock(START), rateLimit: { api_by_user: [[60, 2]] } });
  server = await sim.listen(0, '127.0.0.1');
  const hamlet = [...sim.engine.state.users.values()].find((u) => u.delivery_email === 'hamlet@zulip.com')!;
  helper.fetch = async (url, init) => {
    const res = await originalFetch(url, init);
    received.push(res.clone());
    return res;
  };
  client = await zulipInit({ username: hamlet.delivery_email, apiKey: hamlet.api_key, realm: new URL(server.url).origin });
});

afterAll(async () => {
  helper.fetch = originalFetch;
  await server.close();
});

test('zulip-js receives 429 RATE_LIMIT_HIT with retry-after, and the headers to back off by', async () => {
  expect((await client.users.me.getProfile()).result).toBe('success');
  expect(received.at(-1)!.headers.get('x-ratelimit-remaining')).toBe('1');
  sim.clock.advance(15);
  expect((await client.users.me.getProfile()).result).toBe('success');
  expect(received.at(-1)!.headers.get('x-ratelimit-remaining')).toBe('0');

  const refused = await client.users.me.getProfile();
  expect(refused).toEqual({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 45 });
  const res = received.at(-1)!;
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe('45.0');
  expect(res.headers.get('x-ratelimit-limit')).toBe('2');
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(res.headers.get('x-ratelimit-reset')).toBe(String(START + 60));

  // Waiting as told (on the simulated clock) is enough.
  sim.clock.advance(46);
  expect((await client.users.me.getProfile()).result).toBe('success');
});
