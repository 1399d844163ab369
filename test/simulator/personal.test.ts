/** Saved snippets and navigation views (zerver/views/saved_snippets.py, zerver/actions/saved_snippets.py, zerver/views/navigation_views.py, zerver/actions/navigation_views.py) through the in-process API. */
import { describe, expect, it } from 'vitest';
import { navigationViewsRegisterState } from '../../simulator/engine/users/navigation-views.ts';
import { savedSnippetsRegisterState } from '../../simulator/engine/messages/saved-snippets.ts';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';

/** The events users' queues received while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const call = (s: Simulator, method: string, path: string, body: Record<string, unknown> = {}, as: number = ID.hamlet) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

describe('saved snippets', () => {
  it('creates, lists, edits and deletes, announcing each change to the owner only', async () => {
    const s = sim();
    const snippet = { id: 1, saved_snippet_id: 1, title: 'Greeting', content: 'Hello **there**', date_created: NOW };

    const added = await eventsOf(s, async () => {
      const res = await call(s, 'POST', '/saved_snippets', { title: '  Greeting ', content: '\nHello **there**  ' });
      expect(res.body).toEqual({ result: 'success', msg: '', saved_snippet_id: 1 });
    });
    expect(added).toEqual([{ event: { type: 'saved_snippets', op: 'add', saved_snippet: snippet }, users: [ID.hamlet] }]);
    expect((await call(s, 'GET', '/saved_snippets')).body).toEqual({ result: 'success', msg: '', saved_snippets: [snippet] });
    expect((await call(s, 'GET', '/saved_snippets', {}, ID.iago)).body.saved_snippets).toEqual([]);

    const edited = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', '/saved_snippets/1', { title: ' Hi ' })).body).toEqual({ result: 'success', msg: '' });
    });
    const renamed = { ...snippet, title: 'Hi' };
    expect(edited).toEqual([{ event: { type: 'saved_snippets', op: 'update', saved_snippet: renamed }, users: [ID.hamlet] }]);
    expect(savedSnippetsRegisterState(s.engine, s.engine.state.users.get(ID.hamlet)!)).toEqual({ saved_snippets: [renamed] });

    const removed = await eventsOf(s, async () => {
      expect((await call(s, 'DELETE', '/saved_snippets/1')).body).toEqual({ result: 'success', msg: '' });
    });
    expect(removed).toEqual([{ event: { type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 }, users: [ID.hamlet] }]);
    expect((await call(s, 'GET', '/saved_snippets')).body.saved_snippets).toEqual([]);
  });

  const createErrors: [string, Record<string, unknown>, string][] = [
    ['no content', { title: 't' }, "Missing 'content' argument"],
    ['no title', { content: 'c' }, "Missing 'title' argument"],
    ['a blank title (the specification’s wording)', { title: '   ', content: 'c' }, 'Title cannot be empty.'],
    ['blank content (same wording, content is checked first)', { title: '', content: '\n' }, 'Title cannot be empty.'],
    ['a title over 60 code points', { title: '😀'.repeat(61), content: 'c' }, 'title is too long (limit: 60 characters)'],
    ['content over 10000', { title: 't', content: 'x'.repeat(10_001) }, 'content is too long (limit: 10000 characters)'],
  ];
  it.each(createErrors)('POST refuses %s', async (_name, body, msg) => {
    const s = sim();
    const res = await call(s, 'POST', '/saved_snippets', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(s.engine.state.savedSnippets.size).toBe(0);
  });

  it('accepts a 60-emoji title (code points, not UTF-16 units)', async () => {
    expect((await call(sim(), 'POST', '/saved_snippets', { title: '😀'.repeat(60), content: 'c' })).status).toBe(200);
  });

  it.each([
    ['PATCH', { content: 'new' }],
    ['DELETE', {}],
  ])("%s: an unknown id or another user's snippet is 404 Saved snippet does not exist.", async (method, body) => {
    const s = sim();
    await call(s, 'POST', '/saved_snippets', { title: 't', content: 'c' });
    for (const [path, as] of [['/saved_snippets/7', ID.hamlet], ['/saved_snippets/1', ID.othello]] as const) {
      const res = await call(s, method, path, body, as);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ result: 'error', msg: 'Saved snippet does not exist.', code: 'BAD_REQUEST' });
    }
    expect(s.engine.state.savedSnippets.get(1)).toMatchObject({ content: 'c' });
  });

  it('PATCH with nothing to change succeeds silently, even for an unknown id', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', '/saved_snippets/42')).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([]);
  });

  it('PATCH uses the parameter templates for blank values', async () => {
    const s = sim();
    await call(s, 'POST', '/saved_snippets', { title: 't', content: 'c' });
    expect((await call(s, 'PATCH', '/saved_snippets/1', { title: ' ' })).body.msg).toBe('title cannot be blank');
    expect((await call(s, 'PATCH', '/saved_snippets/1', { content: '' })).body.msg).toBe('content cannot be blank');
  });
});

describe('navigation views', () => {
  it('adds built-in and custom views, lists them, and announces each change to the owner', async () => {
    const s = sim();
    const added = await eventsOf(s, async () => {
      expect((await call(s, 'POST', '/navigation_views', { fragment: ' inbox ', is_pinned: true })).body).toEqual({ result: 'success', msg: '' });
      expect((await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: false, name: ' Alerts ' })).status).toBe(200);
    });
    expect(added).toEqual([
      { event: { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: true, name: null } }, users: [ID.hamlet] },
      {
        event: { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' } },
        users: [ID.hamlet],
      },
    ]);
    const views = [
      { fragment: 'inbox', is_pinned: true, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' },
    ];
    expect((await call(s, 'GET', '/navigation_views')).body).toEqual({ result: 'success', msg: '', navigation_views: views });
    expect(navigationViewsRegisterState(s.engine, s.engine.state.users.get(ID.hamlet)!)).toEqual({ navigation_views: views });
    expect((await call(s, 'GET', '/navigation_views', {}, ID.iago)).body.navigation_views).toEqual([]);
  });

  const addErrors: [string, Record<string, unknown>, string][] = [
    ['no fragment', { is_pinned: true }, "Missing 'fragment' argument"],
    ['a blank fragment', { fragment: '  ', is_pinned: true }, 'fragment cannot be blank'],
    ['no is_pinned', { fragment: 'inbox' }, "Missing 'is_pinned' argument"],
    ['is_pinned not a boolean', { fragment: 'inbox', is_pinned: 'yes' }, 'is_pinned is not valid JSON'],
    ['a blank name', { fragment: 'x', is_pinned: true, name: ' ' }, 'name cannot be blank'],
    ['a built-in view with a name', { fragment: 'recent', is_pinned: true, name: 'Mine' }, 'Built-in views cannot have a custom name.'],
    ['a custom view without a name', { fragment: 'narrow/is/alerted', is_pinned: true }, 'Custom views must have a valid name.'],
    ['a fragment the user already has', { fragment: 'inbox', is_pinned: false }, 'Navigation view already exists.'],
    ['a name the user already uses', { fragment: 'narrow/is/private', is_pinned: false, name: 'Alerts' }, 'Navigation view already exists.'],
  ];
  it.each(addErrors)('POST refuses %s', async (_name, body, msg) => {
    const s = sim();
    await call(s, 'POST', '/navigation_views', { fragment: 'inbox', is_pinned: true });
    await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    const res = await call(s, 'POST', '/navigation_views', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(s.engine.state.navigationViews).toHaveLength(2);
  });

  it('another user may reuse a fragment and a name', async () => {
    const s = sim();
    await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    expect((await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }, ID.iago)).status).toBe(200);
  });

  it('PATCH takes a multi-segment (and %-escaped) fragment and sends only the changed keys', async () => {
    const s = sim();
    await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', '/navigation_views/narrow/is/alerted', { is_pinned: false })).body).toEqual({ result: 'success', msg: '' });
      expect((await call(s, 'PATCH', '/navigation_views/narrow%2Fis%2Falerted', { name: 'Pings' })).status).toBe(200);
      expect((await call(s, 'PATCH', '/navigation_views/narrow/is/alerted')).status).toBe(200);
    });
    expect(events.map((e) => e.event)).toEqual([
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Pings' } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: {} },
    ]);
    expect(events.every((e) => e.users.length === 1 && e.users[0] === ID.hamlet)).toBe(true);
    expect((await call(s, 'GET', '/navigation_views')).body.navigation_views).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Pings' }]);
  });

  const patchErrors: [string, string, Record<string, unknown>, number, string][] = [
    ['a name for a built-in view', 'inbox', { name: 'Home' }, 400, 'Built-in views cannot have a custom name.'],
    ["the view's own current name", 'narrow/is/alerted', { name: 'Alerts' }, 400, 'Navigation view already exists.'],
    ['an unknown fragment', 'narrow/is/unknown', { is_pinned: true }, 404, 'Navigation view does not exist.'],
    ['a blank fragment', '%20', { is_pinned: true }, 400, 'fragment cannot be blank'],
  ];
  it.each(patchErrors)('PATCH refuses %s', async (_name, fragment, body, status, msg) => {
    const s = sim();
    await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    const res = await call(s, 'PATCH', `/navigation_views/${fragment}`, body);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('DELETE removes the view and announces it; an unknown one is 404', async () => {
    const s = sim();
    await call(s, 'POST', '/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true });
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'DELETE', '/navigation_views/narrow/is/starred')).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([{ event: { type: 'navigation_view', op: 'remove', fragment: 'narrow/is/starred' }, users: [ID.hamlet] }]);
    const again = await call(s, 'DELETE', '/navigation_views/narrow/is/starred');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ result: 'error', msg: 'Navigation view does not exist.', code: 'BAD_REQUEST' });
  });
});
