/**
 * GET /users/me writes its User object as JSON text itself (engine/fast/user-json.ts), and dates with
 * integer arithmetic (isoMinute). Both must give exactly the text they replace: JSON.stringify of
 * formatUser() for any user, viewer and options, profile fields in any order and with any ids;
 * the Date's ISO text for any time a Date can hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../simulator/engine/core.ts';
import type { CustomProfileField, UserRecord } from '../../simulator/engine/state.ts';
import { userJsonMembers } from '../../simulator/engine/fast/user-json.ts';
import { formatUser, isoMinute } from '../../simulator/engine/users/users.ts';
import { basicAuth } from '../../simulator/index.ts';
import { sim } from './helpers.ts';

/** What isoMinute was: the Date's own ISO text. */
const dateIsoMinute = (unixSeconds: number): string => `${new Date(Math.floor(unixSeconds) * 1000).toISOString().slice(0, 16)}+00:00`;
/** The range of a Date, in seconds. */
const DATE_LIMIT = 8.64e12;

describe('isoMinute', () => {
  it('is the Date ISO text for every time a Date can hold', () => {
    const seconds = fc.oneof(
      fc.integer({ min: -DATE_LIMIT, max: DATE_LIMIT }),
      fc.integer({ min: 0, max: 253_402_300_800 + 86_400 }),
      fc.double({ min: -DATE_LIMIT, max: DATE_LIMIT, noNaN: true }),
      // Edges: the epoch, leap days, century years, the last minute before year 10000 and after it.
      fc.constantFrom(0, -1, 59, 60, 951_782_400, 951_868_799, 4_107_542_399, 4_107_542_400, 253_402_300_799, 253_402_300_800, -62_167_219_200, -62_167_219_201),
    );
    fc.assert(
      fc.property(seconds, (t) => {
        expect(isoMinute(t)).toBe(dateIsoMinute(t));
      }),
    );
  });
});

// Text that JSON must escape (quotes, backslashes, controls, a lone surrogate) or that is not ASCII.
const text = fc.oneof(
  fc.constantFrom('', 'plain', 'a "quoted" \\ back\\slash', 'tab\there\nnew line', 'émoji 🎉 ✔', 'lone \ud800 surrogate', '<p>html &amp;</p>'),
  fc.string({ maxLength: 12 }),
);
// Field ids as the engine makes them, and at the edges of what an object counts as an array index.
const fieldId = fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.constantFrom(2 ** 32 - 2, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1));
const fields = fc.uniqueArray(
  fc.record({ id: fieldId, value: fc.option(text, { nil: undefined }), rendered: fc.option(text, { nil: undefined }) }),
  { selector: (f) => f.id, maxLength: 12 },
);
const person = fc.record({
  id: fc.integer({ min: 1, max: 1_000_000 }),
  email: text,
  delivery_email: text,
  full_name: text,
  role: fc.constantFrom(100, 200, 300, 400, 600),
  is_bot: fc.boolean(),
  bot_type: fc.constantFrom(1, 2, 3, 4, null),
  bot_owner_id: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
  is_system_bot: fc.boolean(),
  is_active: fc.boolean(),
  is_imported_stub: fc.boolean(),
  is_deleted: fc.boolean(),
  timezone: text,
  date_joined: fc.oneof(fc.integer({ min: 0, max: 4_000_000_000 }), fc.double({ min: -1e11, max: 1e12, noNaN: true })),
  avatar_source: fc.constantFrom('G' as const, 'U' as const),
  avatar_version: fc.integer({ min: 0, max: 1000 }),
  email_address_visibility: fc.integer({ min: 1, max: 5 }),
});

describe('the User object as JSON text', () => {
  const base = sim().engine;
  const template = base.state.users.values().next().value as UserRecord;

  it('is JSON.stringify(formatUser(…)) for any user, viewer, options and profile fields', () => {
    fc.assert(
      fc.property(
        person,
        fc.option(person, { nil: undefined }),
        fc.boolean(),
        fields,
        fc.boolean(),
        fc.boolean(),
        (who, other, viewerIsUser, profile, clientGravatar, includeCustomProfileFields) => {
          const realmFields: CustomProfileField[] = profile.map((f, order) => ({ id: f.id, name: `f${f.id}`, hint: '', type: 1, field_data: '', order }));
          const engine = { ...base, state: { ...base.state, realm: { ...base.state.realm, custom_profile_fields: realmFields } } } as Engine;
          const user: UserRecord = {
            ...template,
            ...who,
            profile_data: new Map(profile.filter((f) => f.value !== undefined).map((f) => [f.id, f.value!])),
            profile_data_rendered: new Map(profile.filter((f) => f.rendered !== undefined).map((f) => [f.id, f.rendered!])),
          };
          const viewer = viewerIsUser ? user : other && { ...template, ...other };
          const options = { clientGravatar, includeCustomProfileFields };
          expect(userJsonMembers(engine, viewer, user, options)).toBe(JSON.stringify(formatUser(engine, viewer, user, options)).slice(1, -1));
        },
      ),
    );
  });

  it('is what GET /users/me answers for every account of the fixture that may call it, bots included', async () => {
    const s = sim();
    const users = [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot && u.bot_type !== 2);
    expect(users.some((u) => u.is_bot)).toBe(true);
    for (const me of users) {
      const res = await s.handle({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: basicAuth(me.delivery_email, me.api_key) } });
      const ids = s.engine.state.messages.byUser.get(me.id) ?? [];
      const object = { ...formatUser(s.engine, me, me, { clientGravatar: false, includeCustomProfileFields: !me.is_bot }), max_message_id: ids.at(-1) ?? -1 };
      expect(res.body).toBe(`${JSON.stringify({ result: 'success', msg: '', ...object })}\n`);
    }
  });
});
