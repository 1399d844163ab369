// The narrow of an event queue (POST /register `narrow`), as zerver/lib/narrow_predicate.py
// applies it: only `[operator, operand]` string pairs, never negated, ANDed, checked against each
// finalized `message` event (payload and the queue owner's flags), case-insensitively.
import type { Message } from '../../../schemas/generated/types/chat/message.ts';
import { ChatError } from '../errors.ts';

export type EventNarrowTerm = readonly [operator: string, operand: string];

export type EventNarrowPredicate = (message: Message, flags: readonly string[]) => boolean;

const CHANNEL = new Set(['channel', 'stream']);
const SUPPORTED = new Set([...CHANNEL, 'topic', 'sender', 'is']);
const RESOLVED_TOPIC_PREFIX = '✔ ';

/** check_narrow_for_events: refused at register time, before the queue exists. */
export function checkEventNarrow(narrow: readonly EventNarrowTerm[]): void {
  for (const [operator, operand] of narrow) {
    if (!SUPPORTED.has(operator)) throw ChatError.badRequest(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw ChatError.badRequest(`Operand ${operand} not supported.`);
  }
}

function satisfies(operator: string, operand: string, message: Message, flags: readonly string[]): boolean {
  const isChannel = message.type === 'stream';
  if (CHANNEL.has(operator)) return isChannel && operand.toLowerCase() === String(message.display_recipient).toLowerCase();
  switch (operator) {
    case 'topic':
      return isChannel && operand.toLowerCase() === message.subject.toLowerCase();
    case 'sender':
      return operand.toLowerCase() === message.sender_email.toLowerCase();
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        // Upstream's predicate reads only `mentioned` for both, not has_alert_word.
        case 'alerted':
        case 'mentioned':
          return flags.includes('mentioned');
        case 'resolved':
          return isChannel && message.subject.startsWith(RESOLVED_TOPIC_PREFIX);
        default:
          return true;
      }
    default:
      return true;
  }
}

export function eventNarrowPredicate(narrow: readonly EventNarrowTerm[]): EventNarrowPredicate {
  if (narrow.length === 0) return () => true;
  return (message, flags) => narrow.every(([operator, operand]) => satisfies(operator, operand, message, flags));
}
