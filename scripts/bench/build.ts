/**
 * `npm run bench:build [-- --n 10000 --runs 1 --keep]`: times the full catalog build on a
 * synthetic corpus of N Markdown documents against the floor on the same machine in the same
 * run: a minimal script that only reads the files, parses their front matter (gray-matter) and
 * writes one JSON per document. Each measurement runs in its own child process, so their peak
 * memory (RSS high-water mark) does not mix. A benchmark, not a test: it prints, it never fails
 * on a threshold.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import fg from 'fast-glob';
import matter from 'gray-matter';
import { mapLimit } from '../catalog/concurrency.ts';
import { readFile, writeFile } from '../catalog/io.ts';
import { buildCatalog } from '../catalog/pipeline.ts';
import { writeSyntheticContent } from '../catalog/synthetic.ts';

interface Measurement {
  ms: number;
  /** Peak resident set size, bytes. */
  maxRss: number;
  /** CPU time of the process (user + system), ms: wall time alone swings with the machine's load. */
  cpuMs: number;
  files: number;
  bytes: number;
}

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    child: { type: 'string' },
    content: { type: 'string' },
    out: { type: 'string' },
  },
});

/** Same bounded concurrency as the build, so the floor is not handicapped by serial I/O. */
const IO_CONCURRENCY = 64;

async function floor(contentDir: string, outDir: string): Promise<Omit<Measurement, 'maxRss' | 'cpuMs'>> {
  const started = performance.now();
  const rels = (await fg('**/*.md', { cwd: contentDir, ignore: ['README.md'] })).sort();
  let bytes = 0;
  await mapLimit(rels, IO_CONCURRENCY, async (rel) => {
    const parsed = matter(await readFile(path.join(contentDir, rel), 'utf8'), {});
    const json = JSON.stringify({ path: rel, data: parsed.data, body: parsed.content });
    bytes += Buffer.byteLength(json);
    const target = path.join(outDir, `${rel.replace(/[/.]/g, '_')}.json`);
    await writeFile(target, json);
  });
  return { ms: performance.now() - started, files: rels.length, bytes };
}

async function full(contentDir: string, outDir: string): Promise<Omit<Measurement, 'maxRss' | 'cpuMs'>> {
  const started = performance.now();
  const result = await buildCatalog({ contentDir, outDir, sourceDateEpoch: '' });
  if (!result.ok) throw new Error(`synthetic corpus does not build: ${JSON.stringify(result.issues.slice(0, 5))}`);
  return { ms: performance.now() - started, files: result.files, bytes: result.bytes };
}

async function child(kind: string, contentDir: string, outDir: string): Promise<void> {
  if (kind === 'floor') await mkdir(outDir, { recursive: true });
  const m = kind === 'floor' ? await floor(contentDir, outDir) : await full(contentDir, outDir);
  // maxRSS is in kilobytes.
  const usage = process.resourceUsage();
  const out: Measurement = { ...m, maxRss: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

const run = promisify(execFile);

/**
 * File-system calls run on libuv's thread pool (4 threads by default). On disks where creating a
 * file or folder waits on the journal, 4 threads leave the CPU idle; both children get the same
 * larger pool so the comparison stays fair. An explicit UV_THREADPOOL_SIZE wins.
 */
const THREADPOOL = process.env.UV_THREADPOOL_SIZE ?? '16';
const self = fileURLToPath(import.meta.url);

async function measure(kind: 'floor' | 'full', contentDir: string, outDir: string): Promise<Measurement> {
  await rm(outDir, { recursive: true, force: true });
  const { stdout } = await run(process.execPath, ['--import', 'tsx', self, '--child', kind, '--content', contentDir, '--out', outDir], {
    maxBuffer: 1 << 20,
    env: { ...process.env, UV_THREADPOOL_SIZE: THREADPOOL },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measurement;
}

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const n = Number(values.n);
  const runs = Math.max(1, Number(values.runs));
  if (!Number.isInteger(n) || n < 10) throw new Error(`--n must be an integer ≥ 10, got ${values.n}`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'catalog-bench-'));
  const contentDir = path.join(work, 'content');
  try {
    let t = performance.now();
    const corpus = await writeSyntheticContent(contentDir, n);
    console.log(`corpus: ${corpus.files} documents, ${mb(corpus.bytes)} (generated in ${Math.round(performance.now() - t)} ms)`);
    const floors: Measurement[] = [];
    const fulls: Measurement[] = [];
    for (let i = 0; i < runs; i++) {
      floors.push(await measure('floor', contentDir, path.join(work, 'floor')));
      fulls.push(await measure('full', contentDir, path.join(work, 'dist')));
    }
    t = median(floors.map((m) => m.ms));
    const f = median(fulls.map((m) => m.ms));
    const fc = median(floors.map((m) => m.cpuMs));
    const bc = median(fulls.map((m) => m.cpuMs));
    const fl = floors[0] as Measurement;
    const fu = fulls[0] as Measurement;
    const line = (name: string, ms: number, cpu: number, ms2: Measurement[], m: Measurement) =>
      `${name} ${Math.round(ms)} ms wall, ${Math.round(cpu)} ms CPU, peak RSS ${mb(Math.max(...ms2.map((x) => x.maxRss)))}, ${m.files} files, ${mb(m.bytes)}`;
    console.log(line('floor  (read + gray-matter + 1 JSON/doc):', t, fc, floors, fl));
    console.log(line('build  (full pipeline, all outputs):     ', f, bc, fulls, fu));
    console.log(`ratio  build/floor: ${(f / t).toFixed(2)}x wall, ${(bc / fc).toFixed(2)}x CPU (target ≤ 2x); peak RSS per MB of content: floor ${(fl.maxRss / corpus.bytes).toFixed(1)}, build ${(fu.maxRss / corpus.bytes).toFixed(1)}`);
    console.log(`(${runs > 1 ? `median of ${runs} runs each, ` : ''}UV_THREADPOOL_SIZE=${THREADPOOL} in both children, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)})`);
  } finally {
    if (values.keep) console.log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

if (values.child) await child(values.child, values.content ?? '', values.out ?? '');
else await main();
