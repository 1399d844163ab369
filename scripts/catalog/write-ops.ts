/**
 * What the build's main thread (write.ts) and its writer threads (write-worker.ts) say to each
 * other: batches of operations, run in order, answered once each.
 */

export type WriteOp =
  | { op: 'dir'; path: string }
  | { op: 'file'; path: string; data: string | Uint8Array; twins?: boolean }
  | { op: 'open'; path: string; twins?: boolean }
  | { op: 'close'; path: string }
  | { op: 'append'; path: string; data: string };

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
