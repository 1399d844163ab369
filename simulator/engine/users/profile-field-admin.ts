/**
 * Custom profile fields, administered (Zulip's
 * zerver/views/custom_profile_fields.py, zerver/actions/custom_profile_fields.py,
 * zerver/lib/external_accounts.py): create, change, delete and reorder the realm's fields, in
 * Zulip's check order and with its messages. Each change sends the whole list as
 * `custom_profile_fields` to every active user; values that lose their field (or their option)
 * are dropped silently, as upstream deletes those rows without user events.
 */
import { activeUserIds, type Engine } from '../core.ts';
import { FIELD_TYPE, listCustomProfileFields } from './profile-fields.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { nextId, type CustomProfileField } from '../state.ts';
import { codePointLength } from '../text.ts';

/** CustomProfileField.NAME_MAX_LENGTH and HINT_MAX_LENGTH. */
export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;
/** CustomProfileField.MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS. */
export const MAX_SUMMARY_FIELDS = 2;

/** Zulip's DEFAULT_EXTERNAL_ACCOUNTS: the subtypes an administrator adds without naming them. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<Record<string, { text: string; url_pattern: string; name: string; hint: string }>> = {
  behance: { text: 'Behance', url_pattern: 'https://www.behance.net/%(username)s', name: 'Behance username', hint: '' },
  bitbucket: { text: 'Bitbucket', url_pattern: 'https://bitbucket.org/%(username)s', name: 'Bitbucket username', hint: '' },
  bluesky: { text: 'Bluesky', url_pattern: 'https://bsky.app/profile/%(username)s', name: 'Bluesky handle', hint: '' },
  codeberg: { text: 'Codeberg', url_pattern: 'https://codeberg.org/%(username)s', name: 'Codeberg username', hint: '' },
  discord: { text: 'Discord', url_pattern: '', name: 'Discord tag', hint: '' },
  dribbble: { text: 'Dribbble', url_pattern: 'https://dribbble.com/%(username)s', name: 'Dribbble username', hint: '' },
  facebook: { text: 'Facebook', url_pattern: 'https://www.facebook.com/%(username)s', name: 'Facebook username', hint: '' },
  github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' },
  gitlab: { text: 'GitLab', url_pattern: 'https://gitlab.com/%(username)s', name: 'GitLab username', hint: '' },
  instagram: { text: 'Instagram', url_pattern: 'https://www.instagram.com/%(username)s', name: 'Instagram username', hint: '' },
  linkedin: { text: 'LinkedIn', url_pattern: 'https://www.linkedin.com/in/%(username)s', name: 'LinkedIn profile name', hint: '' },
  mastodon: { text: 'Mastodon', url_pattern: '%(username)s', name: 'Mastodon profile', hint: 'The full URL to your profile' },
  medium: { text: 'Medium', url_pattern: 'https://%(username)s.medium.com', name: 'Medium username', hint: '' },
  pinterest: { text: 'Pinterest', url_pattern: 'https://www.pinterest.com/%(username)s', name: 'Pinterest username', hint: '' },
  reddit: { text: 'Reddit', url_pattern: 'https://www.reddit.com/user/%(username)s', name: 'Reddit username', hint: '' },
  snapchat: { text: 'Snapchat', url_pattern: 'https://www.snapchat.com/@%(username)s', name: 'Snapchat username', hint: '' },
  threads: { text: 'Threads', url_pattern: 'https://www.threads.com/@%(username)s', name: 'Threads username', hint: '' },
  tiktok: { text: 'TikTok', url_pattern: 'https://www.tiktok.com/@%(username)s', name: 'TikTok username', hint: '' },
  twitch: { text: 'Twitch', url_pattern: 'https://www.twitch.tv/%(username)s', name: 'Twitch username', hint: '' },
  x: { text: 'X', url_pattern: 'https://x.com/%(username)s', name: 'X username', hint: '' },
  youtube: { text: 'YouTube', url_pattern: 'https://www.youtube.com/%(username)s', name: 'YouTube handle', hint: '' },
};

/** A field's `field_data` as sent: option key → {text, order}, or {subtype, url_pattern?}. */
export type ProfileFieldData = Record<string, Record<string, string> | string>;

function fieldsEvent(engine: Engine) {
  return effect({ type: 'custom_profile_fields', fields: listCustomProfileFields(engine) }, activeUserIds(engine));
}

/** check_dict_only's errors for a dict of required and optional string keys. */
function checkDictOnly(
  varName: string,
  value: unknown,
  required: [string, (name: string, v: unknown) => void][],
  optional: [string, (name: string, v: unknown) => void][] = [],
): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ChatError.badRequest(`${varName} is not a dict`);
  const dict = value as Record<string, unknown>;
  for (const [key, check] of required) {
    if (!(key in dict)) throw ChatError.badRequest(`${key} key is missing from ${varName}`);
    check(`${varName}["${key}"]`, dict[key]);
  }
  for (const [key, check] of optional) if (key in dict) check(`${varName}["${key}"]`, dict[key]);
  const known = new Set([...required, ...optional].map(([k]) => k));
  const extra = Object.keys(dict).filter((k) => !known.has(k)).sort();
  if (extra.length > 0) throw ChatError.badRequest(`Unexpected arguments: ${extra.join(', ')}`);
  return dict;
}

function requiredString(name: string, value: unknown): void {
  if (typeof value !== 'string') throw ChatError.badRequest(`${name} is not a string`);
  if (value.trim() === '') throw ChatError.badRequest(`${name} cannot be blank.`);
}

/** Django's URLValidator in short (as profile-fields.ts applies it to link values). */
const URL_PATTERN = /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z-]{2,63}\.?)(?::\d{1,5})?(?:[/?#]\S*)?$/i;

function urlPattern(name: string, value: unknown): void {
  if (typeof value !== 'string') throw ChatError.badRequest(`${name} is not a string`);
  if (value.split('%(username)s').length !== 2) throw ChatError.badRequest("URL pattern must contain '%(username)s'.");
  if (!URL_PATTERN.test(value.replace('%(username)s', 'username'))) throw ChatError.badRequest(`${name} is not a URL`);
}

/** validate_custom_field_data: a dropdown's choices, an external account's subtype. */
function checkFieldData(type: number, data: ProfileFieldData): void {
  if (type === FIELD_TYPE.SELECT) {
    if (Object.keys(data).length < 1) throw ChatError.badRequest('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, option] of Object.entries(data)) {
      if (key.trim() === '') throw ChatError.badRequest("'value' cannot be blank.");
      const checked = checkDictOnly('field_data', option, [
        ['text', requiredString],
        ['order', requiredString],
      ]);
      texts.add(checked.text as string);
    }
    if (texts.size !== Object.keys(data).length) throw ChatError.badRequest('Field must not have duplicate choices.');
  } else if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    const checked = checkDictOnly('field_data', data, [['subtype', requiredString]], [['url_pattern', urlPattern]]);
    const subtype = checked.subtype as string;
    if (!Object.hasOwn(DEFAULT_EXTERNAL_ACCOUNTS, subtype) && subtype !== 'custom') {
      throw ChatError.badRequest('Invalid external account type');
    }
  }
}

function isDefaultExternal(type: number, data: ProfileFieldData): boolean {
  return type === FIELD_TYPE.EXTERNAL_ACCOUNT && data.subtype !== 'custom';
}

/** validate_custom_profile_field: data, then label and hint (not for default accounts), type, summary. */
function checkField(name: string, hint: string, type: number, data: ProfileFieldData, inSummary: boolean): void {
  checkFieldData(type, data);
  if (!isDefaultExternal(type, data)) {
    if (name.trim() === '') throw ChatError.badRequest('Label cannot be blank.');
    if (codePointLength(hint) > HINT_MAX_LENGTH) throw ChatError.badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
    if (codePointLength(name) > NAME_MAX_LENGTH) throw ChatError.badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
  }
  if (!Object.values(FIELD_TYPE).includes(type as never)) throw ChatError.badRequest('Invalid field type.');
  if (inSummary && (type === FIELD_TYPE.LONG_TEXT || type === FIELD_TYPE.USER)) {
    throw ChatError.badRequest('Field type not supported for display in profile summary.');
  }
}

function summaryLimitReached(engine: Engine, except?: number): boolean {
  return engine.state.realm.custom_profile_fields.filter((f) => f.display_in_profile_summary && f.id !== except).length >= MAX_SUMMARY_FIELDS;
}

function summaryLimitError(): ChatError {
  return ChatError.badRequest(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
}

function checkNameFree(engine: Engine, name: string, except?: number): void {
  if (engine.state.realm.custom_profile_fields.some((f) => f.name === name && f.id !== except)) {
    throw ChatError.badRequest('A field with that label already exists.');
  }
}

function findField(engine: Engine, id: number): CustomProfileField {
  const field = engine.state.realm.custom_profile_fields.find((f) => f.id === id);
  if (!field) throw ChatError.badRequest(`Field id ${id} not found.`);
  return field;
}

/** A stored field_data string back as data ('' is none). */
function storedData(field: CustomProfileField): ProfileFieldData {
  return field.field_data === '' ? {} : (JSON.parse(field.field_data) as ProfileFieldData);
}

export interface CreateFieldParams {
  name: string;
  hint: string;
  field_type: number;
  field_data: ProfileFieldData;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
}

/**
 * POST /realm/profile_fields: the summary limit, the field checks, then a unique label. A
 * default external account takes its label and hint from Zulip's table; field_data is kept
 * (compact JSON, as sent) only by dropdowns and external accounts. The new field's order is its id.
 */
export function createCustomProfileField(engine: Engine, p: CreateFieldParams): Outcome<{ id: number }> {
  if (p.display_in_profile_summary && summaryLimitReached(engine)) throw summaryLimitError();
  checkField(p.name, p.hint, p.field_type, p.field_data, p.display_in_profile_summary);
  const preset = isDefaultExternal(p.field_type, p.field_data) ? DEFAULT_EXTERNAL_ACCOUNTS[p.field_data.subtype as string]! : undefined;
  const name = preset ? preset.name : p.name;
  checkNameFree(engine, name);
  const id = nextId(engine.state, 'custom_profile_field');
  const keepsData = p.field_type === FIELD_TYPE.SELECT || p.field_type === FIELD_TYPE.EXTERNAL_ACCOUNT;
  engine.state.realm.custom_profile_fields.push({
    id,
    name,
    hint: preset ? preset.hint : p.hint,
    type: p.field_type,
    field_data: preset ? JSON.stringify({ subtype: p.field_data.subtype }) : keepsData ? JSON.stringify(p.field_data) : '',
    order: id,
    display_in_profile_summary: p.display_in_profile_summary,
    required: p.required,
    editable_by_user: p.editable_by_user,
  });
  return outcome({ id }, [fieldsEvent(engine)]);
}

export interface UpdateFieldParams {
  name?: string | undefined;
  hint?: string | undefined;
  field_data?: ProfileFieldData | undefined;
  display_in_profile_summary?: boolean | undefined;
  required?: boolean | undefined;
  editable_by_user?: boolean | undefined;
}

const sameData = (a: ProfileFieldData, b: ProfileFieldData) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, v]) => [k, sortKeys(v)]));
}

/**
 * PATCH /realm/profile_fields/{id}: the field, the summary limit (this field aside), a default
 * external account only taking summary/required/editable changes, the merged values checked as
 * on creation, a unique label. Users' choices of removed dropdown options are dropped. Every
 * accepted request sends the event, even when nothing changed.
 */
export function updateCustomProfileField(engine: Engine, id: number, p: UpdateFieldParams): Outcome<Record<string, never>> {
  const field = findField(engine, id);
  if (p.display_in_profile_summary && summaryLimitReached(engine, id)) throw summaryLimitError();
  const current = storedData(field);
  if (field.type === FIELD_TYPE.EXTERNAL_ACCOUNT && isDefaultExternal(field.type, current)) {
    const changes =
      (p.name !== undefined && p.name !== field.name) ||
      (p.hint !== undefined && p.hint !== field.hint) ||
      (p.field_data !== undefined && !sameData(p.field_data, current));
    if (changes) throw ChatError.badRequest('Default custom field cannot be updated.');
  }
  checkField(
    p.name ?? field.name,
    p.hint ?? field.hint,
    field.type,
    p.field_data ?? current,
    p.display_in_profile_summary ?? field.display_in_profile_summary ?? false,
  );
  if (p.name !== undefined) checkNameFree(engine, p.name, id);

  if (p.name !== undefined) field.name = p.name;
  if (p.hint !== undefined) field.hint = p.hint;
  if (p.required !== undefined) field.required = p.required;
  if (p.editable_by_user !== undefined) field.editable_by_user = p.editable_by_user;
  if (p.display_in_profile_summary !== undefined) field.display_in_profile_summary = p.display_in_profile_summary;
  if (field.type === FIELD_TYPE.SELECT || field.type === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    if (p.field_data !== undefined && field.type === FIELD_TYPE.SELECT) dropRemovedChoices(engine, field, p.field_data);
    if (p.field_data !== undefined || field.field_data === '') field.field_data = JSON.stringify(p.field_data ?? {});
  }
  return outcome({}, [fieldsEvent(engine)]);
}

/** remove_custom_profile_field_value_if_required: users' values naming an option that is gone. */
function dropRemovedChoices(engine: Engine, field: CustomProfileField, data: ProfileFieldData): void {
  const kept = new Set(Object.keys(data));
  for (const user of engine.state.users.values()) {
    const value = user.profile_data.get(field.id);
    if (value !== undefined && !kept.has(value)) {
      user.profile_data.delete(field.id);
      user.profile_data_rendered.delete(field.id);
    }
  }
}

/** DELETE /realm/profile_fields/{id}: the field and every user's value of it. */
export function deleteCustomProfileField(engine: Engine, id: number): Outcome<Record<string, never>> {
  const field = findField(engine, id);
  const realm = engine.state.realm;
  realm.custom_profile_fields = realm.custom_profile_fields.filter((f) => f !== field);
  for (const user of engine.state.users.values()) {
    user.profile_data.delete(id);
    user.profile_data_rendered.delete(id);
  }
  return outcome({}, [fieldsEvent(engine)]);
}

/**
 * PATCH /realm/profile_fields (try_reorder_realm_custom_profile_fields): every field's id must
 * appear; each field's order becomes its position (the last one for an id sent twice; ids of no
 * field are ignored).
 */
export function reorderCustomProfileFields(engine: Engine, order: number[]): Outcome<Record<string, never>> {
  const position = new Map<number, number>();
  order.forEach((id, i) => position.set(id, i));
  const fields = engine.state.realm.custom_profile_fields;
  if (fields.some((f) => !position.has(f.id))) throw ChatError.badRequest('Invalid order mapping.');
  for (const field of fields) field.order = position.get(field.id)!;
  return outcome({}, [fieldsEvent(engine)]);
}
