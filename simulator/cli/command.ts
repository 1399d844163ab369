/**
 * The simulator's command line, shared by `npm run simulator` in this repository and the
 * published package's `team-chat-simulator` command: the same flags and behaviour, only the
 * name in the usage differs. SIGTERM or SIGINT stops it cleanly (requests in flight finish,
 * long-polls answer), exit code 0.
 */
import path from 'node:path';
import { DEFAULT_JOURNAL_LIMITS } from '../../simulator/control/journal.ts';
import { checkRealmUrl, DEFAULT_SEED, FixtureError } from '../../simulator/index.ts';
import { parseCli, portOf, positiveOf, usageError, wholeOf } from '../../scripts/cli/args.ts';
import { SHUTDOWN_GRACE_MS, stopOnSignals } from '../../scripts/cli/shutdown.ts';
import { startSimulatorServer } from './server.ts';
import { keepStateFile, loadStateFile, type StateKeeper } from './state-file.ts';

/** How often --state saves, in seconds, unless told otherwise. */
export const DEFAULT_STATE_INTERVAL_S = 30;

export interface SimulatorCommand {
  /** How the user invokes it, as the usage shows it: `npm run simulator --`, `team-chat-simulator`. */
  invocation: string;
  /** What else shares the default seed, so the keys match (in the repository: npm start). */
  seedSharedWith?: string;
}

function usage({ invocation, seedSharedWith }: SimulatorCommand): string {
  const seedNote = seedSharedWith ? `, as ${seedSharedWith}` : '';
  return `Usage: ${invocation} [--port N] [--host H] [--seed S] [--fixture FILE] [--rate-limit] [--realm-url URL] [--state FILE] [--journal N] [--journal-kib N] [--no-webhooks] [limits]

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
  --realm-url URL the realm's URL, as realm_url and in the links the server builds
                  (default: the address being served, http://H:N)
  --state FILE    keep the state in FILE: loaded at start if it exists, saved atomically
                  every interval and on shutdown (a file that is not a state this
                  simulator can restore is refused, and left as it is)
  --state-interval S
                  seconds between saves of --state [${DEFAULT_STATE_INTERVAL_S}]; a crash loses at most this
  --journal N     requests the control API's journal keeps [${DEFAULT_JOURNAL_LIMITS.maxEntries}]; 0 keeps none
  --journal-kib N KiB of their bodies it keeps, the newest first [${DEFAULT_JOURNAL_LIMITS.maxBodyBytes / 1024}]; older
                  entries say their body was dropped (a large budget costs every request
                  garbage-collector work)
  --no-webhooks   record outgoing webhooks only; by default each is POSTed to its bot's URL
                  and the answer posted as the bot's message, as Zulip's worker does
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
    'realm-url': { type: 'string' },
    state: { type: 'string' },
    'state-interval': { type: 'string' },
    journal: { type: 'string' },
    'journal-kib': { type: 'string' },
    'no-webhooks': { type: 'boolean', default: false },
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

  if (values.state === '') usageError('--state needs a file name', USAGE);
  const stateFile = values.state === undefined ? undefined : path.resolve(values.state);
  if (values['state-interval'] !== undefined && stateFile === undefined) usageError('--state-interval goes with --state FILE', USAGE);
  const stateIntervalMs = ms('--state-interval', values['state-interval']) ?? DEFAULT_STATE_INTERVAL_S * 1000;

  const journalEntries = values.journal === undefined ? undefined : wholeOf('--journal', values.journal, 'requests', 'keeps none', USAGE);
  const journalKib =
    values['journal-kib'] === undefined ? undefined : wholeOf('--journal-kib', values['journal-kib'], 'KiB', "keeps only the newest entry's bodies", USAGE);
  const journal =
    journalEntries === 0
      ? false
      : journalEntries === undefined && journalKib === undefined
        ? undefined
        : { ...(journalEntries !== undefined ? { maxEntries: journalEntries } : {}), ...(journalKib !== undefined ? { maxBodyBytes: journalKib * 1024 } : {}) };

  const realmUrl = values['realm-url'];
  if (realmUrl !== undefined) {
    try {
      checkRealmUrl(realmUrl);
    } catch {
      usageError(`--realm-url must be an http(s) address without a path, like http://localhost:9991, got "${realmUrl}"`, USAGE);
    }
  }

  try {
    let keeper: StateKeeper | undefined;
    const server = await startSimulatorServer({
      port: portOf('--port', values.port, USAGE),
      host: values.host,
      seed: values.seed,
      ...(values.fixture ? { fixturePath: path.resolve(values.fixture) } : {}),
      allowRemoteControl: values['allow-remote-control'],
      ...(values['rate-limit'] ? { rateLimit: true } : {}),
      ...(realmUrl !== undefined ? { realmUrl } : {}),
      ...(journal !== undefined ? { journal } : {}),
      ...(values['no-webhooks'] ? { deliverWebhooks: false } : {}),
      // Before the port opens: no request sees the fixture's state when a file holds another.
      beforeListen: (simulator) => {
        if (stateFile === undefined) return;
        const every = `every ${stateIntervalMs / 1000} s and on shutdown`;
        console.log(
          loadStateFile(simulator, stateFile)
            ? `State loaded from ${stateFile}; saved there ${every}.`
            : `State file ${stateFile} does not exist yet: starting from the fixture; the state will be saved there ${every}.`,
        );
        keeper = keepStateFile(simulator, stateFile, stateIntervalMs);
      },
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
    stopOnSignals(async () => {
      await server.close(SHUTDOWN_GRACE_MS);
      // After the requests in flight: what they did is in the file.
      keeper?.stop();
      keeper?.save();
    });
  } catch (error) {
    console.error(error instanceof FixtureError || error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
