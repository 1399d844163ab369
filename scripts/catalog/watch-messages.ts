/** The messages between `build --watch`'s main thread (watch.ts) and its pass worker (watch-worker.ts). */
import type { IncrementalResult, PassStage, Shape } from './incremental.ts';
import type { BuildOptions } from './pipeline.ts';

/** What the worker is started with: the build's options, without the functions. */
export type WorkerOptions = Omit<BuildOptions, 'log' | 'report'> & { crash?: WorkerCrash };

/**
 * Tests only (watch.ts passes it to the workers a test asks for, never from the command line):
 * the worker dies when its pass reaches `stage` (`start`: as soon as it starts), by an uncaught
 * exception, `process.exit` or running out of memory.
 */
export interface WorkerCrash {
  stage: PassStage | 'start';
  how: 'throw' | 'exit' | 'oom';
}

export type ToWorker =
  /** Files changed (read them again); `entries`: what the main thread wrote for them, as generation `gen`. */
  | { type: 'save'; changed: string[]; gen: number; entries: [string, Shape][] }
  | { type: 'pass'; id: number }
  | { type: 'reply'; id: number; error?: string };

export type FromWorker =
  | { type: 'commit'; id: number; rel: string; tmp: string; at: number }
  | { type: 'remove'; id: number; rel: string; at: number }
  | { type: 'stage'; id: number; stage: PassStage }
  | { type: 'log'; line: string }
  | { type: 'report'; text: string }
  | { type: 'built'; id: number; result?: IncrementalResult & { at: number }; error?: string };
