/**
 * File reads and writes for the build. The callback API of node:fs, promisified: on Node 20,
 * fs/promises' readFile/writeFile go through a FileHandle per call and measured 2–9x slower when
 * writing tens of thousands of small files. The benchmark's floor script uses these same calls,
 * so the comparison stays like for like.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';

export const readFile = promisify(fs.readFile);
export const writeFile = promisify(fs.writeFile) as (file: string, data: Buffer | string) => Promise<void>;
export const mkdir = promisify(fs.mkdir) as (dir: string) => Promise<string | undefined>;
