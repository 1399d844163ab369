/**
 * Stage 6 (pure): every emitted JSON file is checked against its schema before anything is
 * written, so a generator bug can never publish a file that breaks the contract.
 */
import type { Outputs } from './emit.ts';
import { issue, type Issue } from './issues.ts';
import { schemaRegistry } from './schemas.ts';
import { pointerToField } from './validate.ts';

export function checkOutputs(outputs: Outputs): Issue[] {
  const registry = schemaRegistry();
  const issues: Issue[] = [];
  for (const [file, out] of outputs) {
    if (out.kind !== 'json' || out.schema === null) continue;
    const check = registry.validator(out.schema);
    if (check(out.value)) continue;
    for (const e of check.errors ?? []) {
      issues.push(issue(`dist/${file}`, pointerToField(e.instancePath) || '(root)', 'output_invalid', `${e.message ?? 'is invalid'} (schema ${out.schema})`));
    }
  }
  return issues;
}
