/**
 * `npm run bench:serve [-- --seconds 4 --rounds 5 --connections 16 --workers 1 --dist DIR]`: how fast
 * `npm run serve` answers a small detail file, next to a floor: a bare node:http server answering
 * the same bytes from memory with a content type and length. Target: the catalog server at ≥ 0.5×
 * the floor's rate.
 *
 * Each server runs in its own process, and so does nothing else: the load comes from autocannon in
 * this process (keep-alive connections, bounded in time, loopback only), pinned to another core
 * than the servers when the machine has two and taskset (harness/machine.ts). Floor and catalog
 * alternate in rounds (ABBA), after a warm-up of both, and the summary gives medians and the ratio.
 * For every run it prints the CPU each side used (a generator near 100% of a core is the limit,
 * not the server) and the machine's load, since this machine is shared: read the numbers with it.
 * A benchmark, not a test: it prints, it never fails on a threshold.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog } from '../catalog/pipeline.ts';
import { parseCli } from '../cli/args.ts';
import { PROJECT_ROOT } from '../cli/root.ts';
import { startCatalogServer } from '../cli/catalog-server.ts';
import { alternate, bottleneck, measureLoad, type LoadOptions, type LoadRequest, type LoadRun } from './harness/load.ts';
import { describeLoad, machineInfo, machineLoad, pinToCore, planPlacement } from './harness/machine.ts';
import { answerCalls, startChild, type ChildServer } from './harness/processes.ts';
import { kilo, median, pct } from './harness/stats.ts';

const SELF = fileURLToPath(import.meta.url);

const USAGE = `Usage: npm run bench:serve -- [--seconds S] [--rounds N] [--connections C] [--workers W] [--dist DIR]

Compares npm run serve with a bare node:http server answering the same small detail file from
memory, each in its own process, autocannon as the load.

  --seconds S       length of each run (default 4)
  --rounds N        rounds of floor and catalog, ABBA (default 5)
  --connections C   keep-alive connections (default 16)
  --workers W       autocannon worker threads (default 1: in this process)
  --dist DIR        a built catalog (default: build content/ into a temporary folder)
  -h, --help        this text`;

const values = parseCli(USAGE, {
  seconds: { type: 'string', default: '4' },
  rounds: { type: 'string', default: '5' },
  connections: { type: 'string', default: '16' },
  workers: { type: 'string', default: '1' },
  dist: { type: 'string' },
  // Internal: how the benchmark starts its server processes.
  child: { type: 'string' },
  file: { type: 'string' },
});

type Side = 'floor' | 'catalog';

// ------------------------------------------------------------------ servers (child processes)

/** A server child: listens, then answers the harness's calls (its CPU time). */
async function serveChild(side: Side): Promise<void> {
  let port: number;
  if (side === 'floor') {
    const body = readFileSync(values.file as string);
    const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length };
    const server = http.createServer((_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  } else {
    const server = await startCatalogServer({ dir: values.dist as string, port: 0 });
    port = Number(new URL(server.url).port);
  }
  answerCalls({ port });
}

type Child = ChildServer<{ port: number }>;

function startServer(side: Side, dist: string, file: string, core: number | null): Promise<Child> {
  return startChild(SELF, ['--child', side, '--dist', dist, '--file', file], { core });
}

/** The smallest service detail file: what an agent fetches most. */
function smallestDetail(dist: string): string {
  const dir = path.join(dist, 'api/v1/services');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const smallest = files.sort((a, b) => statSync(path.join(dir, a)).size - statSync(path.join(dir, b)).size)[0];
  if (!smallest) throw new Error(`no detail files in ${dir}`);
  return `/api/v1/services/${smallest}`;
}

async function main(): Promise<void> {
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  let dist = values.dist ? path.resolve(values.dist) : '';
  let work: string | undefined;
  if (!dist) {
    work = await mkdtemp(path.join(os.tmpdir(), 'catalog-serve-bench-'));
    dist = path.join(work, 'dist');
    const built = await buildCatalog({ contentDir: path.join(PROJECT_ROOT, 'content'), outDir: dist, sourceDateEpoch: '' });
    if (!built.ok) throw new Error('content/ does not build');
  }
  const urlPath = smallestDetail(dist);
  const file = path.join(dist, urlPath);
  const placement = planPlacement();
  pinToCore(process.pid, placement.generatorCore);
  const children: Record<Side, Child> = {
    floor: await startServer('floor', dist, file, placement.serverCore),
    catalog: await startServer('catalog', dist, file, placement.serverCore),
  };
  const request: LoadRequest = { method: 'GET', path: urlPath };
  const options = (s: number): LoadOptions => ({ seconds: s, connections: Number(values.connections), workers: Number(values.workers) });
  try {
    console.log(`GET ${urlPath} (${statSync(file).size} bytes, no Accept-Encoding), ${values.connections} keep-alive connections, ${seconds} s per run, ${rounds} rounds ABBA`);
    const info = machineInfo();
    console.log(`machine: ${info.cpus} CPUs (${info.model}), Node ${info.node}, load average ${describeLoad(machineLoad())}; ${placement.note}`);
    console.log('CPU figures are per core: 100% = one core busy for the whole run.\n');
    for (const side of ['floor', 'catalog'] as const) await measureLoad(children[side], request, options(1)); // warm-up
    const runs = await alternate(['floor', 'catalog'] as const, rounds, (side) => measureLoad(children[side], request, options(seconds)), (side, i, r) => {
      console.log(
        `round ${i + 1} ${side.padEnd(7)} ${kilo(r.rps).padStart(6)} req/s  p99 ${String(r.p99).padStart(3)} ms  server CPU ${pct(r.serverCpu).padStart(4)}  generator CPU ${pct(r.generatorCpu).padStart(4)}  errors ${r.errors + r.non2xx}  load ${r.load.loadAverage[0].toFixed(1)}`,
      );
    });
    const floor = median(runs.floor.map((r) => r.rps));
    const catalog = median(runs.catalog.map((r) => r.rps));
    console.log(`\nmedian: floor ${kilo(floor)} req/s, catalog ${kilo(catalog)} req/s → ${(catalog / floor).toFixed(2)}× the floor (target ≥ 0.5×)`);
    console.log(
      `median generator CPU: ${pct(median([...runs.floor, ...runs.catalog].map((r) => r.generatorCpu)))} of a core; server CPU floor ${pct(median(runs.floor.map((r) => r.serverCpu)))}, catalog ${pct(median(runs.catalog.map((r) => r.serverCpu)))}`,
    );
    const paced = runs.floor.filter((r) => bottleneck(r) === 'generator').length;
    if (paced > 0) console.log(`WARNING: the generator, not the floor, set the pace in ${paced} of ${rounds} floor runs: the ratio is squeezed toward 1`);
    const perReq = (rs: LoadRun[]): number => median(rs.map((r) => r.serverUsPerRequest));
    // CPU per request depends far less on what else the machine runs than the rate does.
    console.log(
      `server CPU per request (median): floor ${perReq(runs.floor).toFixed(1)} µs, catalog ${perReq(runs.catalog).toFixed(1)} µs → the catalog does ${(perReq(runs.floor) / perReq(runs.catalog)).toFixed(2)}× the floor's work rate`,
    );
  } finally {
    await Promise.all(Object.values(children).map((c) => c.stop()));
    if (work) await rm(work, { recursive: true, force: true });
  }
}

if (values.child) await serveChild(values.child as Side);
else await main();
