/** GET /messages/{message_id}/read_receipts (get-read-receipts). */
import { readReceipts } from '../../engine/messages/read-receipts.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const readReceiptRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/messages/{message_id}/read_receipts',
    response: 'get-read-receipts',
    auth: 'user',
    summary: 'who has read a message (when the organization has read receipts on)',
    params: [{ name: 'message_id', type: 'int', in: 'path', required: true }],
    handler: ({ engine, user, params }) => readReceipts(engine, user, params.message_id),
  }),
];
