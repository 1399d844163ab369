/**
 * The response and event contract of the chat simulator: every JSON body it answers is checked
 * against Zulip's envelope and, on success, against the response schema its route declares
 * (schemas/chat/responses/<name>.schema.json); every event entering a queue against the schema of
 * its type, or of its type and op (schemas/chat/events/<type>.<op>.schema.json). The schemas are
 * written from the specification and Zulip's reference, not from the simulator: a field that
 * drifts is a violation.
 *
 * The validators are compiled once per change of the schemas, before the test run (compile.ts,
 * vitest's global setup), and loaded by each test file; without that module (another runner),
 * each schema is compiled on first use and kept.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Contract } from '../../simulator/contract.ts';
import type { RawResponse } from '../../simulator/http/envelope.ts';
import type { Route } from '../../simulator/http/route.ts';
import { loadCompiled, newAjv, readSchemas } from './compile.ts';

const ID_BASE = 'chat/';
const ENVELOPE = `${ID_BASE}envelope.schema.json`;
/** The envelope's own keys: what is left of a success body is the route's fields. */
const ENVELOPE_KEYS = new Set(['result', 'msg', 'ignored_parameters_unsupported']);

export interface Violation {
  /** What was checked: `GET /users/{user_id} → 200`, `event realm_user.update`, … */
  subject: string;
  /** ajv's complaints, one line each, or why nothing could be checked. */
  problems: string[];
  /** The offending value, for the failure message. */
  value: unknown;
}

/** The validators: the run's compiled module (compile.ts) when there is one, else compiled here on first use. */
let source: { compiled: Map<string, ValidateFunction> } | { ajv: Ajv } | undefined;
const known = new Map<string, ValidateFunction | null>();

/** The validator of a schema (or a `#/definitions/…` inside one) by its $id; null when there is none. */
export function validatorFor(id: string): ValidateFunction | null {
  let validate = known.get(id);
  if (validate !== undefined) return validate;
  if (!source) {
    const set = readSchemas();
    const compiled = loadCompiled(set);
    source = compiled ? { compiled } : { ajv: newAjv(set) };
  }
  if ('compiled' in source) validate = source.compiled.get(id) ?? null;
  else {
    const [file] = id.split('#');
    validate = source.ajv.getSchema(file!) ? (source.ajv.getSchema(id) ?? null) : null;
  }
  known.set(id, validate);
  return validate;
}

export function responseSchemaId(name: string): string {
  return `${ID_BASE}responses/${name}.schema.json`;
}

/** The schema an event is held to: its type and op's, else its type's. */
export function eventSchemaId(event: Readonly<Record<string, unknown>>): string | null {
  const type = String(event.type);
  if (typeof event.op === 'string') {
    const withOp = `${ID_BASE}events/${type}.${event.op}.schema.json`;
    if (validatorFor(withOp)) return withOp;
  }
  const plain = `${ID_BASE}events/${type}.schema.json`;
  return validatorFor(plain) ? plain : null;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? '(top level)' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"` : '';
    const allowed = e.keyword === 'enum' || e.keyword === 'const' ? ` ${JSON.stringify(e.params)}` : '';
    return `${where} ${e.message ?? e.keyword}${extra}${allowed}`;
  });
}

function check(id: string, value: unknown): string[] {
  const validate = validatorFor(id);
  if (!validate) return [`no schema ${id}`];
  return validate(value) ? [] : describe(validate.errors);
}

/** What a JSON response body breaks, given the route that answered (none: unknown path, 405, a refusal). */
export function checkResponse(route: Pick<Route, 'response'> | undefined, response: RawResponse): string[] {
  // A route that declares no contract is a test's own (every route of the table declares one).
  if (route && route.response === undefined) return [];
  if (response.bytes || response.body === '') return [];
  const type = response.headers['content-type'] ?? '';
  // Django's 405 keeps its HTML content type over Zulip's JSON body.
  if (!type.startsWith('application/json') && !(response.status === 405 && response.body.startsWith('{'))) return [];
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return ['the body is not JSON though its type says so'];
  }
  const envelope = body as Record<string, unknown>;
  if (envelope.result === 'success') {
    if (response.status !== 200) return [`a success answered with HTTP ${response.status}`];
    const problems = check(`${ENVELOPE}#/definitions/SuccessEnvelope`, body);
    if (route?.response === undefined) return problems;
    const fields = Object.fromEntries(Object.entries(envelope).filter(([k]) => !ENVELOPE_KEYS.has(k)));
    return [...problems, ...check(responseSchemaId(route.response), fields)];
  }
  if (response.status < 400) return [`an error answered with HTTP ${response.status}`];
  // Django's 405 has its own body; every other error is Zulip's JsonableError envelope.
  return check(`${ENVELOPE}#/definitions/${response.status === 405 ? 'MethodNotAllowed' : 'ErrorEnvelope'}`, body);
}

export function checkEvent(event: Readonly<Record<string, unknown>>): string[] {
  const id = eventSchemaId(event);
  if (!id) return [`no schema for event type ${JSON.stringify(event.type)}${typeof event.op === 'string' ? ` op ${JSON.stringify(event.op)}` : ''}`];
  return check(id, event);
}

export function routeName(route: Pick<Route, 'method' | 'path'> | undefined, request: { method: string; url: string }): string {
  return route ? `${route.method} ${route.path}` : `${request.method} ${request.url} (no route)`;
}

/**
 * A contract that records what breaks it. A response that breaks it also throws, so the request
 * that produced it fails where it was made; an event only records (throwing inside delivery would
 * leave the action half done), and `take()` hands the records to whoever fails the test.
 */
export function recordingContract(): Contract & { take(): Violation[] } {
  let violations: Violation[] = [];
  return {
    response(route, response, request) {
      const problems = checkResponse(route, response);
      if (problems.length === 0) return;
      const violation = { subject: `${routeName(route, request)} → ${response.status}`, problems, value: response.body };
      violations.push(violation);
      throw new Error(formatViolations([violation]));
    },
    event(event) {
      const problems = checkEvent(event);
      if (problems.length > 0) violations.push({ subject: `event ${String(event.type)}${event.op ? `.${String(event.op)}` : ''}`, problems, value: event });
    },
    take() {
      const out = violations;
      violations = [];
      return out;
    },
  };
}

export function formatViolations(violations: Violation[]): string {
  const shown = violations.slice(0, 10).map((v) => {
    const value = typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
    return `${v.subject} breaks its schema:\n  ${v.problems.join('\n  ')}\n  value: ${value.length > 2000 ? `${value.slice(0, 2000)}…` : value}`;
  });
  const more = violations.length > 10 ? `\n(and ${violations.length - 10} more)` : '';
  return `Response/event contract violated:\n${shown.join('\n')}${more}`;
}
