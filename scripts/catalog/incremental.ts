/**
 * The build for `watch`: the same stages as pipeline.ts, run again after each change with what
 * did not change kept from the last run, and only the files whose bytes changed written.
 *
 * - parse and validate run only for the files the watcher reports (a file's result is kept
 *   until it changes again); link-check and the catalog run on the whole set, as in a full build;
 * - the outputs of the changed documents alone (their detail file and twin, emit.ts's
 *   documentOutputs) are checked and written first, so the page being edited reaches dist/ soon.
 *   For the common edit (a body or a field that no other document shows, after a clean run)
 *   they are made from the last catalog before the whole set is checked (editsInPlace);
 * - then emitCatalog runs whole. Each JSON output (and each item of a list or of the bundle) that
 *   equals the last build's is replaced by the last build's object, so its string is reused from
 *   a retaining JsonCache and its schema check is skipped; twins are rendered again only when
 *   their document or a link they show changed (twins.ts's memo). A file is written when its
 *   parts differ, through the same writeOutputs as the full build: same bytes by construction;
 * - each file is replaced atomically (written beside, renamed over); outputs no longer emitted are
 *   removed. A rebuild with problems writes nothing: the last good dist/ stays as it was.
 *
 * The first run (or a run that finds dist/ gone) is a full build written with the atomic folder
 * swap of write.ts.
 */
import { mkdir, open, readFile, rename, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import fg from 'fast-glob';
import { checkOutputs } from './check-output.ts';
import { documentOutputs, emitCatalog, type OutFile, type Outputs, type TextPiece } from './emit.ts';
import type { Issue } from './issues.ts';
import { JsonCache } from './json.ts';
import { docSitePath, resolvesIn, type KnownTargets } from './link-check.ts';
import { buildCatalog as assembleCatalog, type Catalog } from './model.ts';
import { parseSource } from './parse.ts';
import { ENCODINGS } from './precompress.ts';
import { buildSettings, checkFile, checkSet, generatedAtOf, outputPaths, reportFailure, twinSink, type BuildOptions, type BuildResult, type FileCheck } from './pipeline.ts';
import { textOf, writeOutputs } from './serialize.ts';
import type { TwinMemo } from './twins.ts';
import type { CollectionDoc } from './validate.ts';
import { prepareWrite, type FileStream, type WriteSink } from './write.ts';

export type IncrementalResult = BuildResult & {
  /** Files written (or removed) by this run. */
  changed?: number;
  /** Milliseconds from the start of the run until the edited documents' own files were written. */
  firstOutputMs?: number;
};

export interface IncrementalBuild {
  /**
   * Build again. `changed`: paths relative to the content folder (POSIX) that were added, changed
   * or removed, files or folders; null reads everything (the first run does anyway).
   */
  run(changed: Iterable<string> | null): Promise<IncrementalResult>;
}

/** What the last good run wrote, to compare the next one with. */
interface Previous {
  catalog: Catalog;
  outputs: Outputs;
  /** Per JSON file: its value; per composed JSON file: its parts; per text file: its text or pieces. */
  shapes: Map<string, Shape>;
  /** The catalog's slugs and page addresses, for checking an edited document on its own. */
  known: KnownTargets;
}

type Shape = { kind: 'value'; value: unknown } | { kind: 'parts'; parts: unknown[]; items: Map<string, object> } | { kind: 'text'; text: string } | { kind: 'pieces'; pieces: TextPiece[] };

const isContentFile = (rel: string): boolean => rel.endsWith('.md') && rel !== 'README.md' && !rel.split('/').some((s) => s.startsWith('.'));

export function createIncrementalBuild(options: BuildOptions): IncrementalBuild {
  const log = options.log ?? (() => {});
  const files = new Map<string, FileCheck>();
  const cache = new JsonCache({ retain: true });
  const passed = new WeakMap<object, Set<string>>();
  const twins: TwinMemo = new WeakMap();
  let previous: Previous | null = null;
  /** The last run succeeded: every file known is free of problems and dist/ matches them. */
  let clean = false;
  let loaded = false;

  async function read(rel: string): Promise<void> {
    const abs = path.join(options.contentDir, rel);
    const st = await stat(abs).catch(() => null);
    if (!st) {
      // Gone: the file, or a folder and everything that was in it.
      files.delete(rel);
      for (const known of [...files.keys()]) if (known.startsWith(`${rel}/`)) files.delete(known);
      return;
    }
    if (st.isDirectory()) {
      for (const inner of await fg('**/*.md', { cwd: abs, dot: false, onlyFiles: true })) await read(`${rel}/${inner}`);
      return;
    }
    if (!isContentFile(rel)) return;
    const bytes = await readFile(abs).catch(() => null);
    if (!bytes) return void files.delete(rel);
    files.set(rel, checkFile(parseSource({ file: `content/${rel}`, rel, bytes }), log));
  }

  async function run(changed: Iterable<string> | null): Promise<IncrementalResult> {
    const result = await attempt(changed);
    clean = result.ok;
    return result;
  }

  async function attempt(changed: Iterable<string> | null): Promise<IncrementalResult> {
    const started = performance.now();
    const settings = await buildSettings(options);
    if ('issues' in settings) return reportFailure(options, settings.issues);
    let touched: string[] = [];
    let before = new Map<string, FileCheck | undefined>();
    if (changed === null || !loaded) {
      files.clear();
      const rels = (await fg('**/*.md', { cwd: options.contentDir, ignore: ['README.md'], dot: false, onlyFiles: true })).sort();
      for (const rel of rels) await read(rel);
      loaded = true;
    } else {
      touched = [...new Set(changed)].sort();
      before = new Map(touched.map((rel) => [rel, files.get(rel)]));
      for (const rel of touched) await read(rel);
    }
    const outDirExists = await stat(options.outDir).then((s) => s.isDirectory(), () => false);

    // The edited documents' own files first: what the editor waits for. When the edit leaves every
    // document's kind, slug, title and address as they were, and the last run was clean, the
    // edited documents are checked on their own against the last catalog and their files are
    // written from it before the whole set is checked (on a large catalog that check and the
    // catalog's assembly take most of the time). The full pass below makes the same files from
    // the new catalog and rewrites any that differ, so the end result is the full build's.
    let firstOutputMs: number | undefined;
    let writtenEarly = 0;
    const early = new Map<string, OutFile>();
    const writeOwnFiles = async (catalog: Catalog, docs: readonly CollectionDoc[], last: Previous): Promise<Issue[]> => {
      for (const doc of docs) for (const [rel, out] of documentOutputs(catalog, doc, twins)) early.set(rel, out);
      if (early.size === 0) return [];
      const issues = checkOutputs(early, passed);
      if (issues.length > 0) return issues;
      const changedEarly = new Set([...early].filter(([rel, out]) => !sameAsBefore(last, rel, out)).map(([rel]) => rel));
      await writeInPlace(options.outDir, early, cache, changedEarly, options);
      writtenEarly = changedEarly.size;
      firstOutputMs = performance.now() - started;
      return [];
    };
    const quick = clean && previous && outDirExists ? editsInPlace(touched, before, files, previous.known) : null;
    if (quick && previous) {
      const issues = await writeOwnFiles(previous.catalog, quick, previous);
      if (issues.length > 0) return reportFailure(options, issues);
    }

    const checked = checkSet([...files.keys()].sort().map((rel) => files.get(rel) as FileCheck));
    if (checked.issues.length > 0) return reportFailure(options, checked.issues);

    const catalog = assembleCatalog(checked.docs, settings.site, previous?.catalog);
    const generatedAt = generatedAtOf(settings.epoch, catalog.updated);
    if (!previous || !outDirExists) return firstBuild(catalog, generatedAt, started);
    const last = previous;

    if (!quick) {
      const edited = new Set(touched.map((rel) => `content/${rel}`));
      const docs = checked.docs.filter((doc): doc is CollectionDoc => doc.kind !== 'organization' && edited.has(doc.file));
      const issues = await writeOwnFiles(catalog, docs, last);
      if (issues.length > 0) return reportFailure(options, issues);
    }

    const outputs = emitCatalog(catalog, { generatedAt, twins });
    const { shapes, changedFiles } = compare(last, outputs);
    const toCheck: Outputs = new Map([...outputs].filter(([rel]) => changedFiles.has(rel)));
    const issues = checkOutputs(toCheck, passed);
    if (issues.length > 0) return reportFailure(options, issues);
    // Written early with the same bytes: not again.
    for (const [rel, out] of early) if (changedFiles.has(rel) && sameOutput(out, outputs.get(rel))) changedFiles.delete(rel);
    await writeInPlace(options.outDir, outputs, cache, changedFiles, options);
    const removed = [...last.outputs.keys()].filter((rel) => !outputs.has(rel));
    for (const rel of removed) await removeOutput(options.outDir, rel);
    previous = { catalog, outputs, shapes, known: knownTargets(catalog) };
    const ms = Math.round(performance.now() - started);
    const count = writtenEarly + changedFiles.size + removed.length;
    log(`Rebuilt in ${ms} ms: ${count} file(s) changed`);
    return { ok: true, files: outputs.size, bytes: 0, ms, changed: count, ...(firstOutputMs === undefined ? {} : { firstOutputMs: Math.round(firstOutputMs) }) };
  }

  async function firstBuild(catalog: Catalog, generatedAt: string, started: number): Promise<IncrementalResult> {
    const outputs = emitCatalog(catalog, { generatedAt, twins });
    const pending = prepareWrite(options.outDir, outputPaths(outputs, options));
    let issues: Issue[];
    try {
      issues = checkOutputs(outputs, passed);
    } catch (error) {
      await pending.discard();
      throw error;
    }
    if (issues.length > 0) {
      await pending.discard();
      return reportFailure(options, issues);
    }
    const written = await pending.commit(async (sink) => {
      const target = twinSink(sink, options);
      await writeOutputs(outputs, target, cache);
      await target.flush();
    });
    previous = { catalog, outputs, shapes: compare(null, outputs).shapes, known: knownTargets(catalog) };
    const ms = Math.round(performance.now() - started);
    log(`Built ${written.files} files, ${written.bytes} bytes in ${ms} ms → ${path.relative(process.cwd(), path.resolve(options.outDir)) || '.'}`);
    return { ok: true, files: written.files, bytes: written.bytes, ms, changed: written.files };
  }

  return { run };
}

/**
 * The edited documents, when each edit keeps what other documents' own files show of it (kind,
 * slug, title, address; a service's line, position and sectors) and checkLinks would still pass
 * with it: then their own files can be made from the last catalog. Null when any touched path is
 * anything else (a new, removed or broken file, a folder, a draft).
 */
function editsInPlace(touched: readonly string[], before: ReadonlyMap<string, FileCheck | undefined>, files: ReadonlyMap<string, FileCheck>, known: KnownTargets): CollectionDoc[] | null {
  if (touched.length === 0) return null;
  const docs: CollectionDoc[] = [];
  for (const rel of touched) {
    const old = before.get(rel)?.doc;
    const now = files.get(rel);
    if (!old || !now?.doc || now.issues.length > 0 || old.kind === 'organization' || now.doc.kind === 'organization') return null;
    if (!sameIdentity(old, now.doc) || !(resolvesIn(now.doc, known))) return null;
    docs.push(now.doc);
  }
  return docs;
}

function sameIdentity(a: CollectionDoc, b: CollectionDoc): boolean {
  if (a.kind !== b.kind || a.file !== b.file || a.fm.slug !== b.fm.slug || a.fm.title !== b.fm.title) return false;
  if (a.kind === 'page' && b.kind === 'page') return a.fm.path === b.fm.path && a.fm.indexable === b.fm.indexable;
  if (a.kind === 'service' && b.kind === 'service') {
    return a.fm.service_line === b.fm.service_line && a.fm.order === b.fm.order && sameJson(a.fm.sectors, b.fm.sectors);
  }
  return true;
}

function knownTargets(c: Catalog): KnownTargets {
  const docs: CollectionDoc[] = [...c.services, ...c.sectors, ...c.insights, ...c.areas, ...c.pages];
  return {
    hasSlug: (kind, slug) => (kind === 'service' || kind === 'sector' || kind === 'insight') && c.findLink(kind, slug) !== undefined,
    paths: new Set(docs.map(docSitePath)),
  };
}

/** Whether an early output (a changed document's own file) has the bytes the last run wrote. */
function sameAsBefore(previous: Previous, rel: string, out: OutFile): boolean {
  const shape = previous.shapes.get(rel);
  if (!shape) return false;
  if (out.kind === 'json') return shape.kind === 'value' && sameJson(out.value, shape.value);
  return shape.kind === 'text' && shape.text === textOf(out);
}

function sameOutput(a: OutFile, b: OutFile | undefined): boolean {
  if (!b || a.kind !== b.kind) return false;
  if (a.kind === 'json' && b.kind === 'json') return !a.compose && !b.compose && sameJson(a.value, b.value);
  return a.kind === 'text' && b.kind === 'text' && !a.compose && !b.compose && textOf(a) === textOf(b);
}

/**
 * Compare this run's outputs with the last run's: unchanged values are swapped for the last run's
 * objects (keeping their cached strings and schema checks), and the files that differ are named.
 */
function compare(previous: Previous | null, outputs: Outputs): { shapes: Map<string, Shape>; changedFiles: Set<string> } {
  const shapes = new Map<string, Shape>();
  const changedFiles = new Set<string>();
  /** New object → the equal object of the last run, so a detail item found again in the bundle is recognised. */
  const kept = new Map<object, object>();
  const before = (rel: string) => previous?.shapes.get(rel);

  for (const [rel, out] of outputs) {
    if (out.kind !== 'json' || out.compose) continue;
    const old = before(rel);
    if (old?.kind === 'value' && sameJson(out.value, old.value)) {
      if (isObject(out.value) && isObject(old.value)) kept.set(out.value, old.value);
      out.value = old.value;
    } else {
      changedFiles.add(rel);
    }
    shapes.set(rel, { kind: 'value', value: out.value });
  }
  for (const [rel, out] of outputs) {
    if (out.kind !== 'json' || !out.compose) continue;
    const old = before(rel);
    const oldItems = old?.kind === 'parts' ? old.items : new Map<string, object>();
    const items = new Map<string, object>();
    const value = out.value as Record<string, unknown>;
    for (const [key, field] of Object.entries(value)) {
      const swap = (item: unknown, id: string): unknown => {
        if (!isObject(item)) return item;
        const known = kept.get(item);
        const candidate = known ?? oldItems.get(id);
        const result = candidate && (known || sameJson(item, candidate)) ? candidate : item;
        items.set(id, result as object);
        return result;
      };
      if (Array.isArray(field)) field.forEach((item, i) => void (field[i] = swap(item, `${key}\0${itemKey(item) ?? i}`)));
      else value[key] = swap(field, key);
    }
    const parts = partsOf(value);
    if (!(old?.kind === 'parts' && sameParts(parts, old.parts))) changedFiles.add(rel);
    shapes.set(rel, { kind: 'parts', parts, items });
  }
  for (const [rel, out] of outputs) {
    if (out.kind !== 'text' || out.compose) continue;
    const text = textOf(out);
    const old = before(rel);
    if (!(old?.kind === 'text' && old.text === text)) changedFiles.add(rel);
    shapes.set(rel, { kind: 'text', text });
  }
  for (const [rel, out] of outputs) {
    if (out.kind !== 'text' || !out.compose) continue;
    const pieces = [...out.render()];
    const old = before(rel);
    const same = old?.kind === 'pieces' && old.pieces.length === pieces.length && pieces.every((p, i) => {
      const q = (old.pieces as TextPiece[])[i];
      return typeof p === 'string' ? p === q : typeof q !== 'string' && q?.include === p.include && !changedFiles.has(p.include);
    });
    if (!same) changedFiles.add(rel);
    shapes.set(rel, { kind: 'pieces', pieces });
  }
  return { shapes, changedFiles };
}

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';

/** What identifies an item of a list across builds: its id, else its page or file address. */
function itemKey(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const v = item as Record<string, unknown>;
  for (const k of ['id', 'url', 'json_url', 'slug']) if (typeof v[k] === 'string') return `${k}:${v[k] as string}`;
  return undefined;
}

/** The top-level fields and list items of a composed file, in the order they are written. */
function partsOf(value: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const [key, field] of Object.entries(value)) {
    out.push(key);
    if (Array.isArray(field)) out.push(field.length, ...field);
    else out.push(field);
  }
  return out;
}

function sameParts(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(isObject(a[i]) ? false : sameJson(a[i], b[i]))) return false;
  return true;
}

/** Equal as JSON text: same keys in the same order, same values; shared objects compare at once. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Text gathered into writes of about this many characters. */
const CHUNK_CHARS = 1 << 20;

/**
 * Writes straight into dist/, each file replaced atomically: written under a hidden name beside
 * it (a server never serves dot-files), then renamed over the old one.
 */
function inPlaceSink(outDir: string): WriteSink {
  const temp = (dest: string): string => path.join(path.dirname(dest), `.${path.basename(dest)}.${process.pid}.tmp`);
  const begin = async (rel: string) => {
    const dest = path.join(outDir, rel);
    await mkdir(path.dirname(dest), { recursive: true });
    return { dest, tmp: temp(dest), handle: await open(temp(dest), 'w') };
  };
  return {
    async file(rel, data) {
      const { dest, tmp, handle } = await begin(rel);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      await rename(tmp, dest);
    },
    stream(rel): FileStream {
      const opened = begin(rel);
      let pieces: string[] = [];
      let size = 0;
      const flush = async (): Promise<void> => {
        const { handle } = await opened;
        const data = pieces.join('');
        pieces = [];
        size = 0;
        await handle.write(data);
      };
      return {
        async write(piece) {
          pieces.push(piece);
          size += piece.length;
          if (size >= CHUNK_CHARS) await flush();
        },
        async end() {
          await flush();
          const { dest, tmp, handle } = await opened;
          await handle.close();
          await rename(tmp, dest);
        },
      };
    },
  };
}

/** Write the outputs named in `only` in place, each with its precompressed twins when the build makes them. */
async function writeInPlace(outDir: string, outputs: Outputs, cache: JsonCache, only: ReadonlySet<string>, options: Pick<BuildOptions, 'precompress'>): Promise<void> {
  const sink = twinSink(inPlaceSink(outDir), options);
  await writeOutputs(outputs, sink, cache, only);
  await sink.flush();
}

/** Remove an output no longer emitted, its twins, and the folders it leaves empty. */
async function removeOutput(outDir: string, rel: string): Promise<void> {
  for (const file of [rel, ...ENCODINGS.map((e) => `${rel}${e.suffix}`)]) await unlink(path.join(outDir, file)).catch(() => {});
  for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) {
    try {
      await rmdir(path.join(outDir, dir));
    } catch {
      break;
    }
  }
}

