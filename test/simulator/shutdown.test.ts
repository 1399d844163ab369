/**
 * `npm run simulator` and `npm start` under a process manager: SIGTERM to npm (the only process
 * the manager knows) must stop the server, let the request in flight finish, exit 0, and leave
 * nothing on the port.
 */
import { describe, expect, it } from 'vitest';
import { portIsOpen, startRequest, startScript } from '../npm-script.ts';

const SIMULATOR_URL = /Chat simulator listening: http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/;
const CATALOG_URL = /Catalog API: +http:\/\/127\.0\.0\.1:(\d+)\//;

/** A login whose body is still arriving when the signal comes. */
function loginInFlight(port: number) {
  const body = 'username=hamlet%40zulip.com';
  const head =
    'POST /api/v1/dev_fetch_api_key HTTP/1.1\r\nHost: test\r\n' +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
  return startRequest(port, head, body, 5);
}

async function signalWithRequestInFlight(script: string, args: string[], patterns: RegExp[], signal: NodeJS.Signals) {
  const running = await startScript(script, args, patterns);
  try {
    const ports = running.found.map(Number);
    const request = loginInFlight(ports[0]!);
    await request.connected;
    // Let the server read the head and the first body bytes: the request is in flight.
    await new Promise((resolve) => setTimeout(resolve, 300));
    running.child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    request.finish();
    const answer = await request.answer;
    const exit = await Promise.race([running.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000))]);
    const open = await Promise.all(ports.map(portIsOpen));
    return { answer, exit, open };
  } finally {
    running.cleanUp();
  }
}

describe('stopping the simulator with a signal', () => {
  it('npm run simulator: SIGTERM finishes the request in flight, exits 0 and frees the port', async () => {
    const { answer, exit, open } = await signalWithRequestInFlight('simulator', ['--port', '0'], [SIMULATOR_URL], 'SIGTERM');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toMatch(/"api_key":"[A-Za-z0-9]{32}"/);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(open).toEqual([false]);
  });

  it('npm start: SIGTERM stops both servers the same way', async () => {
    const { answer, exit, open } = await signalWithRequestInFlight(
      'start',
      ['--catalog-port', '0', '--simulator-port', '0'],
      [SIMULATOR_URL, CATALOG_URL],
      'SIGTERM',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(open).toEqual([false, false]);
  });

  it('npm run simulator: SIGTERM ends a parked GET /events with its normal answer, at once', async () => {
    const running = await startScript('simulator', ['--port', '0'], [SIMULATOR_URL, /hamlet@zulip\.com\s+\S+\s+([A-Za-z0-9]{32})/]);
    try {
      const [port, key] = running.found as [string, string];
      const api = `http://127.0.0.1:${port}/api/v1`;
      const authorization = `Basic ${Buffer.from(`hamlet@zulip.com:${key}`).toString('base64')}`;
      const queue = (await (await fetch(`${api}/register`, { method: 'POST', headers: { authorization } })).json()) as {
        queue_id: string;
        last_event_id: number;
      };
      // Nothing happens in the realm: the poll parks (its heartbeat would come after 45 s or more).
      const poll = fetch(`${api}/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}`, { headers: { authorization } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      running.child.kill('SIGTERM');
      const answer = await poll;
      expect([answer.status, await answer.json()]).toEqual([200, { result: 'success', msg: '', events: [], queue_id: queue.queue_id }]);
      // Ended by the stop itself, well inside the grace period that would otherwise cut it.
      expect(await running.exited).toEqual({ code: 0, signal: null });
      expect(await portIsOpen(Number(port))).toBe(false);
    } finally {
      running.cleanUp();
    }
  });

  it('npm run simulator: SIGINT (Ctrl-C) does the same', async () => {
    const { answer, exit, open } = await signalWithRequestInFlight('simulator', ['--port', '0'], [SIMULATOR_URL], 'SIGINT');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(open).toEqual([false]);
  });
});
