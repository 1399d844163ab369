/**
 * The organization's allowed email domains: GET /realm/domains (get-realm-domains), POST
 * /realm/domains (add-realm-domain), PATCH and DELETE /realm/domains/{domain}
 * (patch-realm-domain, delete-realm-domain); zerver/views/realm_domains.py.
 */
import { addRealmDomain, changeRealmDomain, realmDomains, removeRealmDomain } from '../../engine/realm/domains.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const realmDomainRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/realm/domains',
    response: 'get-realm-domains',
    auth: 'user',
    summary: "the organization's allowed email domains",
    params: [],
    handler: ({ engine }) => ({ domains: realmDomains(engine) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/realm/domains',
    response: 'add-realm-domain',
    auth: 'owner',
    summary: 'allow an email domain (and, if asked, its subdomains)',
    // create_realm_domain's typed_endpoint order: allow_subdomains is reported missing first.
    params: [
      { name: 'allow_subdomains', type: 'bool', required: true },
      { name: 'domain', type: 'string', required: true },
    ],
    handler: ({ engine, params }) => addRealmDomain(engine, params.domain, params.allow_subdomains),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/realm/domains/{domain}',
    response: 'empty',
    auth: 'owner',
    summary: 'change whether an allowed domain allows its subdomains',
    params: [
      { name: 'allow_subdomains', type: 'bool', required: true },
      { name: 'domain', type: 'string', in: 'path', required: true },
    ],
    handler: ({ engine, params }) => changeRealmDomain(engine, params.domain, params.allow_subdomains),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/realm/domains/{domain}',
    response: 'empty',
    auth: 'owner',
    summary: 'remove an allowed domain (the last one lifts the restriction to domains)',
    params: [{ name: 'domain', type: 'string', in: 'path', required: true }],
    handler: ({ engine, params }) => removeRealmDomain(engine, params.domain),
  }),
];
