/**
 * The simulator's command line, shared by `npm run simulator` in this repository and the
 * published package's `team-chat-simulator` command: the same flags and behaviour, only the
 * name in the usage differs. SIGTERM or SIGINT stops it cleanly (requests in flight finish,
 * long-polls answer), exit code 0.
 */
import path from 'node:path';
import { DEFAULT_SEED, FixtureError } from '../../simulator/index.ts';
import { parseCli, portOf, positiveOf, usageError } from './args.ts';
import { SHUTDOWN_GRACE_MS, stopOnSignals } from './shutdown.ts';
import { startSimulatorServer } from './simulator-server.ts';

export interface SimulatorCommand {
  /** How the user invokes it, as the usage shows it: `npm run simulator --`, `team-chat-simulator`. */
  invocation: string;
  /** What else shares the default seed, so the keys match (in the repository: npm start). */
  seedSharedWith?: string;
}

function usage({ invocation, seedSharedWith }: SimulatorCommand): string {
  const seedNote = seedSharedWith ? `, as ${seedSharedWith}` : '';
  return `Usage: ${invocation} [--port N] [--host H] [--seed S] [--fixture FILE] [--rate-limit] [limits]

Serves Zulip's REST API at http://H:N/api/v1 from a fixture, printing every user's email, role
and API key.

  --port N        port (default 9991, env SIMULATOR_PORT; 0 picks a free one)
  --host H        address to listen on (default 127.0.0.1)
  --seed S        fixes the API keys and every random choice (default ${DEFAULT_SEED}${seedNote})
  --fixture FILE  a fixture JSON file (default: Zulip's development realm)
  --allow-remote-control
                  answer the control API (/__simulator: reset, snapshots, faults, the
                  journal) for clients on other machines too (default: this machine only)
  --rate-limit    rate limiting as Zulip does it: 200 calls a minute per user, X-RateLimit-*
                  headers, 429 RATE_LIMIT_HIT (default off)
  -h, --help      this text

Limits (defaults in brackets):
  --max-body-mib N        form bodies [2.5]; larger ones get 413
  --max-multipart-mib N   multipart bodies, which carry files [25]
  --header-timeout S      seconds to send the request head [10]; then 408
  --body-timeout S        seconds to send the whole request [30]; then 408
  --idle-timeout S        seconds a connection may stall mid-request [30]
  --max-connections N     open connections [1000]; past it, 503 with Retry-After`;
}

/** Parse the process's arguments, start the server and stop it on a signal (exit 0). */
export async function runSimulatorCommand(command: SimulatorCommand): Promise<void> {
  const USAGE = usage(command);
  const values = parseCli(USAGE, {
    port: { type: 'string', default: process.env.SIMULATOR_PORT ?? '9991' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
    fixture: { type: 'string' },
    'allow-remote-control': { type: 'boolean', default: false },
    'rate-limit': { type: 'boolean', default: false },
    'max-body-mib': { type: 'string' },
    'max-multipart-mib': { type: 'string' },
    'header-timeout': { type: 'string' },
    'body-timeout': { type: 'string' },
    'idle-timeout': { type: 'string' },
    'max-connections': { type: 'string' },
  });
  const MiB = 1024 * 1024;
  const mib = (flag: string, value: string | undefined): number | undefined =>
    value === undefined ? undefined : Math.floor(positiveOf(flag, value, USAGE) * MiB);
  const ms = (flag: string, value: string | undefined): number | undefined =>
    value === undefined ? undefined : Math.round(positiveOf(flag, value, USAGE) * 1000);
  const count = (flag: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const n = positiveOf(flag, value, USAGE);
    if (!Number.isInteger(n)) usageError(`${flag} must be a whole number, got "${value}"`, USAGE);
    return n;
  };

  try {
    const server = await startSimulatorServer({
      port: portOf('--port', values.port, USAGE),
      host: values.host,
      seed: values.seed,
      ...(values.fixture ? { fixturePath: path.resolve(values.fixture) } : {}),
      allowRemoteControl: values['allow-remote-control'],
      ...(values['rate-limit'] ? { rateLimit: true } : {}),
      http: {
        maxBodyBytes: mib('--max-body-mib', values['max-body-mib']),
        maxMultipartBytes: mib('--max-multipart-mib', values['max-multipart-mib']),
        limits: {
          headersTimeoutMs: ms('--header-timeout', values['header-timeout']),
          requestTimeoutMs: ms('--body-timeout', values['body-timeout']),
          idleTimeoutMs: ms('--idle-timeout', values['idle-timeout']),
          maxConnections: count('--max-connections', values['max-connections']),
        },
      },
    });
    stopOnSignals(() => server.close(SHUTDOWN_GRACE_MS));
  } catch (error) {
    console.error(error instanceof FixtureError || error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
