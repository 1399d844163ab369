/**
 * The one Zulip version the simulator claims to be. Every place that reports it (GET
 * /server_settings, POST /register, `restart` events) reads these constants, so clients that gate
 * behaviour on the feature level see a single, consistent server.
 *
 * Feature level 496 is the newest level the specification names (bots may create user groups);
 * the specification's other levels (494 bot storage for bots only, 493 video-call creation, 473
 * bots setting statuses, ...) are all at or below it, which places the server in Zulip 12.0's
 * development series.
 */
export const ZULIP_VERSION = '12.0-dev';

/** The API feature level (zulip_feature_level). */
export const ZULIP_FEATURE_LEVEL = 496;

/** The release the development branch was cut from, as `git describe` would name it ("" if unknown). */
export const ZULIP_MERGE_BASE = '12.0-dev';
