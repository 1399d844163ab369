/** Channel folder endpoints (zerver/views/channel_folders.py, zerver/actions/channel_folders.py). */
import {
  MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
  MAX_CHANNEL_FOLDER_NAME_LENGTH,
  createChannelFolder,
  listChannelFolders,
  reorderChannelFolders,
  updateChannelFolder,
} from '../../engine/channels/folders.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const channelFolderRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/channel_folders/create',
    response: 'create-channel-folder',
    auth: 'admin',
    summary: 'create a channel folder',
    params: [
      { name: 'description', type: 'string', required: true, maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH },
      { name: 'name', type: 'string', required: true, maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH },
    ],
    handler({ engine, user, params }) {
      return createChannelFolder(engine, user, params.name, params.description);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/channel_folders',
    response: 'get-channel-folders',
    auth: 'user',
    summary: "the organization's channel folders, in their order",
    params: [{ name: 'include_archived', type: 'bool', default: false }],
    handler: ({ engine, params }) => ({ channel_folders: listChannelFolders(engine, params.include_archived) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/channel_folders',
    response: 'empty',
    auth: 'admin',
    summary: 'reorder the channel folders (every folder id, archived ones included)',
    params: [{ name: 'order', type: 'int_array', required: true }],
    handler({ engine, params }) {
      return reorderChannelFolders(engine, params.order);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    response: 'empty',
    auth: 'admin',
    summary: 'rename, describe, archive or unarchive a channel folder',
    params: [
      { name: 'channel_folder_id', type: 'int', in: 'path', required: true },
      { name: 'description', type: 'string', maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH },
      { name: 'is_archived', type: 'bool' },
      { name: 'name', type: 'string', maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH },
    ],
    handler({ engine, user, params }) {
      const changes = {
        name: params.name,
        description: params.description,
        isArchived: params.is_archived,
      };
      return updateChannelFolder(engine, user, params.channel_folder_id, changes);
    },
  }),
];
