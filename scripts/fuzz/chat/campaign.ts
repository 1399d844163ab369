/**
 * A fuzzing campaign: many sequences in chunks of fast-check runs, each chunk with its own seed,
 * so that a failure (shrunk to a minimal sequence) is recorded and the campaign goes on to look
 * for others. `npm run fuzz` and the seeded sample in `npm test` both run one.
 */
import fc from 'fast-check';
import { requestSpace } from './requests.ts';
import { describeFailure, emptyCoverage, runSequence, type Coverage, type Failure, type Sequence } from './run.ts';
import type { World } from './world.ts';

export interface CampaignOptions {
  /** Sequences to run in all (ignored with `requests`). */
  runs: number;
  /** Instead: go on, a chunk at a time, until this many requests have been sent. */
  requests?: number;
  seed: number;
  /** Most requests in one sequence (default 12). */
  maxLength?: number;
  /** Share of sequences sent through a real HTTP server (default 0.02). */
  httpShare?: number;
  /** Share of sequences that check that refused requests change nothing (default 0.1). */
  auditShare?: number;
  /** Sequences per chunk (default 500): after a failure the campaign resumes with the next chunk. */
  chunk?: number;
  /** Replay one counterexample: the chunk's seed and fast-check's path, as a report prints them. */
  path?: string;
  /** Stop after this many distinct failures (default 10). */
  maxFailures?: number;
  onProgress?: (progress: Progress) => void;
  /** Told of each distinct failure as soon as it is found (shrunk). */
  onFailure?: (failure: FoundFailure) => void;
}

export interface Progress {
  sequences: number;
  requests: number;
  failures: number;
  elapsedMs: number;
}

export interface FoundFailure {
  /** What broke, without the numbers: failures with the same signature are one bug. */
  signature: string;
  /** The minimal sequence and what it broke, for a person. */
  report: string;
  /** How to replay exactly this counterexample. */
  replay: { seed: number; path: string };
}

export interface CampaignResult extends Progress {
  found: FoundFailure[];
  coverage: Coverage;
}

function signatureOf(failure: Failure): string {
  const problems = failure.problems.map((p) => p.replace(/\d+/g, 'N').replace(/"[^"]*"/g, '"…"')).sort();
  return `${failure.request.route}: ${problems.join('; ')}`;
}

export async function runCampaign(world: World, options: CampaignOptions): Promise<CampaignResult> {
  const space = requestSpace(world.routes, world.pools, world.queueIds);
  const sequences = space.sequence(options.maxLength ?? 12, { http: options.httpShare ?? 0.02, audit: options.auditShare ?? 0.1 });
  const chunk = options.path ? options.runs : (options.chunk ?? 500);
  const found = new Map<string, FoundFailure>();
  const started = Date.now();
  const progress: Progress = { sequences: 0, requests: 0, failures: 0, elapsedMs: 0 };
  let last: { sequence: Sequence; failure: Failure } | undefined;
  const coverage = emptyCoverage();
  const property = fc.asyncProperty(sequences, async (sequence) => {
    const result = await runSequence(world, sequence, coverage).catch((error: unknown) => ({
      sent: 0,
      failure: { index: 0, request: sequence.requests[0]!, status: undefined, body: '', problems: [`the fuzzer itself failed: ${String(error)}`], stack: (error as Error).stack } satisfies Failure,
    }));
    progress.sequences++;
    progress.requests += result.sent;
    if (result.failure) last = { sequence, failure: result.failure };
    return result.failure === undefined;
  });
  const more = (done: number) => (options.requests !== undefined && !options.path ? progress.requests < options.requests : done < options.runs);
  for (let done = 0, k = 0; more(done) && found.size < (options.maxFailures ?? 10); done += chunk, k++) {
    const seed = options.seed + k;
    const numRuns = options.requests !== undefined && !options.path ? chunk : Math.min(chunk, options.runs - done);
    last = undefined;
    const outcome = await fc.check(property, { seed, numRuns, ...(options.path ? { path: options.path } : {}) });
    if (outcome.failed) {
      progress.failures++;
      // After shrinking, the last failing run is the minimal counterexample.
      const minimal = last!;
      const signature = signatureOf(minimal.failure);
      if (!found.has(signature)) {
        const failure = { signature, report: describeFailure(minimal.sequence, minimal.failure), replay: { seed, path: outcome.counterexamplePath! } };
        found.set(signature, failure);
        options.onFailure?.(failure);
      }
    }
    progress.elapsedMs = Date.now() - started;
    options.onProgress?.({ ...progress });
  }
  progress.elapsedMs = Date.now() - started;
  return { ...progress, found: [...found.values()], coverage };
}
