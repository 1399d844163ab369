/**
 * SHA-256 of a UTF-8 string, as lowercase hex: what clients send as `prev_content_sha256` when
 * editing a message. js-sha256 is pure JavaScript, so the engine stays free of node:* imports.
 */
import { sha256 } from 'js-sha256';

export function sha256Hex(text: string): string {
  return sha256(text);
}
