/**
 * The build: load → parse → validate → link-check → emit → check outputs → write atomically.
 * Each stage is its own module; this file only wires them and decides when to stop. Any issue
 * stops the build before `write`, so the previous dist/ is left untouched.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkOutputsInSlices } from './check-output.ts';
import { classify, ORGANIZATION_FILE, sitePath, type CollectionKind } from './collections.ts';
import { emitCatalog } from './emit.ts';
import { formatIssues, issue, sortIssues, type Issue } from './issues.ts';
import { checkLinks, type DraftRef, type PresentRef } from './link-check.ts';
import { locateIssues } from './locate.ts';
import { loadContent, type SourceFile } from './load.ts';
import { buildCatalog as assembleCatalog } from './model.ts';
import { parseSource, type ParseResult, type ParsedDoc } from './parse.ts';
import { precompressing, withTwinPaths, type PrecompressingSink } from './precompress.ts';
import { searchDocuments } from './search/documents.ts';
import { SEARCH_FILE, searchFileHeader } from './search/search-file.ts';
import { writeOutputs } from './serialize.ts';
import { startSideThread, type SideThread } from './side-thread.ts';
import { createSite, type Site } from './site.ts';
import { validateDoc, type Doc } from './validate.ts';
import { prepareWrite, type WriteSink, type WriteStats } from './write.ts';

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  /** Base address of the website; defaults to the organization's own site. */
  siteUrl?: string;
  log?: (line: string) => void;
  /** Where the list of problems of a failed build goes (the CLI: stderr); defaults to `log`. */
  report?: (text: string) => void;
  /** The content folder as the user named it, for the paths in that list; default `content`. */
  contentLabel?: string;
  /** Seconds since the epoch for `generated_at` (reproducible builds); defaults to env SOURCE_DATE_EPOCH. */
  sourceDateEpoch?: string;
  /**
   * Also write the `.br`/`.gz` twins of every text output (precompress.ts), for servers that send
   * them as they are (nginx `*_static`, Caddy `precompressed`). Off by default: most static hosts
   * compress on the fly and ignore them, and `npm run serve` compresses when they are missing.
   */
  precompress?: boolean;
}

export type BuildResult = { ok: true; files: number; bytes: number; ms: number } | { ok: false; issues: Issue[] };

export async function buildCatalog(options: BuildOptions): Promise<BuildResult> {
  // Started first, so that its code loads while the content is found.
  const side = startSideThread();
  try {
    return await buildWith(options, side);
  } finally {
    await side.close();
  }
}

/**
 * The share of the content files the side thread reads and parses: none for a small catalog,
 * where starting its parser would cost more than it saves, else a little under half (its results
 * still have to cross to this thread).
 */
export function sideShare(total: number): number {
  return total < SIDE_PARSE_MIN_FILES ? 0 : Math.floor(total * SIDE_PARSE_SHARE);
}
const SIDE_PARSE_MIN_FILES = 500;
const SIDE_PARSE_SHARE = 0.45;

async function buildWith(options: BuildOptions, side: SideThread): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const fail = (issues: Issue[]): BuildResult => reportFailure(options, issues);

  const settings = await buildSettings(options);
  if ('issues' in settings) return fail(settings.issues);
  const { site, epoch } = settings;

  const parsed = await loadContent(options.contentDir, parseSource, { count: sideShare, parse: (rels) => side.parse(options.contentDir, rels) });
  const checked = checkParsed(parsed, log);
  if (checked.issues.length > 0) return fail(checked.issues);

  const catalog = assembleCatalog(checked.docs, site);
  // search.json is built and checked on the side thread while this one emits and writes the rest.
  const searched = side.search({ header: searchFileHeader(catalog), docs: searchDocuments(catalog) });
  searched.catch(() => {}); // awaited below
  const generatedAt = generatedAtOf(epoch, catalog.updated);
  const outputs = emitCatalog(catalog, { generatedAt });
  // In emit order: the twins' folders are then made in the order the twins are written.
  const pending = prepareWrite(options.outDir, outputPaths(outputs, options));
  // Its value here would be built again on this thread: the thread's bytes are written instead.
  outputs.delete(SEARCH_FILE);
  // The outputs are checked while the writer threads already write and compress them into the
  // fresh folder: nothing reaches outDir unless the check passes (commit discards the folder).
  let outputIssues: Issue[] = [];
  const checkFailed = new Error('output check failed');
  let written: WriteStats;
  try {
    written = await pending.commit(async (sink) => {
      const target = twinSink(sink, options);
      const writing = writeOutputs(outputs, target)
        .then(async () => {
          const { bytes } = await searched;
          if (bytes) await target.file(SEARCH_FILE, bytes);
        })
        .then(() => target.flush());
      writing.catch(() => {}); // awaited below, after the check, whose issues come first
      outputIssues = [...(await checkOutputsInSlices(outputs)), ...(await searched).issues];
      if (outputIssues.length > 0) {
        await writing.catch(() => {});
        throw checkFailed;
      }
      await writing;
    });
  } catch (error) {
    if (error === checkFailed) return fail(outputIssues);
    throw error;
  }
  const ms = Math.round(performance.now() - started);
  log(`Built ${written.files} files, ${written.bytes} bytes in ${ms} ms → ${path.relative(process.cwd(), path.resolve(options.outDir)) || '.'}`);
  return { ok: true, files: written.files, bytes: written.bytes, ms };
}

/** Every file a build writes: its outputs, and their twins when it precompresses. */
export function outputPaths(outputs: ReadonlyMap<string, unknown>, options: Pick<BuildOptions, 'precompress'>): string[] {
  const files = [...outputs.keys()];
  return options.precompress ? withTwinPaths(files) : files;
}

/** The sink a build writes through: with twins when it precompresses; `flush` waits for them. */
export function twinSink(sink: WriteSink, options: Pick<BuildOptions, 'precompress'>): PrecompressingSink {
  return options.precompress ? precompressing(sink) : { file: (rel, data) => sink.file(rel, data), stream: (rel) => sink.stream(rel), flush: async () => {} };
}

/** A failed build: its problems located, sorted and reported in one block. */
export function reportFailure(options: BuildOptions, issues: readonly Issue[]): BuildResult {
  const sorted = sortIssues(locateIssues(issues, (file) => readContentFile(options.contentDir, file)));
  (options.report ?? options.log ?? (() => {}))(formatIssues(sorted, { contentLabel: options.contentLabel ?? 'content' }));
  return { ok: false, issues: sorted };
}

/** The build's settings, checked before any file is read. */
export async function buildSettings(options: BuildOptions): Promise<{ site: Site; epoch: string | undefined } | { issues: Issue[] }> {
  let site: Site;
  try {
    site = createSite(options.siteUrl);
  } catch (error) {
    return { issues: [issue('(config)', 'site_url', 'invalid_config', (error as Error).message)] };
  }
  const epoch = options.sourceDateEpoch ?? process.env.SOURCE_DATE_EPOCH;
  // Date covers ±8.64e15 ms; beyond that toISOString would throw later.
  if (epoch !== undefined && epoch !== '' && (!/^\d+$/.test(epoch) || Number(epoch) > 8.64e12)) {
    return { issues: [issue('(config)', 'SOURCE_DATE_EPOCH', 'invalid_config', `"${epoch}" is not a number of seconds`)] };
  }
  if (!(await isDirectory(options.contentDir))) {
    return { issues: [issue('content/', '(folder)', 'missing_file', `content folder ${options.contentDir} does not exist`)] };
  }
  return { site, epoch };
}

/** generated_at: SOURCE_DATE_EPOCH when set, else midnight of the content's newest date. */
export function generatedAtOf(epoch: string | undefined, updated: string): string {
  return epoch ? new Date(Number(epoch) * 1000).toISOString() : `${updated}T00:00:00.000Z`;
}

export interface CheckedContent {
  docs: Doc[];
  issues: Issue[];
}

/** The pure middle of the build: parse, drop drafts, validate, link-check. */
export function checkContent(sources: readonly SourceFile[], log: (line: string) => void = () => {}): CheckedContent {
  return checkParsed(sources.map(parseSource), log);
}

/** The same, on files already parsed (the build parses each file as soon as it is read). */
export function checkParsed(results: readonly ParseResult[], log: (line: string) => void = () => {}): CheckedContent {
  return checkSet(results.map((r) => checkFile(r, log)));
}

/** What one file contributes to the set: a valid document, a draft, or a file that failed. */
export interface FileCheck {
  file: string;
  doc?: Doc;
  draft?: DraftRef;
  /** A file that exists but failed to parse or validate: it still owns its slug. */
  present?: PresentRef;
  /** A page that could not be parsed and whose address is unknown. */
  unreadPage?: boolean;
  issues: Issue[];
}

/** The per-file half of the checks (parse result → draft or validated document). */
export function checkFile(parsed: ParseResult, log: (line: string) => void = () => {}): FileCheck {
  if (!parsed.doc) {
    // The file exists even though it could not be read: it still owns the slug its name gives,
    // so references to that slug are not reported as dangling on top of its own problem.
    const file = parsed.issues[0]?.file ?? '';
    const place = file.startsWith('content/') ? classify(file.slice('content/'.length)) : null;
    if (!place || place.kind === 'organization') return { file, issues: parsed.issues };
    const pagePath = parsed.salvagedPath ?? null;
    return {
      file, issues: parsed.issues,
      present: { kind: place.kind, slug: place.fileSlug, file, path: place.kind === 'page' ? pagePath : sitePath(place.kind, place.fileSlug) },
      unreadPage: place.kind === 'page' && pagePath === null,
    };
  }
  const file = parsed.doc.file;
  if (parsed.doc.data.draft === true) {
    log(`Draft left out of every output: ${file}`);
    return { file, issues: [], ...(parsed.doc.kind !== 'organization' ? { draft: { kind: parsed.doc.kind, slug: slugOf(parsed.doc), file } } : {}) };
  }
  const valid = validateDoc(parsed.doc);
  if (valid.doc) return { file, issues: valid.issues, doc: valid.doc };
  return { file, issues: valid.issues, ...(parsed.doc.kind !== 'organization' ? { present: presentRef(parsed.doc) } : {}) };
}

/** The whole-set half: links between the files, and the one file every catalog needs. */
export function checkSet(files: readonly FileCheck[]): CheckedContent {
  const issues: Issue[] = [];
  const docs: Doc[] = [];
  const drafts: DraftRef[] = [];
  const present: PresentRef[] = [];
  /** Pages that could not be read: their address is unknown, so links to a page may mean them. */
  const unreadPages: string[] = [];
  for (const f of files) {
    issues.push(...f.issues);
    if (f.doc) docs.push(f.doc);
    if (f.draft) drafts.push(f.draft);
    if (f.present) present.push(f.present);
    if (f.unreadPage) unreadPages.push(f.file);
  }
  issues.push(...checkLinks(docs, drafts, present, unreadPages));
  // Any result for organization.md (even a parse failure) means the file exists.
  const organization = `content/${ORGANIZATION_FILE}`;
  if (!files.some((f) => f.file === organization)) {
    issues.push(issue(organization, '(file)', 'missing_file', 'is required but missing: every catalog has exactly one organization'));
  }
  return { docs, issues };
}

function presentRef(doc: ParsedDoc): PresentRef {
  const kind = doc.kind as CollectionKind;
  const slug = slugOf(doc);
  const pagePath = typeof doc.data.path === 'string' ? doc.data.path : null;
  const ref: PresentRef = { kind, slug, file: doc.file, path: kind === 'page' ? pagePath : sitePath(kind, slug) };
  if (slug !== doc.fileSlug) ref.named = { slug: doc.fileSlug, path: kind === 'page' ? null : sitePath(kind, doc.fileSlug) };
  return ref;
}

function slugOf(doc: ParsedDoc): string {
  return typeof doc.data.slug === 'string' ? doc.data.slug : doc.fileSlug;
}

/** A content file's text by its published path (`content/…`), for locating its problems. */
function readContentFile(contentDir: string, file: string): string | null {
  if (!file.startsWith('content/')) return null;
  try {
    return readFileSync(path.join(contentDir, file.slice('content/'.length)), 'utf8');
  } catch {
    return null;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
