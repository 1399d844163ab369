/**
 * Saved snippets (zerver/views/saved_snippets.py, zerver/actions/saved_snippets.py): short texts a user keeps for composing, private to them;
 * every change is announced to their own clients.
 */
import { nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { nextId, type SavedSnippetRecord, type UserRecord } from '../state.ts';

/**
 * The snippet object of GET, /register and the events. Zulip names the identifier `id`; the
 * specification's record names it `saved_snippet_id`: both are given, so either kind of client reads it.
 */
export interface SavedSnippetDict {
  id: number;
  saved_snippet_id: number;
  title: string;
  content: string;
  date_created: number;
}

export function formatSavedSnippet(snippet: SavedSnippetRecord): SavedSnippetDict {
  return {
    id: snippet.id,
    saved_snippet_id: snippet.id,
    title: snippet.title,
    content: snippet.content,
    date_created: snippet.dateCreated,
  };
}

/** Title and content arrive trimmed and within their limits (the HTTP layer's parameter checks). */
export function createSavedSnippet(
  engine: Engine,
  user: UserRecord,
  title: string,
  content: string,
): Outcome<{ saved_snippet_id: number }> {
  const snippet: SavedSnippetRecord = {
    id: nextId(engine.state, 'saved_snippet'),
    userId: user.id,
    title,
    content,
    dateCreated: nowSeconds(engine),
  };
  engine.state.savedSnippets.set(snippet.id, snippet);
  const event = effect({ type: 'saved_snippets', op: 'add', saved_snippet: formatSavedSnippet(snippet) }, [user.id]);
  return outcome({ saved_snippet_id: snippet.id }, [event]);
}

function accessSavedSnippet(engine: Engine, user: UserRecord, id: number): SavedSnippetRecord {
  const snippet = engine.state.savedSnippets.get(id);
  // Another user's snippet is as unknown as a missing one.
  if (!snippet || snippet.userId !== user.id) throw new ChatError('BAD_REQUEST', 'Saved snippet does not exist.', { status: 404 });
  return snippet;
}

/**
 * PATCH /saved_snippets/{id}. Sending neither field changes nothing and says nothing, without even
 * looking the snippet up (Zulip returns early, to spare clients a spurious event).
 */
export function editSavedSnippet(
  engine: Engine,
  user: UserRecord,
  id: number,
  changes: { title?: string | undefined; content?: string | undefined },
): Outcome<Record<string, never>> {
  if (changes.title === undefined && changes.content === undefined) return outcome({});
  const snippet = accessSavedSnippet(engine, user, id);
  if (changes.title !== undefined) snippet.title = changes.title;
  if (changes.content !== undefined) snippet.content = changes.content;
  return outcome({}, [effect({ type: 'saved_snippets', op: 'update', saved_snippet: formatSavedSnippet(snippet) }, [user.id])]);
}

export function deleteSavedSnippet(engine: Engine, user: UserRecord, id: number): Outcome<Record<string, never>> {
  accessSavedSnippet(engine, user, id);
  engine.state.savedSnippets.delete(id);
  return outcome({}, [effect({ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, [user.id])]);
}

/** GET /saved_snippets, and the `saved_snippets` key of /register: creation order. */
export function listSavedSnippets(engine: Engine, user: UserRecord): SavedSnippetDict[] {
  return [...engine.state.savedSnippets.values()].filter((s) => s.userId === user.id).map(formatSavedSnippet);
}

export function savedSnippetsRegisterState(engine: Engine, user: UserRecord): { saved_snippets: SavedSnippetDict[] } {
  return { saved_snippets: listSavedSnippets(engine, user) };
}
