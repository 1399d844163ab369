/**
 * Default channels (zerver/views/streams.py, zerver/actions/default_streams.py): the channels new users join. Every change sends the
 * whole list, as channel ids, to the organization's non-guests (notify_default_streams).
 */
import { accessStreamById } from './access.ts';
import { activeUsers, isGuest, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import type { StreamRecord, UserRecord } from '../state.ts';

function defaultStreamsEvent(engine: Engine): Effect {
  const ids = [...engine.state.realm.default_stream_ids].sort((a, b) => a - b);
  const nonGuests = activeUsers(engine).filter((u) => !isGuest(u));
  return effect({ type: 'default_streams', default_streams: ids }, nonGuests.map((u) => u.id));
}

/** do_add_default_stream: the event only when the channel was not a default one yet. */
export function addDefaultStream(engine: Engine, stream: StreamRecord): Effect[] {
  const defaults = engine.state.realm.default_stream_ids;
  if (defaults.has(stream.id)) return [];
  defaults.add(stream.id);
  return [defaultStreamsEvent(engine)];
}

/** do_remove_default_stream: the event every time. */
export function removeDefaultStream(engine: Engine, stream: StreamRecord): Effect[] {
  engine.state.realm.default_stream_ids.delete(stream.id);
  return [defaultStreamsEvent(engine)];
}

/** POST /default_streams (administrators): a channel the caller can read, never a private one. */
export function makeDefaultStream(engine: Engine, actor: UserRecord, streamId: number): Outcome<Record<string, never>> {
  const stream = accessStreamById(engine, actor, streamId);
  if (stream.invite_only) throw ChatError.badRequest('Private channels cannot be made default.');
  return outcome({}, addDefaultStream(engine, stream));
}

/** DELETE /default_streams (administrators): any channel the caller can see. */
export function unmakeDefaultStream(engine: Engine, actor: UserRecord, streamId: number): Outcome<Record<string, never>> {
  const stream = accessStreamById(engine, actor, streamId, { requireContentAccess: false });
  return outcome({}, removeDefaultStream(engine, stream));
}
