/**
 * The npm package's stand-in for zxcvbn. zxcvbn's dictionaries are 800 KB, and only a fixture that
 * asks for production's password rules (realm.password_min_guesses above 0) ever scores a
 * password, so the package leaves them out and loads the real zxcvbn, installed beside it, on the
 * first score. `npm run simulator` carries it too (scripts/run.mjs), and so starts without them.
 */
'use strict';

let real;

module.exports = function zxcvbn(password) {
  if (real === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS stand-in loading the real package on first use
      real = require('zxcvbn');
    } catch (error) {
      throw new Error(
        'realm.password_min_guesses needs zxcvbn to score passwords: install it beside team-chat-simulator (npm install --save-dev zxcvbn), or set password_min_guesses to 0 as Zulip\'s development server has it',
        { cause: error },
      );
    }
  }
  return real(password);
};
