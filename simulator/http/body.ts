/** Reading a request body against a size limit, without holding more than the limit. */
import type { Readable } from 'node:stream';

/**
 * The whole body, or null as soon as it passes `limit` bytes: reading stops there (the stream is
 * paused and left to the caller, who refuses the request), so an endless chunked body costs at
 * most the limit plus one chunk.
 */
export function readLimited(stream: Readable, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      settle();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stream.pause();
      // Whatever becomes of the stream now (the refusal closes the connection) is no error here.
      stream.on('error', () => {});
      finish(() => resolve(null));
    };
    const onEnd = (): void => finish(() => resolve(Buffer.concat(chunks, size)));
    const onError = (error: Error): void => finish(() => reject(error));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
