// GET /messages/{id}/history (zerver/views/message_edit.py get_message_edit_history): the message
// as it was after each edit, oldest first, starting with the original, each snapshot naming what
// changed (previous topic, previous content with an HTML diff, previous channel), filtered by the
// realm's message_edit_history_visibility_policy.
import { ChatError } from '../errors.ts';
import type { Engine } from '../core.ts';
import { highlightHtmlDifferences } from '../markdown/html-diff.ts';
import type { UserRecord } from '../state.ts';
import { visibleEditHistory } from './format.ts';
import { hasMessageAccess } from './permissions.ts';
import { getMessage } from './store.ts';

export interface HistorySnapshot {
  content: string;
  rendered_content: string;
  timestamp: number;
  topic: string;
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

export function getMessageHistory(
  engine: Engine,
  viewer: UserRecord,
  messageId: number,
  allowEmptyTopicName: boolean,
): { message_history: HistorySnapshot[] } {
  const policy = engine.state.realm.message_edit_history_visibility_policy;
  if (policy === 'none') throw ChatError.badRequest('Message edit history is disabled in this organization');
  const message = getMessage(engine.state.messages, messageId);
  if (!message || !hasMessageAccess(engine, viewer, message, false)) throw ChatError.badRequest('Invalid message(s)');

  const isChannel = message.streamId !== null;
  const topicName = (topic: string) =>
    isChannel && topic === '' && !allowEmptyTopicName ? engine.state.realm.realm_empty_topic_display_name : topic;
  // fill_edit_history_entries: walk back from the current state, newest edit first.
  let content = message.content;
  let rendered = message.renderedContent;
  let topic = isChannel ? topicName(message.topic) : '';
  const snapshots: HistorySnapshot[] = [];
  for (const entry of message.editHistory ?? []) {
    const snapshot: HistorySnapshot = { content, rendered_content: rendered, timestamp: entry.timestamp, topic, user_id: entry.user_id };
    if (entry.prev_topic !== undefined) {
      topic = topicName(entry.prev_topic);
      snapshot.prev_topic = topic;
    }
    if (entry.prev_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content ?? '';
      rendered = snapshot.prev_rendered_content;
      snapshot.content_html_diff = highlightHtmlDifferences(rendered, snapshot.rendered_content);
    }
    if (entry.prev_stream !== undefined) {
      snapshot.prev_stream = entry.prev_stream;
      snapshot.stream = entry.stream!;
    }
    snapshots.push(snapshot);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: message.timestamp, topic, user_id: message.senderId });
  return { message_history: visibleEditHistory(policy, snapshots).reverse() };
}
