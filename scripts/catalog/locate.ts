/**
 * Lines and columns for the problems of a failed build, so an editor can jump to them
 * (`file:line:column`). The build reads front matter with js-yaml (through gray-matter), which
 * keeps no positions; only when a build fails are the files at fault parsed again with the
 * `yaml` package, whose document nodes carry their source ranges, and each issue's field path
 * (`process_steps[2].title`) is walked down to its node.
 *
 * Where the field is: an unknown field at its key, a wrong value at the value, a missing field
 * at the mapping that lacks it (the nearest part of the path that exists).
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Pair } from 'yaml';
import type { Issue } from './issues.ts';

export interface Position {
  line: number;
  column: number;
}

/** `process_steps[2].title` → ['process_steps', 2, 'title']; `""` (an empty key) → ['']. */
export function fieldPath(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of field.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else out.push(m[2] === '""' ? '' : (m[2] as string));
  }
  return out;
}

/** The front matter as gray-matter cuts it: after the opening `---`, up to the closing one. */
function frontMatterOf(text: string): string | null {
  const open = /^\uFEFF?---/.exec(text);
  if (!open) return null;
  const rest = text.slice(open[0].length);
  const close = /\r?\n---[ \t]*(\r?\n|$)/.exec(rest);
  return close ? rest.slice(0, close.index + 1) : rest;
}

function keyOf(pair: Pair): string | undefined {
  const key = pair.key as Node | null;
  if (isScalar(key)) return String(key.value);
  return undefined;
}

/**
 * Where `field` is in the file. The front matter begins on line 1 (the rest of the `---` line),
 * so a line of the front matter is the same line of the file; columns count characters, from 1.
 */
export function locateField(text: string, field: string | readonly (string | number)[], atKey = false): Position | null {
  const yaml = frontMatterOf(text);
  if (yaml === null) return null;
  const counter = new LineCounter();
  // js-yaml read this text, but the yaml package may still see an error somewhere (they differ
  // on a few corner cases): its document is walked all the same, as far as it goes.
  const doc = parseDocument(yaml, { lineCounter: counter, uniqueKeys: false, strict: false });
  const position = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
  const path = typeof field === 'string' ? fieldPath(field) : field;
  let node = doc.contents as Node | null;
  if (!node?.range) return topLevelKey(yaml, path[0]) ?? { line: 2, column: 1 };
  if (doc.errors.length > 0 && !isMap(node)) return topLevelKey(yaml, path[0]) ?? position(node.range[0]);
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] as string | number;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = (node.items as Pair[]).find((p) => keyOf(p) === String(seg));
      if (!pair) break;
      const key = pair.key as Node | null;
      const value = pair.value as Node | null;
      if ((last && atKey) || !value?.range) return key?.range ? position(key.range[0]) : position(node.range?.[0] ?? 0);
      node = value;
    } else if (isSeq(node) && /^\d+$/.test(String(seg)) && node.items[Number(seg)]) {
      const item = node.items[Number(seg)] as Node;
      if (!item.range) break;
      node = item;
    } else {
      break;
    }
  }
  return position(node.range?.[0] ?? 0);
}

/** The line of a top-level key, read as text: the last resort when the YAML has no usable tree. */
function topLevelKey(yaml: string, key: string | number | undefined): Position | null {
  if (key === undefined) return null;
  const escaped = String(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^["']?${escaped}["']?[ \t]*:`, 'm').exec(yaml);
  return m ? { line: yaml.slice(0, m.index).split('\n').length, column: 1 } : null;
}

/** Kinds of issue whose field names something in the front matter. */
const AT_KEY = new Set<Issue['code']>(['unknown_field']);
const IN_FRONT_MATTER = new Set<Issue['code']>(['missing_field', 'unknown_field', 'wrong_type', 'invalid_value', 'slug_mismatch', 'duplicate_slug', 'duplicate_path', 'duplicate_faq', 'dangling_reference']);

/**
 * The issues with a line and column added where one can be found. `textOf` gives a file's text
 * by its published path (`content/…`), or null when it cannot be read.
 */
export function locateIssues(issues: readonly Issue[], textOf: (file: string) => string | null): Issue[] {
  const texts = new Map<string, string | null>();
  return issues.map((i) => {
    if (i.line !== undefined || !IN_FRONT_MATTER.has(i.code) || (!i.path && (i.field.startsWith('(') || i.field === 'body'))) return i;
    if (!texts.has(i.file)) texts.set(i.file, textOf(i.file));
    const text = texts.get(i.file);
    const at = text ? locateField(text, i.path ?? i.field, AT_KEY.has(i.code)) : null;
    return at ? { ...i, ...at } : i;
  });
}
