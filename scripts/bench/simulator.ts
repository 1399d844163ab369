// Simulator benchmark (`npm run bench:sim`). One run measures:
//   1. in-process requests per second (createSimulator().request, no sockets);
//   2. HTTP requests per second for a read (GET /users/{id}) and a write (POST /messages), next to
//      a floor: a bare node:http server that parses the same Basic auth and form body and answers
//      a fixed envelope. The load comes from a child process (keep-alive, N connections, bounded
//      in time, loopback only), so client and server do not share an event loop;
//   3. GET /messages with a narrow over 100,000 stored messages (p50/p95/p99) and the heap cost
//      per stored message (run with --expose-gc for exact numbers; the script re-executes itself
//      with it when missing).
// Targets: HTTP ≥ 60% of the floor; narrow p99 < 5 ms; < 1 KB per message beyond its content.
import { fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../../simulator/index.ts';
import { sendMessage } from '../../simulator/engine/messages/send.ts';
import { getUserByEmail } from '../../simulator/engine/engine.ts';

const SELF = fileURLToPath(import.meta.url);
const CONNECTIONS = 16;
const SECONDS = 4;
const STORED_MESSAGES = 100_000;

type Load = { url: string; method: 'GET' | 'POST'; auth: string; body?: string; seconds: number; connections: number };

// ---------------------------------------------------------------- load generator (child process)

async function runLoad(load: Load): Promise<{ requests: number; errors: number; seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: load.connections });
  const target = new URL(load.url);
  const headers: Record<string, string> = { authorization: load.auth };
  if (load.body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(load.body));
  }
  const deadline = performance.now() + load.seconds * 1000;
  let requests = 0;
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, method: load.method, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) requests++;
            else errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      if (load.body !== undefined) req.write(load.body);
      req.end();
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: load.connections }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  agent.destroy();
  return { requests, errors, seconds: (performance.now() - start) / 1000 };
}

function loadFromChild(load: Load): Promise<{ requests: number; errors: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--load', JSON.stringify(load)], { execArgv: process.execArgv.filter((a) => a !== '--expose-gc') });
    child.once('message', (m) => resolve(m as { requests: number; errors: number; seconds: number }));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
  });
}

// ---------------------------------------------------------------- floor server

function floorServer(apiKey: string, email: string): Promise<{ url: string; close(): Promise<void> }> {
  const expected = `${email}:${apiKey}`;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = req.headers.authorization ?? '';
      const [scheme, encoded] = header.split(' ');
      const ok = scheme?.toLowerCase() === 'basic' && Buffer.from(encoded ?? '', 'base64').toString('utf8') === expected;
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const body = ok ? `{"result":"success","msg":"","id":${form.size}}\n` : '{"result":"error","msg":"Invalid API key","code":"UNAUTHORIZED"}\n';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

// ---------------------------------------------------------------- helpers

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const rows: [string, string, string][] = [];
  const sim = createSimulator({ seed: 1 });
  const iago = getUserByEmail(sim.engine, 'iago@zulip.com')!;
  const hamlet = getUserByEmail(sim.engine, 'hamlet@zulip.com')!;
  const auth = `Basic ${Buffer.from(`${iago.delivery_email}:${iago.api_key}`).toString('base64')}`;

  // 1. in-process
  {
    const n = 20_000;
    const start = performance.now();
    for (let i = 0; i < n; i++) await sim.request({ method: 'GET', path: `/api/v1/users/${hamlet.id}`, as: iago.id });
    const rps = n / ((performance.now() - start) / 1000);
    rows.push(['in-process GET /users/{id}', `${fmt(rps)} req/s`, '']);
  }

  // 2. HTTP vs floor
  const listening = await sim.listen(0, '127.0.0.1');
  // listen() answers the API base (…/api/v1); both servers get the same paths.
  const server = { url: new URL(listening.url).origin, close: () => listening.close() };
  const floor = await floorServer(iago.api_key, iago.delivery_email);
  const sendBody = new URLSearchParams({ type: 'stream', to: 'Verona', topic: 'bench', content: 'hello from the benchmark' }).toString();
  const common = { auth, seconds: SECONDS, connections: CONNECTIONS };
  const floorRead = await loadFromChild({ ...common, url: `${floor.url}/api/v1/users/${hamlet.id}`, method: 'GET' });
  const simRead = await loadFromChild({ ...common, url: `${server.url}/api/v1/users/${hamlet.id}`, method: 'GET' });
  const floorWrite = await loadFromChild({ ...common, url: `${floor.url}/api/v1/messages`, method: 'POST', body: sendBody });
  const simWrite = await loadFromChild({ ...common, url: `${server.url}/api/v1/messages`, method: 'POST', body: sendBody });
  await server.close();
  await floor.close();
  const rate = (r: { requests: number; seconds: number }) => r.requests / r.seconds;
  for (const [name, s, f] of [
    ['HTTP GET /users/{id}', simRead, floorRead],
    ['HTTP POST /messages', simWrite, floorWrite],
  ] as const) {
    const ratio = rate(s) / rate(f);
    rows.push([
      name,
      `${fmt(rate(s))} req/s (floor ${fmt(rate(f))}; errors ${s.errors})`,
      `${fmt(ratio * 100, 1)}% of floor ${ratio >= 0.6 ? 'OK' : 'BELOW 60% TARGET'}`,
    ]);
  }

  // 3. 100,000 stored messages: memory and narrow latency
  const big = createSimulator({ seed: 2 });
  const engine = big.engine;
  const senders = ['iago@zulip.com', 'hamlet@zulip.com', 'othello@zulip.com', 'prospero@zulip.com'].map((e) => getUserByEmail(engine, e)!);
  const topics = Array.from({ length: 50 }, (_, i) => `topic ${i}`);
  const channels = ['Verona', 'Denmark', 'Scotland'];
  const before = engine.state.messages.messages.length;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let contentBytes = 0;
  for (let i = 0; i < STORED_MESSAGES; i++) {
    const sender = senders[i % senders.length]!;
    const result = sendMessage(engine, sender, {
      type: 'stream',
      to: channels[i % channels.length]!,
      topic: topics[(i * 7) % topics.length]!,
      content: `message number ${i} about **things** and \`code\` :smile:`,
      client: 'bench',
    });
    const m = engine.state.messages.messages[engine.state.messages.indexById.get(result.value.id)!]!;
    contentBytes += m.content.length + m.renderedContent.length + m.topic.length;
  }
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const stored = engine.state.messages.messages.length - before;
  const perMessage = (heapAfter - heapBefore) / stored;
  const beyondContent = (heapAfter - heapBefore - contentBytes) / stored;
  rows.push([
    `memory per stored message (${fmt(stored)} messages${(globalThis as { gc?: unknown }).gc ? '' : ', no --expose-gc'})`,
    `${fmt(perMessage)} B total, ${fmt(beyondContent)} B beyond content`,
    beyondContent < 1024 ? 'OK (< 1 KB)' : 'ABOVE 1 KB TARGET',
  ]);

  const narrows: [string, unknown[]][] = [
    ['channel + topic', [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'topic 3' }]],
    ['channel', [{ operator: 'channel', operand: 'Verona' }]],
    ['sender', [{ operator: 'sender', operand: 'othello@zulip.com' }]],
    ['search (rare word)', [{ operator: 'channel', operand: 'Scotland' }, { operator: 'search', operand: 'number 4244' }]],
    ['search (words in every message)', [{ operator: 'channel', operand: 'Scotland' }, { operator: 'search', operand: 'things code' }]],
  ];
  for (const [name, narrow] of narrows) {
    const times: number[] = [];
    let count = 0;
    // The first 50 runs warm up the JIT (and build the search index); only the next 1000 count.
    for (let i = 0; i < 1050; i++) {
      const t0 = performance.now();
      const res = await big.request({
        method: 'GET',
        path: '/api/v1/messages',
        as: 'iago@zulip.com',
        query: { anchor: i % 2 ? 'newest' : String(50_000 + i * 97), num_before: '50', num_after: '50', narrow: JSON.stringify(narrow) },
      });
      if (i >= 50) times.push(performance.now() - t0);
      count = res.body.messages?.length ?? -1;
      if (res.status !== 200) throw new Error(`narrow ${name} failed: ${JSON.stringify(res.body)}`);
    }
    times.sort((a, b) => a - b);
    const p99 = percentile(times, 99);
    rows.push([
      `GET /messages narrow=${name} over ${fmt(stored)} (${count} returned)`,
      `p50 ${fmt(percentile(times, 50), 2)} ms, p95 ${fmt(percentile(times, 95), 2)} ms, p99 ${fmt(p99, 2)} ms`,
      p99 < 5 ? 'OK (p99 < 5 ms)' : 'ABOVE 5 ms TARGET',
    ]);
  }

  gc();
  const withIndex = (process.memoryUsage().heapUsed - heapBefore - contentBytes) / stored;
  rows.push([
    'memory per stored message, search word index built',
    `${fmt(withIndex)} B beyond content`,
    withIndex < 1024 ? 'OK (< 1 KB)' : 'ABOVE 1 KB TARGET',
  ]);

  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\nSimulator benchmark (node ${process.version}, ${CONNECTIONS} keep-alive connections, ${SECONDS}s per HTTP run)`);
  // Tail latencies and throughput ratios move with machine load; print it so runs can be compared.
  console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' / ')}\n`);
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
}

const loadArg = process.argv.indexOf('--load');
if (loadArg >= 0) {
  runLoad(JSON.parse(process.argv[loadArg + 1]!) as Load).then((r) => {
    process.send!(r);
    process.exit(0);
  });
} else if (!(globalThis as { gc?: unknown }).gc && !process.env.BENCH_NO_RESPAWN) {
  // Re-run with --expose-gc so heap measurements are exact.
  const child = fork(SELF, process.argv.slice(2), {
    execArgv: [...process.execArgv, '--expose-gc'],
    env: { ...process.env, BENCH_NO_RESPAWN: '1' },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
