/**
 * Custom profile fields (Zulip's
 * zerver/models/custom_profile_fields.py, zerver/lib/users.py, zerver/lib/validator.py and
 * zerver/actions/custom_profile_fields.py): the realm's field definitions, and each user's values,
 * validated by the field's type.
 */
import { isAdmin, userIdsWhoCanAccessUser, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { renderMarkdown } from '../markdown/index.ts';
import { renderContext } from '../markdown/descriptions.ts';
import type { CustomProfileField, UserRecord } from '../state.ts';
import type { CustomProfileField as ApiCustomProfileField } from '../../../schemas/generated/types/chat/custom-profile-field.ts';
import { codePointLength } from '../text.ts';

export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/**
 * `custom_profile_field_types` of /register: keyword → {id, name}, in Zulip's order (sorted by
 * the display name).
 */
export const CUSTOM_PROFILE_FIELD_TYPES: Readonly<Record<string, { id: number; name: string }>> = {
  DATE: { id: FIELD_TYPE.DATE, name: 'Date' },
  EXTERNAL_ACCOUNT: { id: FIELD_TYPE.EXTERNAL_ACCOUNT, name: 'External account' },
  URL: { id: FIELD_TYPE.URL, name: 'Link' },
  SELECT: { id: FIELD_TYPE.SELECT, name: 'List of options' },
  PRONOUNS: { id: FIELD_TYPE.PRONOUNS, name: 'Pronouns' },
  LONG_TEXT: { id: FIELD_TYPE.LONG_TEXT, name: 'Text (long)' },
  SHORT_TEXT: { id: FIELD_TYPE.SHORT_TEXT, name: 'Text (short)' },
  USER: { id: FIELD_TYPE.USER, name: 'Users' },
};

/** Field types whose values are Markdown and carry a `rendered_value` (Zulip's is_renderable). */
export const RENDERED_FIELD_TYPES: ReadonlySet<number> = new Set([FIELD_TYPE.SHORT_TEXT, FIELD_TYPE.LONG_TEXT]);

/** A field definition as GET /realm/profile_fields, /register and events show it. */
/** A field as the API shows it (schemas/chat/custom-profile-field.schema.json). */
export type CustomProfileFieldDict = ApiCustomProfileField;

function formatField(field: CustomProfileField): CustomProfileFieldDict {
  const out: CustomProfileFieldDict = {
    id: field.id,
    name: field.name,
    type: field.type as ApiCustomProfileField['type'],
    hint: field.hint,
    field_data: field.field_data,
    order: field.order,
    required: field.required ?? false,
    editable_by_user: field.editable_by_user ?? true,
  };
  if (field.display_in_profile_summary) out.display_in_profile_summary = true;
  return out;
}

/** GET /realm/profile_fields: every field of the realm, in display order. */
export function listCustomProfileFields(engine: Engine): CustomProfileFieldDict[] {
  return [...engine.state.realm.custom_profile_fields].sort((a, b) => a.order - b.order || a.id - b.id).map(formatField);
}

/**
 * Field definitions as a client that predates the pronouns type sees them: such fields are short
 * text (Zulip's compatibility shim for old mobile apps, in /register and in events alike).
 */
export function withoutPronounsType(fields: readonly CustomProfileFieldDict[]): CustomProfileFieldDict[] {
  return fields.map((f) => (f.type === FIELD_TYPE.PRONOUNS ? { ...f, type: FIELD_TYPE.SHORT_TEXT } : f));
}

/** The `custom_profile_fields` fetch type of /register. */
export function customProfileFieldsRegisterState(
  engine: Engine,
  options: { pronounsFieldTypeSupported?: boolean } = {},
): {
  custom_profile_fields: CustomProfileFieldDict[];
  custom_profile_field_types: Readonly<Record<string, { id: number; name: string }>>;
} {
  const fields = listCustomProfileFields(engine);
  if (options.pronounsFieldTypeSupported === false) {
    const { PRONOUNS: _unknown, ...types } = CUSTOM_PROFILE_FIELD_TYPES;
    return { custom_profile_fields: withoutPronounsType(fields), custom_profile_field_types: types };
  }
  return { custom_profile_fields: fields, custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES };
}

/** The HTML of a Markdown-capable value, rendered when saved (as Zulip stores rendered_value). */
export function renderProfileValue(engine: Engine, value: string): string {
  return value === '' ? '' : renderMarkdown(value, renderContext(engine.state)).html;
}

// ---------------------------------------------------------------- value validation

const SHORT_TEXT_LIMIT = 50;
const LONG_TEXT_LIMIT = 500;

function checkString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw ChatError.badRequest(`${name} is not a string`);
  return value;
}

function checkCappedString(name: string, value: unknown, limit: number): string {
  const text = checkString(name, value);
  if (codePointLength(text) > limit) throw ChatError.badRequest(`${name} is too long (limit: ${limit} characters)`);
  return text;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Zulip's check_date: exactly what date.fromisoformat(...).isoformat() gives back, YYYY-MM-DD. */
function checkDate(name: string, value: unknown): string {
  const text = checkString(name, value);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
    if (year >= 1 && days !== undefined && day >= 1 && day <= days) return text;
  }
  throw ChatError.badRequest(`${name} is not a date`);
}

/**
 * Django's URLValidator, in short: an http(s) or ftp(s) scheme, a host that is a dotted domain,
 * `localhost` or an IP address, an optional port, no whitespace.
 */
const URL_PATTERN =
  /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|(?:[a-z\u00a1-\uffff0-9](?:[a-z\u00a1-\uffff0-9-]{0,61}[a-z\u00a1-\uffff0-9])?\.)+(?:[a-z\u00a1-\uffff-]{2,63}\.?))(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/** Zulip's check_url test, for other callers (bot payload URLs). */
export function isValidUrl(text: string): boolean {
  return URL_PATTERN.test(text);
}

function checkUrl(name: string, value: unknown): string {
  const text = checkString(name, value);
  if (!URL_PATTERN.test(text)) throw ChatError.badRequest(`${name} is not a URL`);
  return text;
}

/** Zulip's validate_select_field: the value is one of the option keys, not an option's text. */
function checkSelect(name: string, fieldData: string, value: unknown): string {
  const key = checkString(name, value);
  let options: Record<string, unknown> = {};
  try {
    options = JSON.parse(fieldData || '{}') as Record<string, unknown>;
  } catch {
    // A malformed definition offers no choices.
  }
  if (!Object.hasOwn(options, key)) throw ChatError.badRequest(`'${key}' is not a valid choice for '${name}'.`);
  return key;
}

/**
 * Zulip's check_valid_user_ids: every id a user of the realm (all unknown ones named at once),
 * then each, in id order, active and human.
 */
function checkUserIds(engine: Engine, value: unknown): number[] {
  const label = 'User IDs';
  if (!Array.isArray(value)) throw ChatError.badRequest(`${label} is not a list`);
  value.forEach((item, i) => {
    if (typeof item !== 'number' || !Number.isSafeInteger(item)) throw ChatError.badRequest(`${label}[${i}] is not an integer`);
  });
  const ids = value as number[];
  const users = engine.state.users;
  const unknown = ids.filter((id) => !users.has(id) || users.get(id)!.is_system_bot);
  if (unknown.length > 0) throw ChatError.badRequest(`Invalid user IDs: ${unknown.join(', ')}`);
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const user = users.get(id)!;
    if (!user.is_active) throw ChatError.badRequest(`User with ID ${id} is deactivated`);
    if (user.is_bot) throw ChatError.badRequest(`User with ID ${id} is a bot`);
  }
  return ids;
}

/** A value checked by its field's type; the field's name is the variable name in every message. */
function checkFieldValue(engine: Engine, field: CustomProfileField, value: string | number[]): void {
  const name = field.name;
  switch (field.type) {
    case FIELD_TYPE.SHORT_TEXT:
    case FIELD_TYPE.EXTERNAL_ACCOUNT:
    case FIELD_TYPE.PRONOUNS:
      checkCappedString(name, value, SHORT_TEXT_LIMIT);
      return;
    case FIELD_TYPE.LONG_TEXT:
      checkCappedString(name, value, LONG_TEXT_LIMIT);
      return;
    case FIELD_TYPE.DATE:
      checkDate(name, value);
      return;
    case FIELD_TYPE.URL:
      checkUrl(name, value);
      return;
    case FIELD_TYPE.SELECT:
      checkSelect(name, field.field_data, value);
      return;
    case FIELD_TYPE.USER:
      checkUserIds(engine, value);
      return;
    default:
      // The fixture schema allows types 1–8 only.
      return;
  }
}

// ---------------------------------------------------------------- changing one's own values

/** One item of PATCH /users/me/profile_data; null removes the value (the specification's rule). */
export interface ProfileDataChange {
  id: number;
  value: string | number[] | null;
}

function editableField(engine: Engine, actor: UserRecord, fieldId: number): CustomProfileField {
  const field = engine.state.realm.custom_profile_fields.find((f) => f.id === fieldId);
  if (!field) throw ChatError.badRequest(`Field id ${fieldId} not found.`);
  if (!isAdmin(actor) && field.editable_by_user === false) {
    throw ChatError.badRequest('You are not allowed to change this field. Contact an administrator to update it.');
  }
  return field;
}

/** Zulip's notify_user_update_custom_profile_data: `value: null` for a removal, rendered_value when there is one. */
function fieldEvent(engine: Engine, user: UserRecord, fieldId: number, value: string | null, rendered: string | undefined): Effect {
  const data: Record<string, unknown> = { id: fieldId, value };
  if (rendered) data.rendered_value = rendered;
  return effect(
    { type: 'realm_user', op: 'update', person: { user_id: user.id, custom_profile_field: data } },
    userIdsWhoCanAccessUser(engine, user),
  );
}

function removeValue(engine: Engine, user: UserRecord, fieldId: number, events: Effect[]): void {
  if (!user.profile_data.has(fieldId)) return;
  user.profile_data.delete(fieldId);
  user.profile_data_rendered.delete(fieldId);
  events.push(fieldEvent(engine, user, fieldId, null, undefined));
}

/**
 * PATCH /users/me/profile_data: every item is checked (field exists, the user may edit it, the
 * value fits the type) before anything changes; then each changed value is stored (users lists
 * as compact JSON text, as Zulip stores them) with one event per changed field. An unchanged
 * value sends nothing.
 */
export function updateOwnProfileData(engine: Engine, user: UserRecord, changes: ProfileDataChange[]): Outcome<Record<string, never>> {
  return updateProfileData(engine, user, user, changes);
}

/**
 * The same for any user's values (PATCH /users/{id} `profile_data`): whether a field may be edited
 * is the actor's question (administrators edit every field).
 */
export function updateProfileData(engine: Engine, actor: UserRecord, user: UserRecord, changes: ProfileDataChange[]): Outcome<Record<string, never>> {
  const fields = changes.map((change) => {
    const field = editableField(engine, actor, change.id);
    if (change.value !== null) checkFieldValue(engine, field, change.value);
    return field;
  });
  const events: Effect[] = [];
  changes.forEach((change, i) => {
    const field = fields[i]!;
    if (change.value === null) {
      removeValue(engine, user, field.id, events);
      return;
    }
    const text = typeof change.value === 'string' ? change.value : JSON.stringify(change.value);
    if (user.profile_data.get(field.id) === text) return;
    user.profile_data.set(field.id, text);
    let rendered: string | undefined;
    if (RENDERED_FIELD_TYPES.has(field.type)) {
      rendered = renderProfileValue(engine, text);
      user.profile_data_rendered.set(field.id, rendered);
    }
    events.push(fieldEvent(engine, user, field.id, text, rendered));
  });
  return outcome({}, events);
}

/**
 * DELETE /users/me/profile_data (Zulip's own removal endpoint, a list of field ids): the same
 * field checks; a field without a value is skipped silently.
 */
export function removeOwnProfileData(engine: Engine, user: UserRecord, fieldIds: number[]): Outcome<Record<string, never>> {
  const fields = fieldIds.map((id) => editableField(engine, user, id));
  const events: Effect[] = [];
  for (const field of fields) removeValue(engine, user, field.id, events);
  return outcome({}, events);
}
