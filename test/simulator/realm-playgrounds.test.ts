/** Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{playground_id} (zerver/views/realm_playgrounds.py). */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, sim, watchEvents } from './helpers.ts';

const error = (msg: string, extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code: 'BAD_REQUEST', ...extra });
const PYTHON = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };

const add = (s: Simulator, body: Record<string, unknown>, as: number = ID.iago) => s.request({ method: 'POST', path: '/api/v1/realm/playgrounds', as, body });
const remove = (s: Simulator, id: number, as: number = ID.iago) => s.request({ method: 'DELETE', path: `/api/v1/realm/playgrounds/${id}`, as });

async function playgrounds(s: Simulator, as: number = ID.hamlet) {
  const res = await s.request({ method: 'POST', path: '/api/v1/register', as, body: { fetch_event_types: '["realm_playgrounds"]' } });
  return res.body.realm_playgrounds as unknown[];
}

describe('POST /realm/playgrounds', () => {
  it("adds python_examples.py's playground as id 1, tells every user the whole list, and /register shows it", async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await add(s, PYTHON)).body).toEqual({ result: 'success', msg: '', id: 1 });
    const list = [{ id: 1, ...PYTHON }];
    const active = [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id).sort((a, b) => a - b);
    expect(watch.take()).toEqual([{ event: { type: 'realm_playgrounds', realm_playgrounds: list }, users: active }]);
    expect(await playgrounds(s)).toEqual(list);
    expect((await add(s, { ...PYTHON, name: '  Python 2 ', pygments_language: ' Python ' })).body.id).toBe(2);
    expect(await playgrounds(s)).toEqual([...list, { ...PYTHON, id: 2, name: 'Python 2' }]);
  });

  it('needs an administrator', async () => {
    expect((await add(sim(), PYTHON, ID.hamlet)).body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
  });

  it.each([
    ['a language with other characters', { pygments_language: 'C$' }, 'Invalid characters in pygments language'],
    ['a language over 40 characters', { pygments_language: 'x'.repeat(41) }, 'pygments_language is too long (limit: 40 characters)'],
    ['an empty name', { name: '  ' }, 'This field cannot be blank.'],
    ['a template without {code}', { url_template: 'https://example.com?q={query}' }, '"code" should be the only variable present in the URL template'],
    ['a broken template', { url_template: 'https://example.com?q={code' }, 'Invalid URL template.'],
  ])('refuses %s', async (_what, change, msg) => {
    const res = await add(sim(), { ...PYTHON, ...change });
    expect([res.status, res.body.msg]).toEqual([400, msg]);
  });

  it('refuses a name the realm already has, with every error under errors', async () => {
    const s = sim();
    await add(s, PYTHON);
    expect((await add(s, PYTHON)).body).toEqual(
      error('Realm playground with this Realm and Name already exists.', { errors: { __all__: ['Realm playground with this Realm and Name already exists.'] } }),
    );
  });
});

describe('DELETE /realm/playgrounds/{playground_id}', () => {
  it('removes one, tells everyone, and never reuses its id', async () => {
    const s = sim();
    await add(s, PYTHON);
    const watch = watchEvents(s);
    expect((await remove(s, 1)).body).toEqual({ result: 'success', msg: '' });
    expect(watch.take().map((d) => d.event)).toEqual([{ type: 'realm_playgrounds', realm_playgrounds: [] }]);
    expect((await remove(s, 1)).body).toEqual(error('Invalid playground'));
    expect((await add(s, PYTHON)).body.id).toBe(2);
    expect((await remove(s, 2, ID.hamlet)).body).toMatchObject({ msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
  });
});
