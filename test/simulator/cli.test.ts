/** scripts/simulator.ts: startSimulatorServer, as `npm start` and `npm run simulator` use it. */
import { describe, expect, it } from 'vitest';
import { startSimulatorServer } from '../../scripts/simulator.ts';
import { createSimulator } from '../../simulator/index.ts';

describe('startSimulatorServer', () => {
  it('serves the dev realm with keys fixed by the seed ("1" on a command line is the number 1)', async () => {
    const server = await startSimulatorServer({ port: 0, seed: '1', print: false });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const expected = createSimulator({ seed: 1 }).engine.state.users.get(10)!.api_key;
      const res = await fetch(`${server.url}/dev_fetch_api_key`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'hamlet@zulip.com' }),
      });
      expect(await res.json()).toMatchObject({ api_key: expected, user_id: 10 });
    } finally {
      await server.close();
    }
  });
});
