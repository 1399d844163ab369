/** Draft endpoints (zerver/views/drafts.py, zerver/lib/drafts.py). */
import { checkDraftsSyncEnabled, createDrafts, deleteDraft, editDraft, listDrafts, type DraftInput } from '../../engine/messages/drafts.ts';
import { ChatError } from '../../engine/errors.ts';
import { isObject } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const DRAFT_TYPES: readonly string[] = ['', 'stream', 'private'];
const DRAFT_KEYS: readonly string[] = ['type', 'to', 'topic', 'content', 'timestamp'];

/**
 * Zulip's DraftData model, checked strictly field by field in its declaration order, unknown keys
 * last; nested names follow Zulip's template (`drafts[0]["content"] cannot be blank`).
 */
export function parseDraft(value: unknown, name: string): DraftInput {
  if (!isObject(value)) throw ChatError.badRequest(`${name} is not a dict`);
  const draft = value;
  const field = (key: string) => `${name}[${JSON.stringify(key)}]`;
  const present = (key: string) => {
    if (!(key in draft)) throw ChatError.badRequest(`${field(key)} field is missing`);
    return draft[key];
  };
  const type = present('type');
  if (typeof type !== 'string' || !DRAFT_TYPES.includes(type)) throw ChatError.badRequest(`Invalid ${field('type')}`);
  const to = present('to');
  if (!Array.isArray(to)) throw ChatError.badRequest(`${field('to')} is not a list`);
  to.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw ChatError.badRequest(`${field('to')}[${i}] is not an integer`);
  });
  const topic = present('topic');
  if (typeof topic !== 'string') throw ChatError.badRequest(`${field('topic')} is not a string`);
  const content = present('content');
  if (typeof content !== 'string') throw ChatError.badRequest(`${field('content')} is not a string`);
  const trimmed = content.trim();
  if (trimmed === '') throw ChatError.badRequest(`${field('content')} cannot be blank`);
  const timestamp = draft.timestamp;
  if (timestamp !== undefined && timestamp !== null && typeof timestamp !== 'number') {
    throw ChatError.badRequest(`${field('timestamp')} is not a float`);
  }
  for (const key of Object.keys(draft)) {
    if (!DRAFT_KEYS.includes(key)) throw ChatError.badRequest(`Argument "${key}" at ${name} is unexpected`);
  }
  return { type: type as DraftInput['type'], to: to as number[], topic, content: trimmed, timestamp };
}

function parseDraftList(value: unknown[], name: string): DraftInput[] {
  return value.map((item, i) => parseDraft(item, `${name}[${i}]`));
}

const draftIdInPath = { name: 'draft_id', type: 'int', in: 'path', required: true } as const;
const guard: Route['guard'] = (_engine, user) => checkDraftsSyncEnabled(user);

export const draftRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/drafts',
    response: 'get-drafts',
    auth: 'user',
    guard,
    summary: 'your drafts, oldest edit first',
    params: [],
    handler({ engine, user }) {
      const drafts = listDrafts(engine, user);
      return { count: drafts.length, drafts };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/drafts',
    response: 'create-drafts',
    auth: 'user',
    guard,
    summary: 'create drafts (all or none)',
    params: [{ name: 'drafts', type: 'json_array', required: true, validate: parseDraftList }],
    handler({ engine, user, params }) {
      return createDrafts(engine, user, params.drafts);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    response: 'empty',
    auth: 'user',
    guard,
    summary: 'replace one of your drafts',
    params: [draftIdInPath, { name: 'draft', type: 'json_object', required: true, validate: parseDraft }],
    handler({ engine, user, params }) {
      return editDraft(engine, user, params.draft_id, params.draft);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/drafts/{draft_id}',
    response: 'empty',
    auth: 'user',
    guard,
    summary: 'delete one of your drafts',
    params: [draftIdInPath],
    handler({ engine, user, params }) {
      return deleteDraft(engine, user, params.draft_id);
    },
  }),
];
