// Narrow parsing and validation, as Zulip's NarrowParameter does it: each term is either the
// legacy `["operator", "operand"]` string pair or `{operator, operand, negated?}`; the operand's
// type depends on the operator. Errors carry Zulip's exact wording.
import { ChatError } from '../errors.ts';

export type Operand = string | number | (string | number)[];

export interface NarrowTerm {
  operator: string;
  operand: Operand;
  negated: boolean;
}

export const CHANNEL_OPERATORS = ['channel', 'stream'] as const;
export const CHANNELS_OPERATORS = ['channels', 'streams'] as const;
const OPERATORS_SUPPORTING_ID = new Set<string>([...CHANNEL_OPERATORS, 'id', 'sender', 'group-pm-with', 'dm-including', 'with']);
const OPERATORS_SUPPORTING_IDS = new Set(['pm-with', 'dm']);

function termError(index: number, reason: string): ChatError {
  return ChatError.badRequest(`Invalid narrow[${index}]: Value error, ${reason}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** NarrowParameter.validate_terms: check_string_or_int, check_string_or_int_list, check_required_string or check_string. */
function checkOperand(operator: string, operand: unknown): Operand {
  if (OPERATORS_SUPPORTING_ID.has(operator)) {
    if (typeof operand === 'string' || Number.isInteger(operand)) return operand as string | number;
    throw ChatError.badRequest('operand is not a string or integer');
  }
  if (OPERATORS_SUPPORTING_IDS.has(operator)) {
    // A string (comma-separated emails) or a list of user IDs; check_list(check_int) names the bad item.
    if (typeof operand === 'string') return operand;
    if (!Array.isArray(operand)) throw ChatError.badRequest('operand is not a string or an integer list');
    const bad = operand.findIndex((x) => !Number.isInteger(x));
    if (bad >= 0) throw ChatError.badRequest(`operand[${bad}] is not an integer`);
    return operand as number[];
  }
  if (typeof operand !== 'string') throw ChatError.badRequest('operand is not a string');
  if (operator === 'search' && operand.trim() === '') throw ChatError.badRequest('operand cannot be blank.');
  return operand;
}

/** Validate the decoded `narrow` parameter into terms (operators are checked later, when applied). */
export function parseNarrow(raw: unknown): NarrowTerm[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw ChatError.badRequest('narrow is not a list');
  return raw.map((elem: unknown, index): NarrowTerm => {
    let operator: unknown;
    let operand: unknown;
    let negated: unknown = false;
    let negatedSent = false;
    if (Array.isArray(elem)) {
      if (elem.length !== 2 || elem.some((x) => typeof x !== 'string')) throw termError(index, 'element is not a string pair');
      [operator, operand] = elem;
    } else if (isPlainObject(elem)) {
      if (!('operand' in elem) || elem.operand === null) throw termError(index, 'operand is missing');
      if (!('operator' in elem) || elem.operator === null) throw termError(index, 'operator is missing');
      operator = elem.operator;
      operand = elem.operand;
      if ('negated' in elem) {
        negated = elem.negated;
        negatedSent = true;
      }
    } else {
      throw termError(index, 'dict or list required');
    }
    // Field validation (strict pydantic: operator, then negated) precedes the operand checks of
    // the model's after-validator.
    if (typeof operator !== 'string') throw ChatError.badRequest(`narrow[${index}]["operator"] is not a string`);
    if (negatedSent && typeof negated !== 'boolean') throw ChatError.badRequest(`narrow[${index}]["negated"] is not a boolean`);
    const checked = checkOperand(operator, operand);
    return { operator, operand: checked, negated: negated as boolean };
  });
}

export function badNarrow(desc: string): ChatError {
  return new ChatError('BAD_NARROW', `Invalid narrow operator: ${desc}`, { extra: { desc } });
}
