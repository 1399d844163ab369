/**
 * `npm run bench:sim -- --instructions` without valgrind: reading callgrind's dumps, the
 * arithmetic that turns them into instructions per request, the flags, and what a machine without
 * valgrind is told. (Counting itself needs valgrind and minutes: it is the benchmark's job.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { callgrindCommand, parseTotals, perRequestCounts, readDumps, spreadOf, valgrindVersion, VALGRIND_MISSING } from '../../scripts/bench/harness/instructions.ts';
import { INSTRUCTION_DEFAULTS, parseInstructionOptions } from '../../scripts/bench/sim/instructions.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dumpDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-instructions-test-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const dump = (total: number): string => `# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=(1) main\n0 ${total}\nsummary: ${total}\n\ntotals: ${total}\n`;

describe('callgrind dumps', () => {
  it("reads a dump's totals, or its summary in older formats, and nothing from a file without either", () => {
    expect(parseTotals(dump(123_456_789))).toBe(123_456_789);
    expect(parseTotals('events: Ir\nsummary: 42\n')).toBe(42);
    expect(parseTotals('events: Ir\nfn=(1) main\n0 42\n')).toBeNull();
    expect(parseTotals('totals: 12 34\n')).toBeNull();
  });

  it('reads the numbered dumps in number order and leaves out the one written at exit', () => {
    const dir = dumpDir({ 'sim-0': dump(1), 'sim-0.1': dump(900), 'sim-0.2': dump(30), 'sim-0.10': dump(7), 'sim-0.3': dump(5), 'floor-0.1': dump(2) });
    expect(readDumps(path.join(dir, 'sim-0'), 'all')).toEqual([900, 30, 5, 7]);
  });

  it("with threads apart, reads the main thread's dump of each marker", () => {
    const dir = dumpDir({ 'sim-0-01': dump(1), 'sim-0-02': dump(2), 'sim-0.1-01': dump(900), 'sim-0.2-01': dump(30), 'sim-0.2-02': dump(999) });
    expect(readDumps(path.join(dir, 'sim-0'), 'main')).toEqual([900, 30]);
  });

  it('refuses a dump without totals rather than count it as nothing', () => {
    const dir = dumpDir({ 'sim-0.1': dump(900), 'sim-0.2': 'events: Ir\n' });
    expect(() => readDumps(path.join(dir, 'sim-0'), 'all')).toThrow(/sim-0\.2: no totals line/);
  });

  it('counts the main thread apart only when asked to, and dumps at the marker', () => {
    expect(callgrindCommand('/tmp/x/sim-0', 'main')).toEqual(expect.arrayContaining(['valgrind', '--tool=callgrind', '--callgrind-out-file=/tmp/x/sim-0', '--dump-before=getpriority', '--separate-threads=yes']));
    expect(callgrindCommand('/tmp/x/sim-0', 'all')).not.toContain('--separate-threads=yes');
  });
});

describe('instructions per request', () => {
  it("drops the start-up count and takes the markers' own cost off each block", () => {
    expect(perRequestCounts([5_000_000_000, 40_000, 20_040_000, 21_040_000], 200, 2)).toEqual({ empty: 40_000, perRequest: [100_000, 105_000] });
    expect(() => perRequestCounts([5_000_000_000, 40_000, 20_040_000], 200, 2)).toThrow(/expected 4 counts .* got 3/);
  });

  it('gives back the per-request cost a process was built with, whatever the markers and start-up cost', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10 ** 10 }), fc.nat({ max: 10 ** 6 }), fc.array(fc.nat({ max: 10 ** 7 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 5000 }), (startUp, empty, costs, requests) => {
        const dumps = [startUp, empty, ...costs.map((c) => empty + c * requests)];
        expect(perRequestCounts(dumps, requests, costs.length)).toEqual({ empty, perRequest: costs });
      }),
    );
  });

  it("spreads: the median, the extremes, and their distance as a share of the median", () => {
    expect(spreadOf([100, 102, 101])).toEqual({ median: 101, min: 100, max: 102, relative: 2 / 101 });
    expect(spreadOf([7])).toEqual({ median: 7, min: 7, max: 7, relative: 0 });
    expect(Number.isNaN(spreadOf([]).median)).toBe(true);
  });
});

describe('the flags of --instructions', () => {
  const defaults = { ...INSTRUCTION_DEFAULTS, 'all-threads': false };

  it('reads the defaults and explicit values as numbers', () => {
    expect(parseInstructionOptions(defaults)).toEqual({ requests: 200, warmup: 1000, blocks: 2, processes: 2, jobs: 2, threads: 'main', budget: 8192 });
    expect(parseInstructionOptions({ ...defaults, requests: '50', warmup: '0', 'interrupt-budget': '0', 'all-threads': true })).toMatchObject({ requests: 50, warmup: 0, budget: 0, threads: 'all' });
  });

  it('refuses what is not a whole number in range, naming the flag', () => {
    for (const [flag, value] of [['requests', '0'], ['requests', '1.5'], ['warmup', '-1'], ['blocks', ''], ['processes', 'two'], ['jobs', '0'], ['interrupt-budget', '-8']] as const) {
      expect(() => parseInstructionOptions({ ...defaults, [flag]: value })).toThrow(`--${flag} must be a whole number ≥ ${flag === 'warmup' || flag === 'interrupt-budget' ? 0 : 1}, got "${value}"`);
    }
  });
});

describe('npm run bench:sim -- --instructions, as a user runs it', () => {
  // A PATH of node alone: no valgrind (nor taskset) to be found, wherever they are installed.
  const nodeOnly = mkdtempSync(path.join(os.tmpdir(), 'bench-instructions-path-'));
  symlinkSync(process.execPath, path.join(nodeOnly, 'node'));
  afterAll(() => rmSync(nodeOnly, { recursive: true, force: true }));
  const withoutValgrind = { ...process.env, PATH: nodeOnly };
  const bench = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/simulator.ts', ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });

  it('without valgrind says what to install and exits 1, starting no server', () => {
    expect(valgrindVersion('valgrind', withoutValgrind)).toBeNull();
    const run = bench(['--instructions', '--cases', 'users-me'], withoutValgrind);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`${VALGRIND_MISSING}\n`);
    expect(run.stderr).toContain('apt install valgrind');
    expect(run.stdout).toBe('');
  });

  it('documents the mode in --help and refuses a bad count with the usage', () => {
    const help = bench(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--instructions\s+count machine instructions per request/);
    expect(help.stdout).toContain('--requests N');
    const bad = bench(['--instructions', '--requests', '0'], withoutValgrind);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--requests must be a whole number ≥ 1, got "0"\n\nUsage: npm run bench:sim/);
  });
});
