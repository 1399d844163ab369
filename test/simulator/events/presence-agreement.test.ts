// Presence events applied to /register's `presences` agree with a fresh /register, for the legacy
// format and the modern one (simplified_presence_events), over the changes Zulip announces: first
// reports, returns after a long silence, presence_enabled turned off and on (also through the
// status's `away`). Routine reports are not announced, so they are left out: clients catch up on
// those by polling POST /users/me/presence, as they do with Zulip.
import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../../simulator/index.ts';
import { devFixtureWithoutPresence, ID } from '../helpers.ts';
import { applyEvents } from './apply-events.ts';
import { pending, register } from './helpers.ts';

const { hamlet, iago, othello, cordelia } = ID;

const call = (s: Simulator, as: number, method: string, path: string, body: Record<string, unknown> = {}) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

const report = (s: Simulator, as: number, status: string) => call(s, as, 'POST', '/users/me/presence', { status, ping_only: true });

const actions: [string, number, (s: Simulator) => Promise<{ status: number; body: unknown }>][] = [
  ["Hamlet's first report", 0, (s) => report(s, hamlet, 'active')],
  ["Othello's first report, idle", 10, (s) => report(s, othello, 'idle')],
  ['Hamlet back after five minutes away', 300, (s) => report(s, hamlet, 'active')],
  ['Othello active for the first time', 400, (s) => report(s, othello, 'active')],
  ['Iago turns presence off without ever reporting', 30, (s) => call(s, iago, 'PATCH', '/settings', { presence_enabled: false })],
  ['Hamlet turns presence off', 5, (s) => call(s, hamlet, 'PATCH', '/settings', { presence_enabled: false })],
  ['Iago turns it back on', 90, (s) => call(s, iago, 'PATCH', '/settings', { presence_enabled: true })],
  ['Cordelia goes away through her status', 1, (s) => call(s, cordelia, 'POST', '/users/me/status', { away: true })],
];

/** Not carried by events (Zulip's own agreement test sets both aside too). */
function comparable(state: Record<string, any>): Record<string, any> {
  const { presences } = state;
  return { presences };
}

describe('presence events applied to the initial state agree with a fresh /register', () => {
  it.each([
    ['legacy (keyed by email)', othello, {}],
    ['modern (simplified_presence_events)', iago, { client_capabilities: JSON.stringify({ notification_settings_null: true, simplified_presence_events: true }) }],
  ])('%s', async (_format, observer, options) => {
    let t = 1_700_200_000;
    const s = createSimulator({ seed: 1, clock: { now: () => t }, fixture: devFixtureWithoutPresence() });
    const body = { event_types: JSON.stringify(['presence']), ...options };
    const start = await register(s, observer, body);
    const kept = structuredClone(start);
    let lastEventId = -1;
    for (const [name, wait, act] of actions) {
      t += wait;
      const res = await act(s);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      const events = await pending(s, observer, start.queue_id, lastEventId);
      expect(events.length, name).toBeGreaterThan(0);
      lastEventId = events.at(-1)!.id;
      applyEvents(kept, events, observer);
      expect(comparable(kept), name).toEqual(comparable(await register(s, observer, body)));
    }
  });
});
