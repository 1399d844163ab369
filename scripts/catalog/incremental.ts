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
import { checkOutputs, checkOutputsInSlices } from './check-output.ts';
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
import { savesUnderWay } from './saves-under-way.ts';

export type IncrementalResult = BuildResult & {
  /** Files written (or removed) by this run. */
  changed?: number;
  /** Milliseconds from the start of the run until the edited documents' own files were written. */
  firstOutputMs?: number;
};

/** What a save did at once, before any pass. */
export interface SaveResult {
  /**
   * The saved documents' own files (detail JSON, Markdown twin, with their twins) hold the save
   * now. False when they wait for the next pass: a new, removed or broken file, a changed slug,
   * title or address, or another such change not yet built.
   */
  done: boolean;
  /** Files written. */
  written: number;
  ms: number;
  /** The save's generation, and what it wrote (output → its shape), for a pass in another thread. */
  gen: number;
  entries: [string, Shape][];
}

/**
 * How a build shares dist/ with builds in other threads (watch.ts runs the passes in a worker,
 * the saves on the main thread): who renames files (the thread that holds the claims), and
 * whether this build writes a save's own files itself.
 */
export interface Link {
  commits?: Commits;
  /** False in the pass worker: its saves only read, the main thread writes their files. */
  fastPath?: boolean;
}

/** Where a pass can be held (tests): after the whole set is checked, after emitting, before writing. */
export type PassStage = 'checked' | 'emitted' | 'writing';

export interface IncrementalHooks {
  /** Awaited at each stage of a pass; saves keep running meanwhile. */
  stage?: (stage: PassStage) => Promise<void> | void;
}

export interface IncrementalBuild {
  /**
   * Build again: `save` then `pass`. `changed`: paths relative to the content folder (POSIX)
   * that were added, changed or removed, files or folders; null reads everything (the first run
   * does anyway).
   */
  run(changed: Iterable<string> | null): Promise<IncrementalResult>;
  /**
   * Read these paths again and write the saved documents' own files at once, from the last good
   * catalog, when the edits allow it (editsInPlace). Runs while a pass is running: the pass
   * gives way (it pauses between slices of its work while a save is under way) and never
   * overwrites what a later save wrote. `gen` (the pass worker): the main thread's generation of
   * this save.
   */
  save(changed: Iterable<string>, gen?: number): Promise<SaveResult>;
  /** Check the whole set and bring every output up to date with the files read so far. */
  pass(): Promise<IncrementalResult & { at: number }>;
  /** The main thread: make the catalog saves work from out of the files read, writing nothing. */
  refresh(): Promise<boolean>;
  /** The pass worker: outputs a save wrote (in the main thread), as generation `gen`. */
  noteWritten(entries: readonly [string, Shape][], gen: number): void;
  /** The main thread: a pass that began at generation `at` ended; it may have rewritten what older saves wrote. */
  passEnded(at: number): void;
  /** Renames into dist/ under this build's claims (the main thread does them for the pass worker). */
  readonly commits: Commits;
}

/** What the last good run wrote, to compare the next one with. */
interface Previous {
  catalog: Catalog;
  /** Per JSON file: its value; per composed JSON file: its parts; per text file: its text or pieces. */
  shapes: Map<string, Shape>;
  /** The catalog's slugs and page addresses, for checking an edited document on its own. */
  known: KnownTargets;
  /** Its documents by content path (`content/…`). */
  docs: Map<string, CollectionDoc>;
}

export type Shape = { kind: 'value'; value: unknown } | { kind: 'parts'; parts: unknown[]; items: Map<string, object> } | { kind: 'text'; text: string } | { kind: 'pieces'; pieces: TextPiece[] };

/** An output written since the last good pass, outside it (by a save, or early in a pass that then failed). */
interface Written {
  shape: Shape;
  /** The save generation that wrote it (a pass writes with the generation it started at). */
  gen: number;
}

/** A pass gives the thread back after this much work, so a save's files are not held up. */
const SLICE_MS = 8;

const isContentFile = (rel: string): boolean => rel.endsWith('.md') && rel !== 'README.md' && !rel.split('/').some((s) => s.startsWith('.'));

export function createIncrementalBuild(options: BuildOptions, hooks: IncrementalHooks = {}, link: Link = {}): IncrementalBuild {
  const log = options.log ?? (() => {});
  const files = new Map<string, FileCheck>();
  const cache = new JsonCache({ retain: true });
  const passed = new WeakMap<object, Set<string>>();
  const twins: TwinMemo = new WeakMap();
  let previous: Previous | null = null;
  let loaded = false;
  /** Content paths changed since the files `previous` was built from. */
  const dirty = new Set<string>();
  /** Of those, the ones whose own files no save has written since they changed. */
  const unwritten = new Set<string>();
  /** Outputs written outside a successful pass since `previous`: what dist/ holds for them. */
  const written = new Map<string, Written>();
  /** Per output, the newest generation that claimed it: an older writer leaves it alone. */
  const claimed = new Map<string, number>();
  /** Bumped by each save that writes. */
  let gen = 0;
  const commits = link.commits ?? createCommits(claimed);
  /** Saves under way: a pass waits for them at its next pause. */
  const saves = savesUnderWay();
  let sliceStart = performance.now();

  /** Between slices of a pass: give way to I/O, and to any save under way until it is done. */
  async function pause(force = false): Promise<void> {
    if (!force && performance.now() - sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    await saves.idle();
    sliceStart = performance.now();
  }

  async function read(rel: string, affected: Set<string>): Promise<void> {
    const abs = path.join(options.contentDir, rel);
    const st = await stat(abs).catch(() => null);
    if (!st) {
      // Gone: the file, or a folder and everything that was in it.
      if (files.delete(rel)) affected.add(rel);
      for (const known of [...files.keys()]) {
        if (!known.startsWith(`${rel}/`)) continue;
        files.delete(known);
        affected.add(known);
      }
      return;
    }
    if (st.isDirectory()) {
      for (const inner of await fg('**/*.md', { cwd: abs, dot: false, onlyFiles: true })) await read(`${rel}/${inner}`, affected);
      return;
    }
    if (!isContentFile(rel)) return;
    affected.add(rel);
    const bytes = await readFile(abs).catch(() => null);
    if (!bytes) return void files.delete(rel);
    files.set(rel, checkFile(parseSource({ file: `content/${rel}`, rel, bytes }), log));
  }

  /** What dist/ holds for an output, as far as this process knows. */
  const onDisk = (rel: string): Shape | undefined => written.get(rel)?.shape ?? previous?.shapes.get(rel);

  /** Check `outputs` and write those that differ from dist/, as generation `at`; issues stop it. */
  async function writeOwn(outputs: Outputs, at: number): Promise<{ issues: Issue[]; count: number }> {
    if (outputs.size === 0) return { issues: [], count: 0 };
    const issues = checkOutputs(outputs, passed);
    if (issues.length > 0) return { issues, count: 0 };
    const changed = new Set([...outputs].filter(([rel, out]) => !sameAs(onDisk(rel), out)).map(([rel]) => rel));
    for (const rel of changed) {
      written.set(rel, { shape: shapeOf(outputs.get(rel) as OutFile), gen: at });
      claimed.set(rel, Math.max(claimed.get(rel) ?? 0, at));
    }
    await writeInPlace(options.outDir, outputs, cache, changed, options, commits, at);
    return { issues: [], count: changed.size };
  }

  async function save(changed: Iterable<string>, savedGen?: number): Promise<SaveResult> {
    const started = performance.now();
    if (savedGen !== undefined) gen = Math.max(gen, savedGen);
    return saves.track(saveNow(changed, started));
  }

  async function saveNow(changed: Iterable<string>, started: number): Promise<SaveResult> {
    const result = (done: boolean, count = 0, entries: [string, Shape][] = []): SaveResult => ({ done, written: count, ms: Math.round(performance.now() - started), gen, entries });
    if (!loaded) return result(false);
    const affected = new Set<string>();
    for (const rel of [...new Set(changed)].sort()) await read(rel, affected);
    for (const rel of affected) dirty.add(rel);
    for (const rel of affected) unwritten.add(rel);
    const last = previous;
    if (!last || affected.size === 0 || link.fastPath === false) return result(false);
    const docs = editsInPlace([...dirty].sort(), last.docs, files, last.known);
    if (!docs || !(await stat(options.outDir).then((s) => s.isDirectory(), () => false))) return result(false);
    // This save's documents, and any an earlier save could not write (another file was broken
    // then): written as soon as the set allows it.
    const own: Outputs = new Map();
    const mine = docs.filter((doc) => unwritten.has(doc.file.slice('content/'.length)));
    for (const doc of mine) for (const [rel, out] of documentOutputs(last.catalog, doc, twins)) own.set(rel, out);
    gen += 1;
    const { issues, count } = await writeOwn(own, gen);
    if (issues.length === 0) for (const doc of mine) unwritten.delete(doc.file.slice('content/'.length));
    const entries = issues.length > 0 ? [] : [...own.keys()].flatMap((rel): [string, Shape][] => (written.get(rel)?.gen === gen ? [[rel, (written.get(rel) as Written).shape]] : []));
    return result(issues.length === 0, count, entries);
  }

  async function refresh(): Promise<boolean> {
    const settings = await buildSettings(options);
    if ('issues' in settings) return false;
    if (!loaded) await loadAll();
    const covered = new Map([...dirty].map((rel) => [rel, files.get(rel)]));
    const checked = checkSet([...files.keys()].sort().map((rel) => files.get(rel) as FileCheck));
    if (checked.issues.length > 0) return false;
    const catalog = assembleCatalog(checked.docs, settings.site, previous?.catalog);
    // What dist/ holds is the pass worker's business: no shapes, so every save writes its files.
    previous = { catalog, shapes: new Map(), known: knownTargets(catalog), docs: docsByFile(catalog) };
    for (const [rel, check] of covered) {
      if (files.get(rel) !== check) continue;
      dirty.delete(rel);
      unwritten.delete(rel);
    }
    return true;
  }

  async function loadAll(): Promise<void> {
    files.clear();
    const rels = (await fg('**/*.md', { cwd: options.contentDir, ignore: ['README.md'], dot: false, onlyFiles: true })).sort();
    for (const rel of rels) await read(rel, new Set());
    loaded = true;
  }

  function noteWritten(entries: readonly [string, Shape][], at: number): void {
    gen = Math.max(gen, at);
    for (const [rel, shape] of entries) if ((written.get(rel)?.gen ?? -1) <= at) written.set(rel, { shape, gen: at });
  }

  function passEnded(at: number): void {
    for (const [rel, w] of [...written]) if (w.gen <= at) written.delete(rel);
  }

  async function run(changed: Iterable<string> | null): Promise<IncrementalResult> {
    if (changed === null) loaded = false;
    const saved = changed === null ? null : await save(changed);
    const result = await pass();
    if (saved?.done && result.ok && saved.written > 0) return { ...result, firstOutputMs: saved.ms };
    return result;
  }

  async function pass(): Promise<IncrementalResult & { at: number }> {
    const result = await passOnce();
    return { ...result, at: lastAt };
  }

  let lastAt = 0;

  async function passOnce(): Promise<IncrementalResult> {
    const started = performance.now();
    sliceStart = started;
    const settings = await buildSettings(options);
    if ('issues' in settings) return reportFailure(options, settings.issues);
    if (!loaded) await loadAll();
    await pause(true);
    // What this pass builds: the files as read so far. A save from now on is newer than the pass.
    const at = gen;
    lastAt = at;
    const snapshot = [...files.keys()].sort().map((rel) => files.get(rel) as FileCheck);
    const covered = new Map([...dirty].map((rel) => [rel, files.get(rel)]));
    const outDirExists = await stat(options.outDir).then((s) => s.isDirectory(), () => false);

    const checked = checkSet(snapshot);
    if (checked.issues.length > 0) return reportFailure(options, checked.issues);
    const catalog = assembleCatalog(checked.docs, settings.site, previous?.catalog);
    const generatedAt = generatedAtOf(settings.epoch, catalog.updated);
    if (!previous || !outDirExists) return firstBuild(catalog, generatedAt, started, at, covered);
    const last = previous;
    await hooks.stage?.('checked');
    await pause();

    // The changed documents' own files first, from the new catalog: those a save could not write
    // (a new document, a changed title…), or that the new catalog shows differently.
    let firstOutputMs: number | undefined;
    const edited = new Set([...covered.keys()].map((rel) => `content/${rel}`));
    const own: Outputs = new Map();
    for (const doc of checked.docs) {
      if (doc.kind !== 'organization' && edited.has(doc.file)) for (const [rel, out] of documentOutputs(catalog, doc, twins)) own.set(rel, out);
    }
    const early = await writeOwn(own, at);
    if (early.issues.length > 0) return reportFailure(options, early.issues);
    if (early.count > 0) firstOutputMs = performance.now() - started;
    await pause();

    const outputs = emitCatalog(catalog, { generatedAt, twins });
    await hooks.stage?.('emitted');
    await pause();
    const { shapes, changedFiles } = await compare(last, outputs, pause);
    // What saves (or a failed pass) wrote meanwhile: the same bytes are not written again, and
    // what a save newer than this pass wrote stays (the next pass has its file).
    for (const [rel, w] of written) {
      const out = outputs.get(rel);
      if (w.gen > at) {
        changedFiles.delete(rel);
        shapes.set(rel, w.shape);
      } else if (out && sameAs(w.shape, out)) changedFiles.delete(rel);
      else if (out) changedFiles.add(rel);
    }
    const toCheck: Outputs = new Map([...outputs].filter(([rel]) => changedFiles.has(rel)));
    const issues = await checkOutputsInSlices(toCheck, passed);
    if (issues.length > 0) return reportFailure(options, issues);
    await hooks.stage?.('writing');
    await pause();
    await writeInPlace(options.outDir, outputs, cache, changedFiles, options, commits, at);
    const removed = [...new Set([...last.shapes.keys(), ...written.keys()])].filter((rel) => !outputs.has(rel) && !((written.get(rel)?.gen ?? 0) > at));
    for (const rel of removed) {
      shapes.delete(rel);
      await commits.remove(options.outDir, rel, at);
    }
    settle(catalog, shapes, at, covered);
    const ms = Math.round(performance.now() - started);
    const count = early.count + changedFiles.size + removed.length;
    log(`Rebuilt in ${ms} ms: ${count} file(s) changed`);
    return { ok: true, files: outputs.size, bytes: 0, ms, changed: count, ...(firstOutputMs === undefined ? {} : { firstOutputMs: Math.round(firstOutputMs) }) };
  }

  /** A pass succeeded: its catalog is the last good one; what saves wrote after it began stays on record. */
  function settle(catalog: Catalog, shapes: Map<string, Shape>, at: number, covered: ReadonlyMap<string, FileCheck | undefined>): void {
    previous = { catalog, shapes, known: knownTargets(catalog), docs: docsByFile(catalog) };
    for (const [rel, w] of [...written]) if (w.gen <= at) written.delete(rel);
    for (const [rel, w] of written) shapes.set(rel, w.shape);
    // A file made of others (llms-full.txt holds every twin) is recorded by what it includes, on
    // the understanding that it holds their text as recorded; it holds the pass's text of a file a
    // newer save rewrote, so the next pass must write it again.
    if (written.size > 0) {
      for (const [rel, shape] of shapes) {
        if (shape.kind === 'pieces' && shape.pieces.some((p) => typeof p !== 'string' && written.has(p.include))) shapes.set(rel, { kind: 'pieces', pieces: [] });
      }
    }
    written.clear();
    for (const [rel, check] of covered) {
      if (files.get(rel) !== check) continue;
      dirty.delete(rel);
      unwritten.delete(rel);
    }
  }

  async function firstBuild(catalog: Catalog, generatedAt: string, started: number, at: number, covered: ReadonlyMap<string, FileCheck | undefined>): Promise<IncrementalResult> {
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
    const stats = await pending.commit(async (sink) => {
      const target = twinSink(sink, options);
      await writeOutputs(outputs, target, cache);
      await target.flush();
    });
    // The folder swap replaced whatever saves wrote: this build's files are what dist/ holds.
    written.clear();
    settle(catalog, (await compare(null, outputs)).shapes, at, covered);
    const ms = Math.round(performance.now() - started);
    log(`Built ${stats.files} files, ${stats.bytes} bytes in ${ms} ms → ${path.relative(process.cwd(), path.resolve(options.outDir)) || '.'}`);
    return { ok: true, files: stats.files, bytes: stats.bytes, ms, changed: stats.files };
  }

  return { run, save, pass, refresh, noteWritten, passEnded, commits };
}

/**
 * The documents changed since the last good pass, when each edit keeps what other documents' own
 * files show of it (kind, slug, title, address; a service's line, position and sectors) and
 * checkLinks would still pass with it: then their own files can be made from the last catalog.
 * Null when any changed path is anything else (a new, removed or broken file, a folder, a draft,
 * organization.md).
 */
function editsInPlace(changed: readonly string[], lastDocs: ReadonlyMap<string, CollectionDoc>, files: ReadonlyMap<string, FileCheck>, known: KnownTargets): CollectionDoc[] | null {
  if (changed.length === 0) return null;
  const docs: CollectionDoc[] = [];
  for (const rel of changed) {
    const old = lastDocs.get(`content/${rel}`);
    const now = files.get(rel);
    if (!old || !now?.doc || now.issues.length > 0 || now.doc.kind === 'organization') return null;
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

function docsByFile(c: Catalog): Map<string, CollectionDoc> {
  const docs: CollectionDoc[] = [...c.services, ...c.sectors, ...c.insights, ...c.areas, ...c.pages];
  return new Map(docs.map((d) => [d.file, d]));
}

/** An output's shape as compare records it (own files: never composed). */
function shapeOf(out: OutFile): Shape {
  return out.kind === 'json' ? { kind: 'value', value: out.value } : { kind: 'text', text: textOf(out) };
}

/** Whether an output (a document's own file) has the bytes of `shape`. */
function sameAs(shape: Shape | undefined, out: OutFile): boolean {
  if (!shape) return false;
  if (out.kind === 'json') return !out.compose && shape.kind === 'value' && sameJson(out.value, shape.value);
  return !out.compose && shape.kind === 'text' && shape.text === textOf(out);
}

/**
 * Compare this run's outputs with the last run's: unchanged values are swapped for the last run's
 * objects (keeping their cached strings and schema checks), and the files that differ are named.
 */
async function compare(previous: Previous | null, outputs: Outputs, pause: () => Promise<void> = async () => {}): Promise<{ shapes: Map<string, Shape>; changedFiles: Set<string> }> {
  const shapes = new Map<string, Shape>();
  const changedFiles = new Set<string>();
  /** New object → the equal object of the last run, so a detail item found again in the bundle is recognised. */
  const kept = new Map<object, object>();
  const before = (rel: string) => previous?.shapes.get(rel);

  for (const [rel, out] of outputs) {
    await pause();
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
    await pause();
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
    await pause();
    if (out.kind !== 'text' || out.compose) continue;
    const text = textOf(out);
    const old = before(rel);
    if (!(old?.kind === 'text' && old.text === text)) changedFiles.add(rel);
    shapes.set(rel, { kind: 'text', text });
  }
  for (const [rel, out] of outputs) {
    await pause();
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

/**
 * Who may replace which file of dist/: a writer of generation `at` replaces a file only while no
 * newer save has claimed it (`claimed`, by output; a twin goes with its file), so a pass that
 * started before a save never puts back what the save replaced. The check and the rename of one
 * file run one at a time, so the newest claim wins whatever order the writers finish in.
 */
export interface Commits {
  /** Rename the written temporary file over `rel`, or drop it if a newer save claimed `rel`. */
  commit(outDir: string, rel: string, tmp: string, at: number): Promise<void>;
  /** Remove an output no longer emitted, its twins and the folders it leaves empty, unless newer. */
  remove(outDir: string, rel: string, at: number): Promise<void>;
}

export function createCommits(claimed: ReadonlyMap<string, number>): Commits {
  const queues = new Map<string, Promise<void>>();
  const ownerOf = (rel: string): string => {
    const twin = ENCODINGS.find((e) => rel.endsWith(e.suffix));
    return twin ? rel.slice(0, -twin.suffix.length) : rel;
  };
  const newer = (rel: string, at: number): boolean => (claimed.get(ownerOf(rel)) ?? 0) > at;
  /** Run `task` after the tasks queued for `rel` before it. */
  const inTurn = (rel: string, task: () => Promise<void>): Promise<void> => {
    const run = (queues.get(rel) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => {});
    queues.set(rel, tail);
    void tail.then(() => queues.get(rel) === tail && queues.delete(rel));
    return run;
  };
  return {
    commit: (outDir, rel, tmp, at) => inTurn(rel, async () => {
      if (newer(rel, at)) await unlink(tmp).catch(() => {});
      else await rename(tmp, path.join(outDir, rel));
    }),
    remove: (outDir, rel, at) => inTurn(rel, async () => {
      if (newer(rel, at)) return;
      for (const file of [rel, ...ENCODINGS.map((e) => `${rel}${e.suffix}`)]) await unlink(path.join(outDir, file)).catch(() => {});
      for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) {
        try {
          await rmdir(path.join(outDir, dir));
        } catch {
          break;
        }
      }
    }),
  };
}

/** Text gathered into writes of about this many characters. */
const CHUNK_CHARS = 1 << 20;
let temporaries = 0;

/**
 * Writes straight into dist/, each file replaced atomically: written under a hidden name beside
 * it (a server never serves dot-files; one name per write, as a save and a pass may write the
 * same file at once), then renamed over the old one through `commits`.
 */
function inPlaceSink(outDir: string, commits: Commits, at: number): WriteSink {
  const begin = async (rel: string) => {
    const dest = path.join(outDir, rel);
    await mkdir(path.dirname(dest), { recursive: true });
    temporaries += 1;
    const tmp = path.join(path.dirname(dest), `.${path.basename(dest)}.${process.pid}.${temporaries}.tmp`);
    return { tmp, handle: await open(tmp, 'w') };
  };
  return {
    async file(rel, data) {
      const { tmp, handle } = await begin(rel);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      await commits.commit(outDir, rel, tmp, at);
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
          const { tmp, handle } = await opened;
          await handle.close();
          await commits.commit(outDir, rel, tmp, at);
        },
      };
    },
  };
}

/** Write the outputs named in `only` in place, each with its precompressed twins when the build makes them. */
async function writeInPlace(outDir: string, outputs: Outputs, cache: JsonCache, only: ReadonlySet<string>, options: Pick<BuildOptions, 'precompress'>, commits: Commits, at: number): Promise<void> {
  const sink = twinSink(inPlaceSink(outDir, commits, at), options);
  await writeOutputs(outputs, sink, cache, only);
  await sink.flush();
}
