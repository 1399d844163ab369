/**
 * Code playgrounds (zerver/views/realm_playgrounds.py, zerver/actions/realm_playgrounds.py):
 * administrators add and remove them; every change sends the whole list to every active user in
 * a `realm_playgrounds` event. Ids start at 1 and are never reused.
 */
import { activeUserIds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { templateVariables } from './linkifier-syntax.ts';
import { nextId, type Realm } from '../state.ts';
import { codePointLength } from '../text.ts';

export type PlaygroundRecord = Realm['playgrounds'][number];

/** RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH and the name field's max_length. */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
const MAX_NAME_LENGTH = 50;
const URL_TEMPLATE_MAX_LENGTH = 200;

/** get_realm_playgrounds: by id. */
export function playgroundsForApi(engine: Engine): PlaygroundRecord[] {
  return engine.state.realm.playgrounds.map((p) => ({ id: p.id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template }));
}

function playgroundsEvent(engine: Engine) {
  return effect({ type: 'realm_playgrounds', realm_playgrounds: playgroundsForApi(engine) }, activeUserIds(engine));
}

/** check_pygments_language: any language name Pygments could have, known to it or not. */
export function checkPygmentsLanguage(value: unknown, name: string): string {
  const s = value as string;
  if (codePointLength(s) > MAX_PYGMENTS_LANGUAGE_LENGTH) throw ChatError.badRequest(`${name} is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`);
  if (!/^[ a-zA-Z0-9_+\-./#]*$/.test(s)) throw ChatError.badRequest('Invalid characters in pygments language');
  return s;
}

/**
 * RealmPlayground.full_clean, its errors by field: blank or too long fields, the template's
 * syntax, then clean() ("code" the only variable), then the name's uniqueness in the realm.
 */
function playgroundErrors(engine: Engine, name: string, language: string, urlTemplate: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const capped = (field: string, value: string, limit: number) => {
    if (value === '') add(field, 'This field cannot be blank.');
    else if (codePointLength(value) > limit) {
      add(field, `Ensure this value has at most ${limit} characters (it has ${codePointLength(value)}).`);
    }
  };
  capped('name', name, MAX_NAME_LENGTH);
  capped('pygments_language', language, MAX_PYGMENTS_LANGUAGE_LENGTH);
  capped('url_template', urlTemplate, URL_TEMPLATE_MAX_LENGTH);
  if (!errors.url_template) {
    const variables = templateVariables(urlTemplate);
    if (variables === null) add('__all__', 'Invalid URL template.');
    else if (variables.length !== 1 || variables[0] !== 'code') add('__all__', '"code" should be the only variable present in the URL template');
  }
  if (!errors.name && engine.state.realm.playgrounds.some((p) => p.name === name)) {
    add('__all__', 'Realm playground with this Realm and Name already exists.');
  }
  return errors;
}

/** POST /realm/playgrounds (administrators, checked by the route): the fields trimmed, validated, stored. */
export function addPlayground(
  engine: Engine,
  p: { name: string; pygments_language: string; url_template: string },
): Outcome<{ id: number }> {
  const record = { name: p.name.trim(), pygments_language: p.pygments_language.trim(), url_template: p.url_template.trim() };
  const errors = playgroundErrors(engine, record.name, record.pygments_language, record.url_template);
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw ChatError.badRequest(first, { errors });
  const id = nextId(engine.state, 'realm_playground');
  engine.state.realm.playgrounds.push({ id, ...record });
  return outcome({ id }, [playgroundsEvent(engine)]);
}

/** DELETE /realm/playgrounds/{playground_id} (access_playground_by_id). */
export function removePlayground(engine: Engine, playgroundId: number): Outcome<Record<string, never>> {
  const playgrounds = engine.state.realm.playgrounds;
  const at = playgrounds.findIndex((p) => p.id === playgroundId);
  if (at < 0) throw ChatError.badRequest('Invalid playground');
  playgrounds.splice(at, 1);
  return outcome({}, [playgroundsEvent(engine)]);
}
