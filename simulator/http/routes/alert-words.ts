/** A user's alert words: GET, POST (add) and DELETE (remove) /users/me/alert_words, each answering the whole list. */
import { addAlertWords, listAlertWords, MAX_ALERT_WORD_LENGTH, removeAlertWords } from '../../engine/alert-words.ts';
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { codePointLength } from '../params.ts';
import type { Route } from '../route.ts';

/**
 * Zulip's `Json[list[str]]`, optionally with each string's max_length: items are checked in order
 * and the first bad one is reported, a non-string before a too-long string only if it comes first.
 */
function stringList(maxLength?: number) {
  return (value: unknown, name: string): string[] => {
    (value as unknown[]).forEach((item, i) => {
      if (typeof item !== 'string') throw ChatError.badRequest(`${name}[${i}] is not a string`);
      if (maxLength !== undefined && codePointLength(item) > maxLength) {
        throw ChatError.badRequest(`${name}[${i}] is too long (limit: ${maxLength} characters)`);
      }
    });
    return value as string[];
  };
}

export const alertWordRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users/me/alert_words',
    response: 'alert-words',
    auth: 'user',
    summary: 'your alert words',
    params: [],
    handler: ({ engine, user }) => ({ alert_words: listAlertWords(engine, user!) }),
  },
  {
    method: 'POST',
    path: '/users/me/alert_words',
    response: 'alert-words',
    auth: 'user',
    summary: 'add alert words (stripped, blank and known ones skipped, case-insensitively)',
    params: [{ name: 'alert_words', type: 'json_array', required: true, validate: stringList(MAX_ALERT_WORD_LENGTH) }],
    handler({ engine, user, params }) {
      return commit(engine, addAlertWords(engine, user!, params.alert_words as string[]));
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/alert_words',
    response: 'alert-words',
    auth: 'user',
    summary: 'remove alert words, matched ignoring case (unknown ones ignored)',
    params: [{ name: 'alert_words', type: 'json_array', required: true, validate: stringList() }],
    handler({ engine, user, params }) {
      return commit(engine, removeAlertWords(engine, user!, params.alert_words as string[]));
    },
  },
];
