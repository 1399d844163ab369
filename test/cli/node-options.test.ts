/**
 * The Node options of the npm scripts (scripts/cli/node-options.ts): what the benchmarks give
 * the processes they measure, read from the scripts users run.
 */
import { describe, expect, it } from 'vitest';
import { nodeOptionsOf, projectNodeOptions } from '../../scripts/cli/node-options.ts';

describe('nodeOptionsOf', () => {
  const cases: [script: string, options: string[]][] = [
    ['exec node scripts/run.mjs simulator', []],
    ['node scripts/run.mjs bench-sim', []],
    ['exec node --max-semi-space-size=32 scripts/run.mjs simulator', ['--max-semi-space-size=32']],
    ['  node   --a=1 --b  scripts/run.mjs x --c', ['--a=1', '--b']],
  ];
  it.each(cases)('%s → %j', (script, options) => {
    expect(nodeOptionsOf({ s: script }, 's')).toEqual(options);
  });

  const refused: [script: string, message: RegExp][] = [
    ['tsx scripts/simulator.ts', /is not `\[exec\] node/],
    ['exec node scripts/simulator.mjs', /is not `\[exec\] node/],
    ['exec node 32 scripts/run.mjs simulator', /"32" before scripts\/run\.mjs is not a Node option/],
  ];
  it.each(refused)('refuses %s', (script, message) => {
    expect(() => nodeOptionsOf({ s: script }, 's')).toThrow(message);
  });

  it('names a missing script', () => {
    expect(() => nodeOptionsOf({}, 'simulator')).toThrow('package.json has no script "simulator"');
  });
});

describe("this project's scripts", () => {
  it('npm start runs the simulator with the options npm run simulator gives it', () => {
    expect(projectNodeOptions('start')).toEqual(projectNodeOptions('simulator'));
  });

  it('the simulator gets a young generation large enough that collections are rare (see docs/performance.md)', () => {
    const semiSpace = projectNodeOptions('simulator').find((o) => o.startsWith('--max-semi-space-size='));
    expect(Number(semiSpace?.split('=')[1])).toBeGreaterThanOrEqual(16);
  });
});
