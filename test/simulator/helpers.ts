/** Shared test seam: a simulator on the dev realm with a fixed clock, and compiled response schemas. */
import { Ajv } from 'ajv';
import channelSchema from '../../schemas/chat/channel.schema.json' with { type: 'json' };
import envelopeSchema from '../../schemas/chat/envelope.schema.json' with { type: 'json' };
import userSchema from '../../schemas/chat/user.schema.json' with { type: 'json' };
import { createSimulator, DEFAULT_FIXTURE, fixedClock, type SimulatorOptions } from '../../simulator/index.ts';
import type { Fixture } from '../../types/chat/fixture.ts';

export const NOW = 1_700_100_000;

export function sim(options: SimulatorOptions = {}) {
  return createSimulator({ seed: 1, clock: fixedClock(NOW), ...options });
}

/** A deep copy of the dev fixture to modify in a test. */
export function devFixture(): Fixture {
  return structuredClone(DEFAULT_FIXTURE);
}

const ajv = new Ajv({ allErrors: true, strict: false });
export const validateUser = ajv.compile(userSchema);
export const validateChannel = ajv.compile(channelSchema);
export const validateEnvelope = ajv.compile(envelopeSchema);

/** Throws with ajv's errors when `value` does not match. */
export function assertValid(validate: ReturnType<typeof ajv.compile>, value: unknown): void {
  if (!validate(value)) throw new Error(JSON.stringify(validate.errors, null, 2));
}

// Dev-realm user ids (reference §7.2).
export const ID = {
  aaron: 6,
  zoe: 7,
  cordelia: 8,
  desdemona: 9,
  hamlet: 10,
  iago: 11,
  othello: 12,
  polonius: 13,
  prospero: 14,
  shiva: 15,
  defaultBot: 16,
  webhookBot: 17,
  outgoingBot: 18,
} as const;
