/**
 * Clean stops for the long-running commands (npm start, npm run serve, npm run simulator): on
 * SIGTERM or SIGINT the servers stop accepting, finish what is in flight (held long-polls answer
 * at once) within a grace period, and the process exits 0.
 */

/** How long requests in flight get to finish once a stop is asked for. */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Run `stop` on the first SIGTERM or SIGINT, then exit (0, or 1 if stopping failed). Repeats are
 * ignored: one Ctrl-C reaches both npm and the server, and npm forwards it again; the grace period
 * already bounds how long stopping takes.
 */
export function stopOnSignals(stop: () => Promise<unknown>): void {
  let stopping = false;
  const onSignal = (): void => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('stopping failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
