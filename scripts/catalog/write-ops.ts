/**
 * What the build's main thread (write.ts) and its writer threads (write-worker.ts) say to each
 * other: batches of operations, run in order, answered once each.
 */

/**
 * `previous`: the same file in the output folder being replaced. When it holds exactly the bytes
 * to write, the thread links it into the fresh folder instead of writing them again.
 */
export type WriteOp =
  | { op: 'dir'; path: string }
  | { op: 'file'; path: string; data: string | Uint8Array; twins?: boolean; previous?: string }
  | { op: 'open'; path: string; twins?: boolean; previous?: string }
  | { op: 'close'; path: string }
  | { op: 'append'; path: string; data: string | Uint8Array };

export interface WriteBatch {
  id: number;
  ops: WriteOp[];
}

export interface WriteReply {
  id: number;
  /** Bytes written by the batch (twins included), 0 when it failed. */
  bytes: number;
  error?: { message: string; code?: string };
}
