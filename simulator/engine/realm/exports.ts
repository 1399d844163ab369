/**
 * Data exports (zerver/views/realm_export.py, zerver/actions/realm_export.py): administrators ask
 * for one, see them listed, delete a finished one's tarball, and read who consented to their
 * private data being exported. Zulip makes the tarball in its deferred_work worker; here the
 * worker's run follows the request at once, so its answer already lists the export as made, and
 * the events come in Zulip's order: the export pending, Notification Bot's direct message to the
 * administrator who asked, the export made. The tarball itself is not built: its URL is where
 * Zulip's local storage would serve it, and the simulator does not.
 */
import { activeUsers, humanAdminIds, notificationBot, nowSeconds, type Engine } from '../core.ts';
import { URL_SAFE } from '../deps.ts';
import { sendNotice } from '../channels/notifications.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { nextId, type RealmExportRecord, type UserRecord } from '../state.ts';
import { settingValue } from '../users/settings.ts';
import type { RealmExport } from '../../../schemas/generated/types/chat/realm-export.ts';
import type { GetRealmExportConsentsResponse } from '../../../schemas/generated/types/chat/responses/get-realm-export-consents.ts';

/** RealmExport.EXPORT_PUBLIC and EXPORT_FULL_WITH_CONSENT: the types the API accepts. */
export const EXPORT_TYPES = [1, 2] as const;
/** export_realm's limits: exports per 7 days, messages, upload bytes (20 GiB). */
const EXPORT_LIMIT = 5;
const EXPORT_LIMIT_WINDOW_S = 7 * 24 * 60 * 60;
const MAX_MESSAGE_HISTORY = 250_000;
const MAX_UPLOAD_QUOTA = 20 * 1024 * 1024 * 1024;
/** FromAddress.SUPPORT of the development server (ZULIP_ADMINISTRATOR in zproject/dev_settings.py). */
const SUPPORT_EMAIL = 'desdemona+admin@zulip.com';
/** The characters of Python's tempfile names (mkdtemp's `zulip-export-XXXXXXXX`). */
const TEMPFILE_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789_';

/** One export as get_realm_exports_serialized gives it. */
function exportForApi(engine: Engine, record: RealmExportRecord): RealmExport {
  return {
    id: record.id,
    export_time: record.requestedAt,
    acting_user_id: record.actingUserId,
    export_url: record.status === 'succeeded' ? `${engine.state.realm.url}${record.exportPath!}` : null,
    deleted_timestamp: record.deletedAt,
    // The worker here cannot fail (nothing is written), so no export has a failure time.
    failed_timestamp: null,
    pending: record.status === 'requested',
    export_type: record.type,
  };
}

/** GET /export/realm: every export, by id. */
export function exportsForApi(engine: Engine): RealmExport[] {
  return engine.state.realm.exports.map((r) => exportForApi(engine, r));
}

/** notify_realm_export: the whole list, to the realm's human administrators. */
function exportsEvent(engine: Engine): Effect {
  return effect({ type: 'realm_export', exports: exportsForApi(engine) }, humanAdminIds(engine));
}

/** Realm.currently_used_upload_space_bytes: the sizes of the realm's uploaded files. */
function usedUploadBytes(engine: Engine): number {
  let bytes = 0;
  for (const attachment of engine.state.attachments.values()) bytes += attachment.size;
  return bytes;
}

/**
 * POST /export/realm (export_realm; administrators, checked by the route): at most five exports
 * requested in seven days; an organization past the size limits is asked to request a manual
 * export. (Zulip estimates the messages from its analytics counts, whatever the export's type:
 * here, every message stored.)
 */
export function requestExport(engine: Engine, actor: UserRecord, type: RealmExportRecord['type']): Outcome<{ id: number }> {
  const now = nowSeconds(engine);
  const realm = engine.state.realm;
  if (realm.exports.filter((r) => r.requestedAt >= now - EXPORT_LIMIT_WINDOW_S).length >= EXPORT_LIMIT) {
    throw ChatError.badRequest('Exceeded rate limit.');
  }
  if (engine.state.messages.messages.length > MAX_MESSAGE_HISTORY || usedUploadBytes(engine) > MAX_UPLOAD_QUOTA) {
    throw ChatError.badRequest(
      `The export you requested is too large for automatic processing. Please request a manual export by contacting ${SUPPORT_EMAIL}.`,
    );
  }
  const record: RealmExportRecord = {
    id: nextId(engine.state, 'realm_export'),
    actingUserId: actor.id,
    type,
    status: 'requested',
    requestedAt: now,
    exportPath: null,
    deletedAt: null,
  };
  realm.exports.push(record);
  const events = [exportsEvent(engine), ...runExport(engine, record, actor)];
  return outcome({ id: record.id }, events);
}

/**
 * export_realm_from_event, as the worker runs it: the tarball goes where LocalUploadBackend's
 * upload_export_tarball puts it (under the avatars directory, a random 18-byte token per export),
 * Notification Bot tells the administrator who asked, and the administrators get the new list.
 */
function runExport(engine: Engine, record: RealmExportRecord, actor: UserRecord): Effect[] {
  const random = engine.deps.random;
  const realm = engine.state.realm;
  const tarball = `zulip-export-${random.string(8, TEMPFILE_CHARS)}.tar.gz`;
  record.exportPath = `/user_avatars/exports/${realm.id}/${random.string(24, URL_SAFE)}/${tarball}`;
  record.status = 'succeeded';
  const events: Effect[] = [];
  const bot = notificationBot(engine);
  if (bot) {
    const content = 'Your data export is complete. [View and download exports](/#organization/data-exports-admin).';
    events.push(...sendNotice(engine, bot, { kind: 'direct', users: [actor] }, content, []).events);
  }
  events.push(exportsEvent(engine));
  return events;
}

/**
 * DELETE /export/realm/{export_id} (delete_realm_export): a made export's tarball goes. Zulip also
 * refuses a failed export and one still in progress; here the worker has always finished, and
 * never fails, by the time another request comes.
 */
export function deleteExport(engine: Engine, exportId: number): Outcome<Record<string, never>> {
  const record = engine.state.realm.exports.find((r) => r.id === exportId);
  if (!record) throw ChatError.badRequest('Invalid data export ID');
  if (record.status === 'deleted') throw ChatError.badRequest('Export already deleted');
  record.status = 'deleted';
  record.deletedAt = nowSeconds(engine);
  return outcome({}, [exportsEvent(engine)]);
}

/** GET /export/realm/consents (get_users_export_consents): every active human user. */
export function exportConsents(engine: Engine): GetRealmExportConsentsResponse['export_consents'] {
  return activeUsers(engine)
    .filter((u) => !u.is_bot)
    .map((u) => ({ user_id: u.id, consented: settingValue(u, 'allow_private_data_export') === true, email_address_visibility: u.email_address_visibility }));
}

/** do_change_user_setting's realm_export_consent event, to the human administrators. */
export function exportConsentEvent(engine: Engine, user: UserRecord, consented: boolean): Effect {
  return effect({ type: 'realm_export_consent', user_id: user.id, consented }, humanAdminIds(engine));
}
