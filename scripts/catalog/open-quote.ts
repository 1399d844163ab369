/**
 * Where a quoted YAML value that runs on past its line opens. An unclosed `"` makes YAML read
 * the following lines as the rest of the value, and it gives up lines later, where the value
 * finally closes on another field's quote: the line it reports is not the one to fix.
 *
 * A small scanner, not a YAML parser: a value opens with a quote after `key:` or `- ` (or a
 * flow `[`, `{`, `,`), and closes at the matching quote (`\"` escapes in double quotes, `''` in
 * single ones). Used only to add a location to an error js-yaml already raised.
 */

export interface OpenQuote {
  /** 1-based, in the text given. */
  line: number;
  column: number;
}

/**
 * The last quoted value that opens on a line before `errorLine` (1-based) and does not close on
 * its own line (it closes on a later line, or never), or null when there is none.
 */
export function openQuoteBefore(text: string, errorLine: number): OpenQuote | null {
  const lines = text.split('\n');
  let open: (OpenQuote & { quote: string }) | null = null;
  let last: OpenQuote | null = null;
  for (let n = 0; n < Math.min(lines.length, errorLine - 1); n++) {
    const line = lines[n] ?? '';
    let i = 0;
    if (open) {
      const end = closing(line, 0, open.quote);
      if (end < 0) continue;
      last = { line: open.line, column: open.column };
      open = null;
      i = end + 1;
    }
    for (; i < line.length; i++) {
      const c = line[i];
      if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) break;
      if ((c !== '"' && c !== "'") || !startsValue(line, i)) continue;
      const end = closing(line, i + 1, c);
      if (end < 0) {
        open = { line: n + 1, column: i + 1, quote: c };
        break;
      }
      i = end;
    }
  }
  return open ? { line: open.line, column: open.column } : last;
}

/** A quote opens a value where YAML would start a scalar: after `: `, `- `, a flow bracket or comma, or at the start. */
function startsValue(line: string, at: number): boolean {
  const before = line.slice(0, at).trimEnd();
  return before === '' || /(:|-|\[|\{|,)$/.test(before);
}

/** The index of the quote closing a value that started before `from`, or -1. */
function closing(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (quote === '"' && c === '\\') {
      i++;
      continue;
    }
    if (c !== quote) continue;
    if (quote === "'" && line[i + 1] === "'") {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}
