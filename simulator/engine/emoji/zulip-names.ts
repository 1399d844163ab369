// Names Zulip's own emoji table gives to common Unicode emoji, beyond iamcal's short names
// (Zulip curates its names in tools/setup/emoji/emoji_names.py). These are added as extra names;
// they never replace a datasource short name (the overrides below do, where Zulip's table differs).
export const ZULIP_EXTRA_NAMES: Readonly<Record<string, string>> = {
  thumbs_up: '1f44d',
  thumbs_down: '1f44e',
  hundred_points: '1f4af',
  happy: '1f600',
  big_smile: '1f604',
  lol: '1f606',
  laughter_tears: '1f602',
  rolling_on_the_floor_laughing: '1f923',
  halo: '1f607',
  slight_smile: '1f642',
  upside_down: '1f643',
  oops: '1f643',
  in_love: '1f60d',
  heart_kiss: '1f618',
  money_face: '1f911',
  hug: '1f917',
  nerd: '1f913',
  geek: '1f913',
  oh_no: '1f615',
  frown: '1f641',
  slight_frown: '1f641',
  sad: '2639',
  thinking: '1f914',
  silence: '1f910',
  sick: '1f912',
  hurt: '1f915',
  poop: '1f4a9',
  crying_cat: '1f63f',
  praise: '1f64c',
  applause: '1f44f',
  welcome: '1f64f',
  thank_you: '1f64f',
  namaste: '1f64f',
  done_deal: '1f91d',
  fist_bump: '1f44a',
  power: '270a',
  peace_sign: '270c',
  rock_on: '1f918',
  ok: '1f44c',
  got_it: '1f44c',
  this: '1f446',
  high_five: '1f590',
  hello: '1f44b',
  hi: '1f44b',
  looking: '1f440',
  working_on_it: '1f6e0',
  check: '2705',
  party_popper: '1f389',
  octopus: '1f419',
};

/**
 * Names Zulip gives to a different emoji than iamcal does (tools/setup/emoji/emoji_names.py), so
 * they replace the datasource's: Zulip's `:smile:` is ☺ (its "big_smile" is iamcal's smile).
 * Only conflicts verified against Zulip's table are listed.
 */
export const ZULIP_NAME_OVERRIDES: Readonly<Record<string, string>> = {
  smile: '263a',
  stuck_out_tongue: '1f61d',
  point_up: '1f446',
  ok: '1f44c',
  dizzy: '1f635',
};

/** Zulip's canonical names for these codes (shown as the name of a literal emoji in messages). */
export const ZULIP_CANONICAL_NAMES: Readonly<Record<string, string>> = {
  '263a': 'smile',
  '1f604': 'big_smile',
  '1f642': 'slight_smile',
  '1f61d': 'stuck_out_tongue',
  '1f61b': 'mischievous',
  '1f61c': 'stuck_out_tongue_wink',
  '1f446': 'point_up',
  '261d': 'wait_one_second',
  '1f44c': 'ok',
  '1f635': 'dizzy',
  '1f4ab': 'seeing_stars',
  '1f63f': 'crying_cat',
};
