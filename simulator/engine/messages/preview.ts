// POST /messages/render (zerver/views/message_send.py render_message_backend): the HTML a
// message with this content would get, rendered as the caller in the caller's realm, by the
// same Markdown renderer as sending. Nothing is stored and nobody is notified.
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { renderFor } from './send.ts';

export function previewRendering(engine: Engine, caller: UserRecord, content: string): { rendered: string } {
  // Zulip renders the content as given: no stripping, and "" renders to "".
  return { rendered: renderFor(engine, caller, content).html };
}
