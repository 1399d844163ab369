/**
 * The chat simulator on a port (used by `npm run simulator` and `npm start`), printing every
 * fixture user's email, role and API key, and how to address each one (users.ts).
 */
import { hostname } from 'node:os';
import type { HttpOptions } from '../../simulator/http/node.ts';
import { userTables } from './users.ts';
import { createSimulator, DEFAULT_SEED, type Clock, type JournalLimits, type RateLimitConfig, type Simulator } from '../../simulator/index.ts';

export interface SimulatorServerOptions {
  port?: number;
  host?: string;
  seed?: number | string;
  fixturePath?: string;
  /** Default: real time, followed (a live server: scheduled messages go out on their own). */
  clock?: Clock;
  /** Print the banner and user table (default true). */
  print?: boolean;
  /** Body limits (undefined values keep the defaults). */
  http?: HttpOptions;
  /** Answer the control API (/__simulator) for clients on other machines too. */
  allowRemoteControl?: boolean;
  /** Zulip's rate limiting (default off). */
  rateLimit?: RateLimitConfig;
  /** The realm's URL (realm_url and the links the server builds). Default: the address being served. */
  realmUrl?: string;
  /** What the request journal keeps (default: createSimulator's); false: nothing. */
  journal?: Partial<JournalLimits> | false;
  /** Deliver outgoing webhooks (default true: serving over HTTP, as Zulip does). */
  deliverWebhooks?: boolean;
  /** Called with the simulator before the port opens (the --state file is loaded there). */
  beforeListen?: (simulator: Simulator) => void;
}

export async function startSimulatorServer(options: SimulatorServerOptions = {}) {
  const simulator = createSimulator({
    ...(options.fixturePath ? { fixture: options.fixturePath } : {}),
    seed: options.seed ?? DEFAULT_SEED,
    ...(options.clock ? { clock: options.clock } : { realTime: true }),
    allowRemoteControl: options.allowRemoteControl ?? false,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.realmUrl !== undefined ? { realmUrl: options.realmUrl } : {}),
    ...(options.journal !== undefined ? { journal: options.journal } : {}),
    deliverWebhooks: options.deliverWebhooks ?? true,
  });
  options.beforeListen?.(simulator);
  const server = await simulator.listen(options.port ?? 9991, options.host ?? '127.0.0.1', options.http);
  // On every address (0.0.0.0, ::) the server is reached here at 127.0.0.1: a browser sent to
  // http://0.0.0.0:PORT/ asks for a name the control API and the live page refuse.
  const origin = reachableOrigin(server.url);
  // Clients build links from realm_url: by default it is where they reach this server.
  if (options.realmUrl === undefined) simulator.setRealmUrl(origin);
  const liveUrl = `${origin}/`;
  if (options.print ?? true) {
    const lines = [`Chat simulator listening: ${origin}/api/v1${origin === new URL(server.url).origin ? '' : ` (on ${options.host})`}`];
    // The console answers loopback clients only (unless remote control is allowed).
    lines.push(`Live console (this machine${options.allowRemoteControl ? '' : ' only'}): ${liveUrl}`);
    if (options.allowRemoteControl && !isLoopback(options.host ?? '127.0.0.1')) {
      lines.push(`  from other machines (--allow-remote-control): http://${hostname()}:${new URL(server.url).port}/`);
    }
    lines.push('');
    lines.push(...userTables(simulator.engine));
    lines.push('', 'Passwords (POST /fetch_api_key) are stated per user in the fixture; the dev realm uses <local part>-password.');
    if (!isLoopback(options.host ?? '127.0.0.1')) {
      // dev_fetch_api_key and the fixture's passwords hand out every account to whoever asks.
      lines.push(
        '',
        `WARNING: listening on ${options.host}, not loopback: anyone who can reach this port can take any account`,
        '(POST /dev_fetch_api_key needs no password). Use --host 127.0.0.1 unless the network is yours alone.',
      );
    }
    console.log(lines.join('\n'));
  }
  return { ...server, simulator, liveUrl };
}

/** The server's origin, with a wildcard address (0.0.0.0, [::]) replaced by 127.0.0.1. */
export function reachableOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = '127.0.0.1';
  return parsed.origin;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
