/** scripts/simulator.ts: startSimulatorServer, as `npm start` and `npm run simulator` use it. */
import { describe, expect, it } from 'vitest';
import { startSimulatorServer } from '../../scripts/simulator.ts';
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

describe('npm run simulator -- --help', () => {
  it('prints the usage and exits 0; an unknown flag exits 1 naming the flags', async () => {
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
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('unknown flag --bogus (flags: --port, --host, --seed, --fixture)');
  });
});
