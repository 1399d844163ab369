/** A user's own composing aids: saved snippets (zerver/views/saved_snippets.py, zerver/actions/saved_snippets.py) and navigation views (zerver/views/navigation_views.py, zerver/actions/navigation_views.py). */
import { ChatError } from '../../engine/errors.ts';
import { addNavigationView, listNavigationViews, removeNavigationView, updateNavigationView } from '../../engine/users/navigation-views.ts';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, listSavedSnippets } from '../../engine/messages/saved-snippets.ts';
import { trimmedNonBlank } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const MAX_TITLE_LENGTH = 60;
/** Zulip's MAX_MESSAGE_LENGTH. */
const MAX_CONTENT_LENGTH = 10_000;

/**
 * Creation follows the specification's wording for a blank title or content (`Title cannot be
 * empty.`, for both); Zulip itself answers `title cannot be blank` / `content cannot be blank`.
 */
function creationText(maxLength: number) {
  const check = trimmedNonBlank(maxLength);
  return (value: string, name: string): string => {
    if (value.trim() === '') throw ChatError.badRequest('Title cannot be empty.');
    return check(value, name);
  };
}

const snippetIdInPath = { name: 'saved_snippet_id', type: 'int', in: 'path', required: true } as const;
const fragmentInPath = { name: 'fragment', type: 'string', in: 'path', required: true, spansSegments: true, validate: trimmedNonBlank() } as const;

export const personalRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/saved_snippets',
    response: 'get-saved-snippets',
    auth: 'user',
    summary: 'your saved snippets',
    params: [],
    handler: ({ engine, user }) => ({ saved_snippets: listSavedSnippets(engine, user) }),
  }),
  defineRoute({
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
      return createSavedSnippet(engine, user, params.title, params.content);
    },
  }),
  defineRoute({
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
      const changes = { title: params.title, content: params.content };
      return editSavedSnippet(engine, user, params.saved_snippet_id, changes);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/saved_snippets/{saved_snippet_id}',
    response: 'empty',
    auth: 'user',
    summary: 'delete one of your snippets',
    params: [snippetIdInPath],
    handler({ engine, user, params }) {
      return deleteSavedSnippet(engine, user, params.saved_snippet_id);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/navigation_views',
    response: 'get-navigation-views',
    auth: 'user',
    summary: 'your navigation views',
    params: [],
    handler: ({ engine, user }) => ({ navigation_views: listNavigationViews(engine, user) }),
  }),
  defineRoute({
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
      const view = { fragment: params.fragment, isPinned: params.is_pinned, name: params.name };
      return addNavigationView(engine, user, view);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/navigation_views/{fragment}',
    response: 'empty',
    auth: 'user',
    summary: 'pin, unpin or rename a navigation view',
    params: [fragmentInPath, { name: 'is_pinned', type: 'bool' }, { name: 'name', type: 'string', validate: trimmedNonBlank() }],
    handler({ engine, user, params }) {
      const changes = { isPinned: params.is_pinned, name: params.name };
      return updateNavigationView(engine, user, params.fragment, changes);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/navigation_views/{fragment}',
    response: 'empty',
    auth: 'user',
    summary: 'remove a navigation view',
    params: [fragmentInPath],
    handler({ engine, user, params }) {
      return removeNavigationView(engine, user, params.fragment);
    },
  }),
];
