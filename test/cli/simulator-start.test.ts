/**
 * `npm run simulator` starts through V8's code cache (scripts/code-cache.mjs) and without
 * zxcvbn's dictionaries (scripts/package-shims/zxcvbn.cjs): what it answers must not depend on
 * either. A start with no cache, one with the cache the previous start left, and one with a
 * damaged cache answer the same bytes; a fixture with production's password rules still scores
 * passwords.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled).
import { PROJECT, bundlePath, compile } from '../../scripts/run.mjs';
import { cleanupTemp, tempDir } from '../catalog/helpers.ts';
import { startScript } from '../npm-script.ts';
import devRealm from '../../simulator/fixtures/dev-realm.json' with { type: 'json' };

const LISTENING = /Chat simulator listening: http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/;
const IAGO_KEY = /^iago@zulip\.com +administrator +(\S+)$/m;
const STEP_TIMEOUT = 120_000;

const bundle: string = bundlePath(PROJECT, 'simulator');

/** The bundle's code caches (one per set of Node options). */
async function caches(): Promise<string[]> {
  const names = await readdir(path.dirname(bundle));
  return names.filter((f) => f.startsWith(`${path.basename(bundle)}.`) && f.endsWith('.v8-cache')).map((f) => path.join(path.dirname(bundle), f));
}

afterAll(cleanupTemp);

/** Start `npm run simulator -- ARGS`, send `requests` as iago, stop it; each answer's status and body, the port written as PORT. */
async function answersOf(args: string[], requests: [string, string, Record<string, string>?][]): Promise<string[]> {
  const running = await startScript('simulator', ['--port', '0', ...args], [LISTENING, IAGO_KEY]);
  try {
    const [port, key] = running.found;
    const auth = `Basic ${Buffer.from(`iago@zulip.com:${key}`).toString('base64')}`;
    const answers: string[] = [];
    for (const [method, path, form] of requests) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method,
        headers: { authorization: auth, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      answers.push(`${res.status} ${(await res.text()).replaceAll(`:${port}`, ':PORT')}`);
    }
    running.child.kill('SIGTERM');
    await running.exited;
    return answers;
  } finally {
    running.cleanUp();
  }
}

const READS: [string, string][] = [
  ['GET', '/server_settings'],
  ['GET', '/users'],
  // The seed messages, rendered.
  ['GET', '/messages?anchor=oldest&num_before=0&num_after=1000&apply_markdown=true'],
  ['GET', '/messages?anchor=oldest&num_before=0&num_after=1000&apply_markdown=false'],
  ['GET', '/streams'],
];

describe('npm run simulator, started cold and from its code cache', () => {
  beforeAll(async () => {
    await compile(PROJECT, ['simulator']);
  }, STEP_TIMEOUT);

  it(
    'answers the same with no cache, with the cache the previous start left, and with a damaged one',
    async () => {
      for (const file of await caches()) await rm(file, { force: true });
      const cold = await answersOf([], READS);
      expect(cold.map((a) => a.slice(0, 3))).toEqual(READS.map(() => '200'));
      const made = await caches();
      expect(made).toHaveLength(1);
      const cache = made[0]!;
      // The cold start left a cache, made from this bundle.
      const good = await readFile(cache);
      const key = createHash('sha256').update(`${process.version} ${process.arch}\n`).update(await readFile(bundle)).update(good.subarray(36)).digest();
      expect(good.subarray(0, 32).equals(key)).toBe(true);
      expect(await answersOf([], READS)).toEqual(cold);
      await writeFile(cache, Buffer.concat([good.subarray(0, 36), Buffer.from('garbage that is no code cache')]));
      expect(await answersOf([], READS)).toEqual(cold);
      // Replaced by a good one.
      expect((await readFile(cache)).length).toBeGreaterThan(1000);
    },
    STEP_TIMEOUT,
  );

  it(
    "scores passwords with production's rules, zxcvbn loaded only then",
    async () => {
      const fixture = structuredClone(devRealm) as typeof devRealm & { realm: Record<string, unknown> };
      Object.assign(fixture.realm, { password_min_length: 6, password_min_guesses: 10_000 });
      const file = `${await tempDir('simulator-start-')}/production-rules.json`;
      await writeFile(file, JSON.stringify(fixture));
      const create = (email: string, password: string): [string, string, Record<string, string>] => ['POST', '/users', { email, password, full_name: 'New User' }];
      const [weak, strong] = await answersOf(['--fixture', file], [create('weak@zulip.com', 'password1'), create('strong@zulip.com', 'a-long-password')]);
      expect(weak).toBe('400 {"result":"error","msg":"The password is too weak.","code":"BAD_REQUEST"}\n');
      expect(strong).toMatch(/^200 \{"result":"success","msg":"","user_id":\d+\}\n$/);
    },
    STEP_TIMEOUT,
  );
});
