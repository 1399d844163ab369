// Zulip's URL-hash encoding for narrow links (zerver/lib/url_encoding.py hash_util_encode):
// percent-encode everything but ASCII letters, digits and `_-~`, encode "." too, then write
// every "%" as ".", so "my topic" becomes "my.20topic".
export function narrowHashEncode(text: string): string {
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

/** get_stream_link_syntax: `#**name**`, or a plain Markdown link when the name would break it. */
export function channelLinkSyntax(channelId: number, name: string): string {
  if (!new RegExp(INVALID_LINK_TEXT.source).test(name)) return `#**${name}**`;
  const text = name.replace(INVALID_LINK_TEXT, (m) => LINK_TEXT_ESCAPES[m] ?? m);
  return `[#${text}](#narrow/channel/${channelId}-${encodeHashComponent(name.replace(/ /g, '-'))})`;
}
