/**
 * `npm run bench:build`: the catalog build against its floor, as whole processes, the way a user
 * meets them: `node scripts/run.mjs build …` over the output of a previous build (start-up,
 * compiled code, the whole pipeline, every output, the swap of dist/), the same with
 * `--precompress`, and `node scripts/run.mjs bench-floor …` (read + gray-matter + one JSON per
 * document, floor.ts), on the same synthetic corpus, for each corpus size. Each process runs
 * under GNU time (`/usr/bin/time`), which gives its wall time, user and system CPU and peak RSS.
 * The work folder is under the project (`.bench/`), on the disk a checkout lives on.
 *
 * The machine is shared and its load moves, so one run says little. The three kinds alternate
 * in rounds, the order rotating each round so a drift in load favours none; every run is printed
 * with the load average before it, and the summary gives medians and the ratios of the medians.
 * Each kind writes into an output folder of its own that a first, untimed run made.
 * A benchmark, not a test: it prints, it never fails on a threshold.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fg from 'fast-glob';
import { mapLimit } from '../catalog/concurrency.ts';
import { writeSyntheticContent } from '../catalog/synthetic.ts';
import { parseCli, usageError } from '../cli/args.ts';
import { PROJECT_ROOT } from '../cli/root.ts';

const USAGE = `Usage: npm run bench:build -- [--n 1000,10000] [--runs 5] [--edits 10] [--watch-only] [--precompress] [--content DIR] [--keep]

Times the full catalog build (default, and with --precompress) against its floor (read + parse +
one JSON per document), as whole processes under GNU time, in interleaved rounds, on a synthetic
corpus of each size. Then, on the largest corpus, build --watch: one document edited every
second, as a person saving while typing, each timed until its own files have the edit; at the
end dist/ is compared byte for byte with a full build.

  --n LIST        corpus sizes, comma-separated (default 1000,10000)
  --runs N        rounds per size (default 5)
  --edits N       edits timed under --watch, one a second (default 10; 0 skips the watch case)
  --watch-only    only the watch case (on the largest size), no full-build rounds
  --precompress   the watch case with --precompress (the saves' twins too)
  --content DIR   an existing content folder instead of a synthetic corpus (one size)
  --keep          keep the work folder (corpus and outputs) and print where it is
  -h, --help      this text`;

type Kind = 'floor' | 'build' | 'precompress';
const KINDS: readonly Kind[] = ['floor', 'build', 'precompress'];

interface Measurement {
  /** Wall time of the process, ms (GNU time's %e). */
  ms: number;
  /** CPU time of the process, user and system (all threads), ms: wall time alone swings with load. */
  userMs: number;
  sysMs: number;
  /** Peak resident set size, bytes. */
  maxRss: number;
}

const values = parseCli(USAGE, {
  n: { type: 'string', default: '1000,10000' },
  runs: { type: 'string', default: '5' },
  edits: { type: 'string', default: '10' },
  keep: { type: 'boolean', default: false },
  'watch-only': { type: 'boolean', default: false },
  precompress: { type: 'boolean', default: false },
  content: { type: 'string' },
});
const sizes = values.n.split(',').map((s) => Number(s.trim()));
const rounds = Number(values.runs);
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) usageError(`--n must list integers ≥ 10, got ${values.n}`, USAGE);
if (!Number.isInteger(rounds) || rounds < 1) usageError(`--runs must be an integer ≥ 1, got ${values.runs}`, USAGE);
const edits = Number(values.edits);
if (!Number.isInteger(edits) || edits < 0) usageError(`--edits must be an integer ≥ 0, got ${values.edits}`, USAGE);

const LAUNCHER = path.join(PROJECT_ROOT, 'scripts', 'run.mjs');
const GNU_TIME = '/usr/bin/time';
const ARGS: Record<Kind, string[]> = { floor: ['bench-floor'], build: ['build'], precompress: ['build', '--precompress'] };
const TIME_MARK = 'GNU-TIME';

/** Run one process to its end under GNU time, over whatever `outDir` holds. */
async function measure(kind: Kind, contentDir: string, outDir: string): Promise<Measurement> {
  const child = spawn(GNU_TIME, ['-f', `${TIME_MARK} %e %U %S %M`, process.execPath, LAUNCHER, ...ARGS[kind], '--content', contentDir, '--out', outDir], {
    // generated_at then comes from the content, as in a plain `npm run build`.
    env: { ...process.env, SOURCE_DATE_EPOCH: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${kind} exited with ${code}:\n${stderr}`);
  const line = stderr.split('\n').find((l) => l.startsWith(TIME_MARK));
  const [wall, user, sys, rssKb] = (line ?? '').split(' ').slice(1).map(Number);
  if (wall === undefined || user === undefined || sys === undefined || rssKb === undefined) throw new Error(`no GNU time line from ${kind}:\n${stderr}`);
  await settle();
  return { ms: wall * 1000, userMs: user * 1000, sysMs: sys * 1000, maxRss: rssKb * 1024 };
}

/**
 * Flush the file system before the next run starts. Otherwise the kernel is still writing back
 * hundreds of MB from the previous run while the next one is timed, which penalises whichever
 * runs second.
 */
async function settle(): Promise<void> {
  await new Promise<void>((resolve) => spawn('sync', [], { stdio: 'ignore' }).once('exit', () => resolve()).once('error', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** The launcher compiles what is stale; doing it now keeps compiling out of the first round. */
async function compileBoth(): Promise<void> {
  const child = spawn(process.execPath, [LAUNCHER, '--compile', 'bench-floor', 'build', 'catalog-write-worker', 'catalog-watch-worker'], { stdio: 'inherit' });
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
  console.log(`\nfull build, ${label}: ${corpus.files} documents, ${mb(corpus.bytes)}; ${rounds} rounds, order rotating`);
  const outOf = (kind: Kind): string => path.join(work, `out-${kind}`);
  // Each kind builds over an output folder, as `npm run build` over an existing dist/.
  for (const kind of KINDS) await measure(kind, contentDir, outOf(kind));
  const runs: Record<Kind, Measurement[]> = { floor: [], build: [], precompress: [] };
  for (let i = 0; i < rounds; i++) {
    const order = KINDS.map((_, k) => KINDS[(i + k) % KINDS.length] as Kind);
    for (const kind of order) {
      const before = load();
      const m = await measure(kind, contentDir, outOf(kind));
      runs[kind].push(m);
      console.log(`  round ${i + 1} ${kind.padEnd(11)} ${s(m.ms).padStart(8)} wall ${s(m.userMs).padStart(8)} user ${s(m.sysMs).padStart(7)} sys  peak RSS ${mb(m.maxRss).padStart(9)}  (load ${before})`);
    }
  }
  const sum = (kind: Kind) => {
    const ms = runs[kind];
    return { wall: median(ms.map((m) => m.ms)), user: median(ms.map((m) => m.userMs)), sys: median(ms.map((m) => m.sysMs)), rss: median(ms.map((m) => m.maxRss)) };
  };
  const [f, b, p] = KINDS.map(sum) as [ReturnType<typeof sum>, ReturnType<typeof sum>, ReturnType<typeof sum>];
  const line = (name: string, x: ReturnType<typeof sum>) => `  ${name} ${s(x.wall)} wall, ${s(x.user)} user + ${s(x.sys)} sys CPU, peak RSS ${mb(x.rss)}`;
  const ratio = (x: ReturnType<typeof sum>) => `${(x.wall / f.wall).toFixed(2)}x wall, ${((x.user + x.sys) / (f.user + f.sys)).toFixed(2)}x CPU, ${(x.rss / f.rss).toFixed(2)}x peak RSS`;
  console.log(`medians over ${rounds} runs each:`);
  console.log(line('floor (read + gray-matter + 1 JSON/doc):', f));
  console.log(line('build (default, no twins):              ', b));
  console.log(line('build --precompress (.br/.gz twins):     ', p));
  console.log(`build/floor:              ${ratio(b)} (target: ≤ 2.0x wall)`);
  console.log(`build --precompress/floor: ${ratio(p)}`);
  console.log(`where the time goes: the floor's work ${s(f.user + f.sys)} CPU; the rest of the pipeline (validation, links, every list, search index, agent files, the swap) ${s(b.user + b.sys - f.user - f.sys)}; the twins ${s(p.user + p.sys - b.user - b.sys)}`);
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
 * build --watch on the corpus: every second one edit appends a marked sentence to one insight's
 * body (a person saving as they type, whatever pass the watcher is in), and each edit is timed
 * until its insight's detail file holds the mark. After the last edit and a quiet spell the
 * watched dist/ is compared byte for byte with a full build of the edited corpus.
 */
async function watchEdits(work: string, contentDir: string): Promise<void> {
  const out = path.join(work, 'watch');
  const insights = (await readdir(path.join(contentDir, 'insights'))).filter((f) => f.endsWith('.md')).sort();
  if (insights.length === 0) throw new Error('the corpus has no insights to edit');
  console.log(`
build --watch${values.precompress ? ' --precompress' : ''}, ${edits} edits one second apart (one insight each), each timed until its own files have it`);
  const child = spawn(process.execPath, [LAUNCHER, 'build', '--watch', ...(values.precompress ? ['--precompress'] : []), '--content', contentDir, '--out', out], {
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
  try {
    await waitFor(() => stdout.includes('Watching'), 'the first build');
    const pending = new Map<number, { files: string[]; mark: string; at: number; file: string; detailMs?: number }>();
    const reached: number[] = new Array(edits).fill(Number.NaN);
    const detailReached: number[] = new Array(edits).fill(Number.NaN);
    const holds = (file: string, mark: string): boolean => {
      try {
        const bytes = readFileSync(file);
        const text = file.endsWith('.br') ? brotliDecompressSync(bytes) : file.endsWith('.gz') ? gunzipSync(bytes) : bytes;
        return text.toString('utf8').includes(mark);
      } catch {
        return false;
      }
    };
    const poll = (): void => {
      for (const [i, e] of pending) {
        if (e.detailMs === undefined && holds(e.files[0] as string, e.mark)) detailReached[i] = e.detailMs = performance.now() - e.at;
        if (e.detailMs === undefined || !e.files.every((f) => holds(f, e.mark))) continue;
        reached[i] = performance.now() - e.at;
        pending.delete(i);
        console.log(`  edit ${String(i + 1).padStart(2)} ${e.file}: detail file after ${Math.round(e.detailMs)} ms, all ${e.files.length} own files after ${Math.round(reached[i] as number)} ms  (load ${load()})`);
      }
    };
    const start = performance.now();
    for (let i = 0; i < edits; i++) {
      // Edits of the same file would merge: each edit its own insight.
      const file = insights[(i * 7919) % insights.length] as string;
      while (performance.now() < start + i * 1000) {
        poll();
        await new Promise((r) => setTimeout(r, 2));
      }
      const mark = `Marca de la prueba ${i + 1}.`;
      // Its own files: the detail JSON, the Markdown twin (the synthetic slugs are the file names), their twins.
      const own = [path.join(out, 'api/v1/insights', file.replace(/\.md$/, '.json')), path.join(out, 'insights', file)];
      pending.set(i, { files: values.precompress ? own.flatMap((f) => [f, `${f}.br`, `${f}.gz`]) : own, mark, at: performance.now(), file });
      await appendFile(path.join(contentDir, 'insights', file), `\n${mark}\n`);
    }
    const rebuilt = (): number[] => [...stdout.matchAll(/^Rebuilt in (\d+) ms/gm)].map((m) => Number(m[1]));
    const afterEdits = rebuilt().length;
    await waitFor(() => (poll(), pending.size === 0), 'every edit to reach its detail file');
    // The last edit's aggregates: at least one pass after the edits, then no new pass for longer
    // than the longest pass seen (a pass queued behind the running one starts right after it).
    await waitFor(() => rebuilt().length > afterEdits, 'a rebuild after the last edit');
    let seen = -1;
    while (seen !== rebuilt().length) {
      seen = rebuilt().length;
      await new Promise((r) => setTimeout(r, 1.5 * Math.max(...rebuilt()) + 2000));
    }
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const full = path.join(work, 'full');
    await measure(values.precompress ? 'precompress' : 'build', contentDir, full);
    const [a, b] = [await tree(out), await tree(full)];
    const differing = [...new Set([...a.keys(), ...b.keys()])].filter((rel) => !a.get(rel)?.equals(b.get(rel) ?? Buffer.alloc(0)));
    if (edits > 0) {
      console.log(`edit → its detail file: median ${Math.round(median(detailReached))} ms, worst ${Math.round(Math.max(...detailReached))} ms`);
      console.log(`edit → all its own files: median ${Math.round(median(reached))} ms, worst ${Math.round(Math.max(...reached))} ms (targets: median ≤ 300 ms, worst ≤ 1 s)`);
    }
    console.log(differing.length === 0 ? `watched dist/ and a full build are byte-identical (${b.size} files)` : `DIFFERENT from a full build: ${differing.slice(0, 10).join(', ')}${differing.length > 10 ? ', …' : ''}`);
    await rm(full, { recursive: true, force: true });
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await rm(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // On the disk the project lives on (a temp folder may be in memory); .bench/ is ignored by git.
  await mkdir(path.join(PROJECT_ROOT, '.bench'), { recursive: true });
  const work = await mkdtemp(path.join(PROJECT_ROOT, '.bench', 'catalog-build-'));
  if (!existsSync(GNU_TIME)) usageError(`bench:build measures with GNU time: ${GNU_TIME} is missing (apt-get install time)`, USAGE);
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
        if (!values['watch-only']) await fullBuilds(work, contentDir, `N=${n}`);
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
