/**
 * `npm run bench:build [-- --n 10000 --runs 5 --keep --content DIR]`: times the full catalog
 * build on a synthetic corpus of N Markdown documents against the floor on the same machine in
 * the same run: a minimal script that only reads the files, parses their front matter
 * (gray-matter) and writes one JSON per document.
 *
 * The machine is shared and its load moves, so one pair of runs says little. Floor and build
 * alternate in rounds, in ABBA order (floor, build, build, floor, …) so a drift in load does not
 * favour either; every run is printed with the load average before it, and the summary gives
 * medians and the ratio of the medians for wall time, CPU time and peak RSS. Each measurement
 * runs in its own child process, so their peak memory (RSS high-water mark) does not mix.
 * A benchmark, not a test: it prints, it never fails on a threshold.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import fg from 'fast-glob';
import matter from 'gray-matter';
import { mapLimit } from '../catalog/concurrency.ts';
import { readFile } from '../catalog/io.ts';
import { buildCatalog } from '../catalog/pipeline.ts';
import { writeSyntheticContent } from '../catalog/synthetic.ts';
import { prepareWrite } from '../catalog/write.ts';

type Kind = 'floor' | 'build';

interface Measurement {
  ms: number;
  /** Peak resident set size, bytes. */
  maxRss: number;
  /** CPU time of the process (user + system, all threads), ms: wall time alone swings with load. */
  cpuMs: number;
  files: number;
  bytes: number;
}

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
    /** An existing content folder (e.g. one kept by --keep) instead of a fresh synthetic corpus. */
    content: { type: 'string' },
    child: { type: 'string' },
    out: { type: 'string' },
  },
});

/** Same bounded concurrency as the build's reads, so the floor is not handicapped by serial I/O. */
const IO_CONCURRENCY = 64;

/**
 * The floor writes through the same sink as the build (worker threads, synchronous calls), so
 * the ratio measures the pipeline's own work, not a difference in how files reach the disk.
 */
async function floor(contentDir: string, outDir: string): Promise<Omit<Measurement, 'maxRss' | 'cpuMs'>> {
  const started = performance.now();
  const rels = (await fg('**/*.md', { cwd: contentDir, ignore: ['README.md'] })).sort();
  const target = (rel: string): string => `${rel.replace(/[/.]/g, '_')}.json`;
  let bytes = 0;
  const written = await prepareWrite(outDir, rels.map(target)).commit(async (sink) => {
    await mapLimit(rels, IO_CONCURRENCY, async (rel) => {
      const parsed = matter(await readFile(path.join(contentDir, rel), 'utf8'), {});
      const json = JSON.stringify({ path: rel, data: parsed.data, body: parsed.content });
      bytes += Buffer.byteLength(json);
      await sink.file(target(rel), json);
    });
  });
  if (written.bytes !== bytes) throw new Error(`floor wrote ${written.bytes} bytes, expected ${bytes}`);
  return { ms: performance.now() - started, files: written.files, bytes };
}

async function build(contentDir: string, outDir: string): Promise<Omit<Measurement, 'maxRss' | 'cpuMs'>> {
  const started = performance.now();
  const result = await buildCatalog({ contentDir, outDir, sourceDateEpoch: '' });
  if (!result.ok) throw new Error(`the corpus does not build: ${JSON.stringify(result.issues.slice(0, 5))}`);
  return { ms: performance.now() - started, files: result.files, bytes: result.bytes };
}

async function child(kind: string, contentDir: string, outDir: string): Promise<void> {
  const m = kind === 'floor' ? await floor(contentDir, outDir) : await build(contentDir, outDir);
  const usage = process.resourceUsage(); // maxRSS in kilobytes, CPU times in microseconds
  const out: Measurement = { ...m, maxRss: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

const run = promisify(execFile);
const self = fileURLToPath(import.meta.url);

async function measure(kind: Kind, contentDir: string, outDir: string): Promise<Measurement> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', self, '--child', kind, '--content', contentDir, '--out', outDir], { maxBuffer: 1 << 20 });
  const m = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measurement;
  await settle(outDir);
  return m;
}

/**
 * Remove a run's output and flush the file system before the next run starts. Otherwise the
 * kernel is still writing back hundreds of MB and freeing thousands of inodes from the previous
 * run while the next one is timed, which penalises whichever runs second.
 */
async function settle(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await run('sync', []).catch(() => {}); // not on every OS; the pause below still helps
  await new Promise((resolve) => setTimeout(resolve, 1000));
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
  const sizes = await mapLimit(rels, IO_CONCURRENCY, async (rel) => (await stat(path.join(dir, rel))).size);
  return { files: rels.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

async function main(): Promise<void> {
  const n = Number(values.n);
  const rounds = Number(values.runs);
  if (!Number.isInteger(n) || n < 10) throw new Error(`--n must be an integer ≥ 10, got ${values.n}`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--runs must be an integer ≥ 1, got ${values.runs}`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'catalog-bench-'));
  let contentDir = path.join(work, 'content');
  try {
    let corpus: { files: number; bytes: number };
    if (values.content) {
      contentDir = path.resolve(values.content);
      corpus = await contentBytes(contentDir);
      console.log(`corpus: ${contentDir}, ${corpus.files} documents, ${mb(corpus.bytes)}`);
    } else {
      const t = performance.now();
      corpus = await writeSyntheticContent(contentDir, n);
      console.log(`corpus: N=${corpus.files} documents, ${mb(corpus.bytes)} (generated in ${Math.round(performance.now() - t)} ms)`);
    }
    console.log(`${rounds} rounds, ABBA order, ${os.cpus().length} CPUs, Node ${process.version}${process.env.UV_THREADPOOL_SIZE ? `, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE}` : ''}`);
    await settle(path.join(work, 'build')); // the corpus itself was just written
    const runs: Record<Kind, Measurement[]> = { floor: [], build: [] };
    for (let i = 0; i < rounds; i++) {
      const order: Kind[] = i % 2 === 0 ? ['floor', 'build'] : ['build', 'floor'];
      for (const kind of order) {
        const before = load();
        const m = await measure(kind, contentDir, path.join(work, kind));
        runs[kind].push(m);
        console.log(`  round ${i + 1} ${kind.padEnd(5)} ${s(m.ms).padStart(8)} wall ${s(m.cpuMs).padStart(8)} CPU  peak RSS ${mb(m.maxRss).padStart(9)}  (load ${before})`);
      }
    }
    const sum = (kind: Kind) => {
      const ms = runs[kind];
      return { wall: median(ms.map((m) => m.ms)), cpu: median(ms.map((m) => m.cpuMs)), rss: median(ms.map((m) => m.maxRss)), files: ms[0]?.files ?? 0, bytes: ms[0]?.bytes ?? 0 };
    };
    const f = sum('floor');
    const b = sum('build');
    const line = (name: string, x: ReturnType<typeof sum>) =>
      `${name} ${s(x.wall)} wall, ${s(x.cpu)} CPU, peak RSS ${mb(x.rss)} (${(x.rss / corpus.bytes).toFixed(1)}x the content); wrote ${x.files} files, ${mb(x.bytes)}`;
    console.log(`medians over ${rounds} runs each:`);
    console.log(line('  floor (read + gray-matter + 1 JSON/doc):', f));
    console.log(line('  build (full pipeline, every output):    ', b));
    console.log(`ratio of medians build/floor: ${(b.wall / f.wall).toFixed(2)}x wall, ${(b.cpu / f.cpu).toFixed(2)}x CPU, ${(b.rss / f.rss).toFixed(2)}x peak RSS (target: ≤ 2x wall at N=10,000)`);
    console.log(`load average now ${load()} (above ${os.cpus().length} means other work shared the CPUs: compare the CPU times, or re-run)`);
  } finally {
    if (values.keep) console.log(`kept ${work}${values.content ? '' : ` (content: ${contentDir})`}`);
    else await rm(work, { recursive: true, force: true });
  }
}

if (values.child) await child(values.child, values.content ?? '', values.out ?? '');
else await main();
