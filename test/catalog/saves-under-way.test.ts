// A watch pass waits for the saves under way before it goes on (scripts/catalog/incremental.ts):
// saves overlap and settle in any order, and the wait must neither end early nor keep the event
// loop from running the save it waits for.
import { describe, expect, it } from 'vitest';
import { savesUnderWay } from '../../scripts/catalog/saves-under-way.ts';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the saves a pass waits for', () => {
  it('is idle at once when no save runs', async () => {
    await expect(savesUnderWay().idle()).resolves.toBeUndefined();
  });

  it('waits for an older save that a newer one overtook, and lets it run meanwhile', async () => {
    const saves = savesUnderWay();
    const older = deferred();
    void saves.track(older.promise);
    const newer = saves.track(Promise.resolve('written'));
    await expect(newer).resolves.toBe('written');
    let idle = false;
    const waiting = saves.idle().then(() => void (idle = true));
    // The older save finishes from a timer, as a read does: the wait must leave the event loop free.
    setTimeout(() => older.resolve(), 5);
    await new Promise((r) => setTimeout(r, 1));
    expect(idle).toBe(false);
    await waiting;
    expect(idle).toBe(true);
  });

  it('counts a failed save as settled, and a save begun during the wait', async () => {
    const saves = savesUnderWay();
    const failing = deferred();
    void saves.track(failing.promise).catch(() => {});
    const later = deferred();
    let idle = false;
    const waiting = saves.idle().then(() => void (idle = true));
    void saves.track(later.promise);
    failing.reject(new Error('unreadable'));
    await new Promise((r) => setTimeout(r, 1));
    expect(idle).toBe(false);
    later.resolve();
    await waiting;
    expect(idle).toBe(true);
  });
});
