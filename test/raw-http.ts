/**
 * A raw TCP client for HTTP edge cases that fetch() cannot produce or observe: huge heads, slow
 * bytes, bodies that keep coming after the answer, and what happens to the connection.
 */
import net from 'node:net';

export interface Exchange {
  /** Everything the server sent, as text. */
  response: string;
  /** Bytes this client wrote (head included). */
  sent: number;
  /** Bytes written when the first answer byte arrived (-1: no answer). */
  sentWhenAnswered: number;
  /** The first socket error (EPIPE, ECONNRESET…), if any: a client busy writing would have failed here. */
  error: string | undefined;
  /** Whether the server closed its side cleanly (FIN) rather than resetting. */
  ended: boolean;
}

export interface ExchangeOptions {
  /** Pause between writes, in ms (slow clients); 0 writes as fast as the socket drains. */
  delayMs?: number;
  /** Give up after this long (the connection is destroyed and what arrived is returned). */
  timeoutMs?: number;
  /** Stop writing once the server has answered (a client that reads while it sends). */
  stopWhenAnswered?: boolean;
  /** Keep the connection open after the last piece instead of half-closing it. */
  keepOpen?: boolean;
}

/** Send `pieces` in order on a fresh connection (then half-close), and collect the answer. */
export function exchange(port: number, pieces: Iterable<Buffer | string>, options: ExchangeOptions = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    // Half-open allowed: after the server's FIN, a client may still be sending (and the server reading).
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    const result: Exchange = { response: '', sent: 0, sentWhenAnswered: -1, error: undefined, ended: false };
    const iterator = pieces[Symbol.iterator]();
    let done = false;
    let writing = true;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      result.response = Buffer.concat(received).toString('latin1');
      resolve(result);
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 20_000);
    socket.on('data', (chunk: Buffer) => {
      if (result.sentWhenAnswered < 0) result.sentWhenAnswered = result.sent;
      received.push(chunk);
    });
    socket.on('end', () => {
      result.ended = true;
      if (writing === false) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      result.error ??= error.code ?? error.message;
      finish();
    });
    socket.on('close', finish);
    const pump = (): void => {
      while (!done && !socket.destroyed) {
        const next = options.stopWhenAnswered && result.sentWhenAnswered >= 0 ? { done: true as const } : iterator.next();
        if (next.done) {
          writing = false;
          if (!options.keepOpen) socket.end();
          if (result.ended) finish();
          return;
        }
        const piece = typeof next.value === 'string' ? Buffer.from(next.value, 'latin1') : next.value;
        result.sent += piece.length;
        const drained = socket.write(piece);
        if (options.delayMs) {
          setTimeout(pump, options.delayMs);
          return;
        }
        if (!drained) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.once('connect', pump);
  });
}

/** `total` bytes of `a`, in pieces of `size`, made as they are sent (nothing big held in memory). */
export function* bytes(total: number, size = 64 * 1024): Generator<Buffer> {
  const piece = Buffer.alloc(size, 'a');
  for (let left = total; left > 0; left -= size) yield left >= size ? piece : piece.subarray(0, left);
}

/** The same bytes in chunked transfer coding, ending with the last-chunk. */
export function* chunked(total: number, size = 64 * 1024): Generator<Buffer | string> {
  for (const piece of bytes(total, size)) {
    yield `${piece.length.toString(16)}\r\n`;
    yield piece;
    yield '\r\n';
  }
  yield '0\r\n\r\n';
}

/** The status code of a raw response, or 0 when nothing (or no status line) arrived. */
export function statusOf(response: string): number {
  const m = /^HTTP\/1\.1 (\d{3}) /.exec(response);
  return m ? Number(m[1]) : 0;
}

/** The header block of a raw response, names lower-cased. */
export function headersOf(response: string): Record<string, string> {
  const head = response.split('\r\n\r\n')[0] ?? '';
  const out: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** The body of a raw response (everything after the first blank line). */
export function bodyOf(response: string): string {
  const at = response.indexOf('\r\n\r\n');
  return at < 0 ? '' : response.slice(at + 4);
}
