/** Custom profile fields: the realm's definitions and your own values (zerver/views/custom_profile_fields.py). */
import {
  listCustomProfileFields,
  removeOwnProfileData,
  updateOwnProfileData,
  type ProfileDataChange,
} from '../../engine/users/profile-fields.ts';
import {
  createCustomProfileField,
  deleteCustomProfileField,
  reorderCustomProfileFields,
  updateCustomProfileField,
  type ProfileFieldData,
} from '../../engine/users/profile-field-admin.ts';
import { ChatError } from '../../engine/errors.ts';
import { withValue } from '../../engine/events/effects.ts';
import { isObject } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * `data` as Zulip's typed endpoint reads it (a list of {id: int, value: str | list[int]}), with
 * the specification's addition that `value` may be null. A value of any other shape is reported
 * against the union's first member, as pydantic does (`data[0]["value"]["str"] is not a string`;
 * the exact path format is derived from Zulip's error template).
 */
export function parseChanges(value: unknown[], name: string): ProfileDataChange[] {
  return value.map((item, i) => {
    const at = `${name}[${i}]`;
    if (!isObject(item)) throw ChatError.badRequest(`${at} is not a dict`);
    const entry = item;
    if (!('id' in entry)) throw ChatError.badRequest(`${at}["id"] is missing`);
    if (!isInt(entry.id)) throw ChatError.badRequest(`${at}["id"] is not an integer`);
    if (!('value' in entry)) throw ChatError.badRequest(`${at}["value"] is missing`);
    const v = entry.value;
    const ok = v === null || typeof v === 'string' || (Array.isArray(v) && v.every(isInt));
    if (!ok) throw ChatError.badRequest(`${at}["value"]["str"] is not a string`);
    return { id: entry.id, value: v as ProfileDataChange['value'] };
  });
}

/** `Json[ProfileFieldData]`: a dict of strings or of string dicts (pydantic names the union member). */
function parseFieldData(value: unknown, name: string): ProfileFieldData {
  const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isDict(value)) throw ChatError.badRequest(`${name} is not a dict`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') continue;
    const at = `${name}["${key}"]["dict[str,str]"]`;
    if (!isDict(item)) throw ChatError.badRequest(`${at} is not a dict`);
    for (const [inner, text] of Object.entries(item)) {
      if (typeof text !== 'string') throw ChatError.badRequest(`${at}["${inner}"] is not a string`);
    }
  }
  return value as ProfileFieldData;
}

const fieldId = { name: 'field_id', type: 'int', in: 'path', required: true } as const;
const trimmed = (value: string) => value.trim();

export const profileFieldRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/realm/profile_fields',
    response: 'get-custom-profile-fields',
    auth: 'user',
    summary: "the realm's custom profile fields, in display order",
    params: [],
    handler({ engine }) {
      return { custom_fields: listCustomProfileFields(engine) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/users/me/profile_data',
    response: 'empty',
    auth: 'human',
    summary: 'set (or, with null, remove) your own custom profile field values',
    params: [{ name: 'data', type: 'json_array', required: true, validate: parseChanges }],
    handler({ engine, user, params }) {
      return withValue(updateOwnProfileData(engine, user, params.data), {});
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/me/profile_data',
    response: 'empty',
    auth: 'human',
    summary: 'remove your own values of the given custom profile fields',
    params: [{ name: 'data', type: 'int_array', required: true }],
    handler({ engine, user, params }) {
      return withValue(removeOwnProfileData(engine, user, params.data), {});
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/realm/profile_fields',
    response: 'create-custom-profile-field',
    auth: 'admin',
    summary: 'create a custom profile field (a default external account needs only its subtype)',
    params: [
      { name: 'display_in_profile_summary', type: 'bool', default: false },
      { name: 'editable_by_user', type: 'bool', default: true },
      { name: 'field_data', type: 'json', default: {}, validate: parseFieldData },
      { name: 'field_type', type: 'int', required: true },
      { name: 'hint', type: 'string', default: '' },
      { name: 'name', type: 'string', default: '', validate: trimmed },
      { name: 'required', type: 'bool', default: false },
    ],
    handler({ engine, params }) {
      return createCustomProfileField(engine, {
        name: params.name,
        hint: params.hint,
        field_type: params.field_type,
        field_data: params.field_data,
        display_in_profile_summary: params.display_in_profile_summary,
        required: params.required,
        editable_by_user: params.editable_by_user,
      });
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/realm/profile_fields',
    response: 'empty',
    auth: 'admin',
    summary: 'reorder the custom profile fields (every field id)',
    params: [{ name: 'order', type: 'int_array', required: true }],
    handler({ engine, params }) {
      return reorderCustomProfileFields(engine, params.order);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/realm/profile_fields/{field_id}',
    response: 'empty',
    auth: 'admin',
    summary: "change a custom profile field's label, hint, choices or flags",
    params: [
      { name: 'display_in_profile_summary', type: 'bool' },
      { name: 'editable_by_user', type: 'bool' },
      { name: 'field_data', type: 'json', validate: parseFieldData },
      fieldId,
      { name: 'hint', type: 'string' },
      { name: 'name', type: 'string', validate: trimmed },
      { name: 'required', type: 'bool' },
    ],
    handler({ engine, params }) {
      return updateCustomProfileField(engine, params.field_id, {
        name: params.name,
        hint: params.hint,
        field_data: params.field_data,
        display_in_profile_summary: params.display_in_profile_summary,
        required: params.required,
        editable_by_user: params.editable_by_user,
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/realm/profile_fields/{field_id}',
    response: 'empty',
    auth: 'admin',
    summary: "delete a custom profile field and every user's value of it",
    params: [fieldId],
    handler({ engine, params }) {
      return deleteCustomProfileField(engine, params.field_id);
    },
  }),
];
