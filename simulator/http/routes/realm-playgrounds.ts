/** Code playgrounds: POST /realm/playgrounds (add-code-playground), DELETE /realm/playgrounds/{playground_id} (remove-code-playground). */
import { commit } from '../../engine/core.ts';
import { addPlayground, checkPygmentsLanguage, removePlayground } from '../../engine/realm-playgrounds.ts';
import type { Route } from '../route.ts';

export const realmPlaygroundRoutes: Route[] = [
  {
    method: 'POST',
    path: '/realm/playgrounds',
    response: 'add-code-playground',
    auth: 'admin',
    summary: 'add a code playground',
    // add_realm_playground's signature order, which decides the error reported first.
    params: [
      { name: 'name', type: 'string', required: true },
      { name: 'url_template', type: 'string', required: true },
      { name: 'pygments_language', type: 'string', required: true, validate: checkPygmentsLanguage },
    ],
    handler({ engine, params }) {
      return commit(
        engine,
        addPlayground(engine, {
          name: params.name as string,
          url_template: params.url_template as string,
          pygments_language: params.pygments_language as string,
        }),
      );
    },
  },
  {
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    response: 'empty',
    auth: 'admin',
    summary: 'remove a code playground',
    params: [{ name: 'playground_id', type: 'int', in: 'path', required: true }],
    handler({ engine, params }) {
      return commit(engine, removePlayground(engine, params.playground_id as number));
    },
  },
];
