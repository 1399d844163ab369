/**
 * `npm run bench:build`: the catalog build against its floor, as whole processes, the way a user
 * runs them: `node scripts/run.mjs build …` (start-up, compiled code, the whole pipeline, every
 * output) next to `node scripts/run.mjs bench-floor …` (read + gray-matter + one JSON per
 * document, floor.ts), on the same synthetic corpus, for each corpus size.
 *
 * The machine is shared and its load moves, so one pair of runs says little. Floor and build
 * alternate in rounds, in ABBA order (floor, build, build, floor, …) so a drift in load favours
 * neither; every run is printed with the load average before it, and the summary gives medians
 * and the ratio of the medians for wall time, CPU time and peak RSS. Wall time runs from the
 * spawn to the exit of the process; CPU time and peak RSS are the process's own (the launcher
 * reports them at exit when RUN_USAGE_FILE is set). Both are compiled before the first round.
 * A benchmark, not a test: it prints, it never fails on a threshold.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import fg from 'fast-glob';
import { mapLimit } from '../catalog/concurrency.ts';
import { writeSyntheticContent } from '../catalog/synthetic.ts';
import { parseCli, usageError } from '../cli/args.ts';
import { PROJECT_ROOT } from '../cli/root.ts';

const USAGE = `Usage: npm run bench:build -- [--n 1000,10000] [--runs 5] [--edits 20] [--content DIR] [--keep]

Times the full catalog build against its floor (read + parse + one JSON per document), both as
whole processes, in interleaved rounds, on a synthetic corpus of each size. Then, on the largest
corpus, build --watch: one document edited at a time, timed until its output file changes and
until the rebuild is done; at the end dist/ is compared byte for byte with a full build.

  --n LIST        corpus sizes, comma-separated (default 1000,10000)
  --runs N        rounds per size (default 5)
  --edits N       edits timed under --watch (default 20; 0 skips the watch case)
  --content DIR   an existing content folder instead of a synthetic corpus (one size)
  --keep          keep the work folder (corpus and outputs) and print where it is
  -h, --help      this text`;

type Kind = 'floor' | 'build';

interface Measurement {
  /** Spawn to exit, ms. */
  ms: number;
  /** CPU time of the process (user + system, all threads), ms: wall time alone swings with load. */
  cpuMs: number;
  /** Peak resident set size, bytes. */
  maxRss: number;
}

const values = parseCli(USAGE, {
  n: { type: 'string', default: '1000,10000' },
  runs: { type: 'string', default: '5' },
  edits: { type: 'string', default: '20' },
  keep: { type: 'boolean', default: false },
  content: { type: 'string' },
});
const sizes = values.n.split(',').map((s) => Number(s.trim()));
const rounds = Number(values.runs);
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) usageError(`--n must list integers ≥ 10, got ${values.n}`, USAGE);
if (!Number.isInteger(rounds) || rounds < 1) usageError(`--runs must be an integer ≥ 1, got ${values.runs}`, USAGE);
const edits = Number(values.edits);
if (!Number.isInteger(edits) || edits < 0) usageError(`--edits must be an integer ≥ 0, got ${values.edits}`, USAGE);

const LAUNCHER = path.join(PROJECT_ROOT, 'scripts', 'run.mjs');
const ENTRY: Record<Kind, string> = { floor: 'bench-floor', build: 'build' };

/** Run one process to its end; its own CPU time and peak RSS come back through a file. */
async function measure(kind: Kind, contentDir: string, outDir: string, usageFile: string, clean = true): Promise<Measurement> {
  const started = performance.now();
  const child = spawn(process.execPath, [LAUNCHER, ENTRY[kind], '--content', contentDir, '--out', outDir], {
    // generated_at then comes from the content, as in a plain `npm run build`.
    env: { ...process.env, RUN_USAGE_FILE: usageFile, SOURCE_DATE_EPOCH: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${kind} exited with ${code}:\n${stderr}`);
  const usage = JSON.parse(await readFile(usageFile, 'utf8')) as NodeJS.ResourceUsage;
  if (clean) await settle(outDir);
  return { ms, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRss: usage.maxRSS * 1024 };
}

/**
 * Remove a run's output and flush the file system before the next run starts. Otherwise the
 * kernel is still writing back hundreds of MB and freeing thousands of inodes from the previous
 * run while the next one is timed, which penalises whichever runs second.
 */
async function settle(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await new Promise<void>((resolve) => spawn('sync', [], { stdio: 'ignore' }).once('exit', () => resolve()).once('error', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** The launcher compiles what is stale; doing it now keeps compiling out of the first round. */
async function compileBoth(): Promise<void> {
  const child = spawn(process.execPath, [LAUNCHER, '--compile', ENTRY.floor, ENTRY.build], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error('compiling the entry points failed');
}

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const load = (): string => (os.loadavg()[0] ?? 0).toFixed(1);

async function contentBytes(dir: string): Promise<{ files: number; bytes: number }> {
  const rels = await fg('**/*.md', { cwd: dir, ignore: ['README.md'] });
  const sizes = await mapLimit(rels, 64, async (rel) => (await stat(path.join(dir, rel))).size);
  return { files: rels.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

async function fullBuilds(work: string, contentDir: string, label: string): Promise<void> {
  const corpus = await contentBytes(contentDir);
  console.log(`\nfull build, ${label}: ${corpus.files} documents, ${mb(corpus.bytes)}; ${rounds} rounds, ABBA order`);
  await settle(path.join(work, 'none')); // the corpus itself was just written
  const runs: Record<Kind, Measurement[]> = { floor: [], build: [] };
  for (let i = 0; i < rounds; i++) {
    const order: Kind[] = i % 2 === 0 ? ['floor', 'build'] : ['build', 'floor'];
    for (const kind of order) {
      const before = load();
      const m = await measure(kind, contentDir, path.join(work, kind), path.join(work, `${kind}.usage.json`));
      runs[kind].push(m);
      console.log(`  round ${i + 1} ${kind.padEnd(5)} ${s(m.ms).padStart(8)} wall ${s(m.cpuMs).padStart(8)} CPU  peak RSS ${mb(m.maxRss).padStart(9)}  (load ${before})`);
    }
  }
  const sum = (kind: Kind) => {
    const ms = runs[kind];
    return { wall: median(ms.map((m) => m.ms)), cpu: median(ms.map((m) => m.cpuMs)), rss: median(ms.map((m) => m.maxRss)) };
  };
  const f = sum('floor');
  const b = sum('build');
  const line = (name: string, x: ReturnType<typeof sum>) => `  ${name} ${s(x.wall)} wall, ${s(x.cpu)} CPU, peak RSS ${mb(x.rss)}`;
  console.log(`medians over ${rounds} runs each:`);
  console.log(line('floor (read + gray-matter + 1 JSON/doc):', f));
  console.log(line('build (whole pipeline, every output):   ', b));
  console.log(`ratio of medians build/floor: ${(b.wall / f.wall).toFixed(2)}x wall, ${(b.cpu / f.cpu).toFixed(2)}x CPU, ${(b.rss / f.rss).toFixed(2)}x peak RSS (target: ≤ 1.3x wall)`);
}

/** Every file under `dir` with its bytes, by POSIX path. */
async function tree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'), await readFile(path.join(e.parentPath, e.name)));
  }
  return out;
}

/**
 * build --watch on the corpus: each edit appends a marked sentence to one insight's body, then
 * polls that insight's detail file until the mark is in it (the edit "reached dist/"), then waits
 * for the watcher's "Rebuilt" line (every output written). Finally the watched dist/ is compared
 * byte for byte with a full build of the edited corpus.
 */
async function watchEdits(work: string, contentDir: string): Promise<void> {
  const out = path.join(work, 'watch');
  const insights = (await readdir(path.join(contentDir, 'insights'))).filter((f) => f.endsWith('.md')).sort();
  if (insights.length === 0) throw new Error('the corpus has no insights to edit');
  console.log(`
build --watch, ${edits} edits (one insight each), each timed until its detail file changes, then until the rebuild is done`);
  const child = spawn(process.execPath, [LAUNCHER, 'build', '--watch', '--content', contentDir, '--out', out], {
    env: { ...process.env, SOURCE_DATE_EPOCH: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  const waitFor = async (pred: () => boolean, what: string, limitMs = 600_000): Promise<void> => {
    const until = performance.now() + limitMs;
    while (!pred()) {
      if (child.exitCode !== null) throw new Error(`the watcher exited (${child.exitCode}) waiting for ${what}:\n${stderr}`);
      if (performance.now() > until) throw new Error(`timed out waiting for ${what}:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const rebuilt = (): number => (stdout.match(/^Rebuilt in /gm) ?? []).length;
  try {
    await waitFor(() => stdout.includes('Watching'), 'the first build');
    const first: number[] = [];
    const settled: number[] = [];
    for (let i = 0; i < edits; i++) {
      const file = insights[(i * 7919) % insights.length] as string;
      const detail = path.join(out, 'api/v1/insights', file.replace(/\.md$/, '.json'));
      const mark = `Marca de la prueba ${i + 1}.`;
      const before = rebuilt();
      const started = performance.now();
      await appendFile(path.join(contentDir, 'insights', file), `\n${mark}\n`);
      await waitFor(() => {
        try {
          return readFileSync(detail, 'utf8').includes(mark);
        } catch {
          return false;
        }
      }, `${file}'s detail file`);
      first.push(performance.now() - started);
      await waitFor(() => rebuilt() > before, 'the rebuild to finish');
      settled.push(performance.now() - started);
      console.log(`  edit ${String(i + 1).padStart(2)} ${file}: detail file after ${Math.round(first.at(-1) as number)} ms, rebuild done after ${Math.round(settled.at(-1) as number)} ms  (load ${load()})`);
    }
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const full = path.join(work, 'full');
    await measure('build', contentDir, full, path.join(work, 'full.usage.json'), false);
    const [a, b] = [await tree(out), await tree(full)];
    const differing = [...new Set([...a.keys(), ...b.keys()])].filter((rel) => !a.get(rel)?.equals(b.get(rel) ?? Buffer.alloc(0)));
    if (edits > 0) {
      console.log(`edit → its detail file: median ${Math.round(median(first))} ms, worst ${Math.round(Math.max(...first))} ms (targets: median < 300 ms, worst < 1 s)`);
      console.log(`edit → rebuild done:    median ${Math.round(median(settled))} ms, worst ${Math.round(Math.max(...settled))} ms`);
    }
    console.log(differing.length === 0 ? `watched dist/ and a full build are byte-identical (${b.size} files)` : `DIFFERENT from a full build: ${differing.slice(0, 10).join(', ')}${differing.length > 10 ? ', …' : ''}`);
    await rm(full, { recursive: true, force: true });
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await rm(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'catalog-bench-'));
  console.log(`${os.cpus().length} CPUs, Node ${process.version}, load average ${load()}`);
  try {
    await compileBoth();
    if (values.content) {
      await fullBuilds(work, path.resolve(values.content), path.resolve(values.content));
      if (edits > 0) console.log('(the watch case edits a synthetic corpus: run without --content for it)');
    } else {
      for (const n of sizes) {
        const contentDir = path.join(work, `content-${n}`);
        await writeSyntheticContent(contentDir, n);
        await fullBuilds(work, contentDir, `N=${n}`);
        if (edits > 0 && n === Math.max(...sizes)) await watchEdits(work, contentDir);
      }
    }
    console.log(`\nload average now ${load()} (above ${os.cpus().length} means other work shared the CPUs: compare the CPU times, or re-run)`);
  } finally {
    if (values.keep) console.log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

await main();
