// has_link, has_image and has_attachment come from patterns over the rendered HTML; the renderer
// runs them only where a substring they need is present. The oracle is the patterns alone.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { renderMarkdown, type RenderContext } from '../../../simulator/engine/markdown/index.ts';

const ctx: RenderContext = {
  usersByName: () => [],
  userById: () => undefined,
  channelByName: (name) => (name === 'Denmark' ? { id: 4, name } : undefined),
  realmEmoji: (name) => (name === 'green_tick' ? { id: '1', source_url: '/user_avatars/2/emoji/images/1.png' } : undefined),
};

const piece = fc.constantFrom(
  'see ', 'https://example.com/cat', '.png', '.PNG', '.jpeg', '.Gif', '.html', '?x=1', '#top', ' ', '\n', 'zulip.com', '[file](', ')', '/user_uploads/2/ab/r', '.pdf',
  '![img](', ':green_tick:', ':tada:', '#**Denmark**', '<a href="x.png">', '`.png`', '**', 'x', '"',
);
const content = fc.array(piece, { maxLength: 10 }).map((p) => p.join(''));

test('the flags are what the patterns find in the HTML', () => {
  fc.assert(
    fc.property(content, (c) => {
      const r = renderMarkdown(c, ctx);
      expect(r.hasLink).toBe(/<a [^>]*href="(?!\/#narrow)/.test(r.html));
      expect(r.hasImage).toBe(/<img (?![^>]*class="emoji")/.test(r.html) || /<a [^>]*href="[^"]+\.(?:png|jpe?g|gif|webp|bmp)(?:\?[^"]*)?"/i.test(r.html));
      expect(r.hasAttachment).toBe(/<a [^>]*href="\/user_uploads\//.test(r.html));
    }),
    { numRuns: 1500 },
  );
});
