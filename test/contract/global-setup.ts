/**
 * Vitest's global setup: compile the chat schemas' validators once for the whole run (see
 * compile.ts), before the workers start, so that no test file pays for it.
 */
import { ensureCompiled } from './compile.ts';

export default function setup(): void {
  ensureCompiled();
}
