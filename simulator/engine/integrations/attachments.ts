/**
 * Uploaded files and the messages that link them (zerver/views/attachments.py, zerver/lib/attachments.py, zerver/views/upload.py). The engine is
 * its own file store: bytes live in the attachment record. A message whose content links
 * `/user_uploads/{path_id}` claims that upload (when its sender may see it); deleting the last
 * such message removes the upload, as the specification describes.
 */
import { nowSeconds, type Engine } from '../core.ts';
import { URL_SAFE } from '../deps.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { canAccessMessage } from '../messages/access.ts';
import { getMessage, type StoredMessage } from '../messages/store.ts';
import { nextId, type AttachmentRecord, type UserRecord } from '../state.ts';

/** A file as the client sent it. */
export interface UploadInput {
  /** The file name of the multipart part. */
  name: string;
  /** The part's declared content type ('' when none). */
  contentType: string;
  bytes: Uint8Array;
}

/** What GET /attachments, the attachment events and detached_uploads show (feature level 472+). */
export interface AttachmentDict {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  message_ids: number[];
}

/** Types served inline; anything else is served as a download (Zulip's INLINE_MIME_TYPES). */
export const INLINE_MIME_TYPES: readonly string[] = ['application/pdf', 'image/gif', 'image/jpeg', 'image/png', 'image/webp', 'text/plain'];

/** How long a temporary download URL works (Zulip's SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS). */
export const TEMPORARY_URL_SECONDS = 60;

const HEX = '0123456789abcdef';

/** The few types Python's mimetypes.guess_type answers that clients upload most. */
const TYPES_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

export function guessContentType(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : TYPES_BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/**
 * Zulip's sanitize_name: safe for a path segment and a URL. Letters and digits of any script stay;
 * other characters but `.`, `-` and `_` go; runs of spaces and dashes become one dash.
 */
export function sanitizeName(value: string): string {
  const kept = value
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/gu, '-');
  return kept === '' || kept === '.' || kept === '..' ? 'uploaded-file' : kept;
}

/**
 * get_file_info + maybe_add_charset: the declared type, else a guess from the name, else
 * application/octet-stream; plain text gets the charset its bytes show (ASCII or UTF-8), quoted as
 * Python's email module writes it.
 */
export function storedContentType(name: string, declared: string, bytes: Uint8Array): string {
  const type = declared !== '' ? declared : (guessContentType(name) ?? 'application/octet-stream');
  if (type.split(';')[0]!.trim().toLowerCase() !== 'text/plain' || /;\s*charset=/i.test(type)) return type;
  if (bytes.every((b) => b < 0x80)) return `${type}; charset="ascii"`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return `${type}; charset="utf-8"`;
  } catch {
    return type;
  }
}

/** Python's urllib.parse.unquote: %-escapes decoded as UTF-8 (bad bytes become U+FFFD), the rest kept. */
export function unquote(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Uint8Array.from(run.match(/%../g)!, (h) => parseInt(h.slice(1), 16));
    return new TextDecoder('utf-8').decode(bytes);
  });
}

/** Bytes the whole organization's uploads take (`upload_space_used`). */
export function uploadSpaceUsed(engine: Engine): number {
  let total = 0;
  for (const a of engine.state.attachments.values()) total += a.size;
  return total;
}

export function formatAttachment(a: AttachmentRecord): AttachmentDict {
  return { id: a.id, name: a.name, path_id: a.pathId, size: a.size, create_time: a.createTime, message_ids: [...a.messageIds] };
}

function attachmentEvent(engine: Engine, op: 'add' | 'update', a: AttachmentRecord, userId: number): Effect {
  return effect({ type: 'attachment', op, attachment: formatAttachment(a), upload_space_used: uploadSpaceUsed(engine) }, [userId]);
}

export function getAttachmentByPath(engine: Engine, pathId: string): AttachmentRecord | undefined {
  const id = engine.state.attachmentsByPath.get(pathId);
  return id === undefined ? undefined : engine.state.attachments.get(id);
}

/** Store an attachment record (uploads and fixture files alike). */
export function addAttachment(engine: Engine, record: AttachmentRecord): void {
  engine.state.attachments.set(record.id, record);
  engine.state.attachmentsByPath.set(record.pathId, record.id);
}

function newPathId(engine: Engine, fileName: string): string {
  const random = engine.deps.random;
  for (;;) {
    const pathId = `${engine.state.realm.id}/${random.string(2, HEX)}/${random.string(24, URL_SAFE)}/${sanitizeName(fileName)}`;
    if (!engine.state.attachmentsByPath.has(pathId)) return pathId;
  }
}

/** Zulip's refusal of a file over the realm's max_file_upload_size_mib. */
export function fileTooLarge(engine: Engine): ChatError {
  const limitMib = engine.state.realm.max_file_upload_size_mib;
  return ChatError.badRequest(`File is larger than this server's configured maximum upload size (${limitMib} MiB).`);
}

/**
 * POST /user_uploads: exactly one file, within the realm's size limit. The upload belongs to the
 * caller and no message links it yet.
 */
export function uploadFile(engine: Engine, user: UserRecord, files: UploadInput[]): Outcome<{ uri: string; url: string; filename: string }> {
  if (files.length === 0) throw ChatError.badRequest('You must specify a file to upload');
  if (files.length > 1) throw ChatError.badRequest('You may only upload one file at a time');
  const file = { ...files[0]!, name: unquote(files[0]!.name) };
  if (file.bytes.length > engine.state.realm.max_file_upload_size_mib * 1024 * 1024) throw fileTooLarge(engine);
  const record: AttachmentRecord = {
    id: nextId(engine.state, 'attachment'),
    ownerId: user.id,
    name: file.name,
    pathId: newPathId(engine, file.name),
    size: file.bytes.length,
    contentType: storedContentType(file.name, file.contentType, file.bytes),
    createTime: nowSeconds(engine),
    bytes: file.bytes,
    messageIds: [],
  };
  addAttachment(engine, record);
  const url = `/user_uploads/${record.pathId}`;
  // `uri` is the deprecated name of `url`, still sent for older clients.
  return outcome({ uri: url, url, filename: file.name }, [attachmentEvent(engine, 'add', record, user.id)]);
}

/** GET /attachments: the caller's uploads, and what the whole organization uses. */
export function listAttachments(engine: Engine, user: UserRecord): { attachments: AttachmentDict[]; upload_space_used: number } {
  const attachments = [...engine.state.attachments.values()].filter((a) => a.ownerId === user.id).map(formatAttachment);
  return { attachments, upload_space_used: uploadSpaceUsed(engine) };
}

function removeAttachment(engine: Engine, a: AttachmentRecord): Effect {
  engine.state.attachments.delete(a.id);
  engine.state.attachmentsByPath.delete(a.pathId);
  return effect({ type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: uploadSpaceUsed(engine) }, [a.ownerId]);
}

/** DELETE /attachments/{id}: only the uploader may; anyone else's upload is as unknown as a missing one. */
export function deleteAttachment(engine: Engine, user: UserRecord, id: number): Outcome<Record<string, never>> {
  const a = engine.state.attachments.get(id);
  if (!a || a.ownerId !== user.id) throw ChatError.badRequest('Invalid attachment');
  return outcome({}, [removeAttachment(engine, a)]);
}

/**
 * validate_attachment_request: the uploader, or anyone (spectators included) who may read a message
 * that links the file.
 */
export function canAccessAttachment(engine: Engine, viewer: UserRecord | undefined, a: AttachmentRecord): boolean {
  if (viewer && viewer.id === a.ownerId) return true;
  for (const id of a.messageIds) {
    const message = getMessage(engine.state.messages, id);
    if (message && canAccessMessage(engine, viewer, message)) return true;
  }
  return false;
}

/** The upload paths a rendered message links to (relative, or under the realm's URL), in order. */
export function linkedUploadPaths(engine: Engine, html: string): string[] {
  // Every message send asks: most link no upload at all.
  if (!html.includes('/user_uploads/')) return [];
  const base = engine.state.realm.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const out: string[] = [];
  for (const m of html.matchAll(new RegExp(`href="(?:${base})?/user_uploads/([^"?#]+)"`, 'g'))) {
    let path = m[1]!.replaceAll('&amp;', '&');
    try {
      path = decodeURIComponent(path);
    } catch {
      // Not %-encoded text: the path stays as written.
    }
    if (!out.includes(path)) out.push(path);
  }
  return out;
}

function linkMessage(a: AttachmentRecord, messageId: number): void {
  if (a.messageIds.includes(messageId)) return;
  a.messageIds.push(messageId);
  a.messageIds.sort((x, y) => x - y);
}

/**
 * do_claim_attachments: link the message to every upload its content links that its sender may
 * see (a link to anything else is left alone). Zulip tells the sender, whoever owns the file.
 */
export function claimAttachments(engine: Engine, sender: UserRecord, message: StoredMessage, paths: string[]): Effect[] {
  const events: Effect[] = [];
  for (const path of paths) {
    const a = getAttachmentByPath(engine, path);
    if (!a || !canAccessAttachment(engine, sender, a)) continue;
    linkMessage(a, message.id);
    events.push(attachmentEvent(engine, 'update', a, sender.id));
  }
  return events;
}

/**
 * A message's content changed (check_attachment_reference_change): uploads it no longer links are
 * released, new ones claimed for its sender. Returns the `detached_uploads` of PATCH
 * /messages/{id}: the editor's own uploads that this edit left linked by no message.
 */
export function relinkAttachments(
  engine: Engine,
  editor: UserRecord,
  message: StoredMessage,
  html: string,
): { detached: AttachmentDict[]; events: Effect[] } {
  const paths = linkedUploadPaths(engine, html);
  const events: Effect[] = [];
  const detached: AttachmentDict[] = [];
  for (const a of [...engine.state.attachments.values()]) {
    if (!a.messageIds.includes(message.id) || paths.includes(a.pathId)) continue;
    a.messageIds = a.messageIds.filter((id) => id !== message.id);
    events.push(attachmentEvent(engine, 'update', a, a.ownerId));
    if (a.messageIds.length === 0 && a.ownerId === editor.id) detached.push(formatAttachment(a));
  }
  const sender = engine.state.users.get(message.senderId);
  const fresh = paths.filter((p) => !getAttachmentByPath(engine, p)?.messageIds.includes(message.id));
  if (sender) events.push(...claimAttachments(engine, sender, message, fresh));
  return { detached, events };
}

/**
 * Deleted messages let go of their uploads; an upload no message links any more is deleted with
 * them (the specification: removed once the last message linking it is deleted).
 */
export function releaseAttachments(engine: Engine, messageIds: ReadonlySet<number>): Effect[] {
  const events: Effect[] = [];
  for (const a of [...engine.state.attachments.values()]) {
    if (!a.messageIds.some((id) => messageIds.has(id))) continue;
    a.messageIds = a.messageIds.filter((id) => !messageIds.has(id));
    events.push(a.messageIds.length === 0 ? removeAttachment(engine, a) : attachmentEvent(engine, 'update', a, a.ownerId));
  }
  return events;
}

export type UploadAccess =
  | { kind: 'file'; attachment: AttachmentRecord }
  | { kind: 'not_found' }
  | { kind: 'forbidden' }
  /** A spectator who may not see it: Zulip sends them to the login page. */
  | { kind: 'login' };

/** Who may fetch /user_uploads/{pathId}, in Zulip's order: unknown file, then access. */
export function accessUpload(engine: Engine, viewer: UserRecord | undefined, pathId: string): UploadAccess {
  const a = getAttachmentByPath(engine, pathId);
  if (!a) return { kind: 'not_found' };
  if (canAccessAttachment(engine, viewer, a)) return { kind: 'file', attachment: a };
  return viewer ? { kind: 'forbidden' } : { kind: 'login' };
}

/**
 * GET /api/v1/user_uploads/…: a link anyone can use for a minute (mobile apps hand it to the
 * system's downloader). The token is random here, where Zulip signs the path.
 */
export function issueUploadToken(engine: Engine, a: AttachmentRecord): string {
  const now = engine.deps.clock.now();
  for (const [token, t] of engine.state.uploadTokens) if (t.expires <= now) engine.state.uploadTokens.delete(token);
  const token = engine.deps.random.string(48, '0123456789ABCDEF');
  engine.state.uploadTokens.set(token, { pathId: a.pathId, expires: now + TEMPORARY_URL_SECONDS });
  return token;
}

/** serve_file_unauthed_from_token: the token must be current and the name must match the file's. */
export function attachmentForToken(engine: Engine, token: string, fileName: string): AttachmentRecord {
  const entry = engine.state.uploadTokens.get(token);
  if (!entry || entry.expires <= engine.deps.clock.now()) throw ChatError.badRequest('Invalid token');
  if (entry.pathId.split('/').pop() !== fileName) throw ChatError.badRequest('Invalid filename');
  const a = getAttachmentByPath(engine, entry.pathId);
  if (!a) throw ChatError.badRequest('Invalid token');
  return a;
}

