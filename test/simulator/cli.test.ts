/** scripts/cli/simulator-server.ts: startSimulatorServer, as `npm start` and `npm run simulator` use it. */
import { describe, expect, it, vi } from 'vitest';
import { startSimulatorServer } from '../../scripts/cli/simulator-server.ts';
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
});

describe('npm run simulator -- --help', () => {
  it('prints the usage and exits 0; an unknown flag or a bad port is a usage error (exit 2)', async () => {
    const { execFile } = await import('node:child_process');
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', 'scripts/simulator.ts', ...args], { timeout: 20_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toContain('Usage: npm run simulator -- [--port N] [--host H] [--seed S] [--fixture FILE]');
    const bogus = await run(['--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("Unknown option '--bogus'");
    expect(bogus.stderr).toContain('Usage: npm run simulator');
    const port = await run(['--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be an integer between 0 and 65535');
    const limit = await run(['--max-body-mib', '0']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--max-body-mib must be a positive number, got "0"');
  });
});
