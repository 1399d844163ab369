/**
 * MD5 of a UTF-8 string, as lowercase hex. Only used where Zulip uses MD5: gravatar URLs (the
 * lower-cased delivery email) and channel email tokens. js-md5 is pure JavaScript in any runtime,
 * so the engine stays free of node:* imports.
 */
import { md5 } from 'js-md5';

export function md5Hex(text: string): string {
  return md5(text);
}
