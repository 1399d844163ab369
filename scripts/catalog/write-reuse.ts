/**
 * The writer threads' side of a rebuild over an existing output folder. write.ts builds a fresh
 * folder and swaps it in; most files of a rebuild hold the bytes they held before. Writing them
 * again costs the kernel page allocation, block allocation and write-back for every byte, and
 * removing the old tree afterwards frees those blocks again: on a shared 2-vCPU VM that was most
 * of the build's system time and, while the disk was busy, seconds of its wall time. So a file
 * whose bytes equal the previous version's is hard-linked from it into the fresh folder; only
 * files that differ are written. Reading the previous file back is a copy from the page cache.
 *
 * Nothing ever writes into an output file after it is complete (the build swaps folders, the
 * watcher renames a new file over the old one), so sharing an inode with the previous version
 * cannot change either. A previous file that is not a regular file (a link, a folder), a file
 * system without hard links, or a file replaced between the comparison and the link: the bytes
 * are written as without a previous version.
 */
import fs from 'node:fs';

/** The bytes to write, reused from one call to the next: no garbage per file. */
let scratch = Buffer.allocUnsafe(1 << 16);
/** The previous version's bytes, read back to compare (and to copy a matched prefix). */
let readBack = Buffer.allocUnsafe(1 << 16);

/** The UTF-8 bytes of `data`, valid until the next call. */
function bytesOf(data: string | Uint8Array): Uint8Array {
  if (typeof data !== 'string') return data;
  // A UTF-16 unit never takes more than three bytes of UTF-8 (a surrogate pair takes four).
  const most = data.length * 3;
  if (scratch.length < most) scratch = Buffer.allocUnsafe(Math.max(most, scratch.length * 2));
  return scratch.subarray(0, scratch.write(data, 0, 'utf8'));
}

export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
}

interface Previous {
  file: string;
  fd: number;
  size: number;
  ino: number;
  dev: number;
}

function openPrevious(file: string): Previous | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  const st = fs.fstatSync(fd);
  if (st.isFile()) return { file, fd, size: st.size, ino: st.ino, dev: st.dev };
  fs.closeSync(fd);
  return null;
}

/** True when the previous version holds `bytes` at offset `at`. */
function holds(previous: Previous, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > previous.size) return false;
  if (readBack.length < bytes.length) readBack = Buffer.allocUnsafe(Math.max(bytes.length, readBack.length * 2));
  for (let got = 0; got < bytes.length; ) {
    const n = fs.readSync(previous.fd, readBack, got, bytes.length - got, at + got);
    if (n === 0) return false;
    got += n;
  }
  return readBack.compare(bytes, 0, bytes.length, 0, bytes.length) === 0;
}

/** Link the previous version as `file`; false (and nothing left at `file`) when it cannot be. */
function linkPrevious(previous: Previous, file: string): boolean {
  try {
    fs.linkSync(previous.file, file);
  } catch {
    return false;
  }
  // The name may have been given to another file since it was compared: then write after all.
  const st = fs.lstatSync(file);
  if (st.ino === previous.ino && st.dev === previous.dev) return true;
  fs.unlinkSync(file);
  return false;
}

/** Write `data` as `file`, or link `previousFile` there when it holds the same bytes. Returns the file's size. */
export function writeOrLink(file: string, data: string | Uint8Array, previousFile: string): number {
  const bytes = bytesOf(data);
  const previous = openPrevious(previousFile);
  if (previous) {
    try {
      if (previous.size === bytes.length && holds(previous, 0, bytes) && linkPrevious(previous, file)) return bytes.length;
    } finally {
      fs.closeSync(previous.fd);
    }
  }
  const fd = fs.openSync(file, 'w');
  try {
    writeAll(fd, bytes);
  } finally {
    fs.closeSync(fd);
  }
  return bytes.length;
}

/**
 * A streamed file compared with its previous version piece by piece, written nowhere while they
 * agree. At the first difference it starts writing: the agreed prefix is copied from the previous
 * version, then every piece is written as it comes.
 */
export class ReusingStream {
  readonly #file: string;
  #previous: Previous | null;
  /** Bytes of the previous version equal to what was streamed so far. */
  #agreed = 0;
  #fd: number | null = null;

  constructor(file: string, previousFile: string) {
    this.#file = file;
    this.#previous = openPrevious(previousFile);
    if (!this.#previous) this.#fd = fs.openSync(file, 'w');
  }

  /** Returns the bytes the piece adds to the file. */
  append(data: string | Uint8Array): number {
    const bytes = bytesOf(data);
    if (this.#fd === null && this.#previous && holds(this.#previous, this.#agreed, bytes)) {
      this.#agreed += bytes.length;
      return bytes.length;
    }
    writeAll(this.#diverge(), bytes);
    return bytes.length;
  }

  close(): void {
    const previous = this.#previous;
    if (this.#fd === null && previous && previous.size === this.#agreed && linkPrevious(previous, this.#file)) {
      this.abort();
      return;
    }
    this.#diverge();
    this.abort();
  }

  /** Release whatever is open (a failed build: the fresh folder is discarded). */
  abort(): void {
    if (this.#previous) fs.closeSync(this.#previous.fd);
    this.#previous = null;
    if (this.#fd !== null) fs.closeSync(this.#fd);
    this.#fd = null;
  }

  /** From here on the file is written: its agreed prefix first, copied from the previous version. */
  #diverge(): number {
    if (this.#fd !== null) return this.#fd;
    const fd = fs.openSync(this.#file, 'w');
    this.#fd = fd;
    const previous = this.#previous;
    if (!previous) return fd;
    for (let at = 0; at < this.#agreed; ) {
      const n = fs.readSync(previous.fd, readBack, 0, Math.min(readBack.length, this.#agreed - at), at);
      if (n === 0) throw new Error(`${previous.file} shrank while it was read`);
      writeAll(fd, readBack.subarray(0, n));
      at += n;
    }
    fs.closeSync(previous.fd);
    this.#previous = null;
    return fd;
  }
}
