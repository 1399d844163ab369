/** node:http adapter: IncomingMessage → RawRequest → handle() → ServerResponse. No logic here. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handle } from './dispatch.ts';
import { bodyLength, internalErrorResponse } from './envelope.ts';

/** Bodies above this size are refused before being read in full. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

const TOO_LARGE = `${JSON.stringify({ result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' })}\n`;

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) overflow = true;
      if (!overflow) chunks.push(chunk);
    });
    req.on('end', () => resolve(overflow ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface HttpOptions {
  maxBodyBytes?: number;
}

export function createHttpServer(handle: Handle, options: HttpOptions = {}): Server {
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const server = createServer(serve);
  // `Expect: 100-continue` (curl, for big uploads): refuse an oversized body before the client
  // sends it, instead of inviting the upload and then throwing it away.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) <= limit) res.writeContinue();
    serve(req, res);
  });
  return server;

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(TOO_LARGE);
      req.resume();
      return;
    }
    readBody(req, limit)
      .then(async (body) => {
        if (body === null) {
          res.writeHead(413, { 'content-type': 'application/json' }).end(TOO_LARGE);
          return;
        }
        const headers: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        const out = await handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers, body });
        // An explicit length keeps responses un-chunked (cheaper for keep-alive clients).
        const length = out.headers['content-length'] ?? String(bodyLength(out));
        res.writeHead(out.status, { ...out.headers, 'content-length': length }).end(out.bytes ?? out.body);
      })
      .catch((error: unknown) => {
        // A client that hung up mid-body has nobody left to answer: not a server fault.
        if (req.destroyed && !req.complete) return;
        console.error('simulator: request failed', error);
        const failure = internalErrorResponse();
        if (!res.headersSent) res.writeHead(failure.status, failure.headers);
        res.end(failure.body);
      });
  }
}

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listenHttp(handle: Handle, port = 0, host = '127.0.0.1', options: HttpOptions = {}): Promise<Listening> {
  const server = createHttpServer(handle, options);
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${address.port}/api/v1`,
        port: address.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.closeAllConnections();
            server.close((err) => (err ? fail(err) : done()));
          }),
      });
    });
  });
}
