/** Shared test plumbing: temp folders, fixture copies, reading a built tree. */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE = path.join(ROOT, 'test/fixtures/catalog/basic');
export const CONTENT = path.join(ROOT, 'content');

const made: string[] = [];

export async function tempDir(prefix = 'catalog-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function cleanupTemp(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** A writable copy of a content folder (README.md included, as in the real one). */
export async function copyContent(from = FIXTURE): Promise<string> {
  const dir = path.join(await tempDir(), 'content');
  await cp(from, dir, { recursive: true });
  return dir;
}

export async function put(contentDir: string, rel: string, text: string): Promise<void> {
  await writeFile(path.join(contentDir, rel), text);
}

/** Replace the first occurrence of `from` in a content file (a minimal, targeted break). */
export async function edit(contentDir: string, rel: string, from: string | RegExp, to: string): Promise<void> {
  const file = path.join(contentDir, rel);
  const text = await readFile(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`edit: ${String(from)} not found in ${rel}`);
  await writeFile(file, next);
}

/** Every file under `dir`, as POSIX relative path → bytes. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, abs).split(path.sep).join('/'), await readFile(abs));
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function readJson<T = Record<string, unknown>>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}
