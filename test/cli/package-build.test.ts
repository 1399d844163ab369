/**
 * scripts/package.mjs: the pieces of the npm package's build that can be checked without packing
 * it (test/package/pack.test.ts packs it and uses it from another project).
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (scripts/run.mjs runs it).
import { packageDirOf, publishedManifest, publishedSpecifiers, withNodeReference } from '../../scripts/package.mjs';

describe('the published declarations', () => {
  it.each([
    ["import { type Engine } from './engine/core.ts';", "import { type Engine } from './engine/core.js';"],
    ["export { routes } from './http/routes/index.ts';", "export { routes } from './http/routes/index.js';"],
    ['handle: import("../http/dispatch.ts").Handle;', 'handle: import("../http/dispatch.js").Handle;'],
    ["import type { Readable } from 'node:stream';", "import type { Readable } from 'node:stream';"],
    ["export declare const FILE = 'notes.ts';", "export declare const FILE = 'notes.ts';"],
  ])('%s → %s', (emitted, published) => {
    expect(publishedSpecifiers(emitted)).toBe(published);
  });
});

describe("declarations that use Node's types name them", () => {
  const REFERENCE = '/// <reference types="node" />\n';
  it.each([
    ['body?: Buffer | string;', true],
    ["import type { Server } from 'node:http';", true],
    ['signal: NodeJS.Signals;', true],
    ['/** Like Buffer.from, but a slab. */\nexport declare function encode(text: string): Uint8Array;', false],
    ['arrayBuffer(): Promise<ArrayBuffer>;', false],
    [`${REFERENCE}body?: Buffer;`, false],
  ])('%j: reference added %s', (declaration, added) => {
    expect(withNodeReference(declaration)).toBe(added ? `${REFERENCE}${declaration}` : declaration);
  });
});

describe('the published manifest', () => {
  it('is the repository\'s without scripts (nothing runs at install) and devDependencies, in the same order', () => {
    const repository = { name: 'p', version: '1.0.0', scripts: { prepare: 'x', prepack: 'y' }, bin: { p: 'cli.mjs' }, devDependencies: { a: '1' }, files: ['lib'] };
    expect(Object.entries(publishedManifest(repository))).toEqual([
      ['name', 'p'],
      ['version', '1.0.0'],
      ['bin', { p: 'cli.mjs' }],
      ['files', ['lib']],
    ]);
  });
});

describe('naming the package a bundled file came from', () => {
  it.each([
    ['node_modules/ajv/dist/core.js', 'node_modules/ajv'],
    ['node_modules/@scope/name/lib/x.js', 'node_modules/@scope/name'],
    ['node_modules/a/node_modules/b/index.js', 'node_modules/a/node_modules/b'],
    ['simulator/engine/core.ts', undefined],
  ])('%s → %s', (input, dir) => {
    expect(packageDirOf(input)).toBe(dir);
  });
});
