/**
 * The `ukcd` command line: one entry point for the operator's commands.
 */
const HELP = `ukcd — UK company data

Commands:
  ukcd parse PATH...     Parse accounts filings (.html/.xhtml/.xml files, folders, bulk zips);
                         one JSON line per filing on stdout, a summary on stderr.
  ukcd load register PATH...|URL [--snapshot-date D] [--complete|--partial] [--no-index]
                         Load a register snapshot (BasicCompanyData CSV: one file or its parts,
                         zipped or not) into the store, then update the search index.
  ukcd load accounts PATH...|URL [--published D] [--force] [--workers N] [--no-index]
                         Load accounts bulk zips, folders or filings into the store, then update
                         the search index. Several processes given the same files and store share
                         them (docs/shared-loads.md).
  ukcd load psc PATH...|URL [--snapshot-date D] [--complete|--partial] [--no-index]
                         Load a persons-with-significant-control snapshot (newline-delimited JSON:
                         the one file or its parts, zipped or not); a complete one marks the PSCs
                         it no longer lists as ceased. Then update the search index.
  ukcd sync [--base-url URL] [--only register|accounts|psc] [--since D] [--keep-downloads] [--no-index]
                         Load what is new on the Companies House download service (CH_DOWNLOAD_URL):
                         the latest register snapshot, the daily accounts files since the last one
                         loaded and the latest PSC snapshot. Downloads resume; each zip is checked
                         whole before loading.
  ukcd backfill officers [--watched|--all|--companies FILE]
                         Fetch companies' officers from the Companies House Public Data API
                         (CH_API_KEY) within its rate limit: the watched companies (default),
                         every company on the register, or the numbers in FILE (one a line);
                         watched ones first. A rerun continues a run that stopped.
  ukcd backfill pdf-accounts [--watched|--all-without-figures|--companies FILE]
                         Estimates from the accounts PDFs of companies without machine-readable
                         accounts: fetched through the Document API (CH_API_KEY), kept under
                         DATA_DIR/pdf, read by OCR (Tesseract). Several processes share a run;
                         a rerun continues a run that stopped. docs/pdf-accounts.md.
  ukcd index [--full]    Bring the search index (Elasticsearch with ELASTICSEARCH_URL, else the
                         store's own) up to date: what changed since the last run, or everything.
                         Elasticsearch: several --full processes share one build.
  ukcd keys issue [--plan free|pro] [--email E]
                         Issue an API key (default plan: pro). It is printed once: only its hash
                         is stored.
  ukcd keys list [PREFIX]
                         API keys (by prefix) with their plan and this month's usage.
  ukcd keys revoke PREFIX
                         Revoke the keys whose prefix starts with PREFIX (9 characters or more).
  ukcd generate accounts --out DIR [--companies N] [--years N] [--seed N] [--resume] [--from D] [--until D]
                         Write synthetic accounts bulk zips in the real Companies House format
                         (--resume: go on after the last whole zip of a run that was cut off;
                         --from/--until: only filings published in [from, until), for parallel parts).
  ukcd generate register --out DIR --date YYYY-MM-DD [--companies N] [--parts N] [--seed N]
                         Write a synthetic register snapshot (BasicCompanyData CSV, zipped).
  ukcd generate psc --out DIR --snapshot-date YYYY-MM-DD [--companies N] [--parts N] [--seed N]
                         Write a synthetic PSC snapshot (JSON lines, zipped) of the same companies.
  ukcd follow            Follow the Companies House streams (CH_STREAM_KEY) into the store, in a
                         process of its own; alerts of each batch are detected as it is applied.
                         Several followers on one database share the streams (one each).
  ukcd start             Start the service: the store (DATABASE_URL, else PGlite in DATA_DIR, with
                         the sample dataset on first start) and HTTP on PORT (default 3000).
  ukcd help              This text.
`;

async function run(argv: string[]): Promise<number | undefined> {
  const [command, ...args] = argv;
  switch (command) {
    case 'parse': {
      const { runParseCommand } = await import('../../loaders/parse-command.ts');
      return runParseCommand(args);
    }
    case 'load': {
      const { runLoadCommand } = await import('./load-command.ts');
      return runLoadCommand(args);
    }
    case 'sync': {
      const { runSyncCommand } = await import('./sync-command.ts');
      return runSyncCommand(args);
    }
    case 'backfill': {
      const { runBackfillCommand } = await import('./backfill-command.ts');
      return runBackfillCommand(args);
    }
    case 'index': {
      const { runIndexCommand } = await import('./index-command.ts');
      return runIndexCommand(args);
    }
    case 'keys': {
      const { runKeysCommand } = await import('./keys-command.ts');
      return runKeysCommand(args);
    }
    case 'generate': {
      const { runGenerateCommand } = await import('../../loaders/generate-command.ts');
      return runGenerateCommand(args);
    }
    case 'follow': {
      const { runFollowCommand } = await import('./follow-command.ts');
      return runFollowCommand(args);
    }
    case 'start': {
      if (args.length > 0) {
        process.stderr.write(
          `ukcd start takes no arguments, got "${args.join(' ')}": it is configured by environment variables (README, "Configuration")\n`,
        );
        return 2;
      }
      const { startService } = await import('../composition/start-service.ts');
      await startService();
      return undefined;
    }
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

/** node:util parseArgs refuses an unknown option or a missing value with one of these codes. */
function isUsageError(error: unknown): error is Error {
  return error instanceof Error && /^ERR_PARSE_ARGS_/.test(String((error as { code?: unknown }).code));
}

async function runOrExplain(argv: string[]): Promise<number | undefined> {
  try {
    return await run(argv);
  } catch (error) {
    if (isUsageError(error)) {
      process.stderr.write(`${error.message}\nRun "ukcd help" for the commands and their options.\n`);
      return 2;
    }
    // Imported only now: parse and generate never open a store.
    const { EmbeddedStoreInUseError } = await import('../composition/open-store.ts');
    if (error instanceof EmbeddedStoreInUseError) {
      process.stderr.write(`refused: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

const code = await runOrExplain(process.argv.slice(2));
// A server keeps running; a command ends with its status.
if (code !== undefined) process.exitCode = code;
