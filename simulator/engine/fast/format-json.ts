// Fast path. Oracle: JSON.stringify of formatMessage() (messages/format.ts) with the viewer's
// flags, the plain version; held to it byte for byte by test/simulator/messages/format-json.property.test.ts.
// What it keeps between answers is the engine's (engine.caches.messageJson, simulator/engine/fast/caches.ts).
//
// Message objects written straight to JSON text, for answers that carry many of them (GET
// /messages). The text is byte for byte JSON.stringify of formatMessage() with the viewer's flags
// (and a search's match_content / match_subject), which is what the answer was before; but
// JSON.stringify pays for every key and value it visits, over a thousand in a 50-message answer,
// and that cost more than everything else the request did. Here the keys are literal text, and
// what many messages of one answer share (the sender's fields, the recipient) is serialised once
// per answer: a writer lives for one answer only, so nothing it keeps can outlive a change to the
// state. What is kept from one answer to the next is each message's text up to its flags and each
// sender's fields, beside every input they were written from, and used only while all of those
// are unchanged (a topic's links are kept as JSON by the linkifiers' own cache, a flag set's JSON
// by its bits).
import { topicLinksJson } from '../markdown/index.ts';
import { highlightHtml } from '../narrow/search.ts';
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { apiFlags, cachedAvatarUrl, displayRecipient, displayTopic, editFields, escapedTopic, type FormatOptions } from '../messages/format.ts';
import { dmKey, type StoredMessage } from '../messages/store.ts';

/** What a writer keeps from one answer to the next: the engine's (simulator/engine/fast/caches.ts), each entry described below. */
export interface MessageJsonCaches {
  flags: Map<number, string>;
  leading: WeakMap<StoredMessage, LeadingFields>;
  senderHeads: WeakMap<UserRecord, SenderHead>;
  senderTails: WeakMap<UserRecord, SenderTail>;
  bodies: WeakMap<StoredMessage, MessageBody>;
}

/**
 * A flag set's member, `,"flags":[…]`, by its bits: a pure function of a number below 2^8, so
 * kept once computed (it cannot go stale).
 */
function flagsMember(caches: MessageJsonCaches, bits: number): string {
  let text = caches.flags.get(bits);
  if (text === undefined) caches.flags.set(bits, (text = `,"flags":${JSON.stringify(apiFlags(bits))}`));
  return text;
}

/**
 * The text from `{"id"` through `"client"`, as it was last written for a message, with every
 * input it was written from: a pure function of those inputs, kept only while each of them is
 * still what the message has (compared on every read), so it cannot go stale.
 */
export interface LeadingFields {
  id: number;
  content: string;
  senderId: number;
  recipientId: number;
  timestamp: number;
  client: string;
  text: string;
}

function leadingFields(caches: MessageJsonCaches, message: StoredMessage, content: string): string {
  const kept = caches.leading.get(message);
  if (
    kept !== undefined &&
    kept.id === message.id &&
    kept.content === content &&
    kept.senderId === message.senderId &&
    kept.recipientId === message.recipientId &&
    kept.timestamp === message.timestamp &&
    kept.client === message.client
  ) {
    return kept.text;
  }
  const text =
    `{"id":${message.id},"sender_id":${message.senderId},"content":${JSON.stringify(content)},"recipient_id":${message.recipientId}` +
    `,"timestamp":${message.timestamp},"client":${JSON.stringify(message.client)}`;
  caches.leading.set(message, { id: message.id, content, senderId: message.senderId, recipientId: message.recipientId, timestamp: message.timestamp, client: message.client, text: flat(text) });
  return text;
}

/**
 * A sender's text from `,"sender_full_name"` to just before `display_recipient`'s value, and from
 * `,"avatar_url"` through `content_type`, as last written for a user, with the inputs they were
 * written from: kept from one answer to the next while each input is unchanged (compared on every
 * read, so they cannot go stale), so that a message's kept text (below) is compared with the same
 * string, not an equal one written again.
 */
export interface SenderHead {
  fullName: string;
  email: string;
  realm: string;
  text: string;
}

export interface SenderTail {
  avatar: string | null;
  markdown: boolean;
  text: string;
}

function senderHeadText(caches: MessageJsonCaches, sender: UserRecord, realm: string): string {
  const kept = caches.senderHeads.get(sender);
  if (kept !== undefined && kept.fullName === sender.full_name && kept.email === sender.email && kept.realm === realm) return kept.text;
  const text = flat(`,"sender_full_name":${JSON.stringify(sender.full_name)},"sender_email":${JSON.stringify(sender.email)},"sender_realm_str":${JSON.stringify(realm)},"display_recipient":`);
  caches.senderHeads.set(sender, { fullName: sender.full_name, email: sender.email, realm, text });
  return text;
}

function senderTailText(caches: MessageJsonCaches, sender: UserRecord, avatar: string | null, markdown: boolean): string {
  const kept = caches.senderTails.get(sender);
  if (kept !== undefined && kept.avatar === avatar && kept.markdown === markdown) return kept.text;
  const text = flat(`,"avatar_url":${JSON.stringify(avatar)},"content_type":"${markdown ? 'text/html' : 'text/x-markdown'}"`);
  caches.senderTails.set(sender, { avatar, markdown, text });
  return text;
}

/**
 * A message object's text from `{"id"` to just before `,"flags"`, as it was last written for a
 * message, with the pieces it was joined from: the leading fields' text (kept above), and the
 * pieces each answer finds afresh (the displayed topic and its links, reactions, sender,
 * recipient, avatar, stream id, edit fields), which carry every other input. Kept only while
 * each piece is still what this answer found, so it cannot go stale; an answer then joins one
 * flat text per message instead of a dozen pieces that the answer's final copy walks again.
 */
export interface MessageBody {
  leading: string;
  subject: string;
  links: string;
  isMeMessage: boolean;
  reactions: string;
  senderHead: string;
  recipient: string;
  senderTail: string;
  streamId: number | null;
  edits: string;
  text: string;
}

function keptBody(
  caches: MessageJsonCaches,
  message: StoredMessage,
  leading: string,
  subject: string,
  links: string,
  reactions: string,
  senderHead: string,
  recipient: string,
  senderTail: string,
  edits: string,
): string {
  const kept = caches.bodies.get(message);
  if (
    kept !== undefined &&
    kept.leading === leading &&
    kept.subject === subject &&
    kept.links === links &&
    kept.isMeMessage === message.isMeMessage &&
    kept.reactions === reactions &&
    kept.senderHead === senderHead &&
    kept.recipient === recipient &&
    kept.senderTail === senderTail &&
    kept.streamId === message.streamId &&
    kept.edits === edits
  ) {
    return kept.text;
  }
  let text =
    `${leading},"subject":${JSON.stringify(subject)},"topic_links":${links}` +
    `,"is_me_message":${message.isMeMessage},"reactions":${reactions},"submessages":[]${senderHead}${recipient}` +
    `,"type":${message.streamId === null ? '"private"' : '"stream"'}${senderTail}`;
  if (message.streamId !== null) text += `,"stream_id":${message.streamId}`;
  text = flat(text + edits);
  caches.bodies.set(message, { leading, subject, links, isMeMessage: message.isMeMessage, reactions, senderHead, recipient, senderTail, streamId: message.streamId, edits, text });
  return text;
}

export class MessageJsonWriter {
  /** Sender id → the text from `,"sender_full_name"` to just before `display_recipient`'s value. */
  private readonly senders = new Map<number, string>();
  /** Sender id → the text from `,"avatar_url"` through `content_type`. */
  private readonly senderTails = new Map<number, string>();
  /** Channel id or DM participants' key → display_recipient's JSON. */
  private readonly recipients = new Map<number | string, string>();

  constructor(
    private readonly engine: Engine,
    private readonly options: FormatOptions,
    /** A search's keywords (then match_content and match_subject are written); null otherwise. */
    private readonly searchWords: readonly string[] | null,
  ) {}

  private senderHead(message: StoredMessage): string {
    let head = this.senders.get(message.senderId);
    if (head === undefined) {
      head = senderHeadText(this.engine.caches.messageJson, this.engine.state.users.get(message.senderId)!, this.engine.state.realm.string_id);
      this.senders.set(message.senderId, head);
    }
    return head;
  }

  private senderTail(message: StoredMessage): string {
    let tail = this.senderTails.get(message.senderId);
    if (tail === undefined) {
      const sender = this.engine.state.users.get(message.senderId)!;
      tail = senderTailText(this.engine.caches.messageJson, sender, cachedAvatarUrl(this.engine, sender, this.options.clientGravatar), this.options.applyMarkdown);
      this.senderTails.set(message.senderId, tail);
    }
    return tail;
  }

  private recipient(message: StoredMessage): string {
    const key = message.streamId ?? dmKey(message.dmUserIds ?? []);
    let json = this.recipients.get(key);
    if (json === undefined) this.recipients.set(key, (json = JSON.stringify(displayRecipient(this.engine, message))));
    return json;
  }

  /** One message object, as JSON.stringify writes formatMessage()'s object with `flags` (and match_*) added. */
  write(message: StoredMessage, bits: number): string {
    const content = this.options.applyMarkdown ? message.renderedContent : message.content;
    let reactions = '[]';
    if (message.reactions !== null && message.reactions.length > 0) {
      reactions = JSON.stringify(
        message.reactions.map((r) => ({ emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId })),
      );
    }
    let edits = '';
    if (message.editHistory !== null) {
      const realm = this.engine.state.realm;
      const fields = JSON.stringify(editFields(message.editHistory, realm.message_edit_history_visibility_policy, realm.max_topic_length));
      if (fields !== '{}') edits = `,${fields.slice(1, -1)}`;
    }
    // A direct message's topic is '' and has no links.
    const caches = this.engine.caches.messageJson;
    const body = keptBody(
      caches,
      message,
      leadingFields(caches, message, content),
      displayTopic(this.engine, message, this.options.allowEmptyTopicName),
      message.streamId === null ? '[]' : topicLinksJson(message.topic, this.engine.state.realm.linkifiers, this.engine.caches.linkifiers),
      reactions,
      this.senderHead(message),
      this.recipient(message),
      this.senderTail(message),
      edits,
    );
    const flags = flagsMember(caches, bits);
    if (this.searchWords === null) return `${body}${flags}}`;
    const patterns = this.engine.caches.highlightPatterns;
    const subject = highlightHtml(escapedTopic(message), this.searchWords, patterns);
    return `${body}${flags},"match_content":${JSON.stringify(highlightHtml(message.renderedContent, this.searchWords, patterns))},"match_subject":${JSON.stringify(subject)}}`;
  }
}

/**
 * The same text, flat: V8 keeps a concatenation as a tree of its pieces, which every answer that
 * carries the text would walk again; converting a string to a number flattens it once.
 */
function flat(text: string): string {
  void Number(text);
  return text;
}
