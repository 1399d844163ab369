/** Custom profile fields: GET /realm/profile_fields and your own values (zerver/views/custom_profile_fields.py). */
import { describe, expect, it } from 'vitest';
import { customProfileFieldsRegisterState } from '../../simulator/engine/users/profile-fields.ts';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

type Sim = ReturnType<typeof sim>;

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

// Dev-realm field ids (zilencer/management/commands/populate_db.py), plus the simulator's non-editable field.
const F = { phone: 1, biography: 2, food: 3, editor: 4, birthday: 5, website: 6, mentor: 7, github: 8, pronouns: 9, employeeId: 10 } as const;

async function patch(s: Sim, as: number, data: unknown) {
  return s.request({ method: 'PATCH', path: '/api/v1/users/me/profile_data', as, body: { data } });
}

async function valuesOf(s: Sim, userId: number) {
  const res = await s.request({ method: 'GET', path: `/api/v1/users/${userId}`, as: ID.iago, query: { include_custom_profile_fields: true } });
  return res.body.user.profile_data as Record<string, { value: string; rendered_value?: string }>;
}

function everyoneActive(s: Sim): number[] {
  return [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
}

describe('GET /realm/profile_fields', () => {
  it("lists the realm's fields in order, field_data as a JSON string, summary flag only when set", async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/realm/profile_fields', as: ID.polonius });
    expect(res.status).toBe(200);
    expect(res.body.custom_fields).toHaveLength(10);
    expect(res.body.custom_fields[0]).toEqual({
      id: 1,
      name: 'Phone number',
      type: 1,
      hint: '',
      field_data: '',
      order: 1,
      required: false,
      editable_by_user: true,
    });
    expect(res.body.custom_fields[3]).toMatchObject({
      id: 4,
      type: 3,
      field_data: '{"0": {"text": "Vim", "order": "1"}, "1": {"text": "Emacs", "order": "2"}}',
    });
    expect(res.body.custom_fields[9]).toMatchObject({ id: 10, name: 'Employee ID', editable_by_user: false });
    expect(res.body.custom_fields.map((f: { order: number }) => f.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('shows display_in_profile_summary only for fields that have it', async () => {
    const fixture = devFixture();
    fixture.custom_profile_fields![0]!.display_in_profile_summary = true;
    const res = await sim({ fixture }).request({ method: 'GET', path: '/api/v1/realm/profile_fields', as: ID.hamlet });
    expect(res.body.custom_fields[0]).toMatchObject({ display_in_profile_summary: true });
    expect(res.body.custom_fields[1]).not.toHaveProperty('display_in_profile_summary');
  });

  it('gives /register the fields and the type table in Zulip order', () => {
    const state = customProfileFieldsRegisterState(sim().engine);
    expect(state.custom_profile_fields).toHaveLength(10);
    expect(Object.keys(state.custom_profile_field_types)).toEqual([
      'DATE',
      'EXTERNAL_ACCOUNT',
      'URL',
      'SELECT',
      'PRONOUNS',
      'LONG_TEXT',
      'SHORT_TEXT',
      'USER',
    ]);
    expect(state.custom_profile_field_types.SHORT_TEXT).toEqual({ id: 1, name: 'Text (short)' });
  });
});

describe('PATCH /users/me/profile_data', () => {
  it('stores each value, renders Markdown-capable ones, and sends one realm_user event per changed field', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await patch(s, ID.othello, [
      { id: F.biography, value: 'Hello **there**' },
      { id: F.mentor, value: [ID.iago, ID.hamlet] },
      { id: F.editor, value: '1' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = watch.take();
    expect(events.map((e) => e.event)).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: ID.othello, custom_profile_field: { id: F.biography, value: 'Hello **there**', rendered_value: '<p>Hello <strong>there</strong></p>' } },
      },
      // Users lists travel and are stored as compact JSON text.
      { type: 'realm_user', op: 'update', person: { user_id: ID.othello, custom_profile_field: { id: F.mentor, value: '[11,10]' } } },
      { type: 'realm_user', op: 'update', person: { user_id: ID.othello, custom_profile_field: { id: F.editor, value: '1' } } },
    ]);
    for (const e of events) expect(e.users).toEqual(everyoneActive(s));
    expect(await valuesOf(s, ID.othello)).toEqual({
      [F.biography]: { value: 'Hello **there**', rendered_value: '<p>Hello <strong>there</strong></p>' },
      [F.editor]: { value: '1' },
      [F.mentor]: { value: '[11,10]' },
    });
  });

  it('sends nothing for a value that does not change', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await patch(s, ID.hamlet, [{ id: F.food, value: 'Dark chocolate' }, { id: F.mentor, value: [ID.iago] }]);
    expect(res.status).toBe(200);
    expect(watch.take()).toEqual([]);
  });

  it('removes a value with null (the specification), with a value: null event', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await patch(s, ID.hamlet, [{ id: F.phone, value: null }, { id: F.pronouns, value: null }]);
    expect(res.status).toBe(200);
    expect(watch.take().map((e) => e.event)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, custom_profile_field: { id: F.phone, value: null } } },
      { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, custom_profile_field: { id: F.pronouns, value: null } } },
    ]);
    const values = await valuesOf(s, ID.hamlet);
    expect(values).not.toHaveProperty(String(F.phone));
    expect(values).not.toHaveProperty(String(F.pronouns));
    expect(values[F.food]).toEqual({ value: 'Dark chocolate', rendered_value: '<p>Dark chocolate</p>' });
    // Removing what is not there is no change.
    const again = await patch(s, ID.hamlet, [{ id: F.phone, value: null }]);
    expect(again.status).toBe(200);
    expect(watch.take()).toEqual([]);
  });

  it('stores "" as an empty value (it does not remove)', async () => {
    const s = sim();
    await patch(s, ID.hamlet, [{ id: F.food, value: '' }]);
    expect((await valuesOf(s, ID.hamlet))[F.food]).toMatchObject({ value: '' });
  });

  const valid: [string, number, unknown][] = [
    ['a 50-code-point short text', F.phone, '🐙'.repeat(50)],
    ['a 500-code-point long text', F.biography, 'é'.repeat(500)],
    ['an option key', F.editor, '0'],
    ['a date', F.birthday, '2024-02-29'],
    ['an https URL', F.website, 'https://zulip.com/help/'],
    ['an http URL with a port', F.website, 'http://localhost:9991/x?y=1'],
    ['an empty users list', F.mentor, []],
    ['an external account name', F.github, 'octocat'],
    ['pronouns', F.pronouns, 'they/them'],
  ];
  it.each(valid)('accepts %s', async (_name, id, value) => {
    const s = sim();
    const res = await patch(s, ID.othello, [{ id, value }]);
    expect(res.status).toBe(200);
    expect((await valuesOf(s, ID.othello))[id]?.value).toBe(typeof value === 'string' ? value : JSON.stringify(value));
  });

  const invalid: [string, number, unknown, string][] = [
    ['a short text over 50 code points', F.phone, 'x'.repeat(51), 'Phone number is too long (limit: 50 characters)'],
    ['a long text over 500 code points', F.biography, 'x'.repeat(501), 'Biography is too long (limit: 500 characters)'],
    ['a list for a text field', F.food, [1], 'Favorite food is not a string'],
    ['an external account over 50', F.github, 'x'.repeat(51), 'GitHub username is too long (limit: 50 characters)'],
    ['pronouns over 50', F.pronouns, 'x'.repeat(51), 'Pronouns is too long (limit: 50 characters)'],
    ['an option text instead of its key', F.editor, 'Vim', "'Vim' is not a valid choice for 'Favorite editor'."],
    ['a list for an option field', F.editor, [0], 'Favorite editor is not a string'],
    ['a date in another format', F.birthday, '01/02/2000', 'Birthday is not a date'],
    ['a date that does not exist', F.birthday, '2023-02-29', 'Birthday is not a date'],
    ['a date without zero padding', F.birthday, '2000-1-1', 'Birthday is not a date'],
    ['a URL without a scheme', F.website, 'zulip.com', 'Favorite website is not a URL'],
    ['a javascript: URL', F.website, 'javascript:alert(1)', 'Favorite website is not a URL'],
    ['a string for a users field', F.mentor, '11', 'User IDs is not a list'],
    ['unknown users', F.mentor, [ID.iago, 999, 998], 'Invalid user IDs: 999, 998'],
    ['a system bot', F.mentor, [4], 'Invalid user IDs: 4'],
    ['a bot', F.mentor, [ID.defaultBot], `User with ID ${ID.defaultBot} is a bot`],
  ];
  it.each(invalid)('refuses %s, changing nothing', async (_name, id, value, msg) => {
    const s = sim();
    const watch = watchEvents(s);
    // A valid change listed first is not applied either: all items are checked before any is stored.
    const res = await patch(s, ID.hamlet, [{ id: F.food, value: 'Kale' }, { id, value }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
    expect(watch.take()).toEqual([]);
    expect((await valuesOf(s, ID.hamlet))[F.food]!.value).toBe('Dark chocolate');
  });

  it('refuses a deactivated user in a users field', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const res = await patch(s, ID.hamlet, [{ id: F.mentor, value: [ID.othello] }]);
    expect(res.body).toEqual(error(`User with ID ${ID.othello} is deactivated`));
  });

  it('refuses an unknown field id', async () => {
    const res = await patch(sim(), ID.hamlet, [{ id: 99, value: 'x' }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('Field id 99 not found.'));
  });

  it('refuses a field users may not edit, to anyone but administrators, null included', async () => {
    const s = sim();
    for (const value of ['E-1', null]) {
      const res = await patch(s, ID.hamlet, [{ id: F.employeeId, value }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error('You are not allowed to change this field. Contact an administrator to update it.'));
    }
    const moderator = await patch(s, ID.shiva, [{ id: F.employeeId, value: 'E-15' }]);
    expect(moderator.body).toEqual(error('You are not allowed to change this field. Contact an administrator to update it.'));
    const admin = await patch(s, ID.iago, [{ id: F.employeeId, value: 'E-11' }]);
    expect(admin.status).toBe(200);
    expect((await valuesOf(s, ID.iago))[F.employeeId]).toEqual({ value: 'E-11', rendered_value: '<p>E-11</p>' });
  });

  const malformed: [string, string, string][] = [
    ['not JSON', '{oops', 'data is not valid JSON'],
    ['not a list', '{"id": 1, "value": "x"}', 'data is not a list'],
    ['an item that is not an object', '[5]', 'data[0] is not a dict'],
    ['an item without id', '[{"value": "x"}]', 'data[0]["id"] is missing'],
    ['an id that is not an integer', '[{"id": "1", "value": "x"}]', 'data[0]["id"] is not an integer'],
    ['an item without value', '[{"id": 1}]', 'data[0]["value"] is missing'],
    ['a value of another type', '[{"id": 1, "value": 5}]', 'data[0]["value"]["str"] is not a string'],
  ];
  it.each(malformed)('refuses data that is %s', async (_name, raw, msg) => {
    const res = await sim().request({ method: 'PATCH', path: '/api/v1/users/me/profile_data', as: ID.hamlet, body: { data: raw } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it('requires data', async () => {
    const res = await sim().request({ method: 'PATCH', path: '/api/v1/users/me/profile_data', as: ID.hamlet });
    expect(res.body).toEqual({ result: 'error', msg: "Missing 'data' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'data' });
  });

  it('refuses bots', async () => {
    const res = await patch(sim(), ID.defaultBot, [{ id: F.food, value: 'bytes' }]);
    expect(res.body).toEqual(error('This endpoint does not accept bot requests.'));
  });
});

describe('DELETE /users/me/profile_data', () => {
  it("removes the listed fields' values (Zulip's removal endpoint), skipping fields without one", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({ method: 'DELETE', path: '/api/v1/users/me/profile_data', as: ID.hamlet, body: { data: [F.phone, F.employeeId] } });
    expect(res.body).toEqual(error('You are not allowed to change this field. Contact an administrator to update it.'));
    const ok = await s.request({ method: 'DELETE', path: '/api/v1/users/me/profile_data', as: ID.hamlet, body: { data: [F.phone, F.biography] } });
    expect(ok.status).toBe(200);
    expect(watch.take().map((e) => e.event)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, custom_profile_field: { id: F.phone, value: null } } },
      { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, custom_profile_field: { id: F.biography, value: null } } },
    ]);
    const values = await valuesOf(s, ID.hamlet);
    expect(Object.keys(values).map(Number)).toEqual([F.food, F.editor, F.birthday, F.website, F.mentor, F.github, F.pronouns]);
    const unknown = await s.request({ method: 'DELETE', path: '/api/v1/users/me/profile_data', as: ID.hamlet, body: { data: [77] } });
    expect(unknown.body).toEqual(error('Field id 77 not found.'));
  });
});
