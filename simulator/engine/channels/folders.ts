/**
 * Channel folders (zerver/views/channel_folders.py, zerver/actions/channel_folders.py): named, ordered groups of channels that administrators
 * create, edit, archive and reorder; every change is announced to the whole realm.
 */
import { activeUserIds, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { renderFor } from '../messages/send.ts';
import { nextId, type ChannelFolderRecord, type UserRecord } from '../state.ts';
import { unprintablePosition } from '../text.ts';

/** Zulip's ChannelFolder.MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH. */
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

export interface ChannelFolderDict {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  order: number;
  date_created: number;
  creator_id: number | null;
  is_archived: boolean;
}

export function formatChannelFolder(folder: ChannelFolderRecord): ChannelFolderDict {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.renderedDescription,
    order: folder.order,
    date_created: folder.dateCreated,
    creator_id: folder.creatorId,
    is_archived: folder.isArchived,
  };
}

/** get_channel_folder_by_id: any folder of the realm, archived or not. */
export function accessChannelFolder(engine: Engine, id: number): ChannelFolderRecord {
  const folder = engine.state.channelFolders.get(id);
  if (!folder) throw ChatError.badRequest('Invalid channel folder ID');
  return folder;
}

/**
 * check_channel_folder_name: the name is stored as sent, but must not be blank, must print, and
 * must differ (ignoring case) from every folder's name, archived folders included.
 */
function checkFolderName(engine: Engine, name: string): void {
  if (name.trim() === '') throw ChatError.badRequest("Channel folder name can't be empty.");
  const bad = unprintablePosition(name);
  if (bad !== undefined) throw ChatError.badRequest(`Invalid character in channel folder name, at position ${bad}.`);
  const key = name.toLowerCase();
  for (const folder of engine.state.channelFolders.values()) {
    if (folder.name.toLowerCase() === key) throw ChatError.badRequest('Channel folder name already in use');
  }
}

function renderFolderDescription(engine: Engine, actor: UserRecord | undefined, description: string): string {
  return description === '' ? '' : renderFor(engine, actor, description).html;
}

/** Name and description arrive within their length limits (the HTTP layer's parameter checks). */
export function createChannelFolder(
  engine: Engine,
  actor: UserRecord,
  name: string,
  description: string,
): Outcome<{ channel_folder_id: number }> {
  checkFolderName(engine, name);
  const id = nextId(engine.state, 'channel_folder');
  const folder: ChannelFolderRecord = {
    id,
    name,
    description,
    renderedDescription: renderFolderDescription(engine, actor, description),
    order: id,
    dateCreated: nowSeconds(engine),
    creatorId: actor.id,
    isArchived: false,
  };
  engine.state.channelFolders.set(id, folder);
  const event = effect({ type: 'channel_folder', op: 'add', channel_folder: formatChannelFolder(folder) }, activeUserIds(engine));
  return outcome({ channel_folder_id: id }, [event]);
}

function folderInUse(engine: Engine, folderId: number): boolean {
  for (const stream of engine.state.streams.values()) if (stream.folder_id === folderId) return true;
  return false;
}

/**
 * PATCH /channel_folders/{id}: only values that differ count, each announced as its own update.
 * Every check comes before any change, so a refused archive leaves a rename undone too.
 */
export function updateChannelFolder(
  engine: Engine,
  actor: UserRecord,
  id: number,
  changes: { name?: string | undefined; description?: string | undefined; isArchived?: boolean | undefined },
): Outcome<Record<string, never>> {
  const folder = accessChannelFolder(engine, id);
  const rename = changes.name !== undefined && changes.name !== folder.name;
  if (rename) checkFolderName(engine, changes.name!);
  const redescribe = changes.description !== undefined && changes.description !== folder.description;
  const archive = changes.isArchived !== undefined && changes.isArchived !== folder.isArchived;
  if (archive && changes.isArchived && folderInUse(engine, folder.id)) {
    throw ChatError.badRequest('You need to remove all the channels from this folder to archive it.');
  }

  const audience = activeUserIds(engine);
  const update = (data: Record<string, unknown>): Effect =>
    effect({ type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data }, audience);
  const events: Effect[] = [];
  if (rename) {
    folder.name = changes.name!;
    events.push(update({ name: folder.name }));
  }
  if (redescribe) {
    folder.description = changes.description!;
    folder.renderedDescription = renderFolderDescription(engine, actor, folder.description);
    events.push(update({ description: folder.description, rendered_description: folder.renderedDescription }));
  }
  if (archive) {
    folder.isArchived = changes.isArchived!;
    events.push(update({ is_archived: folder.isArchived }));
  }
  return outcome({}, events);
}

/**
 * PATCH /channel_folders: every folder, archived ones too, must be listed; each takes its index
 * (the last one, if listed twice) as its order. Unknown ids are ignored.
 */
export function reorderChannelFolders(engine: Engine, order: number[]): Outcome<Record<string, never>> {
  const position = new Map<number, number>();
  order.forEach((id, index) => position.set(id, index));
  const folders = [...engine.state.channelFolders.values()];
  // The specification's wording, without the period Zulip ends it with.
  if (folders.some((f) => !position.has(f.id))) throw ChatError.badRequest('Invalid order mapping');
  for (const folder of folders) folder.order = position.get(folder.id)!;
  return outcome({}, [effect({ type: 'channel_folder', op: 'reorder', order: [...order] }, activeUserIds(engine))]);
}

function sortedFolders(engine: Engine): ChannelFolderRecord[] {
  return [...engine.state.channelFolders.values()].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** GET /channel_folders: by order; archived folders only when asked for. */
export function listChannelFolders(engine: Engine, includeArchived: boolean): ChannelFolderDict[] {
  return sortedFolders(engine)
    .filter((f) => includeArchived || !f.isArchived)
    .map(formatChannelFolder);
}

/** The `channel_folders` key of /register: every folder, archived ones included. */
export function channelFoldersRegisterState(engine: Engine): { channel_folders: ChannelFolderDict[] } {
  return { channel_folders: sortedFolders(engine).map(formatChannelFolder) };
}
