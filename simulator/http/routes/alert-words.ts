/** A user's alert words: GET, POST (add) and DELETE (remove) /users/me/alert_words, each answering the whole list. */
import { addAlertWords, listAlertWords, MAX_ALERT_WORD_LENGTH, removeAlertWords } from '../../engine/users/alert-words.ts';
import { stringList } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const alertWordRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/users/me/alert_words',
    response: 'alert-words',
    auth: 'user',
    summary: 'your alert words',
    params: [],
    handler: ({ engine, user }) => ({ alert_words: listAlertWords(engine, user) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/me/alert_words',
    response: 'alert-words',
    auth: 'user',
    summary: 'add alert words (stripped, blank and known ones skipped, case-insensitively)',
    params: [{ name: 'alert_words', type: 'json_array', required: true, validate: stringList(MAX_ALERT_WORD_LENGTH) }],
    handler: ({ engine, user, params }) => addAlertWords(engine, user, params.alert_words),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/me/alert_words',
    response: 'alert-words',
    auth: 'user',
    summary: 'remove alert words, matched ignoring case (unknown ones ignored)',
    params: [{ name: 'alert_words', type: 'json_array', required: true, validate: stringList() }],
    handler: ({ engine, user, params }) => removeAlertWords(engine, user, params.alert_words),
  }),
];
