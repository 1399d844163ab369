/**
 * `npm run fuzz:catalog -- --runs N --seed S`: the front-matter fuzzer (fuzz/front-matter.ts)
 * for as long as asked, on a copy of a content folder. Prints how many cases ran, how many built
 * and how many broke the property, with the first counterexample and how to replay it.
 * `--targets` fuzzes the server's request targets instead (fuzz/request-targets.ts), against the
 * built copy.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { contentKeys, fuzzCases, runCase } from './front-matter.ts';
import { buildCatalog } from '../catalog/pipeline.ts';
import { describeCase, rawRequest, targetCases, targetViolations, type TargetCase } from './request-targets.ts';
import { startCatalogServer } from '../cli/catalog-server.ts';
import { parseCli, usageError } from '../cli/args.ts';
import { PROJECT_ROOT } from '../cli/root.ts';

const USAGE = `Usage: npm run fuzz:catalog -- [--runs N] [--seed S] [--content DIR] [--targets]

Breaks the front matter of one file at a time with random YAML types and shapes and builds: the
build must succeed with valid output or fail with located problems, never throw, and never
change the previous output when it fails.

With --targets, builds once and sends random request targets to the catalog server instead:
never a 5xx, and every error under /api/ is JSON.

  --runs N        cases to try (default 1000)
  --seed S        fast-check seed (default: random; printed, so a failure can be replayed)
  --content DIR   content folder to start from, copied first (default: the test fixture)
  --targets       fuzz the server's request targets, not the front matter
  -h, --help      this text`;

const values = parseCli(USAGE, {
  runs: { type: 'string', default: '1000' },
  seed: { type: 'string' },
  content: { type: 'string', default: path.join(PROJECT_ROOT, 'test/fixtures/catalog/basic') },
  targets: { type: 'boolean', default: false },
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1) usageError(`--runs must be a positive integer, got ${values.runs}`, USAGE);
if (!Number.isInteger(seed)) usageError(`--seed must be an integer, got ${values.seed}`, USAGE);

const work = await mkdtemp(path.join(os.tmpdir(), 'catalog-fuzz-'));
try {
  const content = path.join(work, 'content');
  const dist = path.join(work, 'dist');
  await cp(values.content, content, { recursive: true });
  const first = await buildCatalog({ contentDir: content, outDir: dist, sourceDateEpoch: '' });
  if (!first.ok) throw new Error(`${values.content} does not build to begin with`);
  if (values.targets) {
    await fuzzTargets(dist);
  } else {
    await fuzzFrontMatter(content, dist);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

async function fuzzTargets(dist: string): Promise<void> {
  const server = await startCatalogServer({ dir: dist, port: 0 });
  try {
    const port = Number(new URL(server.url).port);
    let cases = 0;
    const statuses = new Map<number, number>();
    const result = await fc.check(
      fc.asyncProperty(targetCases(), async (c) => {
        const answer = await rawRequest(port, c);
        cases++;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const violations = targetViolations(c, answer);
        return violations.length === 0 || (console.error(violations.join('\n')), false);
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
    const seen = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${n}× ${s}`).join(', ');
    console.log(`${cases} request targets (seed ${seed}): ${seen}; ${result.failed ? 1 : 0} failure(s)`);
    if (result.failed) {
      const [c] = result.counterexample as [TargetCase];
      console.error(`Counterexample: ${describeCase(c)}\nReplay: npm run fuzz:catalog -- --targets --seed ${seed} --runs ${runs}`);
      process.exitCode = 1;
    }
  } finally {
    await server.close();
  }
}

async function fuzzFrontMatter(content: string, dist: string): Promise<void> {
  const keys = await contentKeys(content);
  let cases = 0;
  let built = 0;
  const started = Date.now();
  const result = await fc.check(
    fc.asyncProperty(fuzzCases([...keys.keys()], (f) => keys.get(f) ?? ['title']), async (c) => {
      const outcome = await runCase(content, dist, c);
      cases++;
      if (outcome.ok) built++;
      if (cases % 100 === 0) console.log(`  ${cases} cases, ${built} built, ${Math.round((Date.now() - started) / 1000)} s`);
      return outcome.violations.length === 0 || (console.error(outcome.violations.join('\n')), false);
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  console.log(`${cases} cases (seed ${seed}): ${built} built, ${cases - built} refused with located problems, ${result.failed ? 1 : 0} failure(s)`);
  if (result.failed) {
    console.error(`Counterexample: ${fc.stringify(result.counterexample)}\nReplay: npm run fuzz:catalog -- --seed ${seed} --runs ${runs}`);
    process.exitCode = 1;
  }
}
