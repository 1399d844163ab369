/**
 * The contract itself: every route of the table names a response schema that exists, every chat
 * schema compiles, and a body or an event that drifts from its schema is reported with the
 * offending path.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { routes } from '../../simulator/index.ts';
import { errorResponse, successResponse, transportErrorResponse, methodNotAllowedResponse } from '../../simulator/http/envelope.ts';
import { ChatError } from '../../simulator/engine/errors.ts';
import type { Route } from '../../simulator/http/route.ts';
import { checkEvent, checkResponse, recordingContract, responseSchemaId, validatorFor } from './chat-contract.ts';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));
const schemaFiles = fg.sync('chat/**/*.schema.json', { cwd: SCHEMAS }).sort();
const responseNames = fg.sync('*.schema.json', { cwd: path.join(SCHEMAS, 'chat/responses') }).map((f) => f.replace('.schema.json', ''));

const label = (r: Route) => `${r.method} ${r.outsideApi ? '' : '/api/v1'}${r.path}`;

describe('the route table declares its responses', () => {
  it.each(routes.map((r) => [label(r), r] as const))('%s names a response schema that exists', (_label, route) => {
    expect(route.response).toBeDefined();
    expect(validatorFor(responseSchemaId(route.response!))).not.toBeNull();
  });

  it('uses every response schema (none is left behind by a removed route)', () => {
    const used = new Set(routes.map((r) => r.response));
    expect(responseNames.filter((name) => !used.has(name as Route['response']))).toEqual([]);
  });
});

describe('schemas/chat', () => {
  it.each(schemaFiles)('%s compiles', (file) => {
    expect(validatorFor(file)).not.toBeNull();
  });
});

const route = (response: Route['response']) => ({ response }) as Pick<Route, 'response'>;

describe('a response that drifts breaks the contract', () => {
  it('passes a body that matches its route schema', () => {
    expect(checkResponse(route('create-user'), successResponse({ user_id: 25 }, []))).toEqual([]);
  });

  it('reports a field the schema does not know, a missing one and a wrong type, with their paths', () => {
    expect(checkResponse(route('create-user'), successResponse({ user_id: 25, api_key: 'x' }, []))).toEqual([
      '(top level) must NOT have additional properties "api_key"',
    ]);
    expect(checkResponse(route('create-user'), successResponse({}, []))).toEqual(["(top level) must have required property 'user_id'"]);
    expect(checkResponse(route('create-user'), successResponse({ user_id: '25' }, []))).toEqual(['/user_id must be integer']);
  });

  it('holds every route without fields to the empty body', () => {
    expect(checkResponse(route('empty'), successResponse({}, ['stray']))).toEqual([]);
    expect(checkResponse(route('empty'), successResponse({ id: 1 }, []))).toEqual(['(top level) must NOT have additional properties "id"']);
  });

  it('holds errors to the envelope: a known code, and only the extra keys of that code', () => {
    expect(checkResponse(undefined, errorResponse(ChatError.missingArgument('name')))).toEqual([]);
    expect(checkResponse(undefined, errorResponse(ChatError.badRequest('Nope', { var_name: 'name' })))).not.toEqual([]);
    expect(checkResponse(undefined, errorResponse(new ChatError('REQUEST_VARIABLE_MISSING', "Missing 'x' argument")))).toEqual([
      "(top level) must have required property 'var_name'",
      '(top level) must match "then" schema',
    ]);
    expect(checkResponse(undefined, methodNotAllowedResponse(['GET', 'HEAD']))).toEqual([]);
    expect(checkResponse(undefined, transportErrorResponse(413, 'Request body too large'))).toEqual([]);
  });

  it('refuses an internal error and a success with another status', () => {
    const internal = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"result":"error","msg":"Internal server error"}\n' };
    expect(checkResponse(undefined, internal)).toContain("(top level) must have required property 'code'");
    expect(checkResponse(route('empty'), { ...successResponse({}, []), status: 201 })).toEqual(['a success answered with HTTP 201']);
  });

  it('throws from the request that produced a drifted body, and records it', () => {
    const contract = recordingContract();
    const fetchApiKey = routes.find((r) => r.path === '/fetch_api_key')!;
    const drifted = successResponse({ api_key: 'k', email: 'hamlet@zulip.com', user_id: 10, surprise: true }, []);
    expect(() => contract.response(fetchApiKey, drifted, { method: 'POST', url: '/api/v1/fetch_api_key' })).toThrow(
      /POST \/fetch_api_key → 200 breaks its schema:\n {2}\(top level\) must NOT have additional properties "surprise"/,
    );
    expect(contract.take()).toHaveLength(1);
    expect(contract.take()).toEqual([]);
  });
});

describe('an event that drifts breaks the contract', () => {
  it('passes an event that matches the schema of its type and op', () => {
    expect(checkEvent({ type: 'subscription', op: 'peer_add', stream_ids: [1], user_ids: [10], id: 0 })).toEqual([]);
    expect(checkEvent({ type: 'heartbeat', id: 3 })).toEqual([]);
  });

  it('reports a changed field, and an event type or op nobody wrote a schema for', () => {
    expect(checkEvent({ type: 'subscription', op: 'peer_add', stream_ids: [1], user_id: 10, id: 0 }).sort()).toEqual([
      '(top level) must NOT have additional properties "user_id"',
      "(top level) must have required property 'user_ids'",
    ]);
    expect(checkEvent({ type: 'telepathy', id: 0 })).toEqual(['no schema for event type "telepathy"']);
    expect(checkEvent({ type: 'subscription', op: 'teleport', id: 0 })).toEqual([
      'no schema for event type "subscription" op "teleport"',
    ]);
  });

  it('records an event violation instead of throwing inside delivery', () => {
    const contract = recordingContract();
    expect(() => contract.event({ type: 'telepathy', id: 0 })).not.toThrow();
    expect(contract.take().map((v) => v.subject)).toEqual(['event telepathy']);
  });
});

describe('a user object carries the fields of its kind', () => {
  const person = {
    user_id: 10, email: 'hamlet@zulip.com', delivery_email: null, full_name: 'King Hamlet', date_joined: '2024-01-01T00:00+00:00',
    is_owner: false, is_admin: false, is_guest: false, is_bot: false, role: 400, timezone: '', avatar_version: 1,
    avatar_url: null, is_imported_stub: false,
  };
  const bot = { ...person, user_id: 30, email: 'bot@zulip.com', is_bot: true, bot_type: 1, bot_owner_id: 10 };
  const valid = (user: object) => validatorFor('chat/user.schema.json')!(user);

  it('a bot has its type and owner and no profile data; a person no bot fields', () => {
    expect([valid(person), valid({ ...person, profile_data: {} }), valid(bot), valid({ ...bot, bot_owner_id: null })]).toEqual([true, true, true, true]);
    const { bot_owner_id: _owner, ...ownerless } = bot;
    expect([valid(ownerless), valid({ ...bot, profile_data: {} }), valid({ ...person, bot_type: null })]).toEqual([false, false, false]);
  });
});
