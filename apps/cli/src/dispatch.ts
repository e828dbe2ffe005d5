import { parseArgs } from 'node:util';
import { type Command, type CommandInput, UsageError } from './command.js';

export interface Invocation {
  /** The words that named the command (`operator invite`). */
  path: string[];
  command: Command;
  values: CommandInput['values'];
  positionals: string[];
}

/** Finds the command named by `argv` in `table` and parses its options strictly. */
export function dispatch(table: Record<string, Command>, argv: string[]): Invocation {
  const path: string[] = [];
  let commands = table;
  let rest = argv;
  for (;;) {
    const [word, ...after] = rest;
    if (word === undefined || word.startsWith('-')) {
      throw new UsageError(
        path.length ? `"${path.join(' ')}" needs one of: ${Object.keys(commands).join(', ')}` : 'no command given',
      );
    }
    const command = Object.hasOwn(commands, word) ? commands[word] : undefined;
    if (!command) throw new UsageError(`unknown command "${[...path, word].join(' ')}"`);
    path.push(word);
    rest = after;
    if (!command.subcommands) return parse(path, command, rest);
    commands = command.subcommands;
  }
}

function parse(path: string[], command: Command, args: string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({ args, options: command.options ?? {}, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`${path.join(' ')}: ${oneLine((error as Error).message)}`);
  }
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  const count = parsed.positionals.length;
  if (count < min || count > max) {
    const extra = count > max ? `unexpected argument "${parsed.positionals[max]}"` : 'missing argument';
    throw new UsageError(`${path.join(' ')}: ${extra}`);
  }
  return { path, command, values: parsed.values as CommandInput['values'], positionals: parsed.positionals };
}

function oneLine(message: string): string {
  return message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
}

/** `--help`: every command with its usage and summary. */
export function usage(table: Record<string, Command>): string {
  const lines = ['Usage: npm run cli -- <command> [options]', '', 'Commands:'];
  const add = (name: string, command: Command) => {
    if (command.subcommands) {
      for (const [sub, inner] of Object.entries(command.subcommands)) add(`${name} ${sub}`, inner);
      return;
    }
    lines.push(`  ${[name, command.usage].filter(Boolean).join(' ')}`, `      ${command.summary}`);
  };
  for (const [name, command] of Object.entries(table)) add(name, command);
  return `${lines.join('\n')}\n`;
}
