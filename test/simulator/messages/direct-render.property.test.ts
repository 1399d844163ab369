// The direct renderer (simulator/engine/markdown/direct.ts) builds markdown-it's token stream for
// plain paragraphs without running markdown-it's parsers. Wherever it takes a message, the result
// (HTML and everything the render found: mentions, wildcards, groups, channels, flags) must be
// exactly markdown-it's; where it is unsure it declines, which is always safe.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { getUserByEmail } from '../../../simulator/engine/core.ts';
import { renderDirectHtmlOnly, renderDirectOnly, renderFull } from '../../../simulator/engine/markdown/index.ts';
import { messageRenderContext } from '../../../simulator/engine/messages/context.ts';
import { createSimulator } from '../../../simulator/index.ts';
import { SEND_MIX } from '../../../scripts/bench/sim/constructs.ts';

const simulator = createSimulator();
// The dev realm: its users, groups, channels, emoji and linkifiers (#D123, org/repo#123, …).
const ctx = messageRenderContext(simulator.engine, getUserByEmail(simulator.engine, 'iago@zulip.com'));

const NUM_RUNS = Number(process.env.DIRECT_RENDER_RUNS ?? 1500);

const construct = fc.constantFrom(
  'hello', 'world', 'Build', '12', 'x', 'a1', ' ', ' ', ' ', '\n', '\n\n', '.', ',', '!', '?', ';', ':', ')', '(', '"', "'", '-', '+', '=', '%', '$', '^', '{', '}', '|', '/',
  '**', '*', '_', '__', '~', '~~', '~~~', '***', '`', '``', '```', '[', ']', '](', '](https://', '![', '\\', '\\*', '&', '&amp;', '&#35;', '&copy;', '<', '>', '<https://a.com>', '#', '# ', '>', '- ', '* ', '1. ', '2) ', '---', '===', '    ', '\t',
  '**passed**', '_main_', '*em*', '~~12~~', '__init__', 'foo_bar', 'snake_case_name', '`npm test`', '` x `', '`a`b`',
  '[issue 12](https://github.com/zulip/zulip/issues/12?tab=timeline#event-5)', '[x](http://a.com/(b))', '[x](https://a.com "t")', '[x](javascript:alert(1))', '[x](/relative)', '[WIP]', '[a](https://a.com/x?y=1&amp;z)',
  'https://ci.example.com/builds/5678/log?attempt=2&job=test-unit', 'http://localhost:8080/p?q=1', 'https://x.org/a_b_c.', 'https://a.com/**b**', 'HTTPS://A.COM', 'ftp://f.org/x', 'mailto:a@b.com', 'https://é.com/ü',
  'staging.example.com', 'zulip.com', 'www.zulip.org', 'a@b.com', 'xn--e1afmkfd.xn--p1ai', '127.0.0.1',
  '@**King Hamlet**', '@_**King Hamlet**', '@**King Hamlet|10**', '@**Nobody**', '@**all**', '@**topic**', '@*hamletcharacters*', '@_*hamletcharacters*', '@*nogroup*', 'a@**King Hamlet**',
  '#**Denmark**', '#**Denmark>bench**', '#**Denmark>**', '#**Nowhere**', '#D1234', 'zulip-mobile#5678', 'zulip/zulip#99', '#1',
  ':tada:', ':+1:', ':nope:', ':zulip:', 'x:tada:', '🎉', '👍🏽', 'é', '\u00a0', '\u3000', '\u2028', '\uff5c', '\r\n', '\0',
);
const message = fc.array(construct, { minLength: 1, maxLength: 14 }).map((parts) => parts.join(''));
// Mostly words and the constructs the direct path takes, spaced as people write them, so that most
// messages reach its inline rules rather than an early decline.
const friendly = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom('ok', 'Build', 'passed', 'on', '9') }, { weight: 2, arbitrary: construct }), { minLength: 1, maxLength: 12 })
  .chain((parts) => fc.array(fc.constantFrom(' ', ' ', ' ', '', '\n', '\n\n'), { minLength: parts.length, maxLength: parts.length }).map((gaps) => parts.map((p, i) => (i === 0 ? p : gaps[i]! + p)).join('')))
  .map((m) => m.trim())
  .filter((m) => m !== '');
// Contents as the send path gives them: trimmed (zerver's message content is stripped).
const trimmed = message.map((m) => m.trim()).filter((m) => m !== '');
// Lines of the blocks the direct path reads (paragraphs, fences, quotes, bullets) and their near misses.
const line = fc.oneof(
  fc.constantFrom('Changes:', 'ok **go**', 'see #D1234', '', '', '```', '```python', '```quote', '```spoiler Title', '~~~', '````', '``` x`y', '  ```', '    ```', '``` ', '```\u00a0', '---', '* * *', '# h', '1. one', '|a|', 'a|b'),
  fc.constantFrom('> ', '>', '>> ', '- ', '* ', '+ ', '-  ', '  ').chain((prefix) => fc.constantFrom('fix the `loop`', '@**King Hamlet**', '', ' x', '- y', '> z', 'zulip.com').map((rest) => prefix + rest)),
  construct,
);
const blocky = fc.array(line, { minLength: 1, maxLength: 10 }).map((lines) => lines.join('\n').trim()).filter((m) => m !== '');

let htmlTaken = 0;
function same(content: string): boolean {
  const viaDirect = renderFull(content, ctx, false, true);
  const viaMarkdownIt = renderFull(content, ctx, false, false);
  expect(viaDirect).toEqual(viaMarkdownIt);
  const tokens = renderDirectOnly(content, ctx);
  const html = renderDirectHtmlOnly(content, ctx);
  // The HTML path takes only what the token path takes, and writes what it renders.
  if (html !== null && html !== 'loud') {
    htmlTaken++;
    expect(html).toBe(tokens);
  }
  return tokens !== null;
}

describe('direct renderer', () => {
  test('takes every construct of the benchmark mix, all but linkifier text without tokens', () => {
    const taken = SEND_MIX.filter((c) => same(c.content)).map((c) => c.name);
    expect(taken).toEqual(SEND_MIX.map((c) => c.name));
    const loud = SEND_MIX.filter((c) => renderDirectHtmlOnly(c.content, ctx) === 'loud').map((c) => c.name);
    expect(loud).toEqual(['realm linkifier']);
  });

  test('takes fences, one-paragraph quotes and tight lists of one-line items', () => {
    for (const c of ['```\nx\n```', '~~~py\nx\n\n  y\n~~~', '```\nunclosed', 'a\n```\nb\n```\nc', '```quote\n**q**\n```', '> q', '> a\n>b\n\nc', '- x', '* a\n* b', 'Changes:\n- a\n- b\n\nafter']) {
      same(c);
      expect(renderDirectOnly(c, ctx), c).not.toBeNull();
    }
  });

  test('declines what it is not sure of', () => {
    const blocks = ['> a\nlazy', '> a\n>\n> b', '> a\n\n> b', '>> a', '- a\nlazy', '- a\n\n- b', '- a\n* b', '- - -', '-  a', '- > a', '```a`\nx', '  ```\nx\n```', '> a\n```\nx\n```'];
    for (const c of ['a\\*b', '**a *b* c**', '*a**', '<https://a.com>', '[x](https://a.com "t")', '&amp;', 'a\n\n\nb', ' a', 'a  \nb', '# h', '1. x', 'a\n---', '**a**b', 'x**a**', ...blocks]) {
      same(c);
      expect(renderDirectOnly(c, ctx), c).toBeNull();
    }
  });

  test('renders exactly what markdown-it renders, wherever it does not decline', () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.oneof(friendly, trimmed, message, blocky), (content) => {
        runs++;
        if (same(content)) taken++;
      }),
      { numRuns: NUM_RUNS },
    );
    // A generator that only ever made declined messages would test nothing.
    expect(taken).toBeGreaterThan(runs / 20);
    expect(htmlTaken).toBeGreaterThan(runs / 40);
  }, 30_000 + NUM_RUNS);
});
