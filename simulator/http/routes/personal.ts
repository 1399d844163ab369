/** A user's own composing aids: saved snippets (zerver/views/saved_snippets.py, zerver/actions/saved_snippets.py) and navigation views (zerver/views/navigation_views.py, zerver/actions/navigation_views.py). */
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { addNavigationView, listNavigationViews, removeNavigationView, updateNavigationView } from '../../engine/navigation-views.ts';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, listSavedSnippets } from '../../engine/saved-snippets.ts';
import { trimmedNonBlank } from '../params.ts';
import type { ParamSpec, Route } from '../route.ts';

const MAX_TITLE_LENGTH = 60;
/** Zulip's MAX_MESSAGE_LENGTH. */
const MAX_CONTENT_LENGTH = 10_000;

/**
 * Creation follows the specification's wording for a blank title or content (`Title cannot be
 * empty.`, for both); Zulip itself answers `title cannot be blank` / `content cannot be blank`.
 */
function creationText(maxLength: number) {
  const check = trimmedNonBlank(maxLength);
  return (value: unknown, name: string): string => {
    if ((value as string).trim() === '') throw ChatError.badRequest('Title cannot be empty.');
    return check(value, name);
  };
}

const snippetIdInPath: ParamSpec = { name: 'saved_snippet_id', type: 'int', in: 'path', required: true };
const fragmentInPath: ParamSpec = { name: 'fragment', type: 'string', in: 'path', required: true, spansSegments: true, validate: trimmedNonBlank() };

export const personalRoutes: Route[] = [
  {
    method: 'GET',
    path: '/saved_snippets',
    response: 'get-saved-snippets',
    auth: 'user',
    summary: 'your saved snippets',
    params: [],
    handler: ({ engine, user }) => ({ saved_snippets: listSavedSnippets(engine, user!) }),
  },
  {
    method: 'POST',
    path: '/saved_snippets',
    response: 'create-saved-snippet',
    auth: 'user',
    summary: 'save a snippet',
    params: [
      { name: 'content', type: 'string', required: true, validate: creationText(MAX_CONTENT_LENGTH) },
      { name: 'title', type: 'string', required: true, validate: creationText(MAX_TITLE_LENGTH) },
    ],
    handler({ engine, user, params }) {
      return commit(engine, createSavedSnippet(engine, user!, params.title as string, params.content as string));
    },
  },
  {
    method: 'PATCH',
    path: '/saved_snippets/{saved_snippet_id}',
    response: 'empty',
    auth: 'user',
    summary: 'change the title or content of one of your snippets',
    params: [
      snippetIdInPath,
      { name: 'content', type: 'string', validate: trimmedNonBlank(MAX_CONTENT_LENGTH) },
      { name: 'title', type: 'string', validate: trimmedNonBlank(MAX_TITLE_LENGTH) },
    ],
    handler({ engine, user, params }) {
      const changes = { title: params.title as string | undefined, content: params.content as string | undefined };
      return commit(engine, editSavedSnippet(engine, user!, params.saved_snippet_id as number, changes));
    },
  },
  {
    method: 'DELETE',
    path: '/saved_snippets/{saved_snippet_id}',
    response: 'empty',
    auth: 'user',
    summary: 'delete one of your snippets',
    params: [snippetIdInPath],
    handler({ engine, user, params }) {
      return commit(engine, deleteSavedSnippet(engine, user!, params.saved_snippet_id as number));
    },
  },
  {
    method: 'GET',
    path: '/navigation_views',
    response: 'get-navigation-views',
    auth: 'user',
    summary: 'your navigation views',
    params: [],
    handler: ({ engine, user }) => ({ navigation_views: listNavigationViews(engine, user!) }),
  },
  {
    method: 'POST',
    path: '/navigation_views',
    response: 'empty',
    auth: 'user',
    summary: 'add a navigation view (a built-in one, or a named custom one)',
    params: [
      { name: 'fragment', type: 'string', required: true, validate: trimmedNonBlank() },
      { name: 'is_pinned', type: 'bool', required: true },
      { name: 'name', type: 'string', validate: trimmedNonBlank() },
    ],
    handler({ engine, user, params }) {
      const view = { fragment: params.fragment as string, isPinned: params.is_pinned as boolean, name: params.name as string | undefined };
      return commit(engine, addNavigationView(engine, user!, view));
    },
  },
  {
    method: 'PATCH',
    path: '/navigation_views/{fragment}',
    response: 'empty',
    auth: 'user',
    summary: 'pin, unpin or rename a navigation view',
    params: [fragmentInPath, { name: 'is_pinned', type: 'bool' }, { name: 'name', type: 'string', validate: trimmedNonBlank() }],
    handler({ engine, user, params }) {
      const changes = { isPinned: params.is_pinned as boolean | undefined, name: params.name as string | undefined };
      return commit(engine, updateNavigationView(engine, user!, params.fragment as string, changes));
    },
  },
  {
    method: 'DELETE',
    path: '/navigation_views/{fragment}',
    response: 'empty',
    auth: 'user',
    summary: 'remove a navigation view',
    params: [fragmentInPath],
    handler({ engine, user, params }) {
      return commit(engine, removeNavigationView(engine, user!, params.fragment as string));
    },
  },
];
