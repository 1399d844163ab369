/** simulator/cli/server.ts: startSimulatorServer, as `npm start` and `npm run simulator` use it. */
import { describe, expect, it, vi } from 'vitest';
import { startSimulatorServer } from '../../simulator/cli/server.ts';
import { createSimulator } from '../../simulator/index.ts';

describe('startSimulatorServer', () => {
  it('serves the dev realm with keys fixed by the seed ("1" on a command line is the number 1)', async () => {
    const server = await startSimulatorServer({ port: 0, seed: '1', print: false });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const expected = createSimulator({ seed: 1 }).engine.state.users.get(10)!.api_key;
      const res = await fetch(`${server.url}/dev_fetch_api_key`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'hamlet@zulip.com' }),
      });
      expect(await res.json()).toMatchObject({ api_key: expected, user_id: 10 });
    } finally {
      await server.close();
    }
  });
});

describe('the journal', () => {
  it('keeps what startSimulatorServer is told to (as --journal N does), and nothing when told false (--journal 0)', async () => {
    for (const [journal, kept] of [[{ maxEntries: 2 }, 2], [false, 0]] as const) {
      const server = await startSimulatorServer({ port: 0, print: false, journal });
      try {
        for (let i = 0; i < 3; i++) await fetch(`${server.url}/server_settings`);
        const res = await fetch(`${server.url.replace(/\/api\/v1$/, '')}/__simulator/journal`);
        expect(((await res.json()) as { entries: unknown[] }).entries).toHaveLength(kept);
      } finally {
        await server.close();
      }
    }
  });
});

describe('the realm URL', () => {
  const settingsOf = async (url: string) => (await (await fetch(`${url}/server_settings`)).json()) as Record<string, unknown>;

  it('is the address being served by default, in /server_settings, /register and the links the server builds', async () => {
    const server = await startSimulatorServer({ port: 0, seed: 1, print: false });
    try {
      const origin = server.url.replace(/\/api\/v1$/, '');
      expect(await settingsOf(server.url)).toMatchObject({ realm_url: origin, realm_uri: origin });
      const iago = server.simulator.engine.state.users.get(11)!;
      const auth = `Basic ${Buffer.from(`${iago.delivery_email}:${iago.api_key}`).toString('base64')}`;
      const register = await (await fetch(`${server.url}/register`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ fetch_event_types: '["realm"]' }) })).json() as Record<string, unknown>;
      expect(register).toMatchObject({ realm_url: origin, realm_uri: origin });
      const invite = await (await fetch(`${server.url}/invites/multiuse`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({}) })).json() as { invite_link: string };
      expect(invite.invite_link).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/join/[a-z0-9]{24}/$`));
      // A reset keeps it: it is where the server is, not part of the state.
      server.simulator.reset();
      expect(await settingsOf(server.url)).toMatchObject({ realm_url: origin });
    } finally {
      await server.close();
    }
  });

  it('--realm-url / createSimulator({ realmUrl }) set it; it survives reset and restore; others keep the fixture\'s', async () => {
    const server = await startSimulatorServer({ port: 0, seed: 1, print: false, realmUrl: 'https://chat.example.com/' });
    try {
      expect(await settingsOf(server.url)).toMatchObject({ realm_url: 'https://chat.example.com', realm_uri: 'https://chat.example.com' });
    } finally {
      await server.close();
    }
    const s = createSimulator({ realmUrl: 'http://localhost:9991' });
    const plain = createSimulator();
    expect(s.engine.state.realm.url).toBe('http://localhost:9991');
    expect(plain.engine.state.realm.url).toBe('http://zulip.testserver');
    s.restore(plain.snapshot());
    expect(s.engine.state.realm.url).toBe('http://localhost:9991');
    s.reset();
    expect(s.engine.state.realm.url).toBe('http://localhost:9991');
    expect(createSimulator().engine.state.realm.url).toBe('http://zulip.testserver');
    for (const bad of ['localhost:9991', 'ftp://x.example', 'http://x.example/chat', 'not a url']) {
      expect(() => createSimulator({ realmUrl: bad }), bad).toThrow(/realmUrl must be an http\(s\) address without a path/);
    }
  });
});

describe('outgoing webhooks from the command', () => {
  it('are delivered by default (serving over HTTP, as Zulip does), and only recorded with --no-webhooks', async () => {
    const on = await startSimulatorServer({ port: 0, print: false });
    const off = await startSimulatorServer({ port: 0, print: false, deliverWebhooks: false });
    try {
      expect([on.simulator.webhooks.enabled, off.simulator.webhooks.enabled]).toEqual([true, false]);
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});

describe('the start-up banner', () => {
  const banner = async (host: string): Promise<string> => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const server = await startSimulatorServer({ port: 0, host, seed: 1 });
    await server.close();
    const text = log.mock.calls.map((c) => String(c[0])).join('\n');
    log.mockRestore();
    return text;
  };

  it('lists every account with its role and key, and warns when reachable beyond loopback', async () => {
    const local = await banner('127.0.0.1');
    expect(local).toMatch(/iago@zulip\.com\s+administrator\s+[A-Za-z0-9]{32}/);
    expect(local).not.toContain('WARNING');
    expect(await banner('0.0.0.0')).toContain('WARNING: listening on 0.0.0.0, not loopback');
  });

  it("lists each user's id and API email, and the API email it prints is the one `to` accepts", async () => {
    const text = await banner('127.0.0.1');
    const row = /^\s*(\d+)\s+(\S+)\s+desdemona@zulip\.com\s+(\S+)$/m.exec(text);
    expect(row?.slice(1)).toEqual(['9', 'user9@zulip.testserver', 'administrators']);
    expect(text).toMatch(/^\s*16\s+default-bot@zulip\.com\s+default-bot@zulip\.com\s+everyone$/m);
    expect(text).toContain('`to` refuses the login email ("Invalid email")');
    const sim = createSimulator({ seed: 1 });
    const send = (to: unknown[]) =>
      sim.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'direct', to, content: 'hi' } });
    expect((await send([row![2]])).status).toBe(200);
    expect((await send([Number(row![1])])).status).toBe(200);
    expect((await send(['desdemona@zulip.com'])).body).toMatchObject({ result: 'error', msg: "Invalid email 'desdemona@zulip.com'" });
  });
});

describe('npm run simulator -- --help', () => {
  // One process per case: each start compiles the command with tsx, which takes seconds on a busy machine.
  const run = async (args: string[]) => {
    const { execFile } = await import('node:child_process');
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'scripts/simulator.ts', ...args], { timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  };

  it('prints the usage and exits 0', async () => {
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toContain('Usage: npm run simulator -- [--port N] [--host H] [--seed S] [--fixture FILE]');
    expect(help.stdout).toMatch(/^  --no-webhooks   record outgoing webhooks only;/m);
  });

  it('an unknown flag is a usage error (exit 2)', async () => {
    const bogus = await run(['--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("Unknown option '--bogus'");
    expect(bogus.stderr).toContain('Usage: npm run simulator');
  });

  it.each<[string[], string]>([
    [['--port', '70000'], '--port must be an integer between 0 and 65535'],
    [['--realm-url', 'example.com'], '--realm-url must be an http(s) address without a path'],
    [['--max-body-mib', '0'], '--max-body-mib must be a positive number, got "0"'],
    [['--journal', '2.5'], '--journal must be a whole number of requests (0 keeps none), got "2.5"'],
    [['--journal', ' '], '--journal must be a whole number of requests (0 keeps none), got " "'],
    [['--journal-kib', 'lots'], '--journal-kib must be a whole number of KiB (0 keeps only the newest entry\'s bodies), got "lots"'],
    [['--journal-kib=-1'], '--journal-kib must be a whole number of KiB (0 keeps only the newest entry\'s bodies), got "-1"'],
  ])('%j is refused as a usage error (exit 2)', async (args, message) => {
    const refused = await run(args);
    expect(refused.code, args.join(' ')).toBe(2);
    expect(refused.stderr, args.join(' ')).toContain(message);
  });
});
