// Message objects written straight to JSON text, for answers that carry many of them (GET
// /messages). The text is byte for byte JSON.stringify of formatMessage() with the viewer's flags
// (and a search's match_content / match_subject), which is what the answer was before; but
// JSON.stringify pays for every key and value it visits, over a thousand in a 50-message answer,
// and that cost more than everything else the request did. Here the keys are literal text, and
// what many messages of one answer share (the sender's fields, the recipient, a topic's subject
// and links, a flag set) is serialised once per answer: a writer lives for one answer only, so
// nothing it keeps can outlive a change to the state. What is kept from one answer to the next is
// each message's leading fields (id through client, the content among them), beside every input
// they were written from and used only while all of those are unchanged.
import { topicLinks } from '../markdown/index.ts';
import { highlightHtml } from '../narrow/search.ts';
import type { Engine } from '../core.ts';
import { apiFlags, cachedAvatarUrl, displayRecipient, displayTopic, editFields, escapedTopic, type FormatOptions } from './format.ts';
import { dmKey, type StoredMessage } from './store.ts';

/**
 * A flag set's JSON, by its bits: a pure function of a number below 2^8, so kept once computed
 * (it cannot go stale).
 */
const flagsJson = new Map<number, string>();

function flagsText(bits: number): string {
  let text = flagsJson.get(bits);
  if (text === undefined) flagsJson.set(bits, (text = JSON.stringify(apiFlags(bits))));
  return text;
}

/**
 * The text from `{"id"` through `"client"`, as it was last written for a message, with every
 * input it was written from: a pure function of those inputs, kept only while each of them is
 * still what the message has (compared on every read), so it cannot go stale.
 */
interface LeadingFields {
  id: number;
  content: string;
  senderId: number;
  recipientId: number;
  timestamp: number;
  client: string;
  text: string;
}

const leading = new WeakMap<StoredMessage, LeadingFields>();

function leadingFields(message: StoredMessage, content: string): string {
  const kept = leading.get(message);
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
  leading.set(message, { id: message.id, content, senderId: message.senderId, recipientId: message.recipientId, timestamp: message.timestamp, client: message.client, text: flat(text) });
  return text;
}

export class MessageJsonWriter {
  /** String → its JSON, for strings that recur within the answer (topics). */
  private readonly strings = new Map<string, string>();
  /** Sender id → the text from `,"sender_full_name"` to just before `display_recipient`'s value. */
  private readonly senders = new Map<number, string>();
  /** Sender id → the text from `,"type"` to `content_type`, which holds the avatar. */
  private readonly senderTails = new Map<number, string>();
  /** Channel id or DM participants' key → display_recipient's JSON. */
  private readonly recipients = new Map<number | string, string>();
  /** Topic → the text `,"subject":…,"topic_links":…` of a channel message in it. */
  private readonly topics = new Map<string, string>();
  private readonly realmJson: string;

  constructor(
    private readonly engine: Engine,
    private readonly options: FormatOptions,
    /** A search's keywords (then match_content and match_subject are written); null otherwise. */
    private readonly searchWords: readonly string[] | null,
  ) {
    this.realmJson = JSON.stringify(engine.state.realm.string_id);
  }

  private string(text: string): string {
    let json = this.strings.get(text);
    if (json === undefined) this.strings.set(text, (json = JSON.stringify(text)));
    return json;
  }

  private senderHead(message: StoredMessage): string {
    let head = this.senders.get(message.senderId);
    if (head === undefined) {
      const sender = this.engine.state.users.get(message.senderId)!;
      head = `,"sender_full_name":${JSON.stringify(sender.full_name)},"sender_email":${JSON.stringify(sender.email)},"sender_realm_str":${this.realmJson},"display_recipient":`;
      this.senders.set(message.senderId, flat(head));
    }
    return head;
  }

  private senderTail(message: StoredMessage): string {
    let tail = this.senderTails.get(message.senderId);
    if (tail === undefined) {
      const sender = this.engine.state.users.get(message.senderId)!;
      const avatar = JSON.stringify(cachedAvatarUrl(this.engine, sender, this.options.clientGravatar));
      const contentType = this.options.applyMarkdown ? 'text/html' : 'text/x-markdown';
      tail = `,"avatar_url":${avatar},"content_type":"${contentType}"`;
      this.senderTails.set(message.senderId, flat(tail));
    }
    return tail;
  }

  private recipient(message: StoredMessage): string {
    const key = message.streamId ?? dmKey(message.dmUserIds ?? []);
    let json = this.recipients.get(key);
    if (json === undefined) this.recipients.set(key, (json = JSON.stringify(displayRecipient(this.engine, message))));
    return json;
  }

  private subjectAndLinks(message: StoredMessage): string {
    if (message.streamId === null) return `,"subject":${this.string(message.topic)},"topic_links":[]`;
    let text = this.topics.get(message.topic);
    if (text === undefined) {
      const subject = displayTopic(this.engine, message, this.options.allowEmptyTopicName);
      const links = topicLinks(message.topic, this.engine.state.realm.linkifiers);
      text = `,"subject":${this.string(subject)},"topic_links":${links.length === 0 ? '[]' : JSON.stringify(links)}`;
      this.topics.set(message.topic, flat(text));
    }
    return text;
  }

  /** One message object, as JSON.stringify writes formatMessage()'s object with `flags` (and match_*) added. */
  write(message: StoredMessage, bits: number): string {
    const realm = this.engine.state.realm;
    const content = this.options.applyMarkdown ? message.renderedContent : message.content;
    let reactions = '[]';
    if (message.reactions !== null && message.reactions.length > 0) {
      reactions = JSON.stringify(
        message.reactions.map((r) => ({ emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId })),
      );
    }
    let text =
      leadingFields(message, content) + this.subjectAndLinks(message) +
      `,"is_me_message":${message.isMeMessage},"reactions":${reactions},"submessages":[]${this.senderHead(message)}${this.recipient(message)}` +
      `,"type":${message.streamId === null ? '"private"' : '"stream"'}${this.senderTail(message)}`;
    if (message.streamId !== null) text += `,"stream_id":${message.streamId}`;
    if (message.editHistory !== null) {
      const edits = JSON.stringify(editFields(message.editHistory, realm.message_edit_history_visibility_policy, realm.max_topic_length));
      if (edits !== '{}') text += `,${edits.slice(1, -1)}`;
    }
    text += `,"flags":${flagsText(bits)}`;
    if (this.searchWords !== null) {
      const subject = highlightHtml(escapedTopic(message), this.searchWords);
      text += `,"match_content":${JSON.stringify(highlightHtml(message.renderedContent, this.searchWords))},"match_subject":${JSON.stringify(subject)}`;
    }
    return `${text}}`;
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
