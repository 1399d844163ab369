// Placeholder created by core only because the messages helper's seed.ts was absent; the messages
// helper owns and replaces this file.
import type { FixtureMessage } from '../../../types/chat/fixture.ts';
import type { Engine } from '../engine.ts';

export function seedMessages(_engine: Engine, messages: FixtureMessage[]): void {
  if (messages.length > 0) throw new Error('messages not implemented yet');
}
