/** Custom profile fields: the realm's definitions and your own values (reference part 4 §14.4, part 2 §12). */
import { commit } from '../../engine/core.ts';
import {
  listCustomProfileFields,
  removeOwnProfileData,
  updateOwnProfileData,
  type ProfileDataChange,
} from '../../engine/custom-profile-fields.ts';
import { ChatError } from '../../engine/errors.ts';
import type { Route } from '../route.ts';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * `data` as Zulip's typed endpoint reads it (a list of {id: int, value: str | list[int]}), with
 * the specification's addition that `value` may be null. A value of any other shape is reported
 * against the union's first member, as pydantic does (`data[0]["value"]["str"] is not a string`;
 * the exact path format is derived from Zulip's error template).
 */
function parseChanges(value: unknown, name: string): ProfileDataChange[] {
  return (value as unknown[]).map((item, i) => {
    const at = `${name}[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw ChatError.badRequest(`${at} is not a dict`);
    const entry = item as Record<string, unknown>;
    if (!('id' in entry)) throw ChatError.badRequest(`${at}["id"] is missing`);
    if (!isInt(entry.id)) throw ChatError.badRequest(`${at}["id"] is not an integer`);
    if (!('value' in entry)) throw ChatError.badRequest(`${at}["value"] is missing`);
    const v = entry.value;
    const ok = v === null || typeof v === 'string' || (Array.isArray(v) && v.every(isInt));
    if (!ok) throw ChatError.badRequest(`${at}["value"]["str"] is not a string`);
    return { id: entry.id, value: v as ProfileDataChange['value'] };
  });
}

export const profileFieldRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/profile_fields',
    auth: 'user',
    summary: "the realm's custom profile fields, in display order",
    params: [],
    handler({ engine }) {
      return { custom_fields: listCustomProfileFields(engine) };
    },
  },
  {
    method: 'PATCH',
    path: '/users/me/profile_data',
    auth: 'human',
    summary: 'set (or, with null, remove) your own custom profile field values',
    params: [{ name: 'data', type: 'json_array', required: true, validate: parseChanges }],
    handler({ engine, user, params }) {
      commit(engine, updateOwnProfileData(engine, user!, params.data as ProfileDataChange[]));
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/profile_data',
    auth: 'human',
    summary: 'remove your own values of the given custom profile fields',
    params: [{ name: 'data', type: 'int_array', required: true }],
    handler({ engine, user, params }) {
      commit(engine, removeOwnProfileData(engine, user!, params.data as number[]));
      return {};
    },
  },
];
