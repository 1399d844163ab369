/**
 * Data exports: POST /export/realm (export-realm), GET /export/realm (get-realm-exports),
 * GET /export/realm/consents (get-realm-export-consents), DELETE /export/realm/{export_id}
 * (served by Zulip for its data exports page, undocumented). Administrators only.
 */
import { deleteExport, EXPORT_TYPES, exportConsents, exportsForApi, requestExport } from '../../engine/realm/exports.ts';
import { checkIn, intInPath } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** export_type: check_int_in_validator over the export types. */
const exportType: (value: number, name: string) => (typeof EXPORT_TYPES)[number] = checkIn(EXPORT_TYPES);

export const realmExportRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/export/realm',
    response: 'export-realm',
    auth: 'admin',
    summary: 'request a data export of the organization',
    params: [{ name: 'export_type', type: 'int', default: 1, validate: exportType }],
    handler: ({ engine, user, params }) => requestExport(engine, user, params.export_type),
  }),
  defineRoute({
    method: 'GET',
    path: '/export/realm',
    response: 'get-realm-exports',
    auth: 'admin',
    summary: "the organization's data exports",
    params: [],
    handler: ({ engine }) => ({ exports: exportsForApi(engine) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/export/realm/consents',
    response: 'get-realm-export-consents',
    auth: 'admin',
    summary: "who consented to their private data's export",
    params: [],
    handler: ({ engine }) => ({ export_consents: exportConsents(engine) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/export/realm/{export_id}',
    response: 'empty',
    auth: 'admin',
    summary: "delete a data export's tarball",
    params: [intInPath('export_id')],
    handler: ({ engine, params }) => deleteExport(engine, params.export_id),
  }),
];
