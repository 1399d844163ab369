/** Realm linkifiers: the list, and their administration (zerver/views/realm_linkifiers.py). */
import { addLinkifier, linkifiersForApi, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../../engine/realm/linkifiers.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const filterId = { name: 'filter_id', type: 'int', in: 'path', required: true } as const;
const pattern = { name: 'pattern', type: 'string', required: true } as const;
const urlTemplate = { name: 'url_template', type: 'string', required: true } as const;

export const linkifierRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/realm/linkifiers',
    response: 'get-linkifiers',
    auth: 'user',
    summary: "the realm's linkifiers, in the order they apply",
    params: [],
    handler({ engine }) {
      return { linkifiers: linkifiersForApi(engine) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/realm/linkifiers',
    response: 'empty',
    auth: 'admin',
    summary: 'reorder the linkifiers (every id exactly once)',
    params: [{ name: 'ordered_linkifier_ids', type: 'int_array', required: true }],
    handler({ engine, params }) {
      return reorderLinkifiers(engine, params.ordered_linkifier_ids);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/realm/filters',
    response: 'add-linkifier',
    auth: 'admin',
    summary: 'add a linkifier (an RE2 pattern and an RFC 6570 URL template); it applies last',
    params: [pattern, urlTemplate],
    handler({ engine, params }) {
      return addLinkifier(engine, params.pattern, params.url_template);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    response: 'empty',
    auth: 'admin',
    summary: "change a linkifier's pattern and URL template",
    params: [filterId, pattern, urlTemplate],
    handler({ engine, params }) {
      return updateLinkifier(engine, params.filter_id, params.pattern, params.url_template);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    response: 'empty',
    auth: 'admin',
    summary: 'remove a linkifier',
    params: [filterId],
    handler({ engine, params }) {
      return removeLinkifier(engine, params.filter_id);
    },
  }),
];
