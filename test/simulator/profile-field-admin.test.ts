// Custom profile field administration through the in-process API: POST, PATCH and DELETE
// /realm/profile_fields[/{id}], with Zulip's checks in its order, the custom_profile_fields event
// to every active user, and users' values following their field.
import { describe, expect, test } from 'vitest';
import { activeUserIds } from '../../simulator/engine/core.ts';
import type { Simulator } from '../../simulator/index.ts';
import { pending, register } from './events/helpers.ts';
import { ID, sim, watchEvents } from './helpers.ts';
import { del, error, get, patch, post } from './messages/helpers.ts';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

type Field = { id: number; name: string; type: number; hint: string; field_data: string; order: number; required: boolean; editable_by_user: boolean; display_in_profile_summary?: true };

const fields = async (s: Simulator) => (await get(s, HAMLET, '/realm/profile_fields')).body.custom_fields as Field[];
const create = (s: Simulator, body: Record<string, unknown>, as = IAGO) => post(s, as, '/realm/profile_fields', body);
const json = (v: unknown) => JSON.stringify(v);

async function profileOf(s: Simulator, userId: number): Promise<Record<string, { value: string }>> {
  const res = await get(s, IAGO, `/users/${userId}`, { include_custom_profile_fields: 'true' });
  return res.body.user.profile_data as Record<string, { value: string }>;
}

describe('POST /realm/profile_fields', () => {
  test('an administrator creates a field: its id, order = id, the defaults, and the whole list to every active user', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await create(s, { name: '  Team  ', hint: 'Which team?', field_type: '1' });
    expect(res.body).toEqual({ result: 'success', msg: '', id: 11 });
    const list = await fields(s);
    expect(list.at(-1)).toEqual({ id: 11, name: 'Team', type: 1, hint: 'Which team?', field_data: '', order: 11, required: false, editable_by_user: true });
    expect(watch.take()).toEqual([{ event: { type: 'custom_profile_fields', fields: list }, users: activeUserIds(s.engine) }]);
  });

  test('a dropdown keeps its choices as compact JSON; flags are stored as sent', async () => {
    const s = sim();
    const choices = { a: { text: 'Red', order: '1' }, b: { text: 'Blue', order: '2' } };
    const res = await create(s, { name: 'Color', field_type: '3', field_data: json(choices), required: 'true', editable_by_user: 'false', display_in_profile_summary: 'true' });
    expect(res.status).toBe(200);
    expect((await fields(s)).at(-1)).toMatchObject({
      name: 'Color',
      type: 3,
      field_data: json(choices),
      required: true,
      editable_by_user: false,
      display_in_profile_summary: true,
    });
  });

  test('a default external account takes its label and hint from Zulip; field_data other types ignore', async () => {
    const s = sim();
    expect((await create(s, { field_type: '7', field_data: json({ subtype: 'x' }) })).status).toBe(200);
    expect((await fields(s)).at(-1)).toMatchObject({ name: 'X username', hint: '', type: 7, field_data: '{"subtype":"x"}' });
    // A second one: the same label.
    expect((await create(s, { field_type: '7', field_data: json({ subtype: 'x' }) })).body).toEqual(error('BAD_REQUEST', 'A field with that label already exists.'));
    expect((await create(s, { name: 'Site', field_type: '7', field_data: json({ subtype: 'custom', url_pattern: 'https://site.example/%(username)s' }) })).status).toBe(200);
    expect((await create(s, { name: 'Nickname', field_type: '1', field_data: json({ a: 'b' }) })).status).toBe(200);
    expect((await fields(s)).at(-1)!.field_data).toBe('');
  });

  test.each([
    ['a member', HAMLET],
    ['a moderator', 'shiva@zulip.com'],
  ])('%s may not', async (_who, as) => {
    const s = sim();
    expect((await create(s, { name: 'Team', field_type: '1' }, as)).body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
  });

  const refused: [string, Record<string, string>, string][] = [
    ['no field_type', { name: 'Team' }, "Missing 'field_type' argument"],
    ['a blank label', { name: '   ', field_type: '1' }, 'Label cannot be blank.'],
    ['a long label', { name: 'x'.repeat(41), field_type: '1' }, 'name is too long (limit: 40 characters)'],
    ['a long hint (checked before the label length)', { name: 'x'.repeat(41), hint: 'h'.repeat(81), field_type: '1' }, 'hint is too long (limit: 80 characters)'],
    ['an unknown type (after the label)', { name: 'Team', field_type: '9' }, 'Invalid field type.'],
    ['a blank label beats an unknown type', { name: '', field_type: '9' }, 'Label cannot be blank.'],
    ['a duplicate label', { name: 'Phone number', field_type: '1' }, 'A field with that label already exists.'],
    ['a long text in the summary', { name: 'Essay', field_type: '2', display_in_profile_summary: 'true' }, 'Field type not supported for display in profile summary.'],
    ['a person picker in the summary', { name: 'Buddy', field_type: '6', display_in_profile_summary: 'true' }, 'Field type not supported for display in profile summary.'],
    ['a dropdown without choices', { name: 'Color', field_type: '3' }, 'Field must have at least one choice.'],
    ['a blank choice key', { name: 'Color', field_type: '3', field_data: json({ ' ': { text: 'Red', order: '1' } }) }, "'value' cannot be blank."],
    ['a choice without text', { name: 'Color', field_type: '3', field_data: json({ a: { order: '1' } }) }, 'text key is missing from field_data'],
    ['a blank choice text', { name: 'Color', field_type: '3', field_data: json({ a: { text: ' ', order: '1' } }) }, 'field_data["text"] cannot be blank.'],
    ['a choice with more keys', { name: 'Color', field_type: '3', field_data: json({ a: { text: 'Red', order: '1', hue: '0' } }) }, 'Unexpected arguments: hue'],
    ['a choice that is text', { name: 'Color', field_type: '3', field_data: json({ a: 'Red' }) }, 'field_data is not a dict'],
    [
      'duplicate choices',
      { name: 'Color', field_type: '3', field_data: json({ a: { text: 'Red', order: '1' }, b: { text: 'Red', order: '2' } }) },
      'Field must not have duplicate choices.',
    ],
    ['an external account without subtype', { name: 'Site', field_type: '7' }, 'subtype key is missing from field_data'],
    ['an unknown external account', { name: 'Site', field_type: '7', field_data: json({ subtype: 'myspace' }) }, 'Invalid external account type'],
    [
      'a custom account pattern without the username',
      { name: 'Site', field_type: '7', field_data: json({ subtype: 'custom', url_pattern: 'https://site.example/' }) },
      "URL pattern must contain '%(username)s'.",
    ],
    [
      'a custom account pattern that is no URL',
      { name: 'Site', field_type: '7', field_data: json({ subtype: 'custom', url_pattern: 'site/%(username)s' }) },
      'field_data["url_pattern"] is not a URL',
    ],
    ['field_data that is no dict', { name: 'Color', field_type: '3', field_data: '[1]' }, 'field_data is not a dict'],
    ['field_data with a number', { name: 'Color', field_type: '3', field_data: '{"a": 5}' }, 'field_data["a"]["dict[str,str]"] is not a dict'],
  ];
  test.each(refused)('%s', async (_name, body, msg) => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await create(s, body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(msg);
    expect(await fields(s)).toHaveLength(10);
    expect(watch.take()).toEqual([]);
  });

  test('at most two fields in the profile summary, checked first', async () => {
    const s = sim();
    expect((await create(s, { name: 'A', field_type: '1', display_in_profile_summary: 'true' })).status).toBe(200);
    expect((await create(s, { name: 'B', field_type: '1', display_in_profile_summary: 'true' })).status).toBe(200);
    expect((await create(s, { name: '', field_type: '1', display_in_profile_summary: 'true' })).body).toEqual(
      error('BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.'),
    );
  });
});

describe('PATCH /realm/profile_fields/{id}', () => {
  test('changes only what is sent; the event comes even when nothing changed', async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await patch(s, IAGO, '/realm/profile_fields/3', { name: ' Favorite dish ', required: 'true' })).body).toEqual({ result: 'success', msg: '' });
    const after = (await fields(s)).find((f) => f.id === 3)!;
    expect(after).toMatchObject({ name: 'Favorite dish', hint: "Or drink, if you'd prefer", required: true, editable_by_user: true });
    expect((await patch(s, IAGO, '/realm/profile_fields/3', {})).status).toBe(200);
    expect(watch.take().map((d) => d.event.type)).toEqual(['custom_profile_fields', 'custom_profile_fields']);
  });

  test('errors: unknown field first, then the summary limit, the default-account rule, the checks, the label', async () => {
    const s = sim();
    expect((await patch(s, IAGO, '/realm/profile_fields/99', { name: '' })).body).toEqual(error('BAD_REQUEST', 'Field id 99 not found.'));
    expect((await patch(s, IAGO, '/realm/profile_fields/3', { name: '' })).body).toEqual(error('BAD_REQUEST', 'Label cannot be blank.'));
    expect((await patch(s, IAGO, '/realm/profile_fields/3', { name: 'Biography' })).body).toEqual(error('BAD_REQUEST', 'A field with that label already exists.'));
    expect((await patch(s, IAGO, '/realm/profile_fields/3', { name: 'Favorite food' })).status).toBe(200);
    expect((await patch(s, IAGO, '/realm/profile_fields/2', { display_in_profile_summary: 'true' })).body).toEqual(
      error('BAD_REQUEST', 'Field type not supported for display in profile summary.'),
    );
    // The GitHub account (a default external account) takes only flag changes.
    expect((await patch(s, IAGO, '/realm/profile_fields/8', { name: 'GitHub' })).body).toEqual(error('BAD_REQUEST', 'Default custom field cannot be updated.'));
    expect((await patch(s, IAGO, '/realm/profile_fields/8', { name: 'GitHub username', display_in_profile_summary: 'true' })).status).toBe(200);
    expect((await patch(s, IAGO, '/realm/profile_fields/1', { display_in_profile_summary: 'true' })).status).toBe(200);
    expect((await patch(s, IAGO, '/realm/profile_fields/3', { display_in_profile_summary: 'true' })).body).toEqual(
      error('BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.'),
    );
    // A field already in the summary does not count against itself.
    expect((await patch(s, IAGO, '/realm/profile_fields/1', { display_in_profile_summary: 'true', hint: 'Work phone' })).status).toBe(200);
    expect((await patch(s, HAMLET, '/realm/profile_fields/1', { hint: 'x' })).body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
  });

  test("dropping a dropdown option drops the users' choices of it (and only those)", async () => {
    const s = sim();
    expect((await profileOf(s, ID.hamlet))['4']).toMatchObject({ value: '0' });
    expect((await profileOf(s, ID.iago))['4']).toMatchObject({ value: '1' });
    const res = await patch(s, IAGO, '/realm/profile_fields/4', { field_data: json({ 1: { text: 'Emacs', order: '1' }, 2: { text: 'Helix', order: '2' } }) });
    expect(res.status).toBe(200);
    expect((await profileOf(s, ID.hamlet))['4']).toBeUndefined();
    expect((await profileOf(s, ID.iago))['4']).toMatchObject({ value: '1' });
    expect((await fields(s)).find((f) => f.id === 4)!.field_data).toBe('{"1":{"text":"Emacs","order":"1"},"2":{"text":"Helix","order":"2"}}');
  });
});

describe('DELETE /realm/profile_fields/{id}', () => {
  test("deletes the field and every user's value of it; the event lists the rest", async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await del(s, IAGO, '/realm/profile_fields/3', {})).body).toEqual({ result: 'success', msg: '' });
    const list = await fields(s);
    expect(list.map((f) => f.id)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10]);
    expect(watch.take()).toEqual([{ event: { type: 'custom_profile_fields', fields: list }, users: activeUserIds(s.engine) }]);
    expect((await profileOf(s, ID.hamlet))['3']).toBeUndefined();
    expect((await profileOf(s, ID.hamlet))['1']).toBeDefined();
    // Setting a value of the deleted field now fails.
    expect((await patch(s, HAMLET, '/users/me/profile_data', { data: json([{ id: 3, value: 'Pie' }]) })).body).toEqual(error('BAD_REQUEST', 'Field id 3 not found.'));
    expect((await del(s, IAGO, '/realm/profile_fields/3', {})).body).toEqual(error('BAD_REQUEST', 'Field id 3 not found.'));
  });
});

describe('PATCH /realm/profile_fields (reorder)', () => {
  test('every field id in the new order; positions become the order', async () => {
    const s = sim();
    const ids = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect((await patch(s, IAGO, '/realm/profile_fields', { order: json(ids.slice(1)) })).body).toEqual(error('BAD_REQUEST', 'Invalid order mapping.'));
    expect((await patch(s, IAGO, '/realm/profile_fields', { order: json([...ids, 99]) })).status).toBe(200);
    const list = await fields(s);
    expect(list.map((f) => f.id)).toEqual(ids);
    expect(list.map((f) => f.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('a registered client follows the fields', () => {
  test('custom_profile_fields events keep the register state equal to GET /realm/profile_fields', async () => {
    const s = sim();
    const queue = await register(s, HAMLET, { event_types: json(['custom_profile_fields']) });
    let state = queue.custom_profile_fields as Field[];
    await create(s, { name: 'Team', field_type: '1' });
    await patch(s, IAGO, '/realm/profile_fields', { order: json([11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) });
    await del(s, IAGO, '/realm/profile_fields/2', {});
    for (const e of await pending(s, HAMLET, queue.queue_id)) state = e.fields;
    expect(state).toEqual(await fields(s));
  });
});
