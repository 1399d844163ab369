/**
 * Drafts kept on the server for their author (zerver/views/drafts.py, zerver/lib/drafts.py): created in bulk, replaced
 * whole on edit, deleted one by one; every change is announced to the author's own clients.
 */
import { canAccessStreamContent, getStreamById, getUser, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { normalizeContent } from './send.ts';
import { nextId, type DraftRecord, type UserRecord } from '../state.ts';

/** A draft as the client sent it, structurally valid (the HTTP layer checked types and keys). */
export interface DraftInput {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  /** Already trimmed and non-blank. */
  content: string;
  /** Unix seconds; null or absent = now. */
  timestamp?: number | null | undefined;
}

/** The draft object of GET /drafts, /register and the drafts events. */
export interface DraftDict {
  id: number;
  type: DraftRecord['type'];
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** Zulip's MAX_DRAFTS: how many drafts /register hands out. */
export const REGISTER_DRAFTS_LIMIT = 1000;

/** Zulip's draft_endpoint decorator: every drafts endpoint, GET included, needs the setting on. */
export function checkDraftsSyncEnabled(user: UserRecord): void {
  if (!user.enable_drafts_synchronization) throw ChatError.badRequest('User has disabled synchronizing drafts.');
}

export function formatDraft(draft: DraftRecord): DraftDict {
  return {
    id: draft.id,
    type: draft.type,
    to: [...draft.to],
    topic: draft.topic,
    content: draft.content,
    timestamp: Math.trunc(draft.lastEditTime),
  };
}

type CheckedDraft = Omit<DraftRecord, 'id' | 'userId'>;

/** Zulip's truncate_topic: no trimming here, unlike message topics. */
function truncateTopic(engine: Engine, topic: string): string {
  const chars = [...topic];
  const max = engine.state.realm.max_topic_length;
  return chars.length <= max ? topic : `${chars.slice(0, max - 3).join('')}...`;
}

/** further_validated_draft_dict: the checks of zerver/lib/drafts.py, in its order. */
function checkDraft(engine: Engine, author: UserRecord, input: DraftInput): CheckedDraft {
  const content = normalizeContent(engine, input.content);
  const raw = input.timestamp ?? engine.deps.clock.now();
  const lastEditTime = Math.round(raw * 1e6) / 1e6;
  if (lastEditTime < 0) throw ChatError.badRequest('Timestamp must not be negative.');

  if (input.type === 'stream') {
    const topic = truncateTopic(engine, input.topic);
    if (topic.includes('\u0000')) throw ChatError.badRequest('Topic must not contain null bytes');
    if (input.to.length !== 1) throw ChatError.badRequest('Must specify exactly 1 channel ID for channel messages');
    const stream = getStreamById(engine, input.to[0]!);
    if (!stream || stream.is_archived || !canAccessStreamContent(engine, author, stream)) throw ChatError.invalidChannelId();
    return { type: 'stream', to: [stream.id], topic, content, lastEditTime };
  }
  if (input.type === 'private' && input.to.length > 0) {
    const ids = [...new Set(input.to)].sort((a, b) => a - b);
    const users: UserRecord[] = [];
    for (const id of ids) {
      const user = getUser(engine, id);
      // No colon in this one, unlike the user-group message.
      if (!user) throw ChatError.badRequest(`Invalid user ID ${id}`);
      users.push(user);
    }
    for (const user of users) if (!user.is_active) throw ChatError.badRequest(`'${user.email}' is no longer using Zulip.`);
    const others = ids.filter((id) => id !== author.id);
    return { type: 'private', to: others.length > 0 ? others : [author.id], topic: '', content, lastEditTime };
  }
  // A DM draft without recipients is stored unaddressed, like one of type "".
  return { type: '', to: [], topic: '', content, lastEditTime };
}

/** POST /drafts: all drafts checked first, so one bad draft creates none. */
export function createDrafts(engine: Engine, author: UserRecord, inputs: DraftInput[]): Outcome<{ ids: number[] }> {
  checkDraftsSyncEnabled(author);
  const checked = inputs.map((input) => checkDraft(engine, author, input));
  const created = checked.map((c): DraftRecord => ({ id: nextId(engine.state, 'draft'), userId: author.id, ...c }));
  for (const draft of created) engine.state.drafts.set(draft.id, draft);
  // Sent even for an empty list, as Zulip does.
  const event = effect({ type: 'drafts', op: 'add', drafts: created.map(formatDraft) }, [author.id]);
  return outcome({ ids: created.map((d) => d.id) }, [event]);
}

function accessDraft(engine: Engine, author: UserRecord, id: number): DraftRecord {
  const draft = engine.state.drafts.get(id);
  // Another user's draft is as unknown as a missing one.
  if (!draft || draft.userId !== author.id) throw new ChatError('BAD_REQUEST', 'Draft does not exist', { status: 404 });
  return draft;
}

/** PATCH /drafts/{id}: the draft is replaced whole (no timestamp means now). */
export function editDraft(engine: Engine, author: UserRecord, id: number, input: DraftInput): Outcome<Record<string, never>> {
  checkDraftsSyncEnabled(author);
  const draft = accessDraft(engine, author, id);
  Object.assign(draft, checkDraft(engine, author, input));
  return outcome({}, [effect({ type: 'drafts', op: 'update', draft: formatDraft(draft) }, [author.id])]);
}

export function deleteDraft(engine: Engine, author: UserRecord, id: number): Outcome<Record<string, never>> {
  checkDraftsSyncEnabled(author);
  accessDraft(engine, author, id);
  engine.state.drafts.delete(id);
  return outcome({}, [effect({ type: 'drafts', op: 'remove', draft_id: id }, [author.id])]);
}

function draftsOf(engine: Engine, author: UserRecord): DraftRecord[] {
  return [...engine.state.drafts.values()].filter((d) => d.userId === author.id);
}

/** GET /drafts: oldest edit first (Zulip's code; its docs say the opposite). */
export function listDrafts(engine: Engine, author: UserRecord): DraftDict[] {
  checkDraftsSyncEnabled(author);
  return draftsOf(engine, author)
    .sort((a, b) => a.lastEditTime - b.lastEditTime || a.id - b.id)
    .map(formatDraft);
}

/** The `drafts` key of /register: newest edit first, at most 1000, none when synchronization is off. */
export function draftsRegisterState(engine: Engine, user: UserRecord): { drafts: DraftDict[] } {
  if (!user.enable_drafts_synchronization) return { drafts: [] };
  const drafts = draftsOf(engine, user)
    .sort((a, b) => b.lastEditTime - a.lastEditTime || b.id - a.id)
    .slice(0, REGISTER_DRAFTS_LIMIT)
    .map(formatDraft);
  return { drafts };
}
