/**
 * Who the live page watches the organization as: the realm owner by default (they see every
 * public channel), or any active account named by id or email (a bot under test, to see what it sees).
 * The page authenticates to the chat API with this account's API key, so the answer is a secret:
 * only the control API hands it out, under the control API's access rule (loopback clients).
 */
import type { LiveWatcher } from '../../schemas/generated/types/control/control.ts';
import { getUserByEmail, type Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';
import { ControlError } from '../control/errors.ts';

const OWNER = 100;
const ADMINISTRATOR = 200;

function watchable(user: UserRecord): boolean {
  return user.is_active && !user.is_system_bot;
}

/** The owner with the lowest id; failing that an administrator, failing that any human. */
function defaultWatcher(engine: Engine): UserRecord | undefined {
  const humans = [...engine.state.users.values()].filter((u) => watchable(u) && !u.is_bot).sort((a, b) => a.id - b.id);
  return humans.find((u) => u.role === OWNER) ?? humans.find((u) => u.role === ADMINISTRATOR) ?? humans[0];
}

export function liveWatcher(engine: Engine, as?: string): LiveWatcher {
  let user: UserRecord | undefined;
  if (as === undefined) {
    user = defaultWatcher(engine);
    if (!user) throw new ControlError('NOT_FOUND', 'The organization has no active human user to watch it as');
  } else {
    const wanted = as.trim();
    user = /^\d{1,15}$/.test(wanted) ? engine.state.users.get(Number(wanted)) : getUserByEmail(engine, wanted);
    if (!user || !watchable(user)) throw new ControlError('NOT_FOUND', `No active user with the ${/^\d+$/.test(wanted) ? 'id' : 'email'} ${JSON.stringify(as)} to watch as`);
  }
  return { user_id: user.id, email: user.delivery_email, full_name: user.full_name, role: user.role as LiveWatcher['role'], api_key: user.api_key };
}
