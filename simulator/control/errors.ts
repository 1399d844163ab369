/**
 * The control API's refusals: a code of its own (schemas/control: ControlError), an HTTP status and
 * a message that says what is wrong. In-process, the same errors are thrown.
 */
import type { ControlError as ControlErrorBody } from '../../schemas/generated/types/control/control.ts';
import type { RawResponse } from '../http/envelope.ts';

export type ControlErrorCode = ControlErrorBody['code'];

const STATUS: Record<ControlErrorCode, number> = {
  BAD_REQUEST: 400,
  INVALID_FIXTURE: 400,
  INVALID_SNAPSHOT: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
};

export class ControlError extends Error {
  readonly status: number;
  constructor(
    readonly code: ControlErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ControlError';
    this.status = STATUS[code];
  }
}

export function controlErrorResponse(error: ControlError): RawResponse {
  const body: ControlErrorBody = { result: 'error', msg: error.message, code: error.code };
  return { status: error.status, headers: { 'content-type': 'application/json', ...error.headers }, body: `${JSON.stringify(body)}\n` };
}
