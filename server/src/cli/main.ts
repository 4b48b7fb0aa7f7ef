import { parseArgs } from 'node:util';
import { checkFiles, collectFiles, UsageError } from './check';
import { jsonReport, sarifReport, textReport, type ReportFormat } from './report';
import { version } from '../version';

const USAGE = `Usage: rulesets check <files or folders...> [--format text|json|sarif] [--phase NAME]

Checks ruleset files (JSON or YAML) and the rule expressions in them.
Folders are searched for *.ruleset.json, *.ruleset.yaml, *.ruleset.yml and any
JSON/YAML file whose top level has "rules" and "phase" or "kind".

Options:
  --format text|json|sarif   output format (default: text)
  --phase NAME               phase to assume for files that name none
  -h, --help                 show this help
  --version                  show the version

Exit status: 0 no errors, 1 errors found, 2 usage or file problems.`;

function check(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      phase: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const format = values.format as ReportFormat;
  if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`unknown --format "${values.format}": expected text, json or sarif`);
  if (positionals.length === 0) throw new UsageError('no files or folders to check: rulesets check <files or folders...>');
  const files = collectFiles(positionals);
  // Checking nothing is more likely a wrong path than a clean project: a CI step must not
  // pass on it.
  if (files.length === 0) throw new UsageError(`no ruleset files found in ${positionals.join(', ')}`);
  const results = checkFiles(files, { phase: values.phase });
  const report = format === 'json' ? jsonReport(results) : format === 'sarif' ? sarifReport(results) : textReport(results);
  process.stdout.write(report);
  return results.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'check':
        return check(rest);
      case '--version':
        process.stdout.write(`${version}\n`);
        return 0;
      case undefined:
        // A usage error like any other: one line on stderr, so scripts see why it exited 2.
        throw new UsageError('no command given; try: rulesets check <files or folders...> (or rulesets --help)');
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"; try: rulesets check <files or folders...>`);
    }
  } catch (error) {
    // A user's mistake gets one line; anything else is our bug and keeps its stack.
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`rulesets: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}

if (require.main === module) {
  // A reader that stops early (`rulesets check . | head`) closes the pipe: stop quietly, as
  // Unix tools do, with the exit status already decided, instead of an EPIPE stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
  process.exitCode = main(process.argv.slice(2));
}
