// Which users a message alerts (simulator/engine/markdown/alert-words.ts), checked against the cases
// of Zulip's own tests (test_markdown.py's test_alert_words_*, test_alert_words.py's
// test_alert_flags) and against properties of its preprocessor: case-insensitive, whole words
// between Zulip's allowed neighbours, never inside a fenced code block, always inside a quote block.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertWordSearchText, usersAlertedBy } from '../../../simulator/engine/markdown/alert-words.ts';

/** Users 1, 2, … with the given words each, as the realm's automaton holds them (lower-cased). */
function realmWords(...perUser: string[][]): Map<string, Set<number>> {
  const byWord = new Map<string, Set<number>>();
  perUser.forEach((words, i) => {
    for (const word of words) {
      const key = word.toLowerCase();
      if (!byWord.has(key)) byWord.set(key, new Set());
      byWord.get(key)!.add(i + 1);
    }
  });
  return byWord;
}

const alerted = (content: string, words: Map<string, Set<number>>, defaultLanguage = '') =>
  [...usersAlertedBy(content, words, defaultLanguage)].sort((a, b) => a - b);

describe("Zulip's own cases", () => {
  it('finds every user whose word or phrase occurs, and nobody else', () => {
    const words = realmWords(['how'], ['this possible'], ['hello'], ['hello'], ['how are you'], ['hey']);
    expect(alerted('hello how is this possible how are you doing today', words)).toEqual([1, 2, 3, 4, 5]);
  });

  it('matches across lines and case-insensitively, phrases included', () => {
    const words = realmWords(['provisioning', 'Prod deployment'], ['test', 'Prod'], ['prod'], ['deployment'], ['last']);
    const content = `Hello, everyone. Prod deployment has been completed
        And this is a new line
        to test out how Markdown convert this into something line ending split array
        and this is a new line
        last`;
    expect(alerted(content, words)).toEqual([1, 2, 3, 4, 5]);
  });

  it('matches accented words, in brackets too', () => {
    const words = realmWords(['réglementaire', 'une politique', 'une merveille'], ['énormément', 'Prod'], ['prod'], ['deployment'], ['last']);
    const content = `This is to test out alert words work in languages with accented characters too
        bonjour est (énormément) ce a quoi ressemble le français
        et j'espère qu'il n'y n' réglementaire a pas de mots d'alerte dans ce texte français
        `;
    expect(alerted(content, words)).toEqual([1, 2]);
  });

  it('ignores words inside other words and inside URLs', () => {
    const words = realmWords(['one', 'two', 'three']);
    for (const yes of ['Normal alert one time', 'Normal alert one', 'two normal alerts', 'This one? should alert', 'Definitely time for three.', "One two three o'clock", 'Case of ONE, won\'t stop me']) {
      expect(alerted(yes, words), yes).toEqual([1]);
    }
    for (const no of ["Don't alert on http://t.co/one/ URLs", "Don't alert on http://t.co/one URLs", "Don't alert on clone, twofold or seventytwofold"]) {
      expect(alerted(no, words), no).toEqual([]);
    }
  });

  it('finds a short word among hundreds of longer ones', () => {
    const many = Array.from({ length: 500 }, () => 'xxxxxxxxxx');
    const words = realmWords(['issue124'], many, many);
    expect(alerted('I was talking about the issue124 on github. print random.randint(1,101)', words)).toEqual([1]);
  });

  it('alerts nobody when nobody has words', () => {
    expect(alerted('This is to test a empty alert words', new Map())).toEqual([]);
  });
});

describe("the preprocessor's text", () => {
  const words = realmWords(['secret']);

  it('hides fenced code and math blocks, closed or not, but not quote or spoiler blocks', () => {
    expect(alerted('```\nthe secret\n```', words)).toEqual([]);
    expect(alerted('~~~python\nsecret = 1\n~~~', words)).toEqual([]);
    expect(alerted('```math\nsecret\n```', words)).toEqual([]);
    expect(alerted('look:\n```\nsecret', words)).toEqual([]);
    expect(alerted('```quote\nthe secret\n```', words)).toEqual([1]);
    expect(alerted('```spoiler the secret\nhidden\n```', words)).toEqual([1]);
    expect(alerted('```spoiler title\nthe secret\n```', words)).toEqual([1]);
    // A code block inside a quote is still code.
    expect(alerted('````quote\n```\nsecret\n```\n````', words)).toEqual([]);
  });

  it("follows the realm's default code block language for fences that name none", () => {
    expect(alerted('```\nthe secret\n```', words, 'quote')).toEqual([1]);
    expect(alerted('```python\nthe secret\n```', words, 'quote')).toEqual([]);
  });

  it('does not hide inline code, indented code, links or mentions', () => {
    expect(alerted('`secret`', words)).toEqual([1]);
    expect(alerted('    secret', words)).toEqual([1]);
    expect(alerted('[secret](https://example.com)', words)).toEqual([1]);
    expect(alerted('**secret**', words)).toEqual([1]);
    expect(alerted('> secret', words)).toEqual([1]);
  });

  it("keeps Zulip's neighbour rules, quirks included", () => {
    // A tab becomes spaces; a closing double quote is not an allowed neighbour (Zulip's set has '",').
    expect(alerted('x\tsecret', words)).toEqual([1]);
    expect(alerted('"secret"', words)).toEqual([]);
    expect(alerted('"secret" ', words)).toEqual([]);
    // The character before a match is not checked when the match starts at the second character.
    expect(alerted('xsecret', words)).toEqual([1]);
    expect(alerted('xxsecret', words)).toEqual([]);
    expect(alerted('secrets', words)).toEqual([]);
    expect(alerted('secret!', words)).toEqual([1]);
  });

  it('normalizes whitespace and stashes code as Python-Markdown does', () => {
    expect(alertWordSearchText('A\r\nB\tC', '')).toBe('a\nb   c\n\n');
    expect(alertWordSearchText('```\ncode\n```\nAfter', '')).toBe('\n\u0002wzxhzdk:0\u0003\n\nafter\n\n');
    expect(alertWordSearchText('ΟΔΟΣ', '')).toBe('οδοσ\n\n');
  });
});

describe('properties', () => {
  const word = fc.stringMatching(/^[a-z]{2,8}( [a-z]{2,8})?$/);
  const filler = fc.stringMatching(/^[a-z ,.!?]{0,20}$/);

  it('a word between spaces always alerts, whatever its case', () => {
    fc.assert(
      fc.property(word, filler, filler, fc.boolean(), (w, before, after, upper) => {
        const shown = upper ? w.toUpperCase() : w;
        expect(alerted(`${before} ${shown} ${after}`, realmWords([w]))).toEqual([1]);
      }),
    );
  });

  it('a word glued to a letter on both sides never alerts', () => {
    fc.assert(
      fc.property(word, (w) => {
        expect(alerted(`ab${w}c`, realmWords([w]))).toEqual([]);
      }),
    );
  });

  it('nothing inside a code fence alerts', () => {
    fc.assert(
      fc.property(word, filler, (w, text) => {
        expect(alerted(`\`\`\`\n${text} ${w} ${text}\n\`\`\``, realmWords([w]))).toEqual([]);
      }),
    );
  });
});
