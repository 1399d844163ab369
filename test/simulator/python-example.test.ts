/**
 * The Python guide's example (simulator/examples/python/, docs/python-bots.md), its standard
 * library part: `python3 -m unittest test_bots_stdlib`, the simulator started by the Python test
 * itself as a bot's repository starts it (here the repository's command instead of npx, through
 * SIMULATOR_COMMAND). Skipped, and says so, where no python3 is on the PATH.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../catalog/helpers.ts';

const EXAMPLE = path.join(ROOT, 'simulator/examples/python');
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;
if (!hasPython) console.warn('test/simulator/python-example.test.ts: skipped: no python3 on the PATH, so the Python example is not run.');

describe('the Python example (unittest + urllib)', () => {
  it.skipIf(!hasPython)(`passes under ${hasPython ? python.stdout.trim() : 'python3 (not found: skipped)'}, against a simulator it starts and resets itself`, async () => {
    const command = [process.execPath, '--import', 'tsx', path.join(ROOT, 'scripts/simulator.ts'), '--port', '0', '--seed', '1'];
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile('python3', ['-m', 'unittest', '-v', 'test_bots_stdlib'], { cwd: EXAMPLE, env: { ...env, SIMULATOR_COMMAND: JSON.stringify(command) }, timeout: 240_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(result.output).toMatch(/^Ran 4 tests in /m);
    expect(result.output).toMatch(/^OK$/m);
    expect(result.code).toBe(0);
  }, 300_000);
});
