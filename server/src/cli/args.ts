import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestMatches, quoteAlternatives } from '../core';
import { UsageError } from './check';

/**
 * node:util's parseArgs, with its mistakes said in our words: what was wrong, with the option
 * that was probably meant (`--fromat` → `--format`) and where the options are listed. Node's
 * own text (`To specify a positional argument starting with a '-', place it at the end …`)
 * answers a question the user did not ask.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    throw new UsageError(inOurWords(command, config, code, (error as Error).message));
  }
}

function inOurWords(command: string, config: ParseArgsConfig, code: string, message: string): string {
  const help = `see \`rulesets ${command} --help\``;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const names = Object.entries(config.options ?? {}).flatMap(([name, option]) => [`--${name}`, ...(option.short ? [`-${option.short}`] : [])]);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = quoted.split('=')[0];
    const meant = closestMatches(given, names.filter((n) => n.startsWith('--')));
    return `unknown option \`${given}\` for \`rulesets ${command}\`${meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : `; ${help}`}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = quoted.split(' ')[0];
    return /does not take/.test(message) ? `\`${option}\` takes no value; ${help}` : `\`${option}\` needs a value; ${help}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument \`${quoted}\`: \`rulesets ${command}\` takes options only; ${help}`;
  return `${message}; ${help}`;
}
