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
//
// The machine may be busy with other work, so every figure is a median over rounds taken in the
// same conditions: HTTP runs the floor and the simulator back to back in each round (alternating
// which goes first), after a warm-up of both, and compares them round by round; narrow latencies
// are taken in rounds after a warm-up and a GC, and the p99 reported is the median of the rounds'.
// The targets themselves never move. On a shared machine a 0.2 ms request that straddles one of
// the scheduler's time slices waits out the other processes' turns, which alone decides a p99;
// so the benchmark (and its load generator) ask for a higher scheduling priority when allowed
// (root or CAP_SYS_NICE): that removes other processes' turns, not the simulator's own work.
// It also runs V8 with --single-threaded-gc: on two busy cores the parallel scavenger waits for
// helper threads the OS has not scheduled, turning 0.2 ms young-generation collections into 5-15
// ms pauses; collecting on the main thread keeps a collection's cost its own work. (Both servers
// of the HTTP comparison share the process, so they share these settings.)
import { fork } from 'node:child_process';
import { availableParallelism, getPriority, loadavg, setPriority } from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { basicAuth, createSimulator } from '../../simulator/index.ts';
import { sendMessage } from '../../simulator/engine/messages/send.ts';
import { getUserByEmail } from '../../simulator/engine/core.ts';
import { parseCli } from '../cli/args.ts';

const SELF = fileURLToPath(import.meta.url);
const CONNECTIONS = 16;
const SECONDS = 2;
const WARMUP_SECONDS = 1;
const ROUNDS = 7;
const STORED_MESSAGES = 100_000;
const NARROW_WARMUP = 200;
const NARROW_SAMPLES_PER_ROUND = 400;

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

type LoadResult = { requests: number; errors: number; seconds: number };

/**
 * One load-generator process for the whole run (started once, so no run pays a process start),
 * driven over IPC one load at a time.
 */
function startLoadGenerator(): { run(load: Load): Promise<LoadResult>; stop(): void } {
  const child = fork(SELF, ['--load-server'], { execArgv: process.execArgv.filter((a) => !V8_FLAGS.includes(a)) });
  let pending: ((r: LoadResult) => void) | undefined;
  child.on('message', (m) => {
    const resolve = pending;
    pending = undefined;
    resolve?.(m as LoadResult);
  });
  child.once('exit', (code) => {
    if (pending) throw new Error(`load generator exited with ${code}`);
  });
  return {
    run(load) {
      return new Promise((resolve) => {
        pending = resolve;
        child.send(load);
      });
    },
    stop() {
      child.kill();
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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

const BENCH_PRIORITY = -10;
const V8_FLAGS = ['--expose-gc', '--single-threaded-gc'];

/** Raise this process's scheduling priority when permitted; answers the priority in effect. */
function raisePriority(): number {
  try {
    setPriority(0, BENCH_PRIORITY);
  } catch {
    // Not permitted (no CAP_SYS_NICE): measure at the normal priority, and say so.
  }
  return getPriority(0);
}

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
  const priority = raisePriority();
  const rows: [string, string, string][] = [];
  const sim = createSimulator({ seed: 1 });
  const iago = getUserByEmail(sim.engine, 'iago@zulip.com')!;
  const hamlet = getUserByEmail(sim.engine, 'hamlet@zulip.com')!;
  const auth = basicAuth(iago.delivery_email, iago.api_key);

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
  const common = { auth, connections: CONNECTIONS };
  const generator = startLoadGenerator();
  const rate = (r: LoadResult) => r.requests / r.seconds;
  const endpoints: [string, string, 'GET' | 'POST', string | undefined][] = [
    ['HTTP GET /users/{id} (read)', `/api/v1/users/${hamlet.id}`, 'GET', undefined],
    ['HTTP GET /messages/{id} (read)', '/api/v1/messages/1', 'GET', undefined],
    ['HTTP POST /messages (write)', '/api/v1/messages', 'POST', sendBody],
  ];
  for (const [name, path, method, body] of endpoints) {
    const run = (base: string, seconds: number) => generator.run({ ...common, url: `${base}${path}`, method, body, seconds });
    await run(floor.url, WARMUP_SECONDS);
    await run(server.url, WARMUP_SECONDS);
    const ratios: number[] = [];
    const simRates: number[] = [];
    const floorRates: number[] = [];
    let errors = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which server goes first, so a drift in machine load hits both alike.
      const order = round % 2 === 0 ? [floor.url, server.url] : [server.url, floor.url];
      const results = new Map<string, LoadResult>();
      for (const base of order) results.set(base, await run(base, SECONDS));
      const s = results.get(server.url)!;
      const f = results.get(floor.url)!;
      errors += s.errors;
      simRates.push(rate(s));
      floorRates.push(rate(f));
      ratios.push(rate(s) / rate(f));
    }
    const ratio = median(ratios);
    rows.push([
      name,
      `${fmt(median(simRates))} req/s (floor ${fmt(median(floorRates))}; errors ${errors})`,
      `median ${fmt(ratio * 100, 1)}% of floor (rounds ${ratios.map((r) => fmt(r * 100, 0)).join('/')}%) ${ratio >= 0.6 ? 'OK' : 'BELOW 60% TARGET'}`,
    ]);
  }
  generator.stop();
  await server.close();
  await floor.close();

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
    ['sender', [{ operator: 'sender', operand: 12 /* Othello; by id, since his real address is hidden */ }]],
    ['search (rare word)', [{ operator: 'channel', operand: 'Scotland' }, { operator: 'search', operand: 'number 4244' }]],
    ['search (words in every message)', [{ operator: 'channel', operand: 'Scotland' }, { operator: 'search', operand: 'things code' }]],
  ];
  for (const [name, narrow] of narrows) {
    let count = 0;
    let i = 0;
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      const res = await big.request({
        method: 'GET',
        path: '/api/v1/messages',
        as: 'iago@zulip.com',
        query: { anchor: i % 2 ? 'newest' : String(50_000 + i * 97), num_before: '50', num_after: '50', narrow: JSON.stringify(narrow) },
      });
      const elapsed = performance.now() - t0;
      i++;
      count = res.body.messages?.length ?? -1;
      if (res.status !== 200) throw new Error(`narrow ${name} failed: ${JSON.stringify(res.body)}`);
      return elapsed;
    };
    // Warm-up: JIT, caches and the search index; not counted.
    for (let w = 0; w < NARROW_WARMUP; w++) await once();
    const all: number[] = [];
    const roundP99: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      gc();
      const times: number[] = [];
      for (let k = 0; k < NARROW_SAMPLES_PER_ROUND; k++) times.push(await once());
      times.sort((a, b) => a - b);
      roundP99.push(percentile(times, 99));
      all.push(...times);
    }
    all.sort((a, b) => a - b);
    const p99 = median(roundP99);
    rows.push([
      `GET /messages narrow=${name} over ${fmt(stored)} (${count} returned)`,
      `p50 ${fmt(percentile(all, 50), 2)} ms, p95 ${fmt(percentile(all, 95), 2)} ms, p99 ${fmt(p99, 2)} ms (rounds ${roundP99.map((t) => fmt(t, 1)).join('/')})`,
      p99 < 5 ? 'OK (median p99 < 5 ms)' : 'ABOVE 5 ms TARGET',
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
  console.log(
    `\nSimulator benchmark (node ${process.version} ${V8_FLAGS.filter((f) => process.execArgv.includes(f)).join(' ')}, ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${SECONDS}s per HTTP run after ${WARMUP_SECONDS}s warm-up)`,
  );
  // Tail latencies and throughput ratios move with machine load; print it so runs can be compared.
  console.log(
    `machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' / ')}, bench priority ${priority}${priority === BENCH_PRIORITY ? '' : ' (could not raise it)'}\n`,
  );
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
}

const USAGE = `Usage: npm run bench:sim

Measures the simulator: in-process requests per second, HTTP throughput for a read and a write
beside a bare node:http floor, GET /messages narrows over ${STORED_MESSAGES.toLocaleString('en')} stored messages, and the
memory per stored message. Prints medians over rounds; never fails on a threshold.

  -h, --help   this text`;

// --load-server is how the benchmark starts its own load-generator process.
const cli = parseCli(USAGE, { 'load-server': { type: 'boolean', default: false } });

if (cli['load-server']) {
  // Load-generator child: one load per IPC message, answered with its result.
  raisePriority();
  process.on('message', (load) => {
    void runLoad(load as Load).then((r) => process.send!(r));
  });
} else if (!V8_FLAGS.every((f) => process.execArgv.includes(f)) && !process.env.BENCH_NO_RESPAWN) {
  // Re-run with --expose-gc so heap measurements are exact, and --single-threaded-gc (see above).
  const child = fork(SELF, process.argv.slice(2), {
    execArgv: [...process.execArgv, ...V8_FLAGS],
    env: { ...process.env, BENCH_NO_RESPAWN: '1' },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
