/**
 * The request journal: every request to the API and its response, in the order they arrived, for
 * assertions ("the bot sent exactly one message to this topic") and for replaying a session.
 * Bounded by entries (the oldest go first) and by body bytes: past the byte budget the oldest entries
 * keep everything but their bodies, which they say were dropped. Each body is kept up to 1 MiB.
 */
import type { JournalEntry, RecordedBody } from '../../schemas/generated/types/control/control.ts';
import type { RawRequest, RequestTrace } from '../http/dispatch.ts';
import type { RawResponse } from '../http/envelope.ts';
import type { Route } from '../http/route.ts';
import { keepParams, recordParams, rereadParams, type KeptParams, type KeptRequest } from './journal-params.ts';
import { routeName } from './route-names.ts';

export interface JournalLimits {
  /**
   * Entries kept (default 1,000: enough for a test's or a session's story; each entry kept past
   * the young generation costs every request collector work, so a long history is asked for).
   */
  maxEntries: number;
  /**
   * Request and response body bytes kept in all (default 256 KiB); the newest entry keeps its
   * bodies even past it. Bodies kept past a couple of young-generation collections make every
   * request cost the collector markedly more (from about 1 MiB kept on), so a long memory is asked for.
   */
  maxBodyBytes: number;
}

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = { maxEntries: 1_000, maxBodyBytes: 256 * 1024 };

/** Longest body one entry keeps; longer ones are cut and marked `body_truncated`. */
export const MAX_RECORDED_BODY_BYTES = 1024 * 1024;

export interface JournalFilter {
  /** `METHOD /pattern` as the route table writes it (`POST /messages`), or `/pattern` for any method. */
  route?: string;
  /** The authenticated user: id, or email (either address, any case). */
  user?: number | string;
  /** An HTTP status (`200`, `"429"`) or a class (`"4xx"`). */
  status?: number | string;
  /** Only entries after this sequence number. */
  after?: number;
  /** At most this many (the oldest first). */
  limit?: number;
}

/** A body as sent: text, or bytes (kept as bytes until read). */
type RawBody = string | Uint8Array | undefined;

/**
 * One request as the journal holds it (read it through `entries`). It keeps what the request and
 * the answer already were (the header objects, the body text or bytes the server wrote) and makes
 * the recorded form only when read: most entries never are, and copies made for each request
 * outlived the young generation and doubled the collector's work.
 */
export interface Recorded {
  seq: number;
  method: string;
  url: string;
  requestHeaders: Readonly<Record<string, string | undefined>>;
  requestBody: RawBody;
  requestTruncated: boolean;
  /**
   * The parameters dispatch read (journal-params.ts), kept once the request is answered; they
   * count toward the byte budget and go with the bodies (and with a body cut at the limit).
   */
  params: KeptParams | null;
  /** The route reached (named only when read: most entries never are). */
  route: Route | null;
  userId: number | null;
  /** The user's delivery and API emails as they were then; null: nobody. */
  deliveryEmail: string | null;
  apiEmail: string | null;
  /** Null while pending or when dropped. */
  responseStatus: number | null;
  responseHeaders: Readonly<Record<string, string>> | null;
  responseBody: RawBody;
  responseTruncated: boolean;
  /** The body was dropped for the byte budget (there was one). */
  requestDropped: boolean;
  responseDropped: boolean;
  /** The bodies are gone for the byte budget; a response arriving later is not kept either. */
  bodiesDropped: boolean;
  outcome: JournalEntry['outcome'];
  faultId: number | null;
  bytes: number;
  evicted: boolean;
  /** While pending: what dispatch has learnt so far. */
  trace: JournalTrace | null;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What an entry holds of its request, as its params are read again from it. */
const keptRequest = (e: Recorded): KeptRequest => ({ url: e.url, headers: e.requestHeaders, body: e.requestBody });

/** Whether a body is longer than an entry keeps. */
const cut = (raw: RawBody): boolean => raw !== undefined && raw.length > MAX_RECORDED_BODY_BYTES;

/** The body an entry keeps: the first MAX_RECORDED_BODY_BYTES of it, copied only when cut. */
function keptBody(raw: RawBody): RawBody {
  if (!cut(raw)) return raw;
  // A view would keep the whole upload alive: the kept part is copied.
  return typeof raw === 'string' ? raw.slice(0, MAX_RECORDED_BODY_BYTES) : Uint8Array.prototype.slice.call(raw!, 0, MAX_RECORDED_BODY_BYTES);
}

function recordBody(
  raw: RawBody,
  truncated: boolean,
  dropped: boolean,
  headers: Readonly<Record<string, string | undefined>>,
  status?: number,
  params?: Record<string, unknown>,
): RecordedBody {
  const plainHeaders: Record<string, string> = {};
  // for…in and one object literal per shape: Object.entries and a conditional spread cost more.
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) plainHeaders[k.toLowerCase()] = v;
  }
  let body = '';
  let encoding: RecordedBody['body_encoding'] = 'utf8';
  if (typeof raw === 'string') body = raw;
  else if (raw !== undefined && raw.length > 0) {
    try {
      body = STRICT_UTF8.decode(raw);
    } catch {
      body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
      encoding = 'base64';
    }
  }
  return status === undefined
    ? { headers: plainHeaders, body, body_encoding: encoding, body_truncated: truncated, body_dropped: dropped, params: params ?? {} }
    : { status, headers: plainHeaders, body, body_encoding: encoding, body_truncated: truncated, body_dropped: dropped };
}

function statusMatches(wanted: number | string, status: number | undefined): boolean {
  if (status === undefined) return false;
  const text = String(wanted).trim().toLowerCase();
  if (/^[1-5]xx$/.test(text)) return Math.floor(status / 100) === Number(text[0]);
  return Number(text) === status;
}

function routeMatches(wanted: string, entry: Recorded): boolean {
  const text = wanted.trim();
  if (entry.route === null) return false;
  return text.startsWith('/') ? entry.route.path === text : routeName(entry.route) === text.replace(/^(\w+)\s+/, (_m, method: string) => `${method.toUpperCase()} `);
}

function userMatches(wanted: string, entry: Recorded): boolean {
  const email = wanted.trim().toLowerCase();
  return entry.deliveryEmail?.toLowerCase() === email || entry.apiEmail?.toLowerCase() === email;
}

/** What dispatch and the faults learn of a request: its route, its user, the fault that acted on it. */
export interface JournalTrace extends RequestTrace {
  faultId?: number;
}

export interface Journal {
  /**
   * Record a request as it arrives; `finish` or `drop` completes it. `trace` is what dispatch fills
   * in as it goes (route, user): a pending entry shows it already.
   */
  begin(req: RawRequest, trace?: JournalTrace): Recorded;
  finish(entry: Recorded, trace: JournalTrace, response: RawResponse): void;
  /** The request's connection was dropped (a fault): no response. */
  drop(entry: Recorded, trace: JournalTrace): void;
  entries(filter?: JournalFilter): JournalEntry[];
  clear(): void;
  /** Call `listener` with each entry's sequence number as it completes (answered or dropped). */
  onSettled(listener: (seq: number) => void): void;
}

export function createJournal(limits: Partial<JournalLimits> = {}): Journal {
  const { maxEntries, maxBodyBytes } = { ...DEFAULT_JOURNAL_LIMITS, ...limits };
  // Entries kept are recorded[first…]: evicting moves `first` on, and the dead front is cut off
  // only once it is as long as what is kept, so a full journal does not copy itself per request.
  let recorded: Recorded[] = [];
  let first = 0;
  /** recorded[first…withBodies-1] have had their bodies dropped (oldest first). */
  let withBodies = 0;
  let bytes = 0;
  let nextSeq = 1;
  const settled: ((seq: number) => void)[] = [];
  const tell = (seq: number): void => {
    for (const listener of settled) listener(seq);
  };

  const evict = (): void => {
    while (recorded.length - first > maxEntries) {
      const gone = recorded[first]!;
      recorded[first++] = undefined!;
      gone.evicted = true;
      bytes -= gone.bytes;
    }
    if (withBodies < first) withBodies = first;
    // The newest entry keeps its bodies whatever they weigh: a test can always read the last answer.
    const newest = recorded.length - 1;
    while (bytes > maxBodyBytes && withBodies < newest) {
      const lighter = recorded[withBodies++]!;
      bytes -= lighter.bytes;
      lighter.bytes = 0;
      lighter.requestDropped = (lighter.requestBody?.length ?? 0) > 0;
      lighter.responseDropped = (lighter.responseBody?.length ?? 0) > 0;
      lighter.requestBody = undefined;
      lighter.responseBody = undefined;
      lighter.params = null;
      lighter.bodiesDropped = true;
    }
    if (first > 0 && first >= recorded.length - first) {
      recorded = recorded.slice(first);
      withBodies -= first;
      first = 0;
    }
  };
  /** What dispatch found out: the route, the user, the fault that acted. */
  const learn = (entry: Recorded, trace: JournalTrace): void => {
    entry.faultId = trace.faultId ?? null;
    entry.route = trace.route ?? null;
    const user = trace.user;
    entry.userId = user ? user.id : null;
    entry.deliveryEmail = user ? user.delivery_email : null;
    entry.apiEmail = user ? user.email : null;
  };

  /** The parameters of an entry that is done, weighed; none for an entry past the budget or with a cut body. */
  const keep = (entry: Recorded, trace: JournalTrace): void => {
    if (entry.evicted || entry.bodiesDropped || entry.requestTruncated) return;
    const kept = keepParams(trace, keptRequest(entry));
    if (!kept) return;
    entry.params = kept;
    entry.bytes += kept.weight;
    bytes += kept.weight;
  };

  return {
    begin(req, trace) {
      const requestBody = keptBody(req.body);
      const entry: Recorded = {
        seq: nextSeq++,
        method: req.method,
        url: req.url,
        requestHeaders: req.headers,
        requestBody,
        requestTruncated: cut(req.body),
        params: null,
        route: null,
        userId: null,
        deliveryEmail: null,
        apiEmail: null,
        responseStatus: null,
        responseHeaders: null,
        responseBody: undefined,
        responseTruncated: false,
        requestDropped: false,
        responseDropped: false,
        bodiesDropped: false,
        outcome: 'pending',
        faultId: null,
        bytes: requestBody?.length ?? 0,
        evicted: false,
        trace: trace ?? null,
      };
      recorded.push(entry);
      bytes += entry.bytes;
      evict();
      return entry;
    },
    finish(entry, trace, response) {
      learn(entry, trace);
      entry.trace = null;
      keep(entry, trace);
      const sent = response.bytes ?? response.body;
      entry.responseStatus = response.status;
      entry.responseHeaders = response.headers;
      entry.outcome = 'answered';
      if (entry.evicted) return;
      if (entry.bodiesDropped) {
        entry.responseDropped = (sent?.length ?? 0) > 0;
        tell(entry.seq);
        return;
      }
      const kept = keptBody(sent);
      entry.responseBody = kept;
      entry.responseTruncated = cut(sent);
      const length = kept?.length ?? 0;
      entry.bytes += length;
      bytes += length;
      evict();
      tell(entry.seq);
    },
    drop(entry, trace) {
      learn(entry, trace);
      entry.trace = null;
      keep(entry, trace);
      evict();
      entry.outcome = 'dropped';
      if (!entry.evicted) tell(entry.seq);
    },
    entries(filter = {}) {
      const out: JournalEntry[] = [];
      for (let i = first; i < recorded.length; i++) {
        const e = recorded[i]!;
        if (e.trace) learn(e, e.trace);
        if (filter.after !== undefined && e.seq <= filter.after) continue;
        if (filter.route !== undefined && !routeMatches(filter.route, e)) continue;
        if (filter.user !== undefined) {
          if (typeof filter.user === 'number' ? e.userId !== filter.user : !userMatches(filter.user, e)) continue;
        }
        if (filter.status !== undefined && !statusMatches(filter.status, e.responseStatus ?? undefined)) continue;
        out.push({
          seq: e.seq,
          method: e.method.toUpperCase(),
          url: e.url,
          route: e.route ? routeName(e.route) : null,
          user_id: e.userId,
          user_email: e.deliveryEmail,
          request: recordBody(
            e.requestBody,
            e.requestTruncated,
            e.requestDropped,
            e.requestHeaders,
            undefined,
            recordParams(e.trace ? keepParams(e.trace) : e.params && rereadParams(e.params, keptRequest(e)), e.route),
          ),
          response: e.responseHeaders === null ? null : recordBody(e.responseBody, e.responseTruncated, e.responseDropped, e.responseHeaders, e.responseStatus!),
          outcome: e.outcome,
          fault_id: e.faultId,
        });
        if (filter.limit !== undefined && out.length >= filter.limit) break;
      }
      return out;
    },
    onSettled(listener) {
      settled.push(listener);
    },
    clear() {
      for (let i = first; i < recorded.length; i++) recorded[i]!.evicted = true;
      recorded = [];
      first = 0;
      withBodies = 0;
      bytes = 0;
    },
  };
}
