/**
 * Stage 7a: the checked outputs → bytes, into a write sink. Every object is stringified once and
 * every Markdown twin rendered once, however many files hold them:
 *
 * - a JSON file assembled from parts (a list, the bundle) is streamed part by part; when a part is
 *   also a file of its own (a service in the bundle and in services/{slug}.json), that file is
 *   written at the same moment, from the same string (from the same bytes, where the sink's
 *   stream can write both: FileStream.writeAlsoAs), and the string is then dropped;
 * - a text file made of other files (llms-full.txt holds every twin) writes each of them as it
 *   passes.
 *
 * Files assembled from parts go first, so what they share is written while it is at hand; a part
 * shared by two assembled files (an area in areas.json and in the bundle) is kept until its second
 * use. Peak memory is then the content plus a bounded window, not every rendered file at once.
 */
import type { OutFile, Outputs, TextPiece } from './emit.ts';
import { JsonCache, parts } from './json.ts';
import type { FileStream, WriteSink } from './write.ts';

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';

/**
 * `only` (watch): write just these files; the others are still read where a written file holds
 * them. `cache` (watch): a retaining cache, so unchanged parts are not stringified again.
 */
export async function writeOutputs(outputs: Outputs, sink: WriteSink, cache = new JsonCache(), only?: ReadonlySet<string>): Promise<void> {
  const wanted = (rel: string): boolean => !only || only.has(rel);
  const done = new Set<string>();
  /** The file each object is the whole value of (detail files, organization.json). */
  const fileOf = new Map<object, string>();
  const uses = new Map<object, number>();
  const use = (v: unknown): void => void (isObject(v) && uses.set(v, (uses.get(v) ?? 0) + 1));
  for (const [rel, out] of outputs) {
    // A value in no other file is neither shared nor a part: reading it now would only build a
    // lazy one (search.json) before its turn.
    if (out.kind !== 'json' || out.alone) continue;
    if (out.compose) {
      for (const p of parts(out.value as Record<string, unknown>)) if (typeof p !== 'string') use(p.value);
    } else {
      use(out.value);
      if (isObject(out.value) && !fileOf.has(out.value)) fileOf.set(out.value, rel);
    }
  }
  for (const [value, n] of uses) cache.share(value, n);

  const writeJson = async (rel: string, value: unknown): Promise<void> => {
    done.add(rel);
    if (wanted(rel)) await sink.file(rel, `${cache.of(value)}\n`);
  };

  const composeJson = async (rel: string, value: Record<string, unknown>): Promise<void> => {
    done.add(rel);
    const stream = sink.stream(rel);
    for (const p of parts(value)) {
      if (typeof p === 'string') {
        await stream.write(p);
        continue;
      }
      const s = cache.of(p.value);
      const own = isObject(p.value) ? fileOf.get(p.value) : undefined;
      if (own !== undefined && !done.has(own) && wanted(own) && stream.writeAlsoAs) {
        done.add(own);
        cache.release(p.value);
        await stream.write(p.before);
        await stream.writeAlsoAs(s, own, true);
        continue;
      }
      await stream.write(`${p.before}${s}`);
      if (own !== undefined && !done.has(own)) await writeJson(own, p.value);
    }
    await stream.write('\n');
    await stream.end();
  };

  const includedText = (include: string): string => {
    const included = outputs.get(include);
    if (included?.kind !== 'text') throw new Error(`${include} is included but is not a text output`);
    return textOf(included);
  };

  /** An included file's text; written as its own file too, unless it already was. */
  const resolve = async (piece: TextPiece): Promise<string> => {
    if (typeof piece === 'string') return piece;
    const text = includedText(piece.include);
    if (!done.has(piece.include)) {
      done.add(piece.include);
      if (wanted(piece.include)) await sink.file(piece.include, text);
    }
    return text;
  };

  /** One piece: one whole-file write; more: a stream. */
  const writeText = async (rel: string, render: () => Iterable<TextPiece>): Promise<void> => {
    done.add(rel);
    const it = render()[Symbol.iterator]();
    let next = it.next();
    const first = next.done ? '' : await resolve(next.value);
    next = it.next();
    if (next.done) return sink.file(rel, first);
    const stream: FileStream = sink.stream(rel);
    await stream.write(first);
    for (; !next.done; next = it.next()) {
      const piece = next.value;
      if (typeof piece !== 'string' && !done.has(piece.include) && wanted(piece.include) && stream.writeAlsoAs) {
        done.add(piece.include);
        await stream.writeAlsoAs(includedText(piece.include), piece.include, false);
        continue;
      }
      await stream.write(await resolve(piece));
    }
    await stream.end();
  };

  const write = (rel: string, out: OutFile): Promise<void> => {
    if (out.kind === 'text') return writeText(rel, out.render);
    return out.compose ? composeJson(rel, out.value as Record<string, unknown>) : writeJson(rel, out.value);
  };
  for (const [rel, out] of outputs) if (out.compose && wanted(rel)) await write(rel, out);
  for (const [rel, out] of outputs) if (!done.has(rel) && wanted(rel)) await write(rel, out);
}

/** A text output's whole text (it must not include other files). */
export function textOf(out: Extract<OutFile, { kind: 'text' }>): string {
  let text = '';
  for (const piece of out.render()) {
    if (typeof piece !== 'string') throw new Error(`nested include of ${piece.include}`);
    text += piece;
  }
  return text;
}
