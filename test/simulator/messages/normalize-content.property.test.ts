// A message's content is trimmed before it is stored: trailing whitespace (JavaScript's, as
// /\s+$/u matches it) and leading newlines go, nothing but whitespace is refused as empty, and
// null bytes are refused. normalizeContent does it without regular expressions; the regular
// expressions it replaced are the oracle here, for any mix of whitespace, newlines and text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../simulator/engine/errors.ts';
import { normalizeContent } from '../../../simulator/engine/messages/send.ts';
import { createSimulator } from '../../../simulator/index.ts';

const engine = createSimulator().engine;

/** The plain version, with Zulip's wording for each refusal. */
function plain(raw: string): string {
  if (raw.includes('\u0000')) throw ChatError.badRequest('Message must not contain null bytes');
  const content = raw.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (content.trim() === '') throw ChatError.badRequest('Message must not be empty');
  return content;
}

const outcome = (read: () => string): string => {
  try {
    return `ok:${read()}`;
  } catch (error) {
    return `refused:${(error as ChatError).msg}`;
  }
};

// Every character JavaScript counts as whitespace, some it does not (Python does), and text.
const piece = fc.oneof(
  fc.constantFrom('\n', '\r\n', '\t', ' ', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff', '\u0085', '\u001c', '\u200b', '\u0000'),
  fc.constantFrom('a', 'hello', '**bold**', '🐙', '\ud800'),
  fc.string({ maxLength: 4 }),
);
const content = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

describe('normalizeContent', () => {
  it('trims and refuses as the regular expressions did', () => {
    fc.assert(
      fc.property(content, (raw) => {
        expect(outcome(() => normalizeContent(engine, raw))).toBe(outcome(() => plain(raw)));
      }),
      { numRuns: 3000 },
    );
  });
});
