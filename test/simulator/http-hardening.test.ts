/**
 * The simulator's HTTP server under hostile input: bodies judged before they are read whole,
 * oversized heads, slow clients, too many connections, and a close that drains. Raw sockets,
 * because fetch() cannot send these requests or see how the connection ends.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../simulator/engine/errors.ts';
import { createDispatcher } from '../../simulator/http/dispatch.ts';
import { getMessage } from '../../simulator/engine/messages/store.ts';
import { DEFAULT_LIMITS } from '../../simulator/http/hardening.ts';
import { createHttpServer, MAX_BODY_BYTES, type HttpOptions } from '../../simulator/http/node.ts';
import type { Route } from '../../simulator/http/route.ts';
import { basicAuth, routes } from '../../simulator/index.ts';
import { bodyOf, bytes, chunked, exchange, headersOf, statusOf } from '../raw-http.ts';
import type { Fixture } from '../../schemas/generated/types/chat/fixture.ts';
import { devFixture, ID, sim } from './helpers.ts';

const MiB = 1024 * 1024;

/** Routes only these tests use: a file-taking route with its own limit, and held requests. */
const testRoutes: Route[] = [
  {
    method: 'POST',
    path: '/test_uploads',
    auth: 'none',
    params: [],
    maxBodyBytes: () => 3 * MiB,
    bodyTooLarge: () => ChatError.badRequest("File is larger than this server's configured maximum upload size (3 MiB)."),
    handler: () => ({ stored: true }),
  },
  {
    method: 'GET',
    path: '/test_hold',
    auth: 'none',
    params: [{ name: 'ms', type: 'int', required: true }],
    longPoll: true,
    // Like a parked GET /events: answers when its time is up, or at once when asked to.
    handler: ({ params, signal }) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ events: [], ended_early: false }), params.ms as number);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve({ events: [], ended_early: true });
        });
      }),
  },
  {
    method: 'GET',
    path: '/test_big',
    auth: 'none',
    params: [],
    // Far more than the kernel buffers of both ends hold: a client that does not read blocks it.
    handler: () => ({ big: 'x'.repeat(16 * MiB) }),
  },
  {
    method: 'GET',
    path: '/test_slow',
    auth: 'none',
    params: [{ name: 'ms', type: 'int', required: true }],
    // Not a long-poll: just slow to answer.
    handler: ({ params }) => new Promise((resolve) => setTimeout(() => resolve({ slow: true }), params.ms as number)),
  },
];

const open: { close(grace?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A simulator server on a free port, with the bytes each connection read and each refusal. */
async function start(options: HttpOptions = {}, fixture?: Fixture) {
  const s = sim(fixture ? { fixture } : {});
  const refusals: { status: number; bytesRead: number }[] = [];
  const hardened = createHttpServer(createDispatcher(() => s.engine, [...routes, ...testRoutes]), {
    ...options,
    onRefused: (status, bytesRead) => refusals.push({ status, bytesRead }),
  });
  const sockets: Socket[] = [];
  hardened.server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => hardened.server.listen(0, '127.0.0.1', resolve));
  const { port } = hardened.server.address() as { port: number };
  open.push(hardened);
  return { port, s, hardened, refusals, sockets, auth: basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key) };
}

const formHead = (length: number | 'chunked', path = '/api/v1/users/me/subscriptions') =>
  `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
  (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
  '\r\n';

const envelope = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

describe('request bodies are judged before they are read whole', () => {
  it('a declared length over the limit is answered 413 at once, before any body byte is sent', async () => {
    const { port, refusals } = await start();
    const head = formHead(50 * MiB);
    const res = await exchange(port, [head]);
    expect(statusOf(res.response)).toBe(413);
    expect(JSON.parse(bodyOf(res.response))).toEqual(envelope('Request body too large'));
    expect(refusals).toEqual([{ status: 413, bytesRead: head.length }]);
  });

  it('a chunked body of 100 MB is refused once it passes the limit, and the connection is cut soon after', async () => {
    const { port, refusals, sockets } = await start();
    const res = await exchange(port, [formHead('chunked'), ...chunked(100 * MiB)]);
    expect(statusOf(res.response)).toBe(413);
    expect(JSON.parse(bodyOf(res.response))).toEqual(envelope('Request body too large'));
    // Answered after the limit and at most one more chunk; afterwards only the lingering drain.
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.bytesRead).toBeLessThanOrEqual(MAX_BODY_BYTES + 256 * 1024);
    expect(sockets[0]!.bytesRead).toBeLessThanOrEqual(MAX_BODY_BYTES + DEFAULT_LIMITS.lingerBytes + MiB);
    expect(res.sent).toBeLessThan(100 * MiB);
  });

  it('eight parallel 24 MiB form posts each cost the server at most the limit before their 413', async () => {
    const { port, refusals, auth } = await start();
    const posts = Array.from({ length: 8 }, (_, i) =>
      // Half announce their length, half stream chunked: both kinds are cut short.
      exchange(port, i % 2 === 0 ? [formHead(24 * MiB), ...bytes(24 * MiB)] : [formHead('chunked'), ...chunked(24 * MiB)], {
        stopWhenAnswered: true,
      }),
    );
    // Meanwhile an ordinary client is served.
    const ordinary = fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: auth } });
    const results = await Promise.all(posts);
    expect((await ordinary).status).toBe(200);
    expect(results.map((r) => statusOf(r.response))).toEqual(Array(8).fill(413));
    expect(refusals).toHaveLength(8);
    for (const { bytesRead } of refusals) expect(bytesRead).toBeLessThanOrEqual(MAX_BODY_BYTES + 256 * 1024);
  });

  it('clients that finish sending before they read (blocking clients) still read the 413', async () => {
    const { port } = await start();
    // Refused at once, then drained (read and dropped) so that the sends complete: closing with
    // unread bytes would reset the connection and fail the client's writes (EPIPE).
    const results = await Promise.all(Array.from({ length: 6 }, () => exchange(port, [formHead(24 * MiB), ...bytes(24 * MiB)])));
    for (const r of results) {
      expect(r.error).toBeUndefined();
      expect(r.sent).toBe(formHead(24 * MiB).length + 24 * MiB);
      expect(statusOf(r.response)).toBe(413);
      expect(JSON.parse(bodyOf(r.response))).toEqual(envelope('Request body too large'));
    }
  });

  it('Expect: 100-continue with an oversized length gets the 413 and no invitation to send', async () => {
    const { port } = await start();
    const res = await exchange(port, [formHead(50 * MiB).replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n')]);
    expect(res.response.startsWith('HTTP/1.1 413 ')).toBe(true);
  });

  it("a route's own limit (uploads) applies instead of the general one, with the route's error", async () => {
    const { port } = await start({ maxMultipartBytes: MiB });
    const post = (size: number) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(size, 'a')]), 'big.bin');
      return fetch(`http://127.0.0.1:${port}/api/v1/test_uploads`, { method: 'POST', body: form });
    };
    const within = await post(2 * MiB);
    expect([within.status, await within.json()]).toEqual([200, { result: 'success', msg: '', stored: true }]);
    const over = await post(4 * MiB);
    expect([over.status, await over.json()]).toEqual([
      400,
      { result: 'error', msg: "File is larger than this server's configured maximum upload size (3 MiB).", code: 'BAD_REQUEST' },
    ]);
    // Streamed without a declared length, the same limit cuts it off.
    const streamed = await exchange(port, [formHead('chunked', '/api/v1/test_uploads'), ...chunked(10 * MiB)], { stopWhenAnswered: true });
    expect(statusOf(streamed.response)).toBe(400);
  });

  it("POST /user_uploads streams up to the realm's max_file_upload_size_mib and answers Zulip's error past it", async () => {
    const fixture = devFixture();
    fixture.realm.max_file_upload_size_mib = 1;
    const { port, refusals, auth } = await start({}, fixture);
    const head =
      'POST /api/v1/user_uploads HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n' +
      `Authorization: ${auth}\r\nContent-Type: multipart/form-data; boundary=b\r\n\r\n`;
    const res = await exchange(port, [head, ...chunked(50 * MiB)], { stopWhenAnswered: true });
    expect(statusOf(res.response)).toBe(400);
    expect(JSON.parse(bodyOf(res.response))).toEqual({
      result: 'error',
      msg: "File is larger than this server's configured maximum upload size (1 MiB).",
      code: 'BAD_REQUEST',
    });
    // The realm's MiB and one more for the framing, then at most a chunk.
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.bytesRead).toBeLessThanOrEqual(2 * MiB + 256 * 1024);
  });
});

describe('request bodies that arrive in pieces or not at all', () => {
  /** A send to Verona whose form body is split every `size` bytes (inside percent escapes too). */
  const sendInPieces = (auth: string, content: string, size: number, framing: 'length' | 'chunked') => {
    const form = Buffer.from(new URLSearchParams({ type: 'stream', to: 'Verona', topic: 'pieces', content }).toString());
    const pieces: (Buffer | string)[] = [];
    for (let at = 0; at < form.length; at += size) {
      const piece = form.subarray(at, at + size);
      if (framing === 'chunked') pieces.push(`${piece.length.toString(16)}\r\n`, piece, '\r\n');
      else pieces.push(piece);
    }
    if (framing === 'chunked') pieces.push('0\r\n\r\n');
    const head = formHead(framing === 'chunked' ? 'chunked' : form.length, '/api/v1/messages').replace('\r\n\r\n', `\r\nAuthorization: ${auth}\r\n\r\n`);
    return [head, ...pieces];
  };

  it.each(['length', 'chunked'] as const)('a body sent in small pieces with pauses between them is read whole (%s)', async (framing) => {
    const { port, s, auth } = await start();
    const content = 'naïve café ☕ über'.repeat(3);
    const res = await exchange(port, sendInPieces(auth, content, 7, framing), { delayMs: 2 });
    expect(statusOf(res.response)).toBe(200);
    const { id } = JSON.parse(bodyOf(res.response)) as { id: number };
    const store = s.engine.state.messages;
    expect(getMessage(store, id)!.content).toBe(content);
  });

  it('a client that hangs up mid-body costs no message and no logged error, and other clients are served', async () => {
    const { port, s, auth, refusals } = await start();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const stored = s.engine.state.messages.messages.length;
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await once(socket, 'connect');
      // 40 bytes promised, 21 sent, then the connection reset.
      socket.write(formHead(40, '/api/v1/messages').replace('\r\n\r\n', `\r\nAuthorization: ${auth}\r\n\r\n`) + 'type=stream&to=Verona');
      await sleep(20);
      socket.resetAndDestroy();
      await once(socket, 'close');
      const next = await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: auth } });
      expect(next.status).toBe(200);
      expect(s.engine.state.messages.messages.length).toBe(stored);
      expect(errors).not.toHaveBeenCalled();
      expect(refusals).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it('a client that hangs up after its body, while the answer is being made, costs no logged error', async () => {
    const { port, auth } = await start();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await once(socket, 'connect');
      socket.write('GET /api/v1/test_slow?ms=100 HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabc');
      await sleep(30);
      socket.resetAndDestroy();
      await sleep(150);
      const next = await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: auth } });
      expect(next.status).toBe(200);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});

describe('request heads', () => {
  it('a 16 MB header is answered 431 with the envelope, which the client reads, then the connection closes', async () => {
    const { port } = await start();
    const res = await exchange(port, ['GET /api/v1/users/me HTTP/1.1\r\nHost: test\r\nX-Big: ', ...bytes(16 * MiB), '\r\n\r\n']);
    expect(res.error).toBeUndefined();
    expect(statusOf(res.response)).toBe(431);
    expect(headersOf(res.response).connection).toBe('close');
    expect(JSON.parse(bodyOf(res.response))).toEqual(envelope('Request header fields too large'));
    expect(res.ended).toBe(true);
  });

  it('a HEAD refused by the server itself gets the head of the answer only, which an HTTP client can parse', async () => {
    const { port } = await start();
    // A head over the limit (431), and a body announced over the limit (413).
    for (const [head, status] of [
      [`HEAD /api/v1/users/me?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: test\r\n\r\n`, 431],
      [`HEAD /api/v1/users/me HTTP/1.1\r\nHost: test\r\nContent-Length: ${50 * MiB}\r\n\r\n`, 413],
    ] as const) {
      const res = await exchange(port, [head]);
      expect(statusOf(res.response)).toBe(status);
      expect(Number(headersOf(res.response)['content-length'])).toBeGreaterThan(0);
      expect(res.response.endsWith('\r\n\r\n')).toBe(true);
    }
    // What the fuzzer saw: node's own client reads the 431 instead of failing with a parse error.
    const answer = await new Promise<number | string>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'HEAD', path: `/api/v1/users/me?${'q'.repeat(20_000)}` }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', (error) => resolve(error.message));
      req.end();
    });
    expect(answer).toBe(431);
  });

  it('a malformed request line is answered 400 with the envelope', async () => {
    const { port } = await start();
    const res = await exchange(port, ['NOT HTTP AT ALL\r\n\r\n']);
    expect(statusOf(res.response)).toBe(400);
    expect(JSON.parse(bodyOf(res.response))).toEqual(envelope('Malformed HTTP request'));
  });
});

describe('slow clients', () => {
  it('a head sent one byte at a time is cut off with 408 when the header timeout runs out', async () => {
    const { port } = await start({ limits: { headersTimeoutMs: 400 } });
    const head = `GET /api/v1/users/me HTTP/1.1\r\nHost: test\r\nX-Slow: ${'s'.repeat(200)}\r\n\r\n`;
    const res = await exchange(port, head.split(''), { delayMs: 20, stopWhenAnswered: true });
    expect(statusOf(res.response)).toBe(408);
    expect(JSON.parse(bodyOf(res.response))).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(res.sentWhenAnswered).toBeLessThan(head.length);
  });

  it('a body that stops coming is answered 408', async () => {
    const { port } = await start({ limits: { requestTimeoutMs: 400 } });
    const res = await exchange(port, [formHead(100), 'subscriptions=', ...Array(200).fill('')], { delayMs: 20, stopWhenAnswered: true });
    expect(statusOf(res.response)).toBe(408);
  });

  it('a body that stalls past the idle timeout is answered 408; a long-poll or a slow answer waits past it', async () => {
    const { port } = await start({ limits: { idleTimeoutMs: 300 } });
    const stalled = await exchange(port, [formHead(100), 'subscriptions='], { keepOpen: true, timeoutMs: 3_000 });
    expect(statusOf(stalled.response)).toBe(408);
    const held = await fetch(`http://127.0.0.1:${port}/api/v1/test_hold?ms=900`);
    expect([held.status, await held.json()]).toEqual([200, { result: 'success', msg: '', events: [], ended_early: false }]);
    const slow = await fetch(`http://127.0.0.1:${port}/api/v1/test_slow?ms=900`);
    expect([slow.status, await slow.json()]).toEqual([200, { result: 'success', msg: '', slow: true }]);
  });

  it('a client that does not read its answer loses the connection after the idle timeout', async () => {
    const { port, sockets } = await start({ limits: { idleTimeoutMs: 300, keepAliveTimeoutMs: 60_000 } });
    const client = connect(port, '127.0.0.1', () => client.write('GET /api/v1/test_big HTTP/1.1\r\nHost: test\r\n\r\n'));
    client.pause();
    while (sockets.length < 1 || !sockets[0]!.destroyed) await new Promise((resolve) => setTimeout(resolve, 20));
    // Reading now gets what the buffers held, then the end: not the whole answer.
    let received = 0;
    await new Promise<void>((resolve) => {
      client.on('data', (chunk: Buffer) => (received += chunk.length));
      client.on('close', () => resolve());
      client.on('error', () => {});
      client.resume();
    });
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(16 * MiB);
  });

  it('past the connection cap, a new connection is answered 503 with Retry-After and the envelope', async () => {
    const { port, auth, sockets } = await start({ limits: { maxConnections: 2 } });
    // Two clients in the middle of their heads hold both places.
    const holders = [0, 1].map(() => exchange(port, ['GET /api/v1/users/me HTTP/1.1\r\nHost: test\r\n'], { keepOpen: true, timeoutMs: 1_000 }));
    while (sockets.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await exchange(port, ['GET /api/v1/users/me HTTP/1.1\r\nHost: test\r\n\r\n']);
    expect(statusOf(refused.response)).toBe(503);
    expect(headersOf(refused.response)['retry-after']).toBe('1');
    expect(JSON.parse(bodyOf(refused.response))).toEqual(envelope('Too many connections: try again shortly'));
    await Promise.all(holders);
    // Once the holders' connections are gone on the server's side, there is room again.
    while (!sockets[0]!.destroyed || !sockets[1]!.destroyed) await new Promise((resolve) => setTimeout(resolve, 10));
    const served = await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: auth } });
    expect(served.status).toBe(200);
  });
});

describe('closing with a grace period', () => {
  it('lets a request in flight finish, ends a held long-poll with its normal answer, then refuses connections', async () => {
    const { port, hardened } = await start();
    const slow = fetch(`http://127.0.0.1:${port}/api/v1/test_slow?ms=300`);
    const held = fetch(`http://127.0.0.1:${port}/api/v1/test_hold?ms=60000`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = hardened.close(5_000);
    const [slowRes, heldRes] = await Promise.all([slow, held]);
    expect([slowRes.status, await slowRes.json()]).toEqual([200, { result: 'success', msg: '', slow: true }]);
    expect([heldRes.status, await heldRes.json()]).toEqual([200, { result: 'success', msg: '', events: [], ended_early: true }]);
    await closed;
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/users/me`)).rejects.toThrow();
  });
});
