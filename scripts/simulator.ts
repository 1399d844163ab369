/**
 * `npm run simulator`: the chat simulator over HTTP (default http://127.0.0.1:9991/api/v1),
 * printing every fixture user's email, role and API key.
 * Flags: --port N, --host H, --seed S, --fixture FILE.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator, FixtureError, type Clock } from '../simulator/index.ts';

export interface SimulatorServerOptions {
  port?: number;
  host?: string;
  seed?: number | string;
  fixturePath?: string;
  /** Default: wall-clock time (a live server). */
  clock?: Clock;
  /** Print the banner and user table (default true). */
  print?: boolean;
}

const USAGE = `Usage: npm run simulator -- [--port N] [--host H] [--seed S] [--fixture FILE]

Serves Zulip's REST API at http://H:N/api/v1 (default 127.0.0.1:9991) from the fixture
(default: Zulip's development realm), with API keys fixed by the seed.`;

const ROLE_NAMES: Record<number, string> = { 100: 'owner', 200: 'administrator', 300: 'moderator', 400: 'member', 600: 'guest' };

export async function startSimulatorServer(options: SimulatorServerOptions = {}) {
  const simulator = createSimulator({
    ...(options.fixturePath ? { fixture: options.fixturePath } : {}),
    seed: options.seed ?? 0,
    clock: options.clock ?? { now: () => Date.now() / 1000 },
  });
  const server = await simulator.listen(options.port ?? 9991, options.host ?? '127.0.0.1');
  if (options.print ?? true) {
    const lines = [`Chat simulator listening: ${server.url}`, ''];
    const users = [...simulator.engine.state.users.values()].filter((u) => !u.is_system_bot && u.is_active);
    const width = Math.max(...users.map((u) => u.delivery_email.length), 5);
    lines.push(`${'email'.padEnd(width)}  ${'role'.padEnd(13)}  api key`);
    for (const u of users) {
      const role = u.is_bot ? `bot (${ROLE_NAMES[u.role]})` : ROLE_NAMES[u.role]!;
      lines.push(`${u.delivery_email.padEnd(width)}  ${role.padEnd(13)}  ${u.api_key}`);
    }
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
  return { ...server, simulator };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function parseArgs(argv: string[]): SimulatorServerOptions {
  const out: SimulatorServerOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const need = (): string => {
      if (value === undefined) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (flag === '--port') out.port = Number(need());
    else if (flag === '--host') out.host = need();
    else if (flag === '--seed') out.seed = need();
    else if (flag === '--fixture') out.fixturePath = path.resolve(need());
    else throw new Error(`unknown flag ${flag} (flags: --port, --host, --seed, --fixture)`);
  }
  if (out.port !== undefined && !(Number.isInteger(out.port) && out.port >= 0 && out.port <= 65535)) {
    throw new Error('--port must be an integer between 0 and 65535');
  }
  if (typeof out.seed === 'string' && /^-?\d+$/.test(out.seed)) out.seed = Number(out.seed);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await startSimulatorServer(parseArgs(process.argv.slice(2)));
  } catch (error) {
    console.error(error instanceof FixtureError || error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
