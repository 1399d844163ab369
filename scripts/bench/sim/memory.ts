/**
 * Memory per stored message: a simulator process (with --expose-gc, so each reading follows a
 * full collection) measures its heap, stores messages through the send action, and measures
 * again; then once more after a search narrow has built the word index. "Beyond content" takes
 * out the characters of the messages' raw and rendered content and topic (one byte each: the
 * benchmark's texts are ASCII, which V8 stores a byte a character).
 */
import { startSimulator, type BenchContext } from './context.ts';

export interface MemoryResult {
  kind: 'memory';
  name: string;
  title: string;
  messages: number;
  bytesPerMessage: number;
  beyondContent: number;
  /** The same after a search narrow built the word index. */
  beyondContentWithSearchIndex: number;
  target: number;
  exact: boolean;
}

export const MEMORY_TARGET = 700;

export async function runMemoryCase(ctx: BenchContext, messages: number): Promise<MemoryResult> {
  const sim = await startSimulator(ctx, { stored: 0, users: 0, channel: false }, 'memory', { gc: true });
  try {
    const heap = async (): Promise<{ heapUsed: number; gc: boolean }> => sim.call('memory');
    const before = await heap();
    const contentChars = await sim.call<number>('store', messages);
    const after = await heap();
    await sim.call('search');
    const indexed = await heap();
    return {
      kind: 'memory',
      name: 'memory',
      title: `memory per stored message (${messages.toLocaleString('en')} messages)`,
      messages,
      bytesPerMessage: (after.heapUsed - before.heapUsed) / messages,
      beyondContent: (after.heapUsed - before.heapUsed - contentChars) / messages,
      beyondContentWithSearchIndex: (indexed.heapUsed - before.heapUsed - contentChars) / messages,
      target: MEMORY_TARGET,
      exact: after.gc,
    };
  } finally {
    await sim.stop();
  }
}
