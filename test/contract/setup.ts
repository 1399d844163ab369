/**
 * Every test file runs with the response and event contract installed (vitest setupFiles): a
 * simulator built by any test is watched, and a test whose requests or events broke a schema
 * fails, even where the test itself did not look at the offending field.
 */
import { afterEach } from 'vitest';
import { installContract } from '../../simulator/contract.ts';
import { formatViolations, recordingContract } from './chat-contract.ts';

const contract = recordingContract();
installContract(contract);

afterEach(() => {
  const violations = contract.take();
  if (violations.length > 0) throw new Error(formatViolations(violations));
});
