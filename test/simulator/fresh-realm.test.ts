/**
 * A fresh realm per test: createSimulator() and reset() copy a realm built once per fixture, seed
 * and moment of loading (engine/engine.ts) instead of building it again. A copy must be the realm
 * a build makes, and share nothing: what one simulator does never shows in another, nor in a
 * later reset, nor in the realm the next simulator gets.
 */
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../schemas/generated/types/chat/fixture.ts';
import { createEngine } from '../../simulator/engine/engine.ts';
import { createSimulator, DEFAULT_FIXTURE, fixedClock, type Simulator } from '../../simulator/index.ts';
import { exerciseEveryResource } from './control/scenario.ts';

const T = 1_700_400_000;
const fresh = (fixture?: Fixture): Simulator => createSimulator({ seed: 4, clock: fixedClock(T), ...(fixture ? { fixture } : {}) });

/** Every object, array, Map, Set and byte array reachable from `root`. */
function reachableObjects(root: unknown): Set<object> {
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (v instanceof Map) for (const [k, x] of v) {
      walk(k);
      walk(x);
    }
    else if (v instanceof Set || Array.isArray(v)) for (const x of v) walk(x);
    else if (!ArrayBuffer.isView(v)) for (const x of Object.values(v)) walk(x);
  };
  walk(root);
  return seen;
}

const snapshotText = (s: Simulator): string => JSON.stringify(s.snapshot());

describe('a fresh realm per simulator and per reset', () => {
  it('answers every request as a realm built afresh from the same fixture does', async () => {
    // The built-in fixture is frozen: its realm is built once and copied. A copy of the fixture
    // that its caller could still change is built afresh each time.
    fresh();
    const copied = fresh();
    const built = fresh(structuredClone(DEFAULT_FIXTURE) as Fixture);
    expect(snapshotText(copied)).toBe(snapshotText(built));
    const fromCopy = await exerciseEveryResource(copied);
    const fromBuild = await exerciseEveryResource(built);
    expect(JSON.stringify(fromCopy.responses)).toBe(JSON.stringify(fromBuild.responses));
    expect(snapshotText(copied)).toBe(snapshotText(built));
  });

  it('shares no object of its state with another simulator', () => {
    const a = fresh();
    const b = fresh();
    const ofA = reachableObjects(a.engine.state);
    expect(ofA.size).toBeGreaterThan(400);
    expect([...reachableObjects(b.engine.state)].filter((o) => ofA.has(o))).toEqual([]);
    a.reset();
    expect([...reachableObjects(a.engine.state)].filter((o) => ofA.has(o))).toEqual([]);
  });

  it('keeps what one simulator does out of every other one, of later ones and of its own reset', async () => {
    const untouched = snapshotText(fresh());
    const busy = fresh();
    const bystander = fresh();
    await exerciseEveryResource(busy);
    // Changed behind the API's back too, all the way down.
    const hamlet = [...busy.engine.state.users.values()].find((u) => u.delivery_email === 'hamlet@zulip.com')!;
    hamlet.full_name = 'Changed in place';
    busy.engine.state.messages.messages[0]!.userFlags.length = 0;
    busy.engine.state.realm.linkifiers.push({ id: 999, pattern: 'X-(?P<id>[0-9]+)', url_template: 'https://x.invalid/{id}' });
    expect(snapshotText(busy)).not.toBe(untouched);

    expect(snapshotText(bystander)).toBe(untouched);
    expect(snapshotText(fresh())).toBe(untouched);
    busy.reset();
    expect(snapshotText(busy)).toBe(untouched);
    const me = await busy.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
    expect(me.body.full_name).toBe('King Hamlet');
  });

  it('builds afresh, each time, from a fixture object its caller may still change', async () => {
    const fixture = structuredClone(DEFAULT_FIXTURE) as Fixture;
    const s = fresh(fixture);
    fixture.realm.name = 'Renamed between resets';
    s.reset();
    const settings = await s.request({ method: 'GET', path: '/api/v1/server_settings' });
    expect(settings.body.realm_name).toBe('Renamed between resets');
  });

  it('is the realm as loaded at the moment its clock first reads', () => {
    // Members become full members once the waiting period has passed since they joined (the
    // realm's creation here): before it, the same fixture makes a realm without any.
    const fullMembers = (t: number): number => {
      const engine = createEngine(DEFAULT_FIXTURE, { seed: 4, clock: fixedClock(t), validated: true, immutable: true });
      return [...engine.state.userGroups.values()].find((g) => g.name === 'role:fullmembers')!.members.size;
    };
    const created = DEFAULT_FIXTURE.realm.date_created!;
    expect(fullMembers(created - 86_400)).toBe(0);
    expect(fullMembers(created + 86_400)).toBeGreaterThan(0);
    expect(fullMembers(created - 86_400)).toBe(0);
  });
});
