/** Reading a request body against a size limit, without holding more than the limit. */
import type { Readable } from 'node:stream';

export interface BodyReader {
  /** The whole body; null once it passed the limit (the stream is paused and left to the caller, who refuses the request). */
  done(body: Buffer | null): void;
  failed(error: Error): void;
}

/**
 * Read the whole body, or stop as soon as it passes `limit` bytes, so an endless chunked body
 * costs at most the limit plus one chunk. The reader is told through callbacks, once, and the
 * listeners stay where they are (node drops the request, listeners and all, when it is done with
 * it): a promise to settle and three listeners to take off again cost more than the rest of
 * reading a small body (a form POST through the node adapter). What the stream does after
 * the reader was told (chunks past the limit, an error as the connection is cut) is ignored.
 */
export function readLimited(stream: Readable, limit: number, reader: BodyReader): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let told = false;
  stream.on('data', (chunk: Buffer) => {
    if (told) return;
    size += chunk.length;
    if (size <= limit) {
      chunks.push(chunk);
      return;
    }
    told = true;
    stream.pause();
    reader.done(null);
  });
  stream.on('end', () => {
    if (told) return;
    told = true;
    // node hands each chunk over as a copy of its own, exactly its size: a body that came in one
    // piece (nearly every form POST) is that chunk, and copying it again bought nothing.
    reader.done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
  stream.on('error', (error: Error) => {
    if (told) return;
    told = true;
    reader.failed(error);
  });
}
