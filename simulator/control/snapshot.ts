/**
 * Snapshots: the whole simulated server as one JSON document, and a simulator built back from
 * one. A snapshot holds the engine's state, where its random sources stand and its event queues,
 * so that a restored simulator answers every request exactly as the original would have (same
 * ids, same API keys, same queue ids). The state file of `--state` is a snapshot too.
 *
 * The format is versioned. SNAPSHOT_VERSION changes whenever the state's shape does (a field
 * added, removed or changed in simulator/engine/state.ts, simulator/engine/events/queues.ts or simulator/engine/events/snapshots.ts): a simulator refuses a
 * snapshot of another version, and test/simulator/control/snapshot.test.ts holds the shape to the
 * version so that the bump is not forgotten.
 */
import type { Engine } from '../engine/core.ts';
import { clockPosition, resumeEngine, type EngineContinuation, type EngineOptions } from '../engine/engine.ts';
import { queuesData, type QueuesData } from '../engine/events/snapshots.ts';
import type { State } from '../engine/state.ts';
import { CodecError, decode, encode } from './codec.ts';

export const SNAPSHOT_FORMAT = 'team-chat-simulator/snapshot';
export const SNAPSHOT_VERSION = 5;
/**
 * Version 4 differs from 5 only by the message store's id index (`messages.indexById`, a Map of
 * every message id to its place), which version 5 reads off the ids instead: read by leaving it out.
 */
const DROPPED_IN_5 = 4;

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  /** The simulated present, and the latest reading the engine handed out (null: none yet). */
  clock: EngineContinuation['clock'];
  /** The engine's state, Maps, Sets and bytes tagged (codec.ts). */
  state: unknown;
  /** The position of the engine's random source (API keys, tokens, invitation keys). */
  random: number[];
  /** The event queues with their unacknowledged events, and the queue-id source's position. */
  queues: unknown;
}

/** A snapshot that cannot be restored: each problem says where and what. */
export class SnapshotError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'SnapshotError';
  }
}

export function takeSnapshot(engine: Engine): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    clock: clockPosition(engine),
    state: encode(engine.state),
    random: engine.deps.random.getState(),
    queues: encode(queuesData(engine)),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isGeneratorState(value: unknown): value is number[] {
  return Array.isArray(value) && value.length === 4 && value.every((n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31);
}

/** Keys the reference has and the candidate lacks, and the other way round, named under `where`. */
function keyDifferences(where: string, reference: object, candidate: object): string[] {
  const have = new Set(Object.keys(candidate));
  const want = new Set(Object.keys(reference));
  const problems: string[] = [];
  for (const k of want) if (!have.has(k)) problems.push(`${where}.${k} is missing`);
  for (const k of have) if (!want.has(k)) problems.push(`${where}.${k} is not a field this simulator knows`);
  return problems;
}

/**
 * Check a snapshot's envelope and decode it: the state, its random position and its queues. The
 * state's top-level fields and the realm's are compared with `reference` (a state this simulator
 * built), so a snapshot from a simulator with another state shape is refused even when its
 * version number was not bumped.
 */
export function readSnapshot(snapshot: unknown, reference: State): EngineContinuation & { state: State } {
  if (!isRecord(snapshot)) throw new SnapshotError(['not a snapshot: expected a JSON object']);
  if (snapshot.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotError([`not a snapshot: "format" is ${JSON.stringify(snapshot.format)}, expected "${SNAPSHOT_FORMAT}"`]);
  }
  if (snapshot.version !== SNAPSHOT_VERSION && snapshot.version !== DROPPED_IN_5) {
    throw new SnapshotError([
      `snapshot format version ${JSON.stringify(snapshot.version)}, but this simulator reads version ${SNAPSHOT_VERSION} (and ${DROPPED_IN_5}) only (written by another version of the simulator?)`,
    ]);
  }
  const problems: string[] = [];
  const clock = snapshot.clock as Partial<EngineContinuation['clock']> | undefined;
  if (!isRecord(clock) || typeof clock.present !== 'number' || !Number.isFinite(clock.present) || !(clock.latest === null || Number.isFinite(clock.latest))) {
    problems.push('"clock" must be {"present": seconds, "latest": seconds or null}');
  }
  if (!isGeneratorState(snapshot.random)) problems.push('"random" must be four 32-bit integers');
  let state: unknown;
  let queues: unknown;
  try {
    state = decode(snapshot.state);
  } catch (error) {
    problems.push(`"state" ${error instanceof CodecError ? error.message : String(error)}`);
  }
  try {
    queues = decode(snapshot.queues);
  } catch (error) {
    problems.push(`"queues" ${error instanceof CodecError ? error.message : String(error)}`);
  }
  if (snapshot.version === DROPPED_IN_5 && isRecord(state) && isRecord(state.messages)) delete state.messages.indexById;
  if (state !== undefined) {
    if (!isRecord(state)) problems.push('"state" must be an object');
    else {
      problems.push(...keyDifferences('state', reference, state));
      if (isRecord(state.realm)) problems.push(...keyDifferences('state.realm', reference.realm, state.realm));
    }
  }
  if (queues !== undefined) {
    const q = queues as Partial<QueuesData>;
    if (!isRecord(queues) || !Array.isArray(q.queues) || typeof q.lastGc !== 'number' || !isGeneratorState(q.random)) {
      problems.push('"queues" must have "queues" (a list), "lastGc" (a number) and "random" (four 32-bit integers)');
    }
  }
  if (problems.length > 0) throw new SnapshotError(problems);
  return { state: state as State, clock: clock as EngineContinuation['clock'], random: snapshot.random as number[], queues: queues as QueuesData };
}

/**
 * A new engine continuing the snapshot's, on the time source `clock` (moved on to the snapshot's
 * present if it is behind). Throws SnapshotError when it cannot.
 */
export function engineFromSnapshot(snapshot: unknown, reference: State, options: EngineOptions & { seed: number | string }): Engine {
  const { state, ...continuation } = readSnapshot(snapshot, reference);
  return resumeEngine(state, continuation, options);
}
