// content_html_diff against Zulip's own highlight_html_differences: every expected string in the
// fixture was produced by Zulip's function (lxml 6.1, libxml2 2.14) from the old and new HTML our
// renderer gives for realistic edits, random ones, and long messages (where difflib junks common words).
import { describe, expect, test } from 'vitest';
import cases from '../../fixtures/chat/html-diff.json' with { type: 'json' };
import { highlightHtmlDifferences } from '../../../simulator/engine/markdown/html-diff.ts';

describe('highlightHtmlDifferences', () => {
  test('the reference example', () => {
    expect(highlightHtmlDifferences('<p>Hello!</p>', '<p>Howdy!</p>')).toBe(
      '<div><p><span class="highlight_text_inserted">Howdy!</span></p> <p><span class="highlight_text_deleted">Hello!</span></p></div>',
    );
  });

  test.each(cases.map((c, i) => [i, c] as const))('case %i matches Zulip', (_i, c) => {
    expect(highlightHtmlDifferences(c.old, c.new)).toBe(c.content_html_diff);
  });
});
