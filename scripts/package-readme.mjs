/**
 * The npm package's README is simulator/README.md, not the repository's README.md. npm packs the
 * README found at the package root, which is the repository root, so `prepack` puts the package's
 * README there and `postpack` puts the repository's back:
 *
 *   node scripts/package-readme.mjs swap      (prepack, after the build)
 *   node scripts/package-readme.mjs restore   (postpack)
 *
 * The repository's README waits in node_modules/.cache (not lib/, which every build empties). A pack
 * that died between the two leaves it there: the next swap keeps that copy rather than saving the
 * package's README over it, and the next restore (or `node scripts/package-readme.mjs restore`) puts
 * it back. Plain JavaScript, as run.mjs.
 */
import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README = path.join(ROOT, 'README.md');
export const PACKAGE_README = path.join(ROOT, 'simulator', 'README.md');
export const SAVED = path.join(ROOT, 'node_modules', '.cache', 'package-readme', 'README.md');

const exists = (file) => stat(file).then(() => true, () => false);

export async function swap() {
  if (!(await exists(SAVED))) {
    await mkdir(path.dirname(SAVED), { recursive: true });
    await copyFile(README, SAVED);
  }
  await writeFile(README, await readFile(PACKAGE_README));
}

export async function restore() {
  if (await exists(SAVED)) await rename(SAVED, README);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'swap') await swap();
  else if (command === 'restore') await restore();
  else {
    console.error('Usage: node scripts/package-readme.mjs swap|restore');
    process.exit(2);
  }
}
