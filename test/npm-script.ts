/**
 * Run a real `npm run` script as a process manager would (one child: npm), wait for its servers
 * to announce themselves, and observe how it ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningScript {
  child: ChildProcess;
  /** The first capture group of each `ready` pattern, in order. */
  found: string[];
  /** How npm ended: its exit code, or the signal that killed it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  /** Kill whatever the script left behind (its whole process group): a failed test leaves no orphan. */
  cleanUp(): void;
}

/** `npm run <script> -- <args>`, resolved once stdout has matched every pattern. */
export function startScript(script: string, args: string[], ready: RegExp[], timeoutMs = 60_000): Promise<RunningScript> {
  // Its own process group, so that cleanUp() reaches grandchildren; signals under test go to npm alone.
  const child = spawn('npm', ['run', script, '--', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const cleanUp = (): void => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Nothing left: the group is gone.
    }
  };
  let text = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanUp();
      reject(new Error(`npm run ${script} did not start in time:\n${text}`));
    }, timeoutMs);
    const check = (): void => {
      const found = ready.map((pattern) => pattern.exec(text)?.[1]);
      if (found.every((f) => f !== undefined)) {
        clearTimeout(timer);
        resolve({ child, found: found as string[], exited, output: () => text, cleanUp });
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      check();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`npm run ${script} exited before it was ready:\n${text}`));
    });
  });
}

/** Whether anything accepts connections on the port. */
export function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A request caught mid-flight: its head and the start of its body are sent now, the rest when
 * `finish()` is called; `answer` is everything the server sent until it closed the connection.
 */
export function startRequest(port: number, head: string, body: string, sentFirst: number) {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const answer = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(text));
    socket.once('error', () => resolve(text));
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head + body.slice(0, sentFirst));
  return {
    connected,
    answer,
    finish: () => socket.write(body.slice(sentFirst)),
  };
}
