/**
 * Property-based fuzzing of the catalog server through its request targets (fast-check): paths
 * made of the built folder's real names, and of what breaks file servers (a path through a
 * file, a file asked for as a folder, dot segments, percent-encoding of every kind, names longer
 * than the filesystem allows, targets of many KB, absolute forms, bytes no client would send),
 * each written byte for byte on a raw socket. The property: never a 5xx, and under /api/ every
 * error past the head's own checks is the JSON error body with its status.
 *
 * Used by test/catalog/fuzz.test.ts (a seeded sample) and `npm run fuzz:catalog -- --targets`.
 */
import net from 'node:net';
import fc from 'fast-check';

/** A request line and what the server answered to it. */
export interface TargetCase {
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST';
  target: string;
}

const segmentPieces = ['api', 'v1', 'services', 'meta-ads.json', 'index.json', 'servicios', 'meta-ads.md', 'llms.txt', '_headers', '.br', '.gz', '.dist', '..', '.', '', 'extra', 'x.json'];
const hostilePieces = ['%2e%2e', '%2F', '%00', '%zz', '%', '%c0%af', '%ff', '%e2%80%ae', ';', '?', '#', '*', '\\', '~', '%20', '+', '&', '=', 'ñ', '%C3%B1'];

const segment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...segmentPieces),
  fc.constantFrom(...hostilePieces),
  fc.string({ maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/),
  // Longer than a file name may be (255 bytes on most filesystems), and many KB in all.
  fc.integer({ min: 200, max: 16_000 }).map((n) => 'x'.repeat(n)),
);

const pathArb: fc.Arbitrary<string> = fc
  .tuple(fc.array(segment, { minLength: 0, maxLength: 8 }), fc.boolean(), fc.constantFrom('', '?a=1', '?', '#f', '?x=%zz'))
  .map(([segments, slash, query]) => `/${segments.join('/')}${slash ? '/' : ''}${query}`);

const target: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: pathArb },
  { weight: 1, arbitrary: pathArb.map((p) => `http://localhost${p}`) },
  { weight: 1, arbitrary: pathArb.map((p) => `/${p}`) },
  { weight: 1, arbitrary: fc.constantFrom('*', 'localhost:80', 'http://[', 'https://x/%zz', '/api/v1/index.json/extra', '/api/v1/services/meta-ads.json/') },
  // Request lines are bytes: anything printable in latin1 but space.
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 40 }).map((s) => `/${s}`) },
);

export function targetCases(): fc.Arbitrary<TargetCase> {
  return fc.record({ method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST'), target });
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request written byte for byte on its own connection. */
export function rawRequest(port: number, c: TargetCase, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.end(Buffer.from(`${c.method} ${c.target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 'latin1')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: split < 0 ? '' : text.slice(split + 4) });
    });
  });
}

/** What is wrong with an answer (empty: nothing). */
/** A case as one short line, for reports: long targets are cut. */
export function describeCase(c: TargetCase): string {
  return `${c.method} ${c.target.length > 120 ? `${c.target.slice(0, 120)}… (${c.target.length} chars)` : c.target}`;
}

export function targetViolations(c: TargetCase, answer: RawAnswer): string[] {
  const violations: string[] = [];
  const where = describeCase(c);
  if (answer.status === 0) violations.push(`${where}: no status line`);
  if (answer.status >= 500) violations.push(`${where}: ${answer.status} ${answer.body.slice(0, 200)}`);
  const api = c.target.startsWith('/api/') && !c.target.startsWith('/api//');
  // Refusals of the head before any route is looked at (hardening.ts: 400 for a malformed one,
  // 431 for one too large) are plain text wherever they were headed, as a proxy's would be.
  const refusedHead = answer.status === 400 || answer.status === 431;
  if (api && answer.status >= 400 && !refusedHead && c.method !== 'HEAD' && !answer.headers['content-type']?.startsWith('application/json')) {
    violations.push(`${where}: ${answer.status} under /api/ as ${answer.headers['content-type']}`);
  }
  if (api && answer.status >= 400 && c.method !== 'HEAD' && answer.headers['content-type']?.startsWith('application/json')) {
    try {
      const body = JSON.parse(answer.body) as { status?: unknown };
      if (body.status !== answer.status) violations.push(`${where}: JSON body says status ${String(body.status)}, answer ${answer.status}`);
    } catch {
      violations.push(`${where}: ${answer.status} body is not JSON`);
    }
  }
  return violations;
}
