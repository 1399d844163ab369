/**
 * The journal's live feed (GET /__simulator/journal/feed): a long-poll that answers as soon as a
 * request completes, so that a page showing the journal does not poll it. It counts completions,
 * not arrivals: a long-poll that arrived first may finish after requests that arrived later, and
 * a reader following arrival numbers (`seq`) would pass it by.
 *
 * It also counts the control API's own changes (reset, restore, the clock, faults, rate limits),
 * which are not journaled, and wakes its readers for them too.
 */
import type { JournalEntry } from '../../schemas/generated/types/control/control.ts';

/** Completions remembered: as many as the journal keeps entries by default. */
const REMEMBERED = 1_000;
export const DEFAULT_FEED_LIMIT = 50;
export const MAX_FEED_WAIT_MS = 60_000;

export interface FeedRequest {
  /** The cursor of the previous answer; none: the latest `limit` entries at once. */
  cursor?: number;
  limit?: number;
  /** How long to wait for a completion (0: answer at once). */
  waitMs: number;
  /** Answer at once (the client went away, the server is closing). */
  signal?: AbortSignal;
}

export interface FeedPage {
  cursor: number;
  entries: JournalEntry[];
  /** When each entry completed (Unix ms, the machine's clock: for people to read, never for answers). */
  completedAt: number[];
  controlChanges: number;
}

export interface LiveFeed {
  /** A journaled request completed (answered or dropped). */
  completed(seq: number): void;
  /** The control API changed something. */
  controlChanged(): void;
  read(request: FeedRequest): Promise<FeedPage>;
}

export function createLiveFeed(entriesAfter: (seq: number) => JournalEntry[]): LiveFeed {
  /** Sequence numbers of the latest completions; completions[i] is completion number base + i + 1. */
  let completions: number[] = [];
  let times: number[] = [];
  let base = 0;
  let controlChanges = 0;
  let waiting: (() => void)[] = [];
  const total = (): number => base + completions.length;
  const wake = (): void => {
    const woken = waiting;
    waiting = [];
    for (const resume of woken) resume();
  };

  const page = (cursor: number | undefined, limit: number): FeedPage => {
    const end = total();
    const from = cursor === undefined ? Math.max(base, end - limit) : Math.max(base, Math.min(cursor, end));
    const seqs = completions.slice(from - base, from - base + limit);
    const next = from + seqs.length;
    if (seqs.length === 0) return { cursor: next, entries: [], completedAt: [], controlChanges };
    const wanted = new Set(seqs);
    const bySeq = new Map(entriesAfter(Math.min(...seqs) - 1).filter((e) => wanted.has(e.seq)).map((e) => [e.seq, e]));
    const entries: JournalEntry[] = [];
    const completedAt: number[] = [];
    seqs.forEach((seq, i) => {
      const entry = bySeq.get(seq);
      // Entries the journal no longer holds (cleared, evicted) are passed over.
      if (!entry) return;
      entries.push(entry);
      completedAt.push(times[from - base + i]!);
    });
    return { cursor: next, entries, completedAt, controlChanges };
  };

  return {
    completed(seq) {
      completions.push(seq);
      times.push(Date.now());
      if (completions.length > 2 * REMEMBERED) {
        base += completions.length - REMEMBERED;
        completions = completions.slice(-REMEMBERED);
        times = times.slice(-REMEMBERED);
      }
      wake();
    },
    controlChanged() {
      controlChanges++;
      wake();
    },
    async read({ cursor, limit = DEFAULT_FEED_LIMIT, waitMs, signal }) {
      const changesBefore = controlChanges;
      const ready = (): boolean => cursor === undefined || total() !== cursor || controlChanges !== changesBefore || signal?.aborted === true;
      if (!ready() && waitMs > 0) {
        await new Promise<void>((resolve) => {
          let done = false;
          const finish = (): void => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', finish);
            waiting = waiting.filter((w) => w !== finish);
            resolve();
          };
          const timer = setTimeout(finish, Math.min(waitMs, MAX_FEED_WAIT_MS));
          signal?.addEventListener('abort', finish, { once: true });
          waiting.push(finish);
        });
      }
      return page(cursor, limit);
    },
  };
}
