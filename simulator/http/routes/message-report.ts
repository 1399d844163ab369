/** POST /messages/{message_id}/report (report-message; zerver/views/message_report.py). */
import { MAX_REPORT_MESSAGE_EXPLANATION_LENGTH, REPORT_MESSAGE_REASONS, reportMessage } from '../../engine/messages/report.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

export const messageReportRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/messages/{message_id}/report',
    response: 'empty',
    auth: 'user',
    summary: "report a message to the organization's moderation request channel",
    // report_message_backend's parameters, in its order.
    params: [
      { name: 'message_id', type: 'int', in: 'path', required: true },
      { name: 'report_type', type: 'string', required: true, oneOf: Object.keys(REPORT_MESSAGE_REASONS) },
      { name: 'description', type: 'string', default: '', maxLength: MAX_REPORT_MESSAGE_EXPLANATION_LENGTH },
    ],
    handler: ({ engine, user, params }) =>
      reportMessage(engine, user, params.message_id, { reportType: params.report_type, description: params.description }),
  }),
];
