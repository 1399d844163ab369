/**
 * The published package as a bot developer gets it: `npm pack` (its prepack builds lib/ from
 * scratch), the tarball installed offline into an empty project, and from that project: the
 * command, `import` under node:test, `require` as jest does it, the type declarations (under
 * TypeScript 5 and 7 with @types/node 20 and latest, installed from the registry beside it), and
 * the package README's example test under vitest.
 *
 * Packing compiles every bundle and the declarations (about 10 s of CPU, minutes on a busy
 * machine), so this file runs only with PACK_TEST=1: `npm run test:package`, which .ci/run runs
 * after `npm test`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, cleanupTemp, tempDir } from '../catalog/helpers.ts';

const run = promisify(execFile);
const NAME = 'team-chat-simulator';
/** The package's README (simulator/README.md, swapped in by prepack): a page, not the repository's manual. */
const README_BUDGET = 30 * 1024;
/**
 * Packed bytes allowed before someone has to look at what grew (345 kB when this was written; 619 kB
 * with the live console, webhook delivery and the endpoints since, zxcvbn's dictionaries left out).
 */
const TARBALL_BUDGET = 700_000;
/** Each step starts processes (tsc, vitest): generous, for a busy machine; a hang still ends. */
const STEP_TIMEOUT = 300_000;

interface PackedFile {
  path: string;
  size: number;
}

let packed: { filename: string; size: number; unpackedSize: number; files: PackedFile[] };
let packDir: string;
let project: string;
let installed: string;
let repositoryManifest: string;

/** This process's environment without vitest's own variables, which would confuse a vitest started inside it. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'PACK_TEST'));

/** A process's outcome, failing or not: its exit code and what it printed. */
async function outcome(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env: cleanEnv, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}

/** The package README's example test files: ```ts blocks whose first line is `// NAME.test.ts…`. */
function readmeExamples(readme: string): Map<string, string> {
  const examples = new Map<string, string>();
  for (const [, code] of readme.matchAll(/^```ts\n(.*?)^```$/gms)) {
    const name = /^\/\/ ([\w.-]+\.test\.ts)\b/.exec(code!)?.[1];
    if (name) examples.set(name, code!);
  }
  return examples;
}

describe.runIf(process.env.PACK_TEST === '1')(`the packed ${NAME} package, installed elsewhere`, () => {
  beforeAll(async () => {
    const dir = await tempDir('pack-test-');
    packDir = dir;
    repositoryManifest = await readFile(path.join(ROOT, 'package.json'), 'utf8');
    // Lifecycle scripts print on stdout too; npm's JSON report is the last thing there.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
    [packed] = JSON.parse(stdout.slice(stdout.search(/^\[/m)));
    project = path.join(dir, 'bot-project');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), `${JSON.stringify({ name: 'bot-project', private: true, type: 'module' })}\n`);
    // Offline: the tarball must carry everything it needs.
    await run('npm', ['install', path.join(dir, packed.filename), '--offline', '--no-audit', '--no-fund'], { cwd: project, timeout: 300_000 });
    installed = path.join(project, 'node_modules', NAME);
  }, 900_000);
  afterAll(cleanupTemp);

  it('holds what runs and nothing else (no sources, no maps), within its size budget, with no dependencies', async () => {
    const allowed = /^(package\.json|README\.md|LICENSE|lib\/(index\.cjs|index\.mjs|cli\.mjs|THIRD_PARTY_LICENSES\.txt|types\/package\.json|types\/.+\.d\.ts))$/;
    const files = packed.files.map((f) => f.path);
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'lib/index.cjs', 'lib/index.mjs', 'lib/cli.mjs', 'lib/types/simulator/index.d.ts']));
    expect(packed.size).toBeLessThan(TARBALL_BUDGET);
    // The command imports the package's API rather than carrying a second copy of the engine.
    expect(packed.files.find((f) => f.path === 'lib/cli.mjs')!.size).toBeLessThan(20_000);
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: NAME, license: 'MIT', engines: { node: '>=20' }, bin: { [NAME]: 'lib/cli.mjs' } });
    // A runtime dependency would be fetched from the registry: bundle it instead (npm install -D).
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.private).toBeUndefined();
    // Nothing runs at install (no prepare, no install-scripts warning), and nothing only the repository needs.
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    // The repository's own manifest is back as it was, and nothing of the swap is left.
    expect(await readFile(path.join(ROOT, 'package.json'), 'utf8')).toBe(repositoryManifest);
    await expect(readdir(path.join(ROOT, 'lib', '.packing'))).rejects.toThrow();
    expect(await readFile(path.join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    // The package's own README, within its budget; postpack put the repository's back.
    const readme = await readFile(path.join(installed, 'README.md'), 'utf8');
    expect(readme).toBe(await readFile(path.join(ROOT, 'simulator/README.md'), 'utf8'));
    expect(packed.files.find((f) => f.path === 'README.md')!.size).toBeLessThanOrEqual(README_BUDGET);
    expect(await readFile(path.join(ROOT, 'README.md'), 'utf8')).not.toBe(readme);
    // Nothing else was installed, so what the next tests run, runs on the package alone.
    expect((await readdir(path.join(project, 'node_modules'))).filter((entry) => !entry.startsWith('.'))).toEqual([NAME]);
  }, STEP_TIMEOUT);

  it(`${NAME} serves Zulip's API with the keys it prints, names itself in --help, and stops on SIGTERM with exit 0`, async () => {
    const bin = path.join(project, 'node_modules', '.bin', NAME);
    const help = await outcome(bin, ['--help'], project);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: ${NAME} \\[--port N\\]`));

    const child = spawn(bin, ['--port', '0', '--seed', '1'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let banner = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          banner += chunk.toString();
          if (/Passwords \(POST/.test(banner)) resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => (banner += chunk.toString()));
        void exited.then(() => reject(new Error(`exited before it was ready:\n${banner}`)));
      });
      const url = /listening: (http:\S+)/.exec(banner)![1]!;
      const key = /^hamlet@zulip\.com\s+member\s+(\S+)$/m.exec(banner)![1]!;
      const settings = await fetch(`${url}/server_settings`);
      expect(settings.status).toBe(200);
      expect(await settings.json()).toMatchObject({ result: 'success', realm_name: 'Zulip Dev' });
      const me = await fetch(`${url}/users/me`, { headers: { authorization: `Basic ${Buffer.from(`hamlet@zulip.com:${key}`).toString('base64')}` } });
      expect(await me.json()).toMatchObject({ result: 'success', full_name: 'King Hamlet' });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, STEP_TIMEOUT);

  it('import works from a node:test file (ES module), emoji and fixture validation included', async () => {
    await writeFile(
      path.join(project, 'simulator.test.mjs'),
      `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulator, FixtureError } from '${NAME}';

test('a reaction by emoji name on a message to a channel', async () => {
  const sim = createSimulator({ seed: 1 });
  const sent = await sim.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 'pack', content: 'Hi :octopus:' } });
  assert.equal(sent.status, 200);
  const reacted = await sim.request({ method: 'POST', path: \`/api/v1/messages/\${sent.body.id}/reactions\`, as: 'iago@zulip.com', body: { emoji_name: 'octopus' } });
  assert.equal(reacted.status, 200);
  const { body } = await sim.request({ method: 'GET', path: \`/api/v1/messages/\${sent.body.id}\`, as: 'iago@zulip.com' });
  assert.deepEqual(body.message.reactions.map((r) => [r.emoji_name, r.emoji_code, r.reaction_type]), [['octopus', '1f419', 'unicode_emoji']]);
  assert.match(body.message.content, /emoji-1f419/);
});

test('a fixture file that breaks the schema is refused with FixtureError', () => {
  assert.throws(() => createSimulator({ fixture: 'broken-fixture.json' }), FixtureError);
});
`,
    );
    await writeFile(path.join(project, 'broken-fixture.json'), '{ "realm": {} }\n');
    const result = await outcome(process.execPath, ['--test', 'simulator.test.mjs'], project);
    expect(result.stdout).toMatch(/^# pass 2$/m);
    expect(result.code).toBe(0);
  }, STEP_TIMEOUT);

  it('require (as jest loads it) and import give one and the same module', async () => {
    await writeFile(
      path.join(project, 'both.cjs'),
      `const required = require('${NAME}');
import('${NAME}').then((imported) => {
  const names = Object.keys(imported).sort();
  console.log(JSON.stringify({ names, sameNames: names.join() === Object.keys(required).sort().join(), sameCode: imported.createSimulator === required.createSimulator }));
});
`,
    );
    const result = await outcome(process.execPath, ['both.cjs'], project);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ sameNames: true, sameCode: true });
    expect(report.names).toEqual(expect.arrayContaining(['createSimulator', 'FixtureError', 'manualClock', 'DEFAULT_FIXTURE', 'routes']));
  }, STEP_TIMEOUT);

  it("production's password rules without zxcvbn beside the package: createSimulator says what to install", async () => {
    await writeFile(
      path.join(project, 'production-passwords.cjs'),
      `const { createSimulator, DEFAULT_FIXTURE } = require('${NAME}');
const fixture = structuredClone(DEFAULT_FIXTURE);
fixture.realm.password_min_length = 6;
fixture.realm.password_min_guesses = 10000;
createSimulator();
try { createSimulator({ fixture }); console.log('created'); } catch (error) { console.log(error.message); }
`,
    );
    const result = await outcome(process.execPath, ['production-passwords.cjs'], project);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(
      "realm.password_min_guesses needs zxcvbn to score passwords: install it beside team-chat-simulator (npm install --save-dev zxcvbn), or set password_min_guesses to 0 as Zulip's development server has it",
    );
  }, STEP_TIMEOUT);

  // What `npm i -D typescript @types/node` installs, and what a project on Node 20 pins: the
  // declarations must stand on their own (TypeScript 6 and later load no @types unless named).
  describe.each(['20', 'latest'])('with @types/node@%s', (nodeTypes) => {
    let typed: string;
    beforeAll(async () => {
      typed = path.join(packDir, `types-node-${nodeTypes}`);
      await mkdir(typed);
      await writeFile(path.join(typed, 'package.json'), `${JSON.stringify({ name: 'typed-bot-project', private: true, type: 'module' })}\n`);
      await run(
        'npm',
        ['install', path.join(packDir, packed.filename), 'ts5@npm:typescript@5', 'ts7@npm:typescript@7', `@types/node@${nodeTypes}`, '--prefer-offline', '--no-audit', '--no-fund'],
        { cwd: typed, timeout: 600_000 },
      );
    }, 900_000);

    it.each(['ts5', 'ts7'])('the declarations type-check a consumer under %s, as an ES module and as CommonJS, without skipLibCheck or "types"', async (ts) => {
      const version = JSON.parse(await readFile(path.join(typed, 'node_modules', ts, 'package.json'), 'utf8')).version as string;
      expect(version.split('.')[0]).toBe(ts.slice(2));
      const consumer = `import { createSimulator, manualClock, type SimResponse, type Simulator } from '${NAME}';

const sim: Simulator = createSimulator({ seed: 1, clock: manualClock(1_700_000_000), deliverWebhooks: { timeoutSeconds: 5 } });
export const reply: Promise<SimResponse> = sim.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
export const name: string | undefined = sim.engine.state.users.get(10)?.full_name;
export const delivered: Promise<void> = sim.webhooks.settled();
// @ts-expect-error: a request needs its path (were the types \`any\`, this line would fail instead)
void sim.request({ method: 'GET' });
`;
      await writeFile(path.join(typed, 'consumer.ts'), consumer);
      await writeFile(path.join(typed, 'consumer.cts'), consumer);
      const tsconfig = { compilerOptions: { module: 'node16', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false }, files: ['consumer.ts', 'consumer.cts'] };
      await writeFile(path.join(typed, `tsconfig.${ts}.json`), JSON.stringify(tsconfig));
      const result = await outcome(process.execPath, [path.join(typed, 'node_modules', ts, 'bin/tsc'), '-p', `tsconfig.${ts}.json`], typed);
      expect(result.stdout).toBe('');
      expect(result.code).toBe(0);
    }, STEP_TIMEOUT);
  });

  it("the package README's example test passes under vitest, against the installed package", async () => {
    const examples = readmeExamples(await readFile(path.join(installed, 'README.md'), 'utf8'));
    expect([...examples.keys()]).toEqual(['bot.test.ts']);
    for (const [file, code] of examples) await writeFile(path.join(project, file), code);
    // The example's own dev dependencies, lent by this repository.
    for (const dependency of ['vitest', 'zulip-js']) {
      await symlink(path.join(ROOT, 'node_modules', dependency), path.join(project, 'node_modules', dependency), 'dir');
    }
    const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
    const result = await outcome(process.execPath, [vitest, 'run', '--root', project, '--reporter', 'json', ...examples.keys()], project);
    const report = JSON.parse(result.stdout) as { numTotalTests: number; numPassedTests: number };
    expect(report.numTotalTests).toBeGreaterThan(0);
    expect(report).toMatchObject({ numPassedTests: report.numTotalTests });
    expect(result.code).toBe(0);
  }, STEP_TIMEOUT);
});
