/**
 * Navigation views (zerver/views/navigation_views.py, zerver/actions/navigation_views.py): a user's settings for the web app's built-in views and
 * their own named views, keyed by URL fragment; every change is announced to their own clients.
 */
import type { Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import type { NavigationViewRecord, UserRecord } from '../state.ts';

/** The web app's own views: they may be pinned or not, never renamed. */
export const BUILT_IN_VIEW_FRAGMENTS: readonly string[] = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
  'reminders',
];

export interface NavigationViewDict {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

export function formatNavigationView(view: NavigationViewRecord): NavigationViewDict {
  return { fragment: view.fragment, is_pinned: view.isPinned, name: view.name };
}

function viewsOf(engine: Engine, user: UserRecord): NavigationViewRecord[] {
  return engine.state.navigationViews.filter((v) => v.userId === user.id);
}

const alreadyExists = () => ChatError.badRequest('Navigation view already exists.');

/** POST /navigation_views; fragment and name arrive trimmed and non-blank. */
export function addNavigationView(
  engine: Engine,
  user: UserRecord,
  view: { fragment: string; isPinned: boolean; name: string | undefined },
): Outcome<Record<string, never>> {
  const builtIn = BUILT_IN_VIEW_FRAGMENTS.includes(view.fragment);
  if (builtIn && view.name !== undefined) throw ChatError.badRequest('Built-in views cannot have a custom name.');
  if (!builtIn && view.name === undefined) throw ChatError.badRequest('Custom views must have a valid name.');
  const mine = viewsOf(engine, user);
  if (mine.some((v) => v.fragment === view.fragment)) throw alreadyExists();
  if (view.name !== undefined && mine.some((v) => v.name === view.name)) throw alreadyExists();
  const record: NavigationViewRecord = { userId: user.id, fragment: view.fragment, isPinned: view.isPinned, name: view.name ?? null };
  engine.state.navigationViews.push(record);
  return outcome({}, [effect({ type: 'navigation_view', op: 'add', navigation_view: formatNavigationView(record) }, [user.id])]);
}

function accessNavigationView(engine: Engine, user: UserRecord, fragment: string): NavigationViewRecord {
  const view = viewsOf(engine, user).find((v) => v.fragment === fragment);
  if (!view) throw new ChatError('BAD_REQUEST', 'Navigation view does not exist.', { status: 404 });
  return view;
}

/**
 * PATCH /navigation_views/{fragment}. A name equal to any of the user's view names, this view's
 * own included, is refused; an empty change still succeeds and is announced with `data: {}`.
 */
export function updateNavigationView(
  engine: Engine,
  user: UserRecord,
  fragment: string,
  changes: { isPinned?: boolean | undefined; name?: string | undefined },
): Outcome<Record<string, never>> {
  if (BUILT_IN_VIEW_FRAGMENTS.includes(fragment) && changes.name !== undefined) {
    throw ChatError.badRequest('Built-in views cannot have a custom name.');
  }
  if (changes.name !== undefined && viewsOf(engine, user).some((v) => v.name === changes.name)) throw alreadyExists();
  const view = accessNavigationView(engine, user, fragment);
  const data: { name?: string; is_pinned?: boolean } = {};
  if (changes.name !== undefined) data.name = view.name = changes.name;
  if (changes.isPinned !== undefined) data.is_pinned = view.isPinned = changes.isPinned;
  return outcome({}, [effect({ type: 'navigation_view', op: 'update', fragment, data }, [user.id])]);
}

export function removeNavigationView(engine: Engine, user: UserRecord, fragment: string): Outcome<Record<string, never>> {
  const view = accessNavigationView(engine, user, fragment);
  engine.state.navigationViews.splice(engine.state.navigationViews.indexOf(view), 1);
  return outcome({}, [effect({ type: 'navigation_view', op: 'remove', fragment }, [user.id])]);
}

/** GET /navigation_views, and the `navigation_views` key of /register: the stored views, creation order. */
export function listNavigationViews(engine: Engine, user: UserRecord): NavigationViewDict[] {
  return viewsOf(engine, user).map(formatNavigationView);
}

export function navigationViewsRegisterState(engine: Engine, user: UserRecord): { navigation_views: NavigationViewDict[] } {
  return { navigation_views: listNavigationViews(engine, user) };
}
