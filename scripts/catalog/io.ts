/**
 * File reads for the build (writes go through write.ts). The callback API of node:fs,
 * promisified: on Node 20, fs/promises' readFile goes through a FileHandle per call, which is
 * slower on tens of thousands of small files (docs/performance-catalog.md). The benchmark's floor script uses
 * these same calls, so the comparison stays like for like.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';

export const readFile = promisify(fs.readFile);
