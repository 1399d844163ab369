// Which users' alert words a message contains, as Zulip's AlertWordNotificationProcessor finds them
// (zerver/lib/markdown/__init__.py). It is a Markdown preprocessor: it reads the message's source
// lines after whitespace normalisation and after fenced code blocks were swapped for placeholders,
// lower-cased, and accepts a match only between Zulip's allowed neighbours. So a word in a ```code
// block does not alert, while one in a ```quote block, in `inline code`, in a link's text, or next
// to `**` or a mention's `@**` does.
import { pythonLower, pythonRstrip } from '../text.ts';

/** Characters that may stand just before a match. */
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
/**
 * Characters that may follow one. Zulip's set holds the two-character string `",` where a `"` was
 * meant: no single character equals it, so a closing double quote does NOT end a match there.
 */
const ALLOWED_AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Python-Markdown's stash placeholder for raw HTML (util.HTML_PLACEHOLDER). */
const placeholder = (n: number): string => `\u0002wzxhzdk:${n}\u0003`;

/** Zulip's FENCE_RE: ``` or ~~~ (3 or more) at the start of a line, then an optional language and header. */
const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

/** Python's str.expandtabs(4) on code points: a tab pads to the next multiple of 4 columns. */
function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let column = 0;
  for (const ch of text) {
    if (ch === '\t') {
      const pad = 4 - (column % 4);
      out += ' '.repeat(pad);
      column += pad;
    } else {
      out += ch;
      column = ch === '\n' || ch === '\r' ? 0 : column + 1;
    }
  }
  return out;
}

/** Python-Markdown's NormalizeWhitespace preprocessor. */
function normalizeWhitespace(content: string): string[] {
  let source = content.replace(/[\u0002\u0003]/g, '');
  source = source.replace(/\r\n/g, '\n').replace(/\r/g, '\n') + '\n\n';
  source = expandTabs(source).replace(/(?<=\n) +\n/g, '\n');
  return source.split('\n');
}

type BlockKind = 'outer' | 'code' | 'quote' | 'spoiler';

interface Block {
  kind: BlockKind;
  fence: string;
  header: string | undefined;
  /** Where the block's finished lines go: the enclosing block's lines, or the output. */
  output: string[];
  lines: string[];
}

/**
 * Zulip's FencedBlockPreprocessor (zerver/lib/markdown/fenced_code.py) as far as the text it leaves
 * behind: code and math blocks become a placeholder, quote blocks `> `-prefixed lines, spoilers
 * their header and content between placeholders; an unclosed block ends with the message.
 */
function stashFencedBlocks(lines: readonly string[], defaultLanguage: string): string[] {
  const output: string[] = [];
  const stack: Block[] = [{ kind: 'outer', fence: '', header: undefined, output, lines: [] }];
  let stashed = 0;

  const openOrAppend = (line: string, into: string[], language: string): void => {
    const m = FENCE_RE.exec(line);
    if (!m) {
      into.push(line);
      return;
    }
    const lang = (m[2] || language).toLowerCase();
    const kind: BlockKind = lang === 'quote' || lang === 'quoted' ? 'quote' : lang === 'spoiler' ? 'spoiler' : 'code';
    stack.push({ kind, fence: m[1]!, header: m[3], output: into, lines: [] });
  };

  const close = (): void => {
    const block = stack.pop()!;
    if (block.kind === 'outer' || block.lines.length === 0) return;
    let text = block.lines.join('\n');
    if (block.kind === 'code') text = placeholder(stashed++);
    else if (block.kind === 'quote') text = block.lines.map((line) => `> ${line}`).join('\n');
    else {
      const parts = [placeholder(stashed++)];
      if (block.header !== undefined) parts.push(block.header);
      parts.push(placeholder(stashed++), text, placeholder(stashed++));
      text = parts.join('\n\n');
    }
    block.output.push('', ...text.split('\n'), '');
  };

  for (const line of lines) {
    const block = stack[stack.length - 1]!;
    if (block.kind === 'outer') openOrAppend(line, output, defaultLanguage);
    else if (pythonRstrip(line) === block.fence) close();
    else if (block.kind === 'code') block.lines.push(pythonRstrip(line));
    // Quotes pass the realm's default language on to blocks inside them; spoilers do not.
    else openOrAppend(line, block.lines, block.kind === 'quote' ? defaultLanguage : '');
  }
  while (stack.length > 0) close();
  if (output.length > 2 && output[output.length - 2] !== '') output.push('');
  return output;
}

/**
 * The lower-cased text the alert-word preprocessor searches. Not reproduced: the hanging-list
 * preprocessor's inserted blank lines, which only matter to an alert word spanning two lines.
 */
export function alertWordSearchText(content: string, defaultCodeBlockLanguage: string): string {
  return pythonLower(stashFencedBlocks(normalizeWhitespace(content), defaultCodeBlockLanguage).join('\n'));
}

/** Is the match at [start, end) (UTF-16 offsets) between allowed neighbours, as Zulip tests them? */
function isWholeMatch(text: string, start: number, end: number): boolean {
  // Zulip looks at the code point before the match and waves through index 0 or less, so a match
  // starting at the SECOND code point passes whatever the first one is.
  const first = text.codePointAt(0)!;
  const secondCodePointAt = first > 0xffff ? 2 : 1;
  const startOk = start === 0 || start === secondCodePointAt || ALLOWED_BEFORE.has(text[start - 1]!);
  return startOk && (end >= text.length || ALLOWED_AFTER.has(text[end]!));
}

/**
 * The users whose alert words occur in `content`. `words` maps each lower-cased word to the users
 * who set it (Zulip's realm automaton, which holds only active users' words).
 */
export function usersAlertedBy(content: string, words: ReadonlyMap<string, ReadonlySet<number>>, defaultCodeBlockLanguage: string): Set<number> {
  const alerted = new Set<number>();
  if (words.size === 0) return alerted;
  const text = alertWordSearchText(content, defaultCodeBlockLanguage);
  for (const [word, users] of words) {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
      if (isWholeMatch(text, at, at + word.length)) {
        for (const id of users) alerted.add(id);
        break;
      }
    }
  }
  return alerted;
}
