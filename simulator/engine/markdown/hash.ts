// Zulip's URL-hash encoding for narrow links (zerver/lib/url_encoding.py hash_util_encode):
// percent-encode everything but ASCII letters, digits and `_-~`, encode "." too, then write
// every "%" as ".", so "my topic" becomes "my.20topic".
const HASH_SAFE = /^[A-Za-z0-9_\-~]*$/;

export function narrowHashEncode(text: string): string {
  // Most channel names and topics need no escape: return them without encoding them to UTF-8.
  if (HASH_SAFE.test(text)) return text;
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_\-~]/.test(c) ? c : '.' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/**
 * topic_link_util's encode_hash_component: like narrowHashEncode, but `*` stays as it is
 * (urllib's quote with safe="*").
 */
export function encodeHashComponent(text: string): string {
  return narrowHashEncode(text).replace(/\.2A/g, '*');
}

// Characters that break Zulip's #**channel** link syntax, and their escapes
// (topic_link_util.py: invalid_stream_topic_regex, escape_mapping).
const INVALID_LINK_TEXT = /[`>*&[\]]|\$\$/g;
const LINK_TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

// The same characters without the global flag: test() on a /g regex would resume at lastIndex.
const BREAKS_LINK_TEXT = new RegExp(INVALID_LINK_TEXT.source);
const breaksLinkSyntax = (text: string): boolean => BREAKS_LINK_TEXT.test(text);
const escapeLinkText = (text: string): string => text.replace(INVALID_LINK_TEXT, (m) => LINK_TEXT_ESCAPES[m] ?? m);

/** url_encoding's encode_channel: `{id}-{name with dashes for spaces}`, hash-encoded. */
export function encodeChannel(channelId: number, name: string): string {
  return `${channelId}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

/** get_stream_link_syntax: `#**name**`, or a plain Markdown link when the name would break it. */
export function channelLinkSyntax(channelId: number, name: string): string {
  if (!breaksLinkSyntax(name)) return `#**${name}**`;
  return `[#${escapeLinkText(name)}](#narrow/channel/${encodeChannel(channelId, name)})`;
}

/** get_stream_topic_link_syntax: `#**channel>topic**`, or a plain Markdown link when either would break it. */
export function channelTopicLinkSyntax(channelId: number, name: string, topic: string): string {
  if (!breaksLinkSyntax(name) && !breaksLinkSyntax(topic)) return `#**${name}>${topic}**`;
  const label = `#${escapeLinkText(name)} > ${escapeLinkText(topic === '' ? 'general chat' : topic)}`;
  return `[${label}](#narrow/channel/${encodeChannel(channelId, name)}/topic/${encodeHashComponent(topic)})`;
}

/** stream_message_url: the realm URL of one channel message ("near" link). */
export function channelMessageUrl(realmUrl: string, channelId: number, name: string, topic: string, messageId: number): string {
  return `${realmUrl}/#narrow/channel/${encodeChannel(channelId, name)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
}

/**
 * topic_link_util's get_message_link_syntax: `#**channel>topic@id**`, or, when the channel or
 * topic would break that syntax, get_fallback_markdown_link's `[#channel > topic @ 💬](…/near/id)`.
 */
export function messageLinkSyntax(channelId: number, name: string, topic: string, messageId: number): string {
  if (!breaksLinkSyntax(name) && !breaksLinkSyntax(topic)) return `#**${name}>${topic}@${messageId}**`;
  const label = `#${escapeLinkText(name)} > ${escapeLinkText(topic === '' ? 'general chat' : topic)} @ 💬`;
  return `[${label}](#narrow/channel/${encodeChannel(channelId, name)}/topic/${encodeHashComponent(topic)}/near/${messageId})`;
}

/** The "near" URL of a direct message (message_link_url): the participants' IDs, ascending. */
export function directMessageUrl(realmUrl: string, userIds: readonly number[], messageId: number): string {
  return `${realmUrl}/#narrow/dm/${[...userIds].sort((a, b) => a - b).join(',')}/near/${messageId}`;
}
