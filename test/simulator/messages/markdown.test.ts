// Zulip's rendered HTML for the common cases (shapes from Zulip's markdown_test_cases.json and
// its mention/emoji/channel-link output), plus what the renderer reports back.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isMeMessage, PLAIN_LINE, renderFull, renderMarkdown, topicLinks, topicLinksJson, type RenderContext } from '../../../simulator/engine/markdown/index.ts';

const users = [
  { id: 10, full_name: 'King Hamlet' },
  { id: 11, full_name: 'Iago' },
  { id: 20, full_name: 'Twin' },
  { id: 21, full_name: 'Twin' },
  { id: 30, full_name: 'Gone Person', is_active: false },
];
const channels = [
  { id: 4, name: 'Denmark' },
  { id: 9, name: 'core team' },
];
const ctx: RenderContext = {
  usersByName: (name) => users.filter((u) => u.full_name.toLowerCase() === name.toLowerCase()),
  userById: (id) => users.find((u) => u.id === id),
  groupByName: (name) => (name === 'support' ? { id: 30, name: 'support', memberIds: [10, 11] } : undefined),
  channelByName: (name) => channels.find((c) => c.name === name),
  latestInTopic: (channelId, topic) => (channelId === 4 && topic === 'busy' ? 77 : undefined),
  realmEmoji: (name) => (name === 'green_tick' ? { id: '1', source_url: '/user_avatars/2/emoji/images/1.png' } : undefined),
};

const cases: [string, string, string][] = [
  ['paragraph', 'test_input', '<p>test_input</p>'],
  ['empty', '', ''],
  ['single newline is a line break', 'hello\nworld', '<p>hello<br>\nworld</p>'],
  ['blank line separates paragraphs', 'a\n\nb', '<p>a</p>\n<p>b</p>'],
  ['quotes are not escaped in text', `it's "lunch" time`, `<p>it's "lunch" time</p>`],
  ['raw HTML is escaped', '<b>bold</b> & co', '<p>&lt;b&gt;bold&lt;/b&gt; &amp; co</p>'],
  ['inline code', '`<&nbsp;>`', '<p><code>&lt;&amp;nbsp;&gt;</code></p>'],
  [
    'fenced code',
    'Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n~~~~\nAnd all was good.',
    '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n</code></pre></div>\n<p>And all was good.</p>',
  ],
  [
    'fenced code with a language',
    '``` inventedlanguage\ndef speak(self):\n    x = 1\n```',
    '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
  ],
  ['four-space code block', '    def foo(): pass', '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>'],
  ['heading', '# Hello world', '<h1>Hello world</h1>'],
  ['heading needs a space', '#Hello world', '<p>#Hello world</p>'],
  [
    'reference links are not supported',
    'Hello [world]\n\n[world]: https://google.com',
    '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
  ],
  ['list', 'Some text with a list:\n\n* One item\n* Two items', '<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>'],
  ['blockquote', '> Hello World!', '<blockquote>\n<p>Hello World!</p>\n</blockquote>'],
  ['quote fence', '```quote\nText in\nmultiple lines.\n```', '<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>'],
  [
    'spoiler with a header',
    '```spoiler Plot twist\nIt was **him**.\n```',
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot twist</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>It was <strong>him</strong>.</p>\n</div></div>',
  ],
  ['bare domain is linked', 'see zulip.com', '<p>see <a href="http://zulip.com">zulip.com</a></p>'],
  // Zulip's web link regex wants whitespace or the end (after optional punctuation) behind a URL: "<" is neither.
  ['bare domain right before "<" is not linked', 'see zulip.com<', '<p>see zulip.com&lt;</p>'],
  ['bare email is not linked', 'mail hamlet@zulip.com', '<p>mail hamlet@zulip.com</p>'],
  ['named link', '[Zulip](https://zulip.com)', '<p><a href="https://zulip.com">Zulip</a></p>'],
  ['user mention', '@**King Hamlet** hi', '<p><span class="user-mention" data-user-id="10">@King Hamlet</span> hi</p>'],
  ['user mention by id', '@**Twin|21**', '<p><span class="user-mention" data-user-id="21">@Twin</span></p>'],
  ['silent mention', '@_**Iago**', '<p><span class="user-mention silent" data-user-id="11">Iago</span></p>'],
  ['ambiguous name is no mention', '@**Twin**', '<p>@<strong>Twin</strong></p>'],
  ['unknown user is no mention', '@**Nobody**', '<p>@<strong>Nobody</strong></p>'],
  ['mention inside a word is text', 'me@**Iago**', '<p>me@<strong>Iago</strong></p>'],
  ['channel wildcard', '@**all**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>'],
  ['topic wildcard', '@**topic**', '<p><span class="topic-mention">@topic</span></p>'],
  ['group mention', '@*support*', '<p><span class="user-group-mention" data-user-group-id="30">@support</span></p>'],
  ['channel link', '#**Denmark**', '<p><a class="stream" data-stream-id="4" href="/#narrow/channel/4-Denmark">#Denmark</a></p>'],
  [
    'topic link',
    '#**core team>my topic**',
    '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-core-team/topic/my.20topic">#core team &gt; my topic</a></p>',
  ],
  ['unknown channel stays text', '#**Atlantis**', '<p>#<strong>Atlantis</strong></p>'],
  [
    'topic link carries the latest message id',
    '#**Denmark>busy**',
    '<p><a class="stream-topic" data-stream-id="4" href="/#narrow/channel/4-Denmark/topic/busy/with/77">#Denmark &gt; busy</a></p>',
  ],
  [
    'link to the empty topic',
    '#**Denmark>**',
    '<p><a class="stream-topic" data-stream-id="4" href="/#narrow/channel/4-Denmark/topic/">#Denmark &gt; <em>general chat</em></a></p>',
  ],
  ['name|id with another user’s name is no mention', '@**Iago|10**', '<p>@<strong>Iago|10</strong></p>'],
  ['|id mention', '@**|11**', '<p><span class="user-mention" data-user-id="11">@Iago</span></p>'],
  ['deactivated user is mentioned silently', '@**Gone Person**', '<p><span class="user-mention silent" data-user-id="30">Gone Person</span></p>'],
  // Zulip's own emoji names (emoji_names.py) win over iamcal's: :smile: is U+263A, :big_smile: is U+1F604.
  ['unicode emoji', ':smile:', '<p><span aria-label="smile" class="emoji emoji-263a" role="img" title="smile">:smile:</span></p>'],
  ['unicode emoji by a Zulip-only name', ':big_smile:', '<p><span aria-label="big smile" class="emoji emoji-1f604" role="img" title="big smile">:big_smile:</span></p>'],
  ['a name Zulip gives to another emoji than iamcal', ':ok:', '<p><span aria-label="ok" class="emoji emoji-1f44c" role="img" title="ok">:ok:</span></p>'],
  ['emoji code drops FE0F', ':heart:', '<p><span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span></p>'],
  ['literal emoji character (named with Zulip\'s canonical name)', '😄', '<p><span aria-label="big smile" class="emoji emoji-1f604" role="img" title="big smile">:big_smile:</span></p>'],
  [
    'realm emoji',
    ':green_tick:',
    '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"></p>',
  ],
  ['unknown emoji stays text', ':not_an_emoji:', '<p>:not_an_emoji:</p>'],
];

describe('Zulip-flavoured Markdown', () => {
  test.each(cases)('%s', (_name, input, expected) => {
    expect(renderMarkdown(input, ctx).html).toBe(expected);
  });

  test('reports mentions, wildcards and channels found', () => {
    const r = renderMarkdown('@**King Hamlet** @_**Iago** @**everyone** @**topic** @*support* #**Denmark**', ctx);
    expect([...r.mentionedUserIds].sort()).toEqual([10, 11]);
    expect([...r.wildcards].sort()).toEqual(['stream', 'topic']);
    expect([...r.mentionedChannelIds]).toEqual([4]);
  });

  test('silent mentions set no flags', () => {
    const r = renderMarkdown('@_**Iago** @_**all**', ctx);
    expect(r.mentionedUserIds.size).toBe(0);
    expect(r.wildcards.size).toBe(0);
  });

  test('has:image and has:attachment inputs', () => {
    expect(renderMarkdown('look https://example.com/cat.PNG', ctx).hasImage).toBe(true);
    expect(renderMarkdown('look https://example.com/cat.html', ctx).hasImage).toBe(false);
    expect(renderMarkdown('[file](/user_uploads/2/ab/report.pdf)', ctx).hasAttachment).toBe(true);
  });

  test('links are detected, channel links are not', () => {
    expect(renderMarkdown('see https://example.com', ctx).hasLink).toBe(true);
    expect(renderMarkdown('see #**Denmark**', ctx).hasLink).toBe(false);
  });

  test.each([
    ['/me waves', true],
    ['/me waves\nand more', false],
    ['hello /me', false],
  ] as const)('is_me_message for %j is %s', (content, expected) => {
    expect(isMeMessage(content, renderMarkdown(content, ctx).html)).toBe(expected);
  });

  test('topic links from linkifiers', () => {
    const linkifiers = [{ pattern: '#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip/pull/{id}' }];
    expect(topicLinks('fix #1234 see https://x.org/a', linkifiers)).toEqual([
      { text: '#1234', url: 'https://github.com/zulip/zulip/pull/1234' },
      { text: 'https://x.org/a', url: 'https://x.org/a' },
    ]);
  });

  test('topic links as JSON follow a linkifier changed in place', () => {
    const linkifiers = [{ pattern: '#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip/pull/{id}' }];
    const json = () => JSON.parse(topicLinksJson('fix #1234', linkifiers)) as unknown;
    expect(json()).toEqual([{ text: '#1234', url: 'https://github.com/zulip/zulip/pull/1234' }]);
    expect(topicLinksJson('fix #1234', linkifiers)).toBe(JSON.stringify(topicLinks('fix #1234', linkifiers)));
    linkifiers[0]!.url_template = 'https://example.com/{id}';
    expect(json()).toEqual([{ text: '#1234', url: 'https://example.com/1234' }]);
    linkifiers.length = 0;
    expect(topicLinksJson('fix #1234', linkifiers)).toBe('[]');
  });
});

describe('plain-line fast path', () => {
  test('gives exactly what the parser gives', () => {
    fc.assert(
      fc.property(fc.stringMatching(PLAIN_LINE), (text) => {
        expect(renderFull(text, ctx, true)).toEqual(renderFull(text, ctx, false));
      }),
      { numRuns: 500, seed: 5 },
    );
  });
});
