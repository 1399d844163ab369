/** Realm linkifiers: the list, and their administration (zerver/views/realm_linkifiers.py). */
import { commit } from '../../engine/core.ts';
import { addLinkifier, linkifiersForApi, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../../engine/linkifier-admin.ts';
import type { ParamSpec, Route } from '../route.ts';

const filterId: ParamSpec = { name: 'filter_id', type: 'int', in: 'path', required: true };
const pattern: ParamSpec = { name: 'pattern', type: 'string', required: true };
const urlTemplate: ParamSpec = { name: 'url_template', type: 'string', required: true };

export const linkifierRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/linkifiers',
    response: 'get-linkifiers',
    auth: 'user',
    summary: "the realm's linkifiers, in the order they apply",
    params: [],
    handler({ engine }) {
      return { linkifiers: linkifiersForApi(engine) };
    },
  },
  {
    method: 'PATCH',
    path: '/realm/linkifiers',
    response: 'empty',
    auth: 'admin',
    summary: 'reorder the linkifiers (every id exactly once)',
    params: [{ name: 'ordered_linkifier_ids', type: 'int_array', required: true }],
    handler({ engine, params }) {
      return commit(engine, reorderLinkifiers(engine, params.ordered_linkifier_ids as number[]));
    },
  },
  {
    method: 'POST',
    path: '/realm/filters',
    response: 'add-linkifier',
    auth: 'admin',
    summary: 'add a linkifier (an RE2 pattern and an RFC 6570 URL template); it applies last',
    params: [pattern, urlTemplate],
    handler({ engine, params }) {
      return commit(engine, addLinkifier(engine, params.pattern as string, params.url_template as string));
    },
  },
  {
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    response: 'empty',
    auth: 'admin',
    summary: "change a linkifier's pattern and URL template",
    params: [filterId, pattern, urlTemplate],
    handler({ engine, params }) {
      return commit(engine, updateLinkifier(engine, params.filter_id as number, params.pattern as string, params.url_template as string));
    },
  },
  {
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    response: 'empty',
    auth: 'admin',
    summary: 'remove a linkifier',
    params: [filterId],
    handler({ engine, params }) {
      return commit(engine, removeLinkifier(engine, params.filter_id as number));
    },
  },
];
