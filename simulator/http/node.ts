/**
 * node:http adapter: IncomingMessage → RawRequest → handle() → ServerResponse. What it adds is
 * transport: the body limit (the general one, or the route's own, e.g. uploads), judged from
 * Content-Length before reading and again as the body streams in, and the hardening of
 * hardening.ts (heads, timeouts, connection cap, graceful close).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { installedContract } from '../contract.ts';
import { readLimited } from './body.ts';
import { isPromise, type Handle, type RequestTraits } from './dispatch.ts';
import { internalErrorResponse, transportErrorResponse, type RawResponse } from './envelope.ts';
import { createHardenedServer, type HardenedServer, type ServerLimits } from './hardening.ts';
import { TextSlab } from './fast/text-slab.ts';

/**
 * Body limits, as Zulip's stack has them: form data beyond Django's DATA_UPLOAD_MAX_MEMORY_SIZE
 * (2.5 MiB) is refused; multipart bodies, which carry files, may reach nginx's
 * client_max_body_size (25 MiB); a route may set its own (uploads: the realm's limit).
 */
export const MAX_BODY_BYTES = 2.5 * 1024 * 1024;
export const MAX_MULTIPART_BYTES = 25 * 1024 * 1024;

const TOO_LARGE = transportErrorResponse(413, 'Request body too large');
const NO_BODY = Buffer.alloc(0);
/** Text longer than this (in UTF-16 units) is written as bytes: see write(). */
const LONG_TEXT = 4096;
const NO_TRAITS: RequestTraits = { maxBodyBytes: undefined, bodyTooLarge: undefined, longPoll: false };

export interface HttpOptions {
  /** Limit for bodies that are not multipart, in bytes (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Limit for multipart bodies, in bytes (default MAX_MULTIPART_BYTES). Routes with their own limit use theirs. */
  maxMultipartBytes?: number;
  /** Head size, timeouts, connection cap, lingering close (defaults: hardening.ts's DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
  /** Told of every refusal the server makes itself (413, 431, 408, 400, 503) and the bytes read by then. */
  onRefused?: (status: number, bytesRead: number) => void;
}

/** The length a request announces: a number, or null for none (chunked) or one that is not a number. */
function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
}

/**
 * The request's headers as text. node gives each header one string (repeats joined) except
 * Set-Cookie, a list, which no client sends to a server: only then is a joined copy made.
 */
function textHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const headers = req.headers;
  if (headers['set-cookie'] === undefined) return headers as Record<string, string | undefined>;
  const joined: Record<string, string | undefined> = {};
  for (const k in headers) {
    const v = headers[k];
    joined[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return joined;
}

export function createHttpServer(handle: Handle, options: HttpOptions = {}): HardenedServer {
  const answerRequest = handle.answer ?? handle;
  /** Answers made and not yet written, response then answer (see writeAll). */
  let writes: (ServerResponse | RawResponse)[] = [];
  /** Where long text answers are encoded (see write()). */
  const longText = new TextSlab();
  const formLimit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const multipartLimit = options.maxMultipartBytes ?? MAX_MULTIPART_BYTES;
  /**
   * "Answer now" for the long-polls of each connection that has carried one: aborted when the
   * connection closes (the client went away) or the server closes (held requests answer at once).
   * An HTTP/1.1 connection carries its requests one after another, so they can share one; an
   * AbortController made per poll cost more CPU than the rest of parking it.
   */
  const answerNow = new Map<Socket, AbortController>();
  let closing = false;
  const answerNowSignal = (socket: Socket): AbortSignal => {
    let controller = answerNow.get(socket);
    if (!controller) {
      const made = (controller = new AbortController());
      answerNow.set(socket, made);
      socket.once('close', () => {
        answerNow.delete(socket);
        made.abort();
      });
      if (closing || socket.destroyed) made.abort();
    }
    return controller.signal;
  };
  // The server's own refusals are answers too: the contract sees them with no route.
  const contract = installedContract();
  const shown = (refusal: RawResponse, req?: IncomingMessage): RawResponse => {
    contract?.response(undefined, refusal, { method: req?.method ?? '', url: req?.url ?? '' });
    return refusal;
  };
  const hardened = createHardenedServer(serve, {
    limits: options.limits,
    refusal: (status, message) => shown(transportErrorResponse(status, message)),
    onClosing: () => {
      closing = true;
      for (const controller of answerNow.values()) controller.abort();
    },
    onRefused: options.onRefused,
    // `Expect: 100-continue` (curl, for big uploads): refuse an oversized body before the client
    // sends it, instead of inviting the upload and then throwing it away.
    checkContinue: (req, res) => serve(req, res, true),
  });
  return hardened;

  function serve(req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
    const traits = handle.traits?.(req.method ?? 'GET', req.url ?? '/') ?? NO_TRAITS;
    const multipart = /^\s*multipart\/form-data/i.test(req.headers['content-type'] ?? '');
    const limit = traits.maxBodyBytes ?? (multipart ? multipartLimit : formLimit);
    const tooLarge = traits.bodyTooLarge ?? TOO_LARGE;
    if ((declaredLength(req) ?? 0) > limit) {
      hardened.refuse(req, res, shown(tooLarge, req));
      return;
    }
    if (expectsContinue) res.writeContinue();
    // Only a request held open (a long-poll) waits for anything, so only it listens for "answer
    // now": the client hung up, or the server is shutting down.
    // (The idle timeout needs no change for it: a request waiting for its answer is exempt.)
    const signal = traits.longPoll ? answerNowSignal(req.socket) : undefined;
    // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 section 6.3): nothing
    // to read, and it is answered at once.
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) {
      answer(req, res, NO_BODY, signal);
      return;
    }
    readLimited(req, limit, {
      done: (body) => {
        if (body === null) hardened.refuse(req, res, shown(tooLarge, req));
        else answer(req, res, body, signal);
      },
      failed: (error) => failed(req, res, error),
    });
  }

  /** Hand the request to the simulator and write what it answers, now or once it has. */
  function answer(req: IncomingMessage, res: ServerResponse, body: Buffer, signal: AbortSignal | undefined): void {
    try {
      const out = answerRequest({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: textHeaders(req),
        body,
        signal,
        remoteAddress: req.socket.remoteAddress,
      });
      if (isPromise(out)) out.then((response) => send(req, res, response)).catch((error: unknown) => failed(req, res, error));
      else send(req, res, out);
    } catch (error) {
      failed(req, res, error);
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, out: RawResponse): void {
    if (res.destroyed) return;
    if (out.dropConnection) {
      req.socket.destroy();
      return;
    }
    writes.push(res, out);
    if (writes.length === 2) setImmediate(writeAll);
  }

  /**
   * Answers are written together once the event loop has run every request that was ready, not
   * each as soon as it is made. On loopback a write wakes the client; a client woken once reads
   * the answers that follow while it runs, where one woken per answer went back to sleep in
   * between, and each wake-up cost the writer more than the write itself. An answer waits at most
   * for the other requests of the same turn; a lone request for one turn of the loop.
   */
  function writeAll(): void {
    const batch = writes;
    writes = [];
    for (let i = 0; i < batch.length; i += 2) {
      const res = batch[i] as ServerResponse;
      if (res.destroyed) continue;
      try {
        write(res, batch[i + 1] as RawResponse);
      } catch (error) {
        failed(res.req, res, error);
      }
    }
  }

  function write(res: ServerResponse, out: RawResponse): void {
    // An explicit length keeps responses un-chunked (cheaper for keep-alive clients). Short text
    // is handed to node as text: it writes head and body as one string, one chunk for the
    // socket. Long text (a page of messages) is encoded once into bytes, which give its length
    // and go to the socket as they are, where text was measured, then copied into a scratch
    // area three times its length and encoded again; into a slab, not a buffer of its own per
    // answer (fast/text-slab.ts).
    const payload = out.bytes ?? (out.body.length > LONG_TEXT ? longText.encode(out.body) : out.body);
    res.writeHead(out.status, headerList(out.headers, payload)).end(payload);
  }

  /**
   * The answer's headers as node's flat list (name, value, name, value…), in their order, with
   * Content-Length: node writes a list without the object copy and own-property checks an
   * object costs it.
   */
  function headerList(headers: Readonly<Record<string, string>>, payload: string | Uint8Array): (string | number)[] {
    const list: (string | number)[] = [];
    let hasLength = false;
    for (const name in headers) {
      list.push(name, headers[name]!);
      if (name === 'content-length') hasLength = true;
    }
    if (!hasLength) list.push('content-length', typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
    return list;
  }

  function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    // A client that hung up mid-body has nobody left to answer: not a server fault.
    if (req.destroyed && !req.complete) return;
    console.error('simulator: request failed', error);
    const failure = shown(internalErrorResponse(), req);
    if (!res.headersSent) res.writeHead(failure.status, failure.headers);
    res.end(failure.body);
  }
}

export interface Listening {
  url: string;
  port: number;
  /**
   * Stop the server. graceMs 0 (the default) closes every connection at once; a grace period
   * stops accepting, lets requests in flight finish (held long-polls answer at once) and closes
   * what is left when it runs out.
   */
  close(graceMs?: number): Promise<void>;
}

export function listenHttp(handle: Handle, port = 0, host = '127.0.0.1', options: HttpOptions = {}): Promise<Listening> {
  const hardened = createHttpServer(handle, options);
  const { server } = hardened;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${address.port}/api/v1`,
        port: address.port,
        close: (graceMs = 0) => hardened.close(graceMs),
      });
    });
  });
}
