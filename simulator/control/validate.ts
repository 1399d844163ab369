/**
 * Control API documents checked against schemas/control/control.schema.json (the same schemas the
 * OpenAPI description publishes), compiled once; a failure names the field and what is wrong.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import schema from '../../schemas/control/control.schema.json' with { type: 'json' };
import { ControlError } from './errors.ts';

/**
 * A definition of control.schema.json. A plain string in the published declarations, which cannot
 * import the JSON file; an unknown name fails when it is first compiled (the route-table tests use
 * every name).
 */
export type ControlSchemaName = string;

/**
 * Made on the first control request, not at import: adding the schema compiles ajv's meta-schema
 * to check it, a few percent of `npm run simulator`'s start-up, which needs no control request.
 */
let ajv: Ajv | undefined;
const compiled = new Map<ControlSchemaName, ValidateFunction>();

function validator(name: ControlSchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    ajv ??= new Ajv({ allErrors: true, strict: false }).addSchema(schema);
    validate = ajv.getSchema(`${schema.$id}#/definitions/${name}`);
    if (!validate) throw new Error(`control.schema.json has no definition "${name}"`);
    compiled.set(name, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the body' : error.instancePath.slice(1).replace(/\//g, '.');
  if (error.keyword === 'additionalProperties') {
    return `${where}: unknown field "${String((error.params as { additionalProperty: string }).additionalProperty)}"`;
  }
  if (error.keyword === 'enum') return `${where}: must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  return `${where}: ${error.message ?? error.keyword}`;
}

/** Throws ControlError BAD_REQUEST naming every problem when `value` is not a `name`. */
export function checkDocument<T>(name: ControlSchemaName, value: unknown): T {
  const validate = validator(name);
  if (!validate(value)) {
    const problems = [...new Set((validate.errors ?? []).map(describe))];
    throw new ControlError('BAD_REQUEST', `Invalid ${name}: ${problems.join('; ')}`);
  }
  return value as T;
}

/** Whether `value` is a `name` (tests of the answers' shapes use it too). */
export function isDocument(name: ControlSchemaName, value: unknown): boolean {
  return validator(name)(value) === true;
}
