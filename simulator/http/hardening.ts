/**
 * node:http hardening shared by the simulator's adapter (node.ts) and the catalog server
 * (scripts/serve.ts): limits on request heads, timeouts for slow clients, a cap on open
 * connections, refusals the client actually reads, and a close that lets requests in flight
 * finish. Each server supplies only the body of its refusals.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ServerLimits {
  /** Request line and headers together, in bytes; a bigger head is answered 431. */
  maxHeaderBytes: number;
  /** Time a client has to send the whole request head (slow headers are answered 408). */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included (slow bodies are answered 408). */
  requestTimeoutMs: number;
  /**
   * Silence allowed while the client owes the server something: the rest of a request body, or
   * reading the answer (a request waiting for its answer, e.g. a held long-poll, is exempt).
   */
  idleTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; the next one is answered 503 with Retry-After and closed. */
  maxConnections: number;
  /**
   * After a refusal, what the client still sends is read and dropped (nginx's lingering close):
   * closing at once, with unread bytes, resets the connection, and a client busy sending never
   * reads the answer. The connection closes when the client does, after lingerMs of silence,
   * after lingerBytes, or at the latest after lingerTotalMs.
   */
  lingerMs: number;
  lingerBytes: number;
  lingerTotalMs: number;
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1000,
  lingerMs: 2_000,
  lingerBytes: 64 * 1024 * 1024,
  lingerTotalMs: 30_000,
};

/** A complete answer, written as is. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The server's own wording of a refusal it did not choose (431, 408, 400, 503). */
export type RefusalFor = (status: number, message: string) => Refusal;

export interface HardeningOptions {
  limits?: Partial<ServerLimits>;
  refusal: RefusalFor;
  /** Told when close() begins, to end requests the server holds open (long-polls). */
  onClosing?: () => void;
  /**
   * Requests sent with `Expect: 100-continue`, to judge before inviting the body (call
   * res.writeContinue() to accept). Default: node's, which invites every body.
   */
  checkContinue?: RequestListener;
  /** Told of every refusal, with how many bytes the connection had read when it was answered. */
  onRefused?: (status: number, bytesRead: number) => void;
}

export interface HardenedServer {
  server: Server;
  /** Answer on this request's connection, then close it the lingering way; nothing more is read as HTTP. */
  refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void;
  /**
   * Stop accepting connections, let requests in flight finish (onClosing ends held ones) for up
   * to graceMs, then close every connection. graceMs 0 closes everything at once.
   */
  close(graceMs?: number): Promise<void>;
}

const MESSAGES: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout: the request was not received in time'],
};

/**
 * The bytes of a refusal: status line, headers, `Connection: close`, body. The answer to a HEAD
 * has the headers alone (RFC 9110 section 9.3.2): a client reading it expects no body, and bytes after
 * the head break its parser.
 */
function serialize(refusal: Refusal, head: boolean): string {
  const lines = [`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`];
  for (const [name, value] of Object.entries(refusal.headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'content-length' && lower !== 'connection') lines.push(`${name}: ${value}`);
  }
  lines.push(`Content-Length: ${Buffer.byteLength(refusal.body)}`, 'Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${head ? '' : refusal.body}`;
}

/**
 * Whether the request node could not parse is a HEAD, from the bytes it failed on. Clients write
 * a head in one piece, so those bytes start with the request line; when they do not (a head
 * dribbled in pieces), it is taken for a request that wants the body.
 */
function failedOnHead(error: Error & { rawPacket?: Buffer }): boolean {
  return error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
}

export function createHardenedServer(listener: RequestListener, options: HardeningOptions): HardenedServer {
  // Limits left undefined (a flag not given) keep their default.
  const given = Object.entries(options.limits ?? {}).filter(([, value]) => value !== undefined);
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...Object.fromEntries(given) };
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      // node insists that the head's deadline is not after the whole request's.
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (default 30 s, far past them).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.headersTimeoutMs / 4)),
    },
    (req, res) => track(req, res, listener),
  );
  const { checkContinue } = options;
  if (checkContinue) server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => track(req, res, checkContinue));

  /** Every open connection, and those of them counted against the cap (not the refused ones). */
  const sockets = new Set<Socket>();
  const accepted = new Set<Socket>();
  const lingering = new WeakSet<Socket>();
  /**
   * The response each connection last began, for timeouts and parse errors mid-request; once
   * finished it is owed no more. Read through owedBy: nothing is undone per request.
   */
  const owed = new WeakMap<Socket, ServerResponse>();
  const owedBy = (socket: Socket): ServerResponse | undefined => {
    const res = owed.get(socket);
    return res && !res.writableFinished ? res : undefined;
  };
  let closing = false;
  let closed: Promise<void> | null = null;

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (accepted.size >= limits.maxConnections) {
      const busy = options.refusal(503, 'Too many connections: try again shortly');
      lingeringClose(socket, { ...busy, headers: { ...busy.headers, 'Retry-After': '1' } });
      return;
    }
    accepted.add(socket);
    socket.once('close', () => accepted.delete(socket));
  });

  // Malformed requests, oversized heads and timeouts: answer in words the client can read,
  // where node would write a bare status line and reset the connection.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (lingering.has(socket)) return;
    const res = owedBy(socket);
    if (!socket.writable || (res && res.headersSent) || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    const [status, message] = MESSAGES[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
    lingeringClose(socket, options.refusal(status, message), failedOnHead(error));
  });

  // The idle timeout is the client's: a body that stopped coming (408), an answer the client does
  // not read (the connection is dropped). While a whole request waits for its answer (a slow
  // route, a long-poll) the silence is the server's, and idle keep-alive connections are node's
  // (keepAliveTimeout). node's own idle timer (server.timeout) would be re-armed on every request
  // and refreshed on every read and write; one sweep over the connections instead costs nothing
  // per request, and catches a silence between idleTimeoutMs and idleTimeoutMs + 2 sweeps.
  const progress = new WeakMap<Socket, { bytes: number; since: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const socket of accepted) {
      const res = owedBy(socket);
      const req = res?.req;
      // Owed by the client: the body (request not complete) or reading the answer (headers out, not finished).
      if (!res || !req || lingering.has(socket) || (req.complete && !res.headersSent)) {
        progress.delete(socket);
        continue;
      }
      const bytes = socket.bytesRead + socket.bytesWritten;
      const seen = progress.get(socket);
      if (seen === undefined || seen.bytes !== bytes) progress.set(socket, { bytes, since: now });
      else if (now - seen.since >= limits.idleTimeoutMs) {
        progress.delete(socket);
        if (res.headersSent) socket.destroy();
        else lingeringClose(socket, options.refusal(408, 'Request timeout: the body stopped coming'));
      }
    }
  }, Math.max(10, Math.min(1_000, limits.idleTimeoutMs / 4)));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  function track(req: IncomingMessage, res: ServerResponse, handler: RequestListener): void {
    const socket = req.socket;
    owed.set(socket, res);
    if (closing) closeWhenAnswered(res);
    handler(req, res);
  }

  /** While closing: the answer says `Connection: close`, and its connection, idle once it is sent, closes. */
  function closeWhenAnswered(res: ServerResponse): void {
    if (!res.headersSent) res.setHeader('connection', 'close');
    // A keep-alive connection that just went idle holds up close() until it is closed.
    res.once('close', () => server.closeIdleConnections());
  }

  function lingeringClose(socket: Socket, refusal: Refusal, head = false): void {
    if (lingering.has(socket) || socket.destroyed) return;
    lingering.add(socket);
    options.onRefused?.(refusal.status, socket.bytesRead);
    // Detach node's HTTP parser (adding our own 'data' listener makes it hand the stream back):
    // from here on this connection carries no more requests, only bytes to drop.
    socket.removeAllListeners('data');
    let dropped = 0;
    const close = (): void => {
      socket.destroy();
    };
    const deadline = setTimeout(close, limits.lingerTotalMs);
    const silence = setTimeout(close, limits.lingerMs);
    socket.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > limits.lingerBytes) close();
      else silence.refresh();
    });
    socket.on('end', close);
    socket.on('error', close);
    socket.setTimeout(0);
    socket.once('close', () => {
      clearTimeout(deadline);
      clearTimeout(silence);
    });
    // The answer, then FIN: the client reads it while we keep reading what it still sends.
    socket.end(serialize(refusal, head));
    // Refusals happen inside node's parser run, which still feeds the rest of its buffer to the
    // request and pauses the socket when nobody reads it: resume once that run is over.
    setImmediate(() => socket.resume());
  }

  return {
    server,
    refuse(req, res, refusal) {
      // A response queued behind another one on this connection (pipelining) has no socket
      // yet: let node send it in turn and close plainly.
      if (res.socket === null) {
        options.onRefused?.(refusal.status, req.socket.bytesRead);
        res.writeHead(refusal.status, { ...refusal.headers, connection: 'close' }).end(refusal.body);
        return;
      }
      lingeringClose(req.socket, refusal, req.method === 'HEAD');
    },
    close(graceMs = 0) {
      if (closed) return closed;
      closing = true;
      closed = new Promise<void>((resolve) => {
        server.close(() => resolve());
      });
      for (const socket of sockets) {
        const res = owedBy(socket);
        if (res) closeWhenAnswered(res);
      }
      options.onClosing?.();
      const forceClose = (): void => {
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      };
      if (graceMs <= 0) forceClose();
      else {
        const timer = setTimeout(forceClose, graceMs);
        void closed.then(() => clearTimeout(timer));
      }
      return closed;
    },
  };
}
