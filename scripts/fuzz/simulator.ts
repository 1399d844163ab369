/**
 * `npm run fuzz -- --runs N --seed S`: the simulator's fuzzer (scripts/fuzz/chat/) for as long as
 * asked. Prints how many requests it sent, how fast, which routes it reached, and every distinct
 * failure with its minimal request sequence and the command that replays it; exits 1 if any.
 */
import { parseCli, positiveOf, usageError } from '../cli/args.ts';
import { runCampaign } from './chat/campaign.ts';
import { createWorld } from './chat/world.ts';

const USAGE = `Usage: npm run fuzz -- [--runs N | --requests N] [--seed S] [options]

Sends random request sequences, generated from the route table, to the simulator: every route,
as every kind of user (and the deactivated, and bad credentials), with parameters missing, extra,
mistyped, oversized or malformed, broken encodings, mutated methods and paths. After every request
it checks the answer (below 500, Zulip's envelope) and the realm (subscriptions, groups and
messages point at what exists, indexes agree, message ids only grow, nobody deactivated acts).

  --runs N          sequences to run (default 1000; each is 1 to --max-length requests)
  --requests N      instead, run until N requests have been sent
  --seed S          fast-check seed (default: random; printed, so a failure can be replayed)
  --path P          replay one failure: the --seed and --path its report prints
  --max-length N    most requests in one sequence (default 12)
  --http-share X    share of sequences sent over real HTTP sockets (default 0.02)
  --audit-share X   share of sequences that also check that refused requests change nothing (default 0.1)
  --max-failures N  stop after N distinct failures (default 10)
  -h, --help        this text`;

const values = parseCli(USAGE, {
  runs: { type: 'string', default: '1000' },
  requests: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
  'max-length': { type: 'string', default: '12' },
  'http-share': { type: 'string', default: '0.02' },
  'audit-share': { type: 'string', default: '0.1' },
  'max-failures': { type: 'string', default: '10' },
});

const integer = (flag: string, value: string) => {
  const n = positiveOf(flag, value, USAGE);
  if (!Number.isInteger(n)) usageError(`${flag} must be a whole number, got "${value}"`, USAGE);
  return n;
};
const share = (flag: string, value: string) => {
  const x = Number(value);
  if (value.trim() === '' || !(x >= 0 && x <= 1)) usageError(`${flag} must be a number from 0 to 1, got "${value}"`, USAGE);
  return x;
};
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(seed)) usageError(`--seed must be an integer, got ${values.seed}`, USAGE);
if (values.path !== undefined && !/^\d+(:\d+)*$/.test(values.path)) usageError(`--path must look like 12:0:3, got "${values.path}"`, USAGE);

const cpuAtStart = process.cpuUsage();
const world = await createWorld();
const rate = (requests: number, ms: number) => Math.round(requests / Math.max(ms / 1000, 0.001));
let lastPrint = 0;
// Anything that escapes a request (a rejection nobody awaited) is a failure too.
let escaped = 0;
process.on('unhandledRejection', (reason) => {
  escaped++;
  console.error('Unhandled rejection:', reason);
});
const result = await runCampaign(world, {
  // A replay is one case: the one at --path.
  runs: values.path === undefined ? integer('--runs', values.runs) : 1,
  requests: values.requests === undefined ? undefined : integer('--requests', values.requests),
  seed,
  path: values.path,
  maxLength: integer('--max-length', values['max-length']),
  httpShare: share('--http-share', values['http-share']),
  auditShare: share('--audit-share', values['audit-share']),
  maxFailures: integer('--max-failures', values['max-failures']),
  onFailure: (f) => {
    console.error(`\nFAILURE: ${f.signature}\n${f.report}\nReplay: npm run fuzz -- --seed ${f.replay.seed} --path ${f.replay.path}\n`);
  },
  onProgress: (p) => {
    if (p.elapsedMs - lastPrint < 10_000) return;
    lastPrint = p.elapsedMs;
    console.log(`  ${p.requests} requests, ${p.sequences} sequences, ${rate(p.requests, p.elapsedMs)}/s, ${p.failures} failing sequence(s), ${Math.round(p.elapsedMs / 1000)} s`);
  },
});
await world.close();

const label = (r: (typeof world.routes)[number]) => `${r.method} ${r.path}`;
const unreached = world.routes.filter((r) => (result.coverage.routes.get(label(r))?.[0] ?? 0) === 0);
const reached = world.routes.length - unreached.length;
const succeeded = world.routes.filter((r) => (result.coverage.routes.get(label(r))?.[1] ?? 0) > 0).length;
const statuses = [...result.coverage.statuses].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${status}×${n}`).join(' ');
// CPU time beside wall time: on a shared machine the wall-clock rate says more about the neighbours.
const cpu = process.cpuUsage(cpuAtStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `${result.requests} requests in ${(result.elapsedMs / 1000).toFixed(1)} s (${rate(result.requests, result.elapsedMs)}/s; ` +
    `${(cpuMs / 1000).toFixed(1)} s of CPU, ${rate(result.requests, cpuMs)} per CPU second), ${result.sequences} sequences, seed ${seed}`,
);
console.log(`Routes: ${reached} of ${world.routes.length} reached their handler, ${succeeded} answered success. Statuses: ${statuses}`);
if (unreached.length > 0 && unreached.length <= 20) console.log(`Never reached: ${unreached.map(label).join(', ')}`);
// A route that never succeeds is fuzzed only on its error paths: its success is a blind spot.
const neverSucceeded = world.routes.filter((r) => (result.coverage.routes.get(label(r))?.[1] ?? 0) === 0);
if (neverSucceeded.length > 0 && neverSucceeded.length <= 40) console.log(`Never answered success: ${neverSucceeded.map(label).join(', ')}`);
// Each failure was printed in full when found; the list again, to end with.
for (const f of result.found) console.error(`failed: ${f.signature} (npm run fuzz -- --seed ${f.replay.seed} --path ${f.replay.path})`);
const failures = result.found.length + escaped;
console.log(`${failures} failure(s)`);
if (failures > 0) process.exitCode = 1;
