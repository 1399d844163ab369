/**
 * Uploads and attachments (zerver/views/attachments.py, zerver/lib/attachments.py, zerver/views/upload.py): POST /user_uploads, the download URLs
 * at the site root (with Basic credentials, or a temporary token), GET and DELETE /attachments.
 */
import {
  INLINE_MIME_TYPES,
  accessUpload,
  attachmentForToken,
  deleteAttachment,
  fileTooLarge,
  issueUploadToken,
  listAttachments,
  uploadFile,
  type UploadAccess,
} from '../../engine/integrations/attachments.ts';
import type { AttachmentRecord } from '../../engine/state.ts';
import { defineRoute, paramList } from '../define-route.ts';
import { RawReply, type Route } from '../route.ts';

const HTML = 'text/html; charset=utf-8';

/** Python's urllib.parse.quote (safe '/'), for RFC 5987 file names. */
function pyQuote(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%2F', '/');
}

/** Django's content_disposition_header. */
export function contentDisposition(download: boolean, filename: string): string {
  const file = /^[\t\x20-\x7e]*$/.test(filename)
    ? `filename="${filename.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
    : `filename*=utf-8''${pyQuote(filename)}`;
  return `${download ? 'attachment' : 'inline'}; ${file}`;
}

/** The file itself: inline only for types a browser may safely show, else as a download. */
function fileReply(a: AttachmentRecord): RawReply {
  const bare = a.contentType.split(';')[0]!.trim().toLowerCase();
  return new RawReply({
    status: 200,
    headers: {
      'content-type': a.contentType,
      'content-disposition': contentDisposition(!INLINE_MIME_TYPES.includes(bare), a.name),
      'cache-control': 'private, immutable',
    },
    body: '',
    bytes: a.bytes,
  });
}

/** serve_file's answers when the file is not served: HTML pages, or the login page for spectators. */
function refusal(access: Exclude<UploadAccess, { kind: 'file' }>, path: string): RawReply {
  switch (access.kind) {
    case 'not_found':
      return new RawReply({ status: 404, headers: { 'content-type': HTML, vary: 'Accept' }, body: '<p>This file does not exist or has been deleted.</p>' });
    case 'forbidden':
      return new RawReply({ status: 403, headers: { 'content-type': HTML, vary: 'Accept' }, body: '<p>You are not authorized to view this file.</p>' });
    case 'login':
      return new RawReply({ status: 302, headers: { location: `/login/?next=${encodeURIComponent(path)}`, vary: 'Accept' }, body: '' });
  }
}

const uploadPath = paramList([
  { name: 'realm_id', type: 'int', in: 'path', required: true },
  { name: 'filename', type: 'string', in: 'path', required: true, spansSegments: true },
]);

const pathIdOf = (params: Record<string, unknown>) => `${params.realm_id}/${params.filename}`;

export const uploadRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/user_uploads',
    response: 'upload-file',
    auth: 'user',
    summary: 'upload one file (multipart, any field name)',
    params: [{ name: 'file', type: 'file', anyField: true }],
    // The body may carry the largest file the realm accepts, plus room for the multipart framing,
    // so that a file just over the limit gets the same answer from uploadFile.
    maxBodyBytes: (engine) => (engine.state.realm.max_file_upload_size_mib + 1) * 1024 * 1024,
    bodyTooLarge: fileTooLarge,
    handler({ engine, user, params }) {
      const files = (params.file).map((f) => ({ name: f.filename, contentType: f.contentType, bytes: f.bytes }));
      return uploadFile(engine, user, files);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_uploads/{realm_id}/{filename}',
    response: 'get-file-temporary-url',
    auth: 'user',
    summary: 'a temporary link to an upload, usable without credentials for a minute',
    params: uploadPath,
    handler({ engine, user, params }) {
      const pathId = pathIdOf(params);
      const access = accessUpload(engine, user, pathId);
      if (access.kind !== 'file') return refusal(access, `/user_uploads/${pathId}`);
      const token = issueUploadToken(engine, access.attachment);
      return { url: `/user_uploads/temporary/${token}/${pathId.split('/').pop()!}` };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_uploads/{realm_id}/{filename}',
    response: 'file',
    outsideApi: true,
    // The uploader, or anyone who can read a message linking the file; spectators for web-public ones.
    auth: 'optional',
    summary: 'download an upload',
    params: uploadPath,
    handler({ engine, user, params }) {
      const pathId = pathIdOf(params);
      const access = accessUpload(engine, user, pathId);
      return access.kind === 'file' ? fileReply(access.attachment) : refusal(access, `/user_uploads/${pathId}`);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_uploads/temporary/{token}/{filename}',
    response: 'file',
    outsideApi: true,
    auth: 'none',
    summary: 'download an upload through a temporary link',
    params: [
      { name: 'token', type: 'string', in: 'path', required: true },
      { name: 'filename', type: 'string', in: 'path', required: true },
    ],
    handler({ engine, params }) {
      return fileReply(attachmentForToken(engine, params.token, params.filename));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/attachments',
    response: 'get-attachments',
    auth: 'user',
    summary: "your uploads, and the organization's upload space used",
    params: [],
    handler: ({ engine, user }) => ({ ...listAttachments(engine, user) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/attachments/{attachment_id}',
    response: 'empty',
    auth: 'user',
    summary: 'delete one of your uploads',
    params: [{ name: 'attachment_id', type: 'int', in: 'path', required: true }],
    handler({ engine, user, params }) {
      return deleteAttachment(engine, user, params.attachment_id);
    },
  }),
];
