/**
 * Realm linkifiers, administered (Zulip's zerver/views/realm_linkifiers.py,
 * zerver/actions/realm_linkifiers.py, zerver/models/linkifiers.py): list, add, change, remove and
 * reorder, each change one `realm_linkifiers` event with the whole list to every active user.
 *
 * The renderer reads `state.realm.linkifiers` on every render (its compiled patterns are keyed
 * by linkifier and checked against the pattern text), so a change applies to the next message.
 */
import { activeUserIds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { linkifierErrors } from './linkifier-syntax.ts';
import { nextId, type Realm } from '../state.ts';

export type LinkifierRecord = Realm['linkifiers'][number];

/** Zulip's LinkifierDict, in display order: what GET, the event and /register show. */
export function linkifiersForApi(engine: Engine): { pattern: string; url_template: string; id: number }[] {
  return engine.state.realm.linkifiers.map((l) => ({ pattern: l.pattern, url_template: l.url_template, id: l.id }));
}

function linkifiersEvent(engine: Engine) {
  return effect({ type: 'realm_linkifiers', realm_linkifiers: linkifiersForApi(engine) }, activeUserIds(engine));
}

/** RealmFilter.full_clean (linkifierErrors); Zulip answers the first message, with every one under `errors`. */
function validate(engine: Engine, pattern: string, urlTemplate: string, self: LinkifierRecord | undefined): void {
  const taken = engine.state.realm.linkifiers.some((l) => l !== self && l.pattern === pattern);
  const errors = linkifierErrors(pattern, urlTemplate, taken);
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw ChatError.badRequest(first, { errors });
}

function find(engine: Engine, id: number): LinkifierRecord {
  const linkifier = engine.state.realm.linkifiers.find((l) => l.id === id);
  if (!linkifier) throw ChatError.badRequest('Linkifier not found.');
  return linkifier;
}

/** POST /realm/filters: pattern and template trimmed and checked; the new one goes last. */
export function addLinkifier(engine: Engine, rawPattern: string, rawTemplate: string): Outcome<{ id: number }> {
  const pattern = rawPattern.trim();
  const urlTemplate = rawTemplate.trim();
  validate(engine, pattern, urlTemplate, undefined);
  const id = nextId(engine.state, 'linkifier');
  engine.state.realm.linkifiers.push({ id, pattern, url_template: urlTemplate });
  return outcome({ id }, [linkifiersEvent(engine)]);
}

/** PATCH /realm/filters/{id}: `Linkifier not found.` before any check of the new values. */
export function updateLinkifier(engine: Engine, id: number, rawPattern: string, rawTemplate: string): Outcome<Record<string, never>> {
  const linkifier = find(engine, id);
  const pattern = rawPattern.trim();
  const urlTemplate = rawTemplate.trim();
  validate(engine, pattern, urlTemplate, linkifier);
  // A new object rather than an edit in place: anything that kept the old one keeps the old text.
  const realm = engine.state.realm;
  realm.linkifiers = realm.linkifiers.map((l) => (l === linkifier ? { id, pattern, url_template: urlTemplate } : l));
  return outcome({}, [linkifiersEvent(engine)]);
}

/** DELETE /realm/filters/{id}. */
export function removeLinkifier(engine: Engine, id: number): Outcome<Record<string, never>> {
  const linkifier = find(engine, id);
  const realm = engine.state.realm;
  realm.linkifiers = realm.linkifiers.filter((l) => l !== linkifier);
  return outcome({}, [linkifiersEvent(engine)]);
}

/**
 * PATCH /realm/linkifiers (check_reorder_linkifiers): every linkifier exactly once; an empty
 * list for a realm without linkifiers changes nothing and sends nothing.
 */
export function reorderLinkifiers(engine: Engine, ids: number[]): Outcome<Record<string, never>> {
  const wanted = new Set(ids);
  if (wanted.size < ids.length) throw ChatError.badRequest('The ordered list must not contain duplicated linkifiers');
  const realm = engine.state.realm;
  if (realm.linkifiers.length !== wanted.size || realm.linkifiers.some((l) => !wanted.has(l.id))) {
    throw ChatError.badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
  if (ids.length === 0) return outcome({});
  const byId = new Map(realm.linkifiers.map((l) => [l.id, l]));
  realm.linkifiers = ids.map((id) => byId.get(id)!);
  return outcome({}, [linkifiersEvent(engine)]);
}
