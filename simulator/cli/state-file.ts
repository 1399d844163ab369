/**
 * `--state FILE`: the simulator's state kept in a file across restarts. Loaded at start when the
 * file exists (a file that cannot be read, is not JSON or is not a snapshot this simulator can
 * restore is refused, naming the file and what is wrong, and left as it is); saved atomically (a
 * temporary file beside it, written, fsynced, renamed over it, the folder fsynced) every interval
 * when something changed, and on shutdown. A crash loses at most the last interval; a save that
 * fails leaves the previous file whole. The file is a snapshot (GET /__simulator/snapshot).
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { SnapshotError, type Simulator } from '../../simulator/index.ts';

/** Why a state file cannot be used: the file, and what is wrong with it. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`State file ${file}: ${problem}; the file was left as it is`);
    this.name = 'StateFileError';
  }
}

/** Restore `sim` from `file`: true if it was loaded, false if there is no such file yet. */
export function loadStateFile(sim: Simulator, file: string): boolean {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new StateFileError(file, `cannot be read (${(error as Error).message})`);
  }
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(file, `is not JSON (${(error as Error).message}); a simulator's state file is a snapshot, as GET /__simulator/snapshot answers`);
  }
  try {
    sim.restore(snapshot);
  } catch (error) {
    if (error instanceof SnapshotError) throw new StateFileError(file, `cannot be restored: ${error.message}`);
    throw error;
  }
  return true;
}

/** Write `text` to `file` so that the file is always either its old content or all of the new. */
export function writeFileAtomically(file: string, text: string): void {
  const dir = path.dirname(file);
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  // The rename itself is durable once the folder is synced (not possible everywhere: best effort).
  try {
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some systems cannot fsync a folder; the file itself is complete either way.
  }
}

export interface StateKeeper {
  /** Save now if anything changed since the last save (the shutdown path). */
  save(): void;
  /** Stop the periodic saves. */
  stop(): void;
}

/**
 * Save `sim`'s state to `file` every `intervalMs` when it changed since the last save. A failed
 * save is reported on stderr and retried at the next interval; the previous file stays whole.
 */
export function keepStateFile(sim: Simulator, file: string, intervalMs: number, log: (message: string) => void = console.error): StateKeeper {
  let saved: string | undefined;
  try {
    saved = readFileSync(file, 'utf8');
  } catch {
    saved = undefined;
  }
  const save = (): void => {
    const text = `${JSON.stringify(sim.snapshot())}\n`;
    if (text === saved) return;
    try {
      writeFileAtomically(file, text);
      saved = text;
    } catch (error) {
      log(`State file ${file}: could not be saved (${(error as Error).message}); the previous one is unchanged`);
    }
  };
  const timer = setInterval(save, intervalMs);
  // The periodic save never keeps the process alive by itself.
  timer.unref();
  return {
    save,
    stop: () => clearInterval(timer),
  };
}
