/**
 * The `ukcd` command line: one entry point for the operator's commands.
 */
const HELP = `ukcd — UK company data

Commands:
  ukcd parse PATH...     Parse accounts filings (.html/.xhtml/.xml files, folders, bulk zips);
                         one JSON line per filing on stdout, a summary on stderr.
  ukcd load register PATH...|URL [--snapshot-date D] [--complete|--partial]
                         Load a register snapshot (BasicCompanyData CSV: one file or its parts,
                         zipped or not) into the store.
  ukcd load accounts PATH...|URL [--published D] [--force] [--workers N]
                         Load accounts bulk zips, folders or filings into the store.
  ukcd generate accounts --out DIR [--companies N] [--years N] [--seed N]
                         Write synthetic accounts bulk zips in the real Companies House format.
  ukcd start             Start the service (not built yet: prints what is available).
  ukcd help              This text.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'parse': {
      const { runParseCommand } = await import('../../loaders/parse-command.ts');
      return runParseCommand(args);
    }
    case 'load': {
      const { runLoadCommand } = await import('../../loaders/load-command.ts');
      return runLoadCommand(args);
    }
    case 'generate': {
      const { runGenerateCommand } = await import('../../loaders/generate-command.ts');
      return runGenerateCommand(args);
    }
    case 'start':
      process.stdout.write(
        'The HTTP service is not built yet (issues 3-5). What works today:\n\n' + HELP.split('\n').slice(2).join('\n'),
      );
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return 0;
    default:
      process.stderr.write(`unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
