/**
 * Everything non-deterministic the engine needs, injected: time and randomness. The engine itself
 * never reads the wall clock or a global random source, so the same seed and the same calls give the same state.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { SimulatedClock } from './simulated-clock.ts';

export interface Clock {
  /** A reading: Unix seconds, may be fractional. */
  now(): number;
  /**
   * The time now without taking a reading, for clocks whose readings have effects (a stepping
   * clock steps on each one). Without it, looking at the time is a reading.
   */
  peek?(): number;
}

/** A clock that always answers `t`. */
export function fixedClock(t: number): Clock {
  return { now: () => t, peek: () => t };
}

/**
 * A clock that starts at `start` and advances by `step` seconds on every reading; peeking shows
 * the latest reading (before the first one, a step before `start`).
 */
export function steppingClock(start: number, step = 1): Clock {
  let t = start - step;
  return {
    now: () => {
      t += step;
      return t;
    },
    peek: () => t,
  };
}

/** A clock that stands still until told to move (tests of timeouts and expiry). */
export interface ManualClock extends Clock {
  advance(seconds: number): void;
  set(t: number): void;
}

export function manualClock(start: number): ManualClock {
  let t = start;
  return {
    now: () => t,
    peek: () => t,
    advance(seconds) {
      t += seconds;
    },
    set(value) {
      t = value;
    },
  };
}

/** Seeded random source for secrets (API keys, email tokens). */
export interface Random {
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** `length` characters drawn from `alphabet`. */
  string(length: number, alphabet?: string): string;
  /** The generator's position, plain numbers: `resumeRandom` continues from it (snapshots). */
  getState(): number[];
}

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The characters of Python's secrets.token_urlsafe (URL-safe base64). */
export const URL_SAFE = `${ALPHANUMERIC}-_`;

/** Turn any seed (number or string) into a 32-bit integer, stably. */
export function seedToInt(seed: number | string): number {
  if (typeof seed === 'number' && Number.isInteger(seed)) return seed | 0;
  // "--seed 1" on a command line means the number 1.
  if (typeof seed === 'string' && /^-?\d{1,9}$/.test(seed)) return Number(seed) | 0;
  const text = String(seed);
  // FNV-1a: small, stable, good enough to spread string seeds.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export function seededRandom(seed: number | string): Random {
  return randomFrom(xoroshiro128plus(seedToInt(seed)));
}

/** A source that draws exactly what the one whose `getState()` gave `state` would draw next. */
export function resumeRandom(state: readonly number[]): Random {
  return randomFrom(xoroshiro128plusFromState(state));
}

function randomFrom(rng: ReturnType<typeof xoroshiro128plus>): Random {
  // uniformInt advances `rng` in place (pure-rand 8), so draws are sequential and reproducible.
  const int = (min: number, max: number): number => uniformInt(rng, min, max);
  return {
    int,
    string(length, alphabet = ALPHANUMERIC) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[int(0, alphabet.length - 1)];
      return out;
    },
    getState: () => [...rng.getState()],
  };
}

/** An API key as Zulip makes them: 32 alphanumerics. */
export function randomApiKey(random: Random): string {
  return random.string(32);
}

export interface Deps {
  /** The engine's one time source: the injected clock, wrapped so that time only moves forward. */
  clock: SimulatedClock;
  random: Random;
}
