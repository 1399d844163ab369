// Shared by the read-state tests (flags, unread counts, topic visibility, alert words, muted
// users): short request forms and a recorder of the events each action sends, with their users.
import { createSimulator, fixedClock, type Credentials, type Simulator } from '../../../simulator/index.ts';
import type { Fixture } from '../../../schemas/generated/types/chat/fixture.ts';
import { devFixture, watchEvents } from '../helpers.ts';

export { CORDELIA, DESDEMONA, error, fetchMessages, HAMLET, IAGO, OTHELLO, POLONIUS, PROSPERO, sim } from '../messages/helpers.ts';

/** The time a `stillSim()` clock shows: after all of the dev realm's history. */
export const NOW = 1_700_300_000;

/** A dev-realm simulator whose clock stands still at NOW (timestamps in answers are exact). */
export function stillSim(fixture?: Fixture): Simulator {
  return createSimulator({ seed: 7, clock: fixedClock(NOW), ...(fixture ? { fixture } : {}) });
}

/** The dev realm with its whole history read by everyone (tests then make their own unread messages). */
export function allReadSim(): Simulator {
  const fixture = devFixture();
  for (const m of fixture.messages) delete m.read_by;
  return stillSim(fixture);
}

/** What POST /register reports as the user's unread messages. */
export async function unreadOf(s: Simulator, as: Credentials): Promise<Record<string, any>> {
  const res = await call(s, 'POST', as, '/register', { fetch_event_types: ['message', 'update_message_flags'] });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.unread_msgs as Record<string, any>;
}

/** The user's flags on a message, as GET /messages/{id} shows them. */
export async function flagsOf(s: Simulator, as: Credentials, id: number): Promise<string[]> {
  const res = await s.request({ method: 'GET', path: `/api/v1/messages/${id}`, as });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.message.flags as string[];
}

export function call(s: Simulator, method: string, as: Credentials, path: string, body: Record<string, unknown> = {}) {
  return s.request({ method, path: `/api/v1${path}`, as, body });
}

export type { Delivered as Sent } from '../helpers.ts';

/**
 * An event queue for every active user from now on (all event types, modern capabilities):
 * `take()` answers what they got since the last take, each event once with the users who got it.
 */
export function recordEvents(s: Simulator) {
  return watchEvents(s);
}

/** The ids of the messages a narrow shows the user (GET /messages, oldest first). */
export async function idsIn(s: Simulator, as: Credentials, narrow: unknown[]): Promise<number[]> {
  const res = await s.request({
    method: 'GET',
    path: '/api/v1/messages',
    as,
    query: { anchor: 'oldest', num_after: 5000, narrow: JSON.stringify(narrow) },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return (res.body.messages as { id: number }[]).map((m) => m.id);
}

/** Send a channel message as `as`; answers its id. */
export async function sendTo(s: Simulator, as: Credentials, channel: string, topic: string, content = 'hello'): Promise<number> {
  const res = await call(s, 'POST', as, '/messages', { type: 'stream', to: channel, topic, content });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}

/** Send a direct message as `as` to user ids; answers its id. */
export async function sendDm(s: Simulator, as: Credentials, to: number[], content = 'psst'): Promise<number> {
  const res = await call(s, 'POST', as, '/messages', { type: 'private', to, content });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}
