/**
 * The parameter checks routes share (a spec's `validate`), with Zulip's wording, and the small
 * builders of common specs. One home for each: a route that needs a check another route has
 * imports it from here.
 */
import { ChatError } from '../engine/errors.ts';
import { codePointLength } from '../engine/text.ts';

export { codePointLength };

export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * A negative value for a `NonNegativeInt` parameter (num_before, num_after, lifespan_secs).
 * Zulip's typed_endpoint has no message template for pydantic's `greater_than_equal`, so the
 * real server fails an assertion and answers a bare 500. Our contract is never to answer 5xx to a
 * malformed request, so this is a deliberate divergence: a 400 with the wording Zulip uses for
 * the neighbouring `greater_than` error. A client sending a negative count fails on both servers.
 */
export function nonNegative(value: number, name: string): number {
  if (value < 0) throw ChatError.badRequest(`${name} is too small`);
  return value;
}

/** `list[NonNegativeInt]` items (message_ids): the first negative one is reported. */
export function nonNegativeList(value: number[], name: string): number[] {
  const index = value.findIndex((v) => v < 0);
  if (index >= 0) throw ChatError.badRequest(`${name}[${index}] is too small`);
  return value;
}

/** `Json[bool] | None`: a JSON boolean or null. */
export function boolOrNull(value: unknown, name: string): boolean | null {
  if (value !== null && typeof value !== 'boolean') throw ChatError.badRequest(`${name} is not a boolean`);
  return value;
}

/** `Json[int] | None`. */
export function intOrNull(value: unknown, name: string): number | null {
  if (value !== null && !isInt(value)) throw ChatError.badRequest(`${name} is not an integer`);
  return value;
}

/** `Json[list[int] | None]`. */
export function intListOrNull(value: unknown, name: string): number[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (!isInt(item)) throw ChatError.badRequest(`${name}[${i}] is not an integer`);
  });
  return value as number[];
}

/** `Json[list[str]] | None`. */
export function stringListOrNull(value: unknown, name: string): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw ChatError.badRequest(`${name}[${i}] is not a string`);
  });
  return value as string[];
}

/**
 * Zulip's `Json[list[str]]` of a `json_array` parameter, optionally with each string's
 * max_length: items are checked in order and the first bad one is reported, a non-string before
 * a too-long string only if it comes first.
 */
export function stringList(maxLength?: number): (value: unknown[], name: string) => string[] {
  return (value, name) => {
    value.forEach((item, i) => {
      if (typeof item !== 'string') throw ChatError.badRequest(`${name}[${i}] is not a string`);
      if (maxLength !== undefined && codePointLength(item) > maxLength) {
        throw ChatError.badRequest(`${name}[${i}] is too long (limit: ${maxLength} characters)`);
      }
    });
    return value as string[];
  };
}

/** A JSON object whose every value is a string (`Json[dict[str, str]]`). */
export function stringValues(value: Record<string, unknown>, name: string): Record<string, string> {
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw ChatError.badRequest(`${name}["${key}"] is not a string`);
  }
  return value as Record<string, string>;
}

/** StringConstraints(strip_whitespace=True): the value trimmed. */
export const trimmed = (value: string): string => value.trim();

/**
 * Zulip's `StringConstraints(strip_whitespace=True, min_length=1, max_length=N)`: the value is
 * trimmed first, then must be non-blank and at most N code points.
 */
export function trimmedNonBlank(maxLength?: number): (value: string, name: string) => string {
  return (value, name) => {
    const text = value.trim();
    if (text === '') throw ChatError.badRequest(`${name} cannot be blank`);
    if (maxLength !== undefined && codePointLength(text) > maxLength) {
      throw ChatError.badRequest(`${name} is too long (limit: ${maxLength} characters)`);
    }
    return text;
  };
}

/** A JSON object (dict), for `json` parameters Zulip types as a dict. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------- common specs

/** Zulip's message for a value a custom validator refuses (typed_endpoint's template): `Invalid {name}: Value error, {why}`. */
export function valueError(name: string, why: string): ChatError {
  return ChatError.badRequest(`Invalid ${name}: Value error, ${why}`);
}

/**
 * check_int_in_validator and check_string_in_validator: a value among `values`, typed as one of
 * them, refused in typed_endpoint's words. (A spec's own `oneOf` answers `Invalid {name}`, as
 * has_request_variables endpoints do.)
 */
export function checkIn<T extends number | string>(values: readonly T[]): (value: T extends number ? number : string, name: string) => T {
  return (value, name) => {
    const found = values.find((v) => v === value);
    if (found === undefined) throw valueError(name, 'Not in the list of possible values');
    return found;
  };
}

/** An integer path segment, e.g. `{message_id}`. */
export const intInPath = <N extends string>(name: N) => ({ name, type: 'int', in: 'path', required: true }) as const;

/** A boolean parameter with its default (none: undefined when absent). */
export function boolParam<N extends string>(name: N): { name: N; type: 'bool' };
export function boolParam<N extends string>(name: N, value: boolean): { name: N; type: 'bool'; default: boolean };
export function boolParam<N extends string>(name: N, value?: boolean) {
  return value === undefined ? { name, type: 'bool' as const } : { name, type: 'bool' as const, default: value };
}
