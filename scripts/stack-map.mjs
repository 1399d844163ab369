/**
 * Stack traces that name the .ts sources, lines and columns of a bundle's code, with its source
 * map read only when a stack trace is first formatted. Node's own support
 * (process.setSourceMapsEnabled) reads and indexes the map, and measures every line of the
 * bundle, when the bundle is loaded: a twentieth of the simulator's start (about 30 ms of a
 * small catalog build's), spent by every start for the few that print a stack. Node applies it to
 * modules it loads itself, and not to code a vm.Script compiled (scripts/code-cache.mjs), which
 * this covers as well. An ES module's frames name its file:// URL, a script's its path.
 */
import { readFileSync } from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** @param {string} bundle the bundle's path; its map is `${bundle}.map`, as esbuild writes it */
export function mapStackTraces(bundle) {
  /** @type {import('node:module').SourceMap | null | undefined} undefined: not read yet; null: unreadable */
  let map;
  const folder = path.dirname(bundle);
  const url = pathToFileURL(bundle).href;
  const load = () => {
    try {
      return new nodeModule.SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
    } catch {
      return null;
    }
  };
  /** @param {NodeJS.CallSite} frame */
  const describe = (frame) => {
    const text = String(frame);
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    const file = frame.getFileName();
    if ((file !== bundle && file !== url) || line === null || column === null) return text;
    map ??= load();
    const entry = /** @type {{ originalSource?: string, originalLine: number, originalColumn: number }} */ (map?.findEntry(line - 1, column - 1) ?? {});
    if (!entry.originalSource) return text;
    const original = `${path.resolve(folder, entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    return text.replace(`${file}:${line}:${column}`, () => original);
  };
  // V8's own text, `Name: message` and a line per frame, with the frames' places mapped.
  Error.prepareStackTrace = (error, frames) => {
    let head;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = '<error>';
    }
    return frames.length === 0 ? head : `${head}\n    at ${frames.map(describe).join('\n    at ')}`;
  };
}
