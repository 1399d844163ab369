/**
 * The simulator's front door: the live page (live/serve.ts) answers GET / and its files, requests
 * under /__simulator go to the control API, every other one to the chat API's dispatcher,
 * recorded in the journal on the way (with the route and user dispatch found, and the fault that
 * acted on it, if any).
 */
import { isPromise, type Handle, type RawRequest, type Soon } from '../http/dispatch.ts';
import { internalErrorResponse, type RawResponse } from '../http/envelope.ts';
import { isControlPath, MAX_CONTROL_BODY_BYTES } from './dispatch.ts';
import type { Journal, JournalTrace } from './journal.ts';
import { isLivePagePath } from '../live/serve.ts';
import { CONTROL_PREFIX } from './routes.ts';

const JOURNAL_FEED_PATH = `${CONTROL_PREFIX}/journal/feed`;

export interface FrontDoor {
  /** The chat API's dispatcher. */
  api: Handle;
  /** The control API's. */
  control: (req: RawRequest) => Promise<RawResponse>;
  /** The live page (GET / and its files), not journaled either. */
  livePage: (req: RawRequest) => RawResponse;
  /** Where API requests are recorded; none: not recorded. */
  journal: Journal | null;
  onUnexpectedError: (error: unknown, req: RawRequest) => void;
}

export function createFrontDoor({ api, control, livePage, journal, onUnexpectedError }: FrontDoor): Handle {
  const answerApi = api.answer ?? api;
  const controlled = async (req: RawRequest): Promise<RawResponse> => {
    try {
      return await control(req);
    } catch (error) {
      onUnexpectedError(error, req);
      return internalErrorResponse();
    }
  };
  const answer = (req: RawRequest): Soon<RawResponse> => {
    if (isLivePagePath(req.url)) return livePage(req);
    if (isControlPath(req.url)) return controlled(req);
    if (!journal) return answerApi(req);
    const trace: JournalTrace = {};
    const entry = journal.begin(req, trace);
    const recorded = (response: RawResponse): RawResponse => {
      if (response.dropConnection) journal.drop(entry, trace);
      else journal.finish(entry, trace, response);
      return response;
    };
    // Spelt out rather than spread: the spread copy showed in every request's cost.
    const response = answerApi({ method: req.method, url: req.url, headers: req.headers, body: req.body, signal: req.signal, remoteAddress: req.remoteAddress, trace });
    return isPromise(response) ? response.then(recorded) : recorded(response);
  };
  const handle: Handle = async (req) => answer(req);
  handle.answer = answer;
  handle.traits = (method, url) =>
    // The journal's feed is a long-poll: it listens for "answer now" (the client left, the server closes).
    isControlPath(url) ? { maxBodyBytes: MAX_CONTROL_BODY_BYTES, bodyTooLarge: undefined, longPoll: url.startsWith(JOURNAL_FEED_PATH) } : api.traits!(method, url);
  return handle;
}
