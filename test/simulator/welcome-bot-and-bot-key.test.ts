/**
 * POST /realm/test_welcome_bot_custom_message (test-welcome-bot-custom-message,
 * zerver/views/welcome_bot_custom_message.py) and GET /bots/{bot_id}/api_key (get-bot-api-key).
 */
import { describe, expect, it } from 'vitest';
import { ID, sim, watchEvents } from './helpers.ts';

const WELCOME_BOT = 5;
const PATH = '/api/v1/realm/test_welcome_bot_custom_message';

describe('POST /realm/test_welcome_bot_custom_message', () => {
  it('Welcome Bot sends the text to the administrator alone as a direct message, and the answer names it', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({ method: 'POST', path: PATH, as: ID.desdemona, body: { welcome_message_custom_text: 'Welcome Bot custom message for testing' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message_id', 'msg', 'result']);
    const id = res.body.message_id as number;
    const raw = await s.request({ method: 'GET', path: `/api/v1/messages/${id}`, as: ID.desdemona });
    expect(raw.status).toBe(200);
    expect(raw.body.message.sender_id).toBe(WELCOME_BOT);
    expect(raw.body.message.sender_email).toBe('welcome-bot@zulip.com');
    expect(raw.body.message.type).toBe('private');
    expect((raw.body.message.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b)).toEqual([WELCOME_BOT, ID.desdemona]);
    expect(raw.body.raw_content).toContain('Welcome Bot custom message for testing');
    const messages = watch.take().filter((e) => e.event.type === 'message');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.event.message.id).toBe(id);
    expect(messages[0]!.users).toEqual([ID.desdemona]);
    // Nobody else can read it.
    expect((await s.request({ method: 'GET', path: `/api/v1/messages/${id}`, as: ID.iago })).status).toBe(400);
  });

  it('refuses an empty text, a text over 8000 characters and a missing one, and sends nothing', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const empty = await s.request({ method: 'POST', path: PATH, as: ID.iago, body: { welcome_message_custom_text: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ result: 'error', msg: 'Message must not be empty', code: 'BAD_REQUEST' });
    const long = await s.request({ method: 'POST', path: PATH, as: ID.iago, body: { welcome_message_custom_text: 'x'.repeat(8001) } });
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('welcome_message_custom_text is too long (limit: 8000 characters)');
    const missing = await s.request({ method: 'POST', path: PATH, as: ID.iago, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'welcome_message_custom_text' });
    expect(watch.take()).toEqual([]);
  });

  // require_realm_admin: OrganizationAdministratorRequiredError, code UNAUTHORIZED_PRINCIPAL.
  it('is for administrators only (require_realm_admin)', async () => {
    const s = sim();
    for (const as of [ID.hamlet, ID.shiva, ID.polonius]) {
      const res = await s.request({ method: 'POST', path: PATH, as, body: { welcome_message_custom_text: 'Hi' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    }
  });
});

describe('GET /bots/{bot_id}/api_key', () => {
  const key = (s: ReturnType<typeof sim>, bot: number, as: number) => s.request({ method: 'GET', path: `/api/v1/bots/${bot}/api_key`, as });

  it("gives the bot's owner and an administrator the key the bot authenticates with, and sends no event", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const own = await key(s, ID.defaultBot, ID.desdemona);
    expect(own.status).toBe(200);
    expect(Object.keys(own.body).sort()).toEqual(['api_key', 'msg', 'result']);
    const admin = await key(s, ID.defaultBot, ID.iago);
    expect(admin.body.api_key).toBe(own.body.api_key);
    const asBot = await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: 'default-bot@zulip.com', password: own.body.api_key as string } });
    expect(asBot.status).toBe(200);
    expect(asBot.body.user_id).toBe(ID.defaultBot);
    expect(watch.take()).toEqual([]);
  });

  it('follows a regenerated key', async () => {
    const s = sim();
    const renewed = await s.request({ method: 'POST', path: `/api/v1/bots/${ID.defaultBot}/api_key/regenerate`, as: ID.desdemona });
    expect((await key(s, ID.defaultBot, ID.desdemona)).body.api_key).toBe(renewed.body.api_key);
  });

  it('refuses another member, a guest, an id that is no bot and a system bot', async () => {
    const s = sim();
    expect((await key(s, ID.defaultBot, ID.hamlet)).body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const guest = await key(s, ID.defaultBot, ID.polonius);
    expect(guest.status).toBe(400);
    expect(guest.body.msg).toBe('Not allowed for guest users');
    expect((await key(s, ID.hamlet, ID.iago)).body.msg).toBe('No such bot');
    expect((await key(s, 9999, ID.iago)).body.msg).toBe('No such bot');
    expect((await key(s, WELCOME_BOT, ID.iago)).body.msg).toBe('No such bot');
  });
});
