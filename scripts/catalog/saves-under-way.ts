/**
 * The saves a watch pass must wait for. A pass gives way at each pause until every save begun so
 * far has settled: saves overlap (a second file saved while the first is still being read), and
 * they settle in any order.
 */
export interface SavesUnderWay {
  /** Count `save` as under way until it settles; returns it unchanged. */
  track<T>(save: Promise<T>): Promise<T>;
  /** Settles once no save is under way (saves begun meanwhile included). */
  idle(): Promise<void>;
}

export function savesUnderWay(): SavesUnderWay {
  const running = new Set<Promise<void>>();
  return {
    track(save) {
      const settled = save.then(
        () => {},
        () => {},
      );
      running.add(settled);
      // Registered before any idle() waits on it, so it runs first: idle() never finds a settled
      // save still counted, and never awaits a settled promise in a loop that starves the save's
      // own I/O (a pass once spun so, at full CPU, while an older save waited for a read).
      void settled.then(() => running.delete(settled));
      return save;
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
