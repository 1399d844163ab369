/**
 * The floor of `npm run bench:sim`: the least a server must do to answer the simulator's requests
 * over node:http. It reads the body, checks HTTP Basic credentials against every user's API key
 * (constant time, as the simulator does), parses the query string and the form body, and answers
 * a fixed response: the bytes the simulator gave for the same request, so serialising and sending
 * them cost the same on both sides and the ratio is the simulator's own work.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FloorAnswer {
  status: number;
  contentType: string;
  body: string;
}

const UNAUTHORIZED = '{"result":"error","msg":"Invalid API key","code":"UNAUTHORIZED"}\n';

function authorized(header: string | undefined, keys: ReadonlyMap<string, Buffer>): boolean {
  const [scheme, encoded] = (header ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || encoded === undefined) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const expected = keys.get(decoded.slice(0, colon).toLowerCase());
  const given = Buffer.from(decoded.slice(colon + 1), 'utf8');
  return expected !== undefined && expected.length === given.length && timingSafeEqual(expected, given);
}

/** Every field of a form, read as the simulator reads them (the last of a repeated name wins). */
function readForm(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(text)) fields.set(k, v);
  return fields;
}

/** Listen on a free loopback port; `setAnswer` fixes what every authorized request gets. */
export async function startFloorServer(): Promise<{ port: number; setAnswer(answer: FloorAnswer, credentials: Record<string, string>): void; close(): void }> {
  let keys = new Map<string, Buffer>();
  let ok: { status: number; headers: Record<string, string | number>; body: Buffer } | null = null;
  const denied = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(UNAUTHORIZED) };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const fields = readForm(query < 0 ? '' : url.slice(query + 1));
      for (const [k, v] of readForm(Buffer.concat(chunks).toString('utf8'))) fields.set(k, v);
      if (ok === null || !authorized(req.headers.authorization, keys)) {
        res.writeHead(401, denied).end(UNAUTHORIZED);
        return;
      }
      res.writeHead(ok.status, ok.headers).end(ok.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setAnswer(answer, credentials) {
      keys = new Map(Object.entries(credentials).map(([email, key]) => [email.toLowerCase(), Buffer.from(key, 'utf8')]));
      const body = Buffer.from(answer.body, 'utf8');
      ok = { status: answer.status, headers: { 'content-type': answer.contentType, 'content-length': body.length }, body };
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
