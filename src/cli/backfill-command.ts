/**
 * `ukcd backfill officers [--watched|--all|--companies FILE] [--no-index]`: fetch companies'
 * officers from the Companies House Public Data API (CH_API_KEY) into the store, within the shared
 * rate limit, resumably (loaders/backfill-officers.ts); then bring the search indexes up to date,
 * as a load does, so that search_people finds the officers fetched (`ukcd index` does it later
 * after --no-index). `ukcd backfill pdf-accounts [--watched|--all-without-figures|--companies
 * FILE]`: estimates from the accounts PDFs of companies without machine-readable accounts
 * (loaders/backfill-pdf-accounts.ts). Exit 0 when every company was done, 1 when some failed or a
 * PDF could not be read (a rerun retries the failed companies), 2 on a usage or configuration error.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openCompaniesHouseApi } from '../composition/open-companies-house.ts';
import { openStore } from '../composition/open-store.ts';
import { updateSearchAfterLoad } from '../composition/update-search.ts';
import { backfillOfficers, describeBackfill } from '../../loaders/backfill-officers.ts';
import type { BackfillSelection } from '../../loaders/backfill-officers.ts';
import { backfillPdfAccounts, describePdfBackfill } from '../../loaders/backfill-pdf-accounts.ts';
import type { PdfBackfillSelection } from '../../loaders/backfill-pdf-accounts.ts';

const USAGE =
  'usage: ukcd backfill officers [--watched|--all|--companies FILE] [--no-index]\n' +
  '       ukcd backfill pdf-accounts [--watched|--all-without-figures|--companies FILE]';

export async function runBackfillCommand(args: readonly string[]): Promise<number> {
  const [what, ...rest] = args;
  if (what === 'pdf-accounts') return runPdfBackfill(rest);
  if (what !== 'officers') {
    process.stderr.write(
      `${what === undefined ? 'what to backfill is missing' : `cannot backfill "${what}"`}\n${USAGE}\n`,
    );
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      watched: { type: 'boolean' },
      all: { type: 'boolean' },
      companies: { type: 'string' },
      'no-index': { type: 'boolean' },
    },
  });
  const chosen = [
    values.watched && '--watched',
    values.all && '--all',
    values.companies !== undefined && '--companies',
  ];
  if (chosen.filter(Boolean).length > 1) {
    process.stderr.write(`choose one of --watched, --all and --companies FILE\n${USAGE}\n`);
    return 2;
  }
  const selection: BackfillSelection =
    values.companies !== undefined
      ? { kind: 'file', path: values.companies }
      : values.all
        ? { kind: 'all' }
        : { kind: 'watched' };
  const config = loadConfig();
  const api = openCompaniesHouseApi(config);
  if (!api) {
    process.stderr.write('CH_API_KEY is not set: the officers backfill reads the Companies House Public Data API\n');
    return 2;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openStore(config);
  try {
    log(`store: ${opened.location}; API: ${config.CH_API_URL}`);
    const summary = await backfillOfficers(selection, {
      api,
      officers: opened.officers,
      journal: opened.officers,
      log,
    });
    log(describeBackfill(summary));
    // What was written (even by a run with failures) reaches the people index at once.
    if (!values['no-index'] && summary.officers > 0) await updateSearchAfterLoad(config, opened, log);
    return summary.failed.length === 0 ? 0 : 1;
  } finally {
    await opened.sql.close();
  }
}

async function runPdfBackfill(args: readonly string[]): Promise<number> {
  let values: { watched?: boolean; 'all-without-figures'?: boolean; companies?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        watched: { type: 'boolean' },
        'all-without-figures': { type: 'boolean' },
        companies: { type: 'string' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const chosen = [values.watched, values['all-without-figures'], values.companies !== undefined];
  if (chosen.filter(Boolean).length > 1) {
    process.stderr.write(`choose one of --watched, --all-without-figures and --companies FILE\n${USAGE}\n`);
    return 2;
  }
  const selection: PdfBackfillSelection =
    values.companies !== undefined
      ? { kind: 'file', path: values.companies }
      : values['all-without-figures']
        ? { kind: 'without-figures' }
        : { kind: 'watched' };
  const config = loadConfig();
  const api = openCompaniesHouseApi(config);
  if (!api) {
    process.stderr.write('CH_API_KEY is not set: the PDF backfill reads the Companies House Document API\n');
    return 2;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openStore(config);
  try {
    log(`store: ${opened.location}; API: ${config.CH_API_URL}; PDFs kept in ${resolve(config.DATA_DIR, 'pdf')}`);
    const summary = await backfillPdfAccounts(selection, {
      api,
      documents: opened.pdfWork,
      estimates: opened.pdfEstimates,
      queue: opened.pdfWork,
      journal: opened.pdfWork,
      dataDir: resolve(config.DATA_DIR),
      log,
    });
    log(describePdfBackfill(summary));
    return summary.failed.length === 0 && summary.unreadable.length === 0 ? 0 : 1;
  } finally {
    await opened.sql.close();
  }
}
