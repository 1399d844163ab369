/**
 * `npm run simulator -- --state FILE` (simulator/cli/state-file.ts): the state survives a restart
 * (saved on SIGTERM after the requests in flight) and a crash (saved every interval); a file that
 * is not a state this simulator can restore is refused with the file and what is wrong, and left
 * as it is; saving is atomic.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepStateFile, loadStateFile, StateFileError, writeFileAtomically } from '../../simulator/cli/state-file.ts';
import { createSimulator, fixedClock, SNAPSHOT_VERSION } from '../../simulator/index.ts';
import { startScript } from '../npm-script.ts';

const T = 1_700_200_000;
const fresh = () => createSimulator({ seed: 4, clock: fixedClock(T) });
const SIMULATOR_URL = /Chat simulator listening: http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/;

let dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'state-file-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('writing atomically', () => {
  it('replaces the file with the new text and leaves no temporary file', () => {
    const dir = folder();
    const file = path.join(dir, 'state.json');
    writeFileSync(file, 'old');
    writeFileAtomically(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a write that fails leaves what was there whole, and no temporary file', () => {
    const dir = folder();
    // A folder in the file's place: the rename over it fails.
    const file = path.join(dir, 'state.json');
    mkdirSync(file);
    writeFileSync(path.join(file, 'inside'), 'kept');
    expect(() => writeFileAtomically(file, 'new')).toThrow();
    expect(readFileSync(path.join(file, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('loading', () => {
  it('no file yet: nothing loaded, the fixture stays', () => {
    expect(loadStateFile(fresh(), path.join(folder(), 'none.json'))).toBe(false);
  });

  it("a saved state comes back: the message sent is there", async () => {
    const s = fresh();
    await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 'saved', content: 'kept' } });
    const file = path.join(folder(), 'state.json');
    writeFileAtomically(file, JSON.stringify(s.snapshot()));
    const other = fresh();
    expect(loadStateFile(other, file)).toBe(true);
    expect(other.engine.state.messages.messages.at(-1)!.content).toBe('kept');
  });

  const refused: [string, string, string][] = [
    ['not JSON', '{"format": "team-chat-simu', 'is not JSON'],
    ['not a snapshot', '{"hello": "world"}', 'cannot be restored: not a snapshot: "format" is undefined, expected "team-chat-simulator/snapshot"'],
    ['another version', JSON.stringify({ ...fresh().snapshot(), version: SNAPSHOT_VERSION + 1 }), `cannot be restored: snapshot format version ${SNAPSHOT_VERSION + 1}`],
  ];
  it.each(refused)('%s: refused, naming the file and the problem, and the file is left as it is', (_name, content, problem) => {
    const file = path.join(folder(), 'state.json');
    writeFileSync(file, content);
    const s = fresh();
    const before = JSON.stringify(s.snapshot());
    expect(() => loadStateFile(s, file)).toThrow(StateFileError);
    expect(() => loadStateFile(s, file)).toThrow(`State file ${file}: ${problem}`);
    expect(() => loadStateFile(s, file)).toThrow('the file was left as it is');
    expect(readFileSync(file, 'utf8')).toBe(content);
    expect(JSON.stringify(s.snapshot())).toBe(before);
  });
});

describe('saving every interval', () => {
  it('saves when the state changed, and only then', async () => {
    vi.useFakeTimers();
    const s = fresh();
    const file = path.join(folder(), 'state.json');
    const keeper = keepStateFile(s, file, 1000);
    vi.advanceTimersByTime(1000);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(s.snapshot())));
    rmSync(file);
    vi.advanceTimersByTime(1000);
    expect(readdirSync(path.dirname(file))).toEqual([]);
    await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 't', content: 'changed' } });
    vi.advanceTimersByTime(1000);
    expect(readFileSync(file, 'utf8')).toContain('changed');
    keeper.stop();
  });

  it('a failed save is reported and retried; the previous file stays', async () => {
    vi.useFakeTimers();
    const s = fresh();
    const file = path.join(folder(), 'gone', 'state.json');
    const log = vi.fn();
    const keeper = keepStateFile(s, file, 1000, log);
    vi.advanceTimersByTime(1000);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^State file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: could not be saved \\(ENOENT`)));
    mkdirSync(path.dirname(file));
    vi.advanceTimersByTime(1000);
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('team-chat-simulator/snapshot');
    keeper.stop();
  });
});

describe('npm run simulator -- --state FILE', () => {
  async function sendOver(port: number, content: string): Promise<void> {
    const key = await fetch(`http://127.0.0.1:${port}/api/v1/dev_fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'hamlet@zulip.com' }) });
    const { api_key: apiKey } = (await key.json()) as { api_key: string };
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`hamlet@zulip.com:${apiKey}`).toString('base64')}` },
      body: new URLSearchParams({ type: 'stream', to: 'Denmark', topic: 'persisted', content }),
    });
    expect(res.status).toBe(200);
  }

  async function newestContent(port: number): Promise<string> {
    const snapshot = (await (await fetch(`http://127.0.0.1:${port}/__simulator/snapshot`)).json()) as { state: { messages: { messages: { content: string }[] } } };
    return snapshot.state.messages.messages.at(-1)!.content;
  }

  it('survives a restart (saved on SIGTERM) and a crash (saved every interval)', async () => {
    const file = path.join(folder(), 'demo.json');
    // An hour between saves: what the first run sent reaches the file by the save on SIGTERM.
    const first = await startScript('simulator', ['--port', '0', '--state', file, '--state-interval', '3600'], [SIMULATOR_URL]);
    try {
      expect(first.output()).toContain(`State file ${file} does not exist yet: starting from the fixture`);
      await sendOver(Number(first.found[0]), 'before the restart');
      expect(readdirSync(path.dirname(file))).toEqual([]);
      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
    } finally {
      first.cleanUp();
    }
    expect(readFileSync(file, 'utf8')).toContain('before the restart');

    const second = await startScript('simulator', ['--port', '0', '--state', file, '--state-interval', '0.2'], [SIMULATOR_URL]);
    try {
      expect(second.output()).toContain(`State loaded from ${file}`);
      const port = Number(second.found[0]);
      expect(await newestContent(port)).toBe('before the restart');
      await sendOver(port, 'before the crash');
      // Saved within the interval: wait for it, then crash.
      await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toContain('before the crash'), { timeout: 10_000, interval: 100 });
      second.child.kill('SIGKILL');
      await second.exited;
    } finally {
      second.cleanUp();
    }

    const third = await startScript('simulator', ['--port', '0', '--state', file], [SIMULATOR_URL]);
    try {
      expect(await newestContent(Number(third.found[0]))).toBe('before the crash');
    } finally {
      third.child.kill('SIGTERM');
      await third.exited;
      third.cleanUp();
    }
  });

  it('a corrupt file is refused at start (exit 1, the file and what is wrong), and left as it is', async () => {
    const file = path.join(folder(), 'broken.json');
    writeFileSync(file, '{"format": "team-chat-simulator/snapshot", "version": 1');
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync('npm', ['run', 'simulator', '--', '--port', '0', '--state', file], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`State file ${file}: is not JSON`);
    expect(run.stderr).toContain('the file was left as it is');
    expect(readFileSync(file, 'utf8')).toBe('{"format": "team-chat-simulator/snapshot", "version": 1');
  });

  it('--state-interval without --state, or an empty --state, is a usage error (exit 2)', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/simulator.ts', ...args], { encoding: 'utf8', timeout: 30_000 });
    const lonely = run(['--state-interval', '5']);
    expect([lonely.status, lonely.stderr.split('\n')[0]]).toEqual([2, '--state-interval goes with --state FILE']);
    const empty = run(['--state', '']);
    expect([empty.status, empty.stderr.split('\n')[0]]).toEqual([2, '--state needs a file name']);
    const zero = run(['--state', 'x.json', '--state-interval', '0']);
    expect([zero.status, zero.stderr.split('\n')[0]]).toEqual([2, '--state-interval must be a positive number, got "0"']);
  });
});
