/**
 * Markdown for channel descriptions (`rendered_description`). Descriptions are single-line
 * (newlines become spaces on save), so CommonMark inline rendering wrapped in a paragraph is
 * what Zulip produces for the plain descriptions the fixture and clients use.
 */
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

export function renderDescription(description: string): string {
  if (description.trim() === '') return '';
  return md.render(description).trimEnd();
}
