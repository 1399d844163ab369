/**
 * Command-line parsing shared by every entry point: node:util's parseArgs (strict, so a
 * misspelt flag is refused), `--help`/`-h` printing the usage, and a usage error that names the
 * problem, prints the usage and exits 2 (the shell convention for "wrong invocation"), never a
 * stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Prints `message` and the usage on stderr and exits 2. */
export function usageError(message: string, usage: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

export function parseCli<O extends Options>(usage: string, options: O, argv: string[] = process.argv.slice(2)) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (error) {
    usageError((error as Error).message, usage);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed.values as ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>['values'];
}

/** A TCP port from a flag or an environment variable; 0 picks a free one. */
export function portOf(flag: string, value: string | undefined, usage: string): number {
  const port = Number(value);
  if (value === undefined || value === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    usageError(`${flag} must be an integer between 0 and 65535, got "${value ?? ''}"`, usage);
  }
  return port;
}

/** A flag's value as a positive number (limits, timeouts); anything else is a usage error. */
export function positiveOf(flag: string, value: string, usage: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) usageError(`${flag} must be a positive number, got "${value}"`, usage);
  return number;
}

/**
 * A flag's value as a whole number, 0 included (counts and budgets where 0 means "none"); `unit`
 * and `zero` say what it counts and what 0 does, for the usage error.
 */
export function wholeOf(flag: string, value: string, unit: string, zero: string, usage: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < 0) usageError(`${flag} must be a whole number of ${unit} (0 ${zero}), got "${value}"`, usage);
  return number;
}
