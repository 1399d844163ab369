/**
 * `npm run bench:sim`: how fast the simulator is, next to floors it cannot beat, measured so that
 * a gap shows. The simulator (the server `npm run simulator` runs) and each floor (a bare
 * node:http server that checks the same Basic credentials, parses the same query and form and
 * answers the simulator's own bytes: sim/floor.ts) run in processes of their own; the load comes
 * from autocannon in this process. When the machine has two CPUs and taskset, the generator is
 * pinned to one and the servers to the other. Floor and simulator alternate in ABBA rounds after
 * a warm-up; each round gives a ratio of rates, and the median of those is the result.
 *
 * The machine is shared, so the report carries what it gave: the load average, a check of how
 * fast two busy loops run side by side (two vCPUs sharing one physical core run each at about
 * half speed), the CPU each server and the generator used, and a warning when the generator,
 * not the floor, was at its limit (which would squeeze every ratio toward 1).
 *
 * Cases (sim/cases.ts): throughput against the floor (GET /users/me; the 50 newest messages of a
 * channel narrow; POST /messages to a channel and direct; GET /streams, GET
 * /users/me/subscriptions and POST /messages at each --stored size), GET /events delivery
 * latency, many open queues holding long-polls (issue 9), memory per stored message, start-up.
 * A table on stdout and every figure in a JSON file. A benchmark, not a test: it never fails on a
 * target, it says which it missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCli, usageError } from './../cli/args.ts';
import { checkMachine, machineInfo, machineLoad, pinToCore, planPlacement } from './harness/machine.ts';
import { answerCalls } from './harness/processes.ts';
import { benchCases, MEMORY_MESSAGES, selectCases, type CaseResult } from './sim/cases.ts';
import { runConstructsChild } from './sim/constructs.ts';
import { benchDir, type BenchContext } from './sim/context.ts';
import { startFloorServer, type FloorAnswer } from './sim/floor.ts';
import { runPoller } from './sim/poller.ts';
import { countInstructions } from './sim/instructions-main.ts';
import { INSTRUCTION_DEFAULTS, parseInstructionOptions } from './sim/instructions.ts';
import { describeMachine, describeResult, summaryTable } from './sim/report.ts';
import { runSimulatorChild, type SimSetup } from './sim/simulator-child.ts';

const SELF = fileURLToPath(import.meta.url);

const USAGE = `Usage: npm run bench:sim -- [--cases LIST] [--rounds N] [--seconds S] [options]

Measures the simulator against floors that answer the same bytes, each server in its own
process, autocannon as the load: ratios per round and their median, latencies, CPU use, the
machine's load and a busy-loop check of what its cores give. Prints a table, writes JSON.

  --cases LIST        cases or series to run, comma-separated (default: all; --list names them)
  --list              list the cases and exit
  --rounds N          ABBA rounds per comparison (default 5)
  --seconds S         length of each timed run (default 2)
  --connections C     autocannon keep-alive connections (default 10)
  --workers W         autocannon worker threads (default 1: in this process)
  --stored LIST       stored-message counts of the series cases (default 0,100000,1000000;
                      with --instructions 0,10000)
  --queues N          open queues of the queues case (default 500)
  --probes N          messages each delivery probe sends (default 200)
  --json FILE         where to write the results (default .bench/simulator.json)
  --cpu-prof          profile every simulator process (V8 --cpu-prof) into .bench/profiles/
  --no-pin            do not pin processes to CPUs
  --no-machine-check  skip the busy-loop check
  -h, --help          this text

Counting instructions instead (valgrind's callgrind; apt install valgrind):
  --instructions      count machine instructions per request of the throughput cases, for the
                      simulator and the floor, each request sent alone; not time, but what to
                      compare between two commits (it barely moves with the machine's load)
  --requests N        requests per counted block (default ${INSTRUCTION_DEFAULTS.requests})
  --warmup N          requests before counting starts (default ${INSTRUCTION_DEFAULTS.warmup})
  --blocks N          counted blocks per process (default ${INSTRUCTION_DEFAULTS.blocks})
  --processes N       counted processes per side (default ${INSTRUCTION_DEFAULTS.processes})
  --jobs N            counted processes at once (default ${INSTRUCTION_DEFAULTS.jobs})
  --interrupt-budget B  V8's --interrupt-budget in the counted servers, so that they reach
                      optimized code within the warm-up (default ${INSTRUCTION_DEFAULTS['interrupt-budget']}; 0: V8's own)
  --all-threads       count every thread (V8's compiler and collector helpers too), not only
                      the main one: noisier, since compilations land in some blocks and not others

Memory per stored message is measured over ${MEMORY_MESSAGES.toLocaleString('en')} messages.`;

const values = parseCli(USAGE, {
  cases: { type: 'string' },
  list: { type: 'boolean', default: false },
  rounds: { type: 'string', default: '5' },
  seconds: { type: 'string', default: '2' },
  connections: { type: 'string', default: '10' },
  workers: { type: 'string', default: '1' },
  stored: { type: 'string' },
  queues: { type: 'string', default: '500' },
  probes: { type: 'string', default: '200' },
  json: { type: 'string' },
  'cpu-prof': { type: 'boolean', default: false },
  'no-pin': { type: 'boolean', default: false },
  'no-machine-check': { type: 'boolean', default: false },
  instructions: { type: 'boolean', default: false },
  requests: { type: 'string', default: INSTRUCTION_DEFAULTS.requests },
  warmup: { type: 'string', default: INSTRUCTION_DEFAULTS.warmup },
  blocks: { type: 'string', default: INSTRUCTION_DEFAULTS.blocks },
  processes: { type: 'string', default: INSTRUCTION_DEFAULTS.processes },
  jobs: { type: 'string', default: INSTRUCTION_DEFAULTS.jobs },
  'interrupt-budget': { type: 'string', default: INSTRUCTION_DEFAULTS['interrupt-budget'] },
  'all-threads': { type: 'boolean', default: false },
  // Internal: how the benchmark starts its own processes.
  child: { type: 'string' },
  setup: { type: 'string' },
  port: { type: 'string' },
});

function whole(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) usageError(`${flag} must be an integer ≥ ${min}, got "${value}"`, USAGE);
  return n;
}

async function main(): Promise<void> {
  const seconds = Number(values.seconds);
  if (!(seconds > 0)) usageError(`--seconds must be a positive number, got "${values.seconds}"`, USAGE);
  const stored = (values.stored ?? (values.instructions ? '0,10000' : '0,100000,1000000')).split(',').map((s) => whole('--stored', s.trim(), 0));
  const placement = planPlacement(!values['no-pin']);
  const ctx: BenchContext = {
    self: SELF,
    placement,
    rounds: whole('--rounds', values.rounds, 1),
    load: { seconds, connections: whole('--connections', values.connections, 1), workers: whole('--workers', values.workers, 1) },
    stored,
    queues: whole('--queues', values.queues, 10),
    probes: whole('--probes', values.probes, 1),
    profileDir: values['cpu-prof'] ? benchDir('profiles') : null,
    log: (line) => console.log(line),
  };
  const all = benchCases(ctx);
  if (values.list) {
    for (const c of all) console.log(`${c.name.padEnd(22)} ${c.title}`);
    return;
  }
  let cases;
  try {
    cases = selectCases(all, values.cases ? values.cases.split(',').map((s) => s.trim()) : null);
  } catch (error) {
    usageError((error as Error).message, USAGE);
  }
  if (values.instructions) {
    let options;
    try {
      options = parseInstructionOptions(values);
    } catch (error) {
      usageError((error as Error).message, USAGE);
    }
    process.exitCode = await countInstructions(ctx, cases, options, values.json ?? benchDir('instructions.json'));
    return;
  }
  const info = machineInfo();
  pinToCore(process.pid, placement.generatorCore);
  if (ctx.profileDir) mkdirSync(ctx.profileDir, { recursive: true });
  const loadBefore = machineLoad();
  const check = values['no-machine-check'] ? null : await checkMachine(placement);
  for (const line of describeMachine(info, placement, check, loadBefore)) console.log(line);
  console.log(`load: autocannon, ${ctx.load.connections} connections, ${seconds} s runs, ${ctx.rounds} ABBA rounds after 1 s warm-ups\n`);

  const results: CaseResult[] = [];
  for (const c of cases) {
    const started = performance.now();
    const load = machineLoad();
    const result = await c.run(ctx);
    results.push(result);
    for (const line of describeResult(result)) console.log(line);
    console.log(`  [${c.name}: ${((performance.now() - started) / 1000).toFixed(0)} s, load average before ${load.loadAverage.map((l) => l.toFixed(2)).join(' ')}]\n`);
  }
  const loadAfter = machineLoad();
  console.log(summaryTable(results));
  console.log(`\nload average (1/5/15 min) at the end: ${loadAfter.loadAverage.map((l) => l.toFixed(2)).join(' ')}`);

  const file = path.resolve(values.json ?? benchDir('simulator.json'));
  mkdirSync(path.dirname(file), { recursive: true });
  const options = { rounds: ctx.rounds, ...ctx.load, stored, queues: ctx.queues, probes: ctx.probes, cpuProfile: ctx.profileDir !== null };
  writeFileSync(file, `${JSON.stringify({ machine: info, placement, machineCheck: check, loadBefore, loadAfter, options, results }, null, 2)}\n`);
  console.log(`results: ${path.relative(process.cwd(), file)}${ctx.profileDir ? `; CPU profiles: ${path.relative(process.cwd(), ctx.profileDir)}/` : ''}`);
}

switch (values.child) {
  case undefined:
    await main();
    break;
  case 'simulator':
    await runSimulatorChild(JSON.parse(values.setup ?? '{}') as SimSetup);
    break;
  case 'floor': {
    const floor = await startFloorServer();
    answerCalls({ port: floor.port }, {
      answer: (payload) => {
        const { answer, credentials } = payload as { answer: FloorAnswer; credentials: Record<string, string> };
        floor.setAnswer(answer, credentials);
      },
    });
    break;
  }
  case 'constructs':
    runConstructsChild();
    break;
  case 'poller':
    await runPoller(Number(values.port));
    break;
  default:
    usageError(`unknown --child ${values.child}`, USAGE);
}
