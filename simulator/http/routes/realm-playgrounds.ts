/** Code playgrounds: POST /realm/playgrounds (add-code-playground), DELETE /realm/playgrounds/{playground_id} (remove-code-playground). */
import { addPlayground, checkPygmentsLanguage, removePlayground } from '../../engine/realm/playgrounds.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const realmPlaygroundRoutes: Route[] = [
  defineRoute({
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
    handler: ({ engine, params }) =>
      addPlayground(engine, { name: params.name, url_template: params.url_template, pygments_language: params.pygments_language }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    response: 'empty',
    auth: 'admin',
    summary: 'remove a code playground',
    params: [{ name: 'playground_id', type: 'int', in: 'path', required: true }],
    handler: ({ engine, params }) => removePlayground(engine, params.playground_id),
  }),
];
