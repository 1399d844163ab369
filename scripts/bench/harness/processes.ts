/**
 * Benchmark servers as child processes of their own, pinned to a core, driven over IPC: the
 * parent starts one (the benchmark script itself, in a child mode), waits for it to say it is
 * ready, and calls it by name (`cpu`, `memory`, or anything the child answers). The child side
 * is `answerCalls`, which knows `cpu`, `memory`, `gc-record`, `gc-pauses` (gc-pauses.ts) and `mark`
 * (instructions.ts) already.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { recordGcPauses, takeGcPauses } from './gc-pauses.ts';
import { passMarker } from './instructions.ts';
import { pinToCore } from './machine.ts';

interface CallMessage {
  id: number;
  kind: string;
  payload: unknown;
}

type ReplyMessage = { id: number; result: unknown } | { id: number; error: string };

export interface ChildServer<Info> {
  proc: ChildProcess;
  /** What the child said when it became ready (its port, …). */
  info: Info;
  call<R = unknown>(kind: string, payload?: unknown): Promise<R>;
  /** CPU time the child used so far, in ms (user + system, all threads). */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The CPU to pin it to; null: not pinned. */
  core: number | null;
  /** Node options of the child (e.g. --expose-gc, --cpu-prof). */
  execArgv?: string[];
  /** A command node runs under (e.g. valgrind and its options); none: node itself. */
  wrapper?: string[];
}

/** Fork `script` with `args`; resolves once it sends `{ ready: info }`. */
export function startChild<Info>(script: string, args: string[], options: StartOptions): Promise<ChildServer<Info>> {
  // Run from the sources (npx tsx, vitest), a .ts script needs tsx in the child too.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const nodeArgv = [...loader, ...(options.execArgv ?? [])];
  const [wrapper, ...wrapperArgs] = options.wrapper ?? [];
  // fork runs `execPath ...execArgv script ...args`: a wrapper takes node's place and is handed node.
  const proc = fork(script, args, {
    ...(wrapper === undefined ? { execArgv: nodeArgv } : { execPath: wrapper, execArgv: [...wrapperArgs, process.execPath, ...nodeArgv] }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (proc.pid !== undefined) pinToCore(proc.pid, options.core);
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.once('exit', (code, signal) => {
    for (const p of pending.values()) p.reject(new Error(`benchmark child exited (${code ?? signal})`));
    pending.clear();
  });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code, signal) => reject(new Error(`benchmark child ${args.join(' ')} exited before it was ready (${code ?? signal})`)));
    proc.on('message', (m: { ready: Info } | ReplyMessage) => {
      if ('ready' in m) {
        const call = <R>(kind: string, payload?: unknown): Promise<R> =>
          new Promise<R>((done, fail) => {
            const id = nextId++;
            pending.set(id, { resolve: done as (v: unknown) => void, reject: fail });
            proc.send({ id, kind, payload } satisfies CallMessage);
          });
        resolve({
          proc,
          info: m.ready as Info,
          call,
          cpuMs: () => call<number>('cpu'),
          async stop() {
            // Disconnecting lets the child exit by itself, which writes a --cpu-prof profile; a
            // child that does not go within two seconds is killed.
            if (proc.connected) proc.disconnect();
            const timer = setTimeout(() => proc.kill(), 2000);
            await exited;
            clearTimeout(timer);
          },
        });
        return;
      }
      const waiting = pending.get(m.id);
      if (!waiting) return;
      pending.delete(m.id);
      if ('error' in m) waiting.reject(new Error(m.error));
      else waiting.resolve(m.result);
    });
  });
}

export type CallHandlers = Record<string, (payload: unknown) => unknown>;

/** After a full collection (needs --expose-gc; otherwise as it stands): heap in use and RSS. */
export function memoryNow(): { heapUsed: number; rss: number; external: number; gc: boolean } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers, gc: gc !== undefined };
}

/** The child side: say ready with `info`, then answer calls until the parent goes away. */
export function answerCalls(info: unknown, handlers: CallHandlers = {}): void {
  const all: CallHandlers = {
    cpu: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    },
    memory: () => memoryNow(),
    'gc-record': () => recordGcPauses(),
    'gc-pauses': () => takeGcPauses(),
    // Under valgrind (instructions.ts): ends one counted block and starts the next.
    mark: () => passMarker(),
    ...handlers,
  };
  process.on('message', (m: CallMessage) => {
    void (async () => {
      try {
        const handler = all[m.kind];
        if (!handler) throw new Error(`no call "${m.kind}"`);
        process.send?.({ id: m.id, result: await handler(m.payload) } satisfies ReplyMessage);
      } catch (error) {
        process.send?.({ id: m.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ReplyMessage);
      }
    })();
  });
  // The parent gone, nobody will call again.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: info });
}
