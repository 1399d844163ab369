/**
 * Determinism: with a fixed seed and clock, the same requests give byte-identical answers and
 * events. A session of several hundred varied requests (every resource, refusals included, event
 * queues read along the way) is recorded by the request journal, then replayed twice, each time
 * on a fresh simulator, request by request as the journal wrote it down: every answer (status,
 * headers and body bytes, events included) is the same in both replays, and the same as recorded.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, steppingClock, type JournalEntry, type Simulator } from '../../../simulator/index.ts';
import type { RawRequest } from '../../../simulator/http/dispatch.ts';
import { exerciseEveryResource } from './scenario.ts';

const fresh = (): Simulator => createSimulator({ seed: 'determinism', clock: steppingClock(1_700_300_000, 1) });

/** An answer as bytes can compare it: header names lower-cased (as the journal keeps them), the body as written. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function requestOf(entry: JournalEntry): RawRequest {
  const { body, body_encoding: encoding } = entry.request;
  return {
    method: entry.method,
    url: entry.url,
    headers: entry.request.headers,
    body: body === '' ? undefined : encoding === 'base64' ? Buffer.from(body, 'base64') : body,
  };
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as the journal keeps them: text when they are UTF-8, else Base64. */
function asJournalWritesIt(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('base64');
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

async function replay(entries: readonly JournalEntry[]): Promise<{ answers: Answer[]; snapshot: string }> {
  const s = fresh();
  const answers: Answer[] = [];
  for (const entry of entries) {
    const res = await s.handle(requestOf(entry));
    answers.push({
      status: res.status,
      headers: lowerCased(res.headers),
      body: res.bytes ? asJournalWritesIt(res.bytes) : res.body,
    });
  }
  return { answers, snapshot: JSON.stringify(s.snapshot()) };
}

describe('the same requests on the same seed and clock', () => {
  it('give byte-identical answers and events, replayed twice from a recorded journal', async () => {
    // A replay needs every body: the recording asks for a budget larger than the session.
    const recording = createSimulator({ seed: 'determinism', clock: steppingClock(1_700_300_000, 1), journal: { maxBodyBytes: 64 * 1024 * 1024 } });
    for (let round = 0; round < 4; round++) await exerciseEveryResource(recording, round);
    const journal = recording.journal.entries();
    expect(journal.length).toBeGreaterThanOrEqual(350);
    // The recording is complete: every request answered, no body cut or dropped.
    const incomplete = (b: JournalEntry['request']) => b.body_truncated || b.body_dropped;
    expect(journal.filter((e) => e.outcome !== 'answered' || incomplete(e.request) || incomplete(e.response!))).toEqual([]);
    const routesCovered = new Set(journal.map((e) => e.route));
    expect(routesCovered.size).toBeGreaterThanOrEqual(60);

    const first = await replay(journal);
    const second = await replay(journal);
    expect(second.answers.length).toBe(journal.length);
    // Compared as one text each, so that any difference in any byte fails.
    expect(JSON.stringify(second.answers)).toBe(JSON.stringify(first.answers));
    expect(second.snapshot).toBe(first.snapshot);
    const recorded = journal.map((e) => ({ status: e.response!.status!, headers: e.response!.headers, body: e.response!.body }));
    expect(JSON.stringify(first.answers)).toBe(JSON.stringify(recorded));
    // Events travel in those answers: the session read its queues along the way.
    expect(journal.filter((e) => e.route === 'GET /events' && JSON.parse(e.response!.body).events.length > 0).length).toBeGreaterThanOrEqual(4);
  });
});
