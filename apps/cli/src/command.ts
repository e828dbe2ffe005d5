import type { ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import type { AppConfig } from '@gatehouse/config';

/** What a command gets: its parsed options and positionals, the configuration (read on demand), output. */
export interface CommandInput {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /**
   * Reads and validates the environment once (a ConfigError stops the CLI with exit code 1).
   * Commands call it before loading their apps, so a bad value is reported at once.
   */
  config(): AppConfig;
  /** Progress and diagnostics, on stderr. */
  log(line: string): void;
  /** The command's result, on stdout. */
  out(text: string): void;
}

/**
 * One CLI command. A command with `subcommands` dispatches on its next word (`operator invite`);
 * any other has `run`. Options are parsed strictly: anything undeclared is a usage error (exit 2).
 */
export interface Command {
  /** One line for `--help`. */
  summary: string;
  /** The argument shape after the command's name, e.g. `--tenant <slug> [--json]`. */
  usage?: string;
  options?: ParseArgsOptionsConfig;
  /** How many positionals the command takes (default: none). */
  positionals?: { min: number; max: number };
  subcommands?: Record<string, Command>;
  run?(input: CommandInput): Promise<number>;
}

/** A wrong command line: one line to the user, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure the user can act on: its message is the whole story (exit code 1, no stack trace). */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** The option's value as a string, or a usage error naming it. */
export function requiredOption(input: CommandInput, name: string): string {
  const value = input.values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} <value> is required`);
  return value;
}
