/**
 * `ukcd backfill officers [--watched|--all|--companies FILE] [--no-index]`: fetch companies'
 * officers from the Companies House Public Data API (CH_API_KEY) into the store, within the shared
 * rate limit, resumably (loaders/backfill-officers.ts); then bring the search indexes up to date,
 * as a load does, so that search_people finds the officers fetched (`ukcd index` does it later
 * after --no-index). Exit 0 when every company was fetched, 1 when some failed (a rerun retries
 * them), 2 on a usage or configuration error.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openCompaniesHouseApi } from '../composition/open-companies-house.ts';
import { openStore } from '../composition/open-store.ts';
import { updateSearchAfterLoad } from '../composition/update-search.ts';
import { backfillOfficers, describeBackfill } from '../../loaders/backfill-officers.ts';
import type { BackfillSelection } from '../../loaders/backfill-officers.ts';

const USAGE = 'usage: ukcd backfill officers [--watched|--all|--companies FILE] [--no-index]';

export async function runBackfillCommand(args: readonly string[]): Promise<number> {
  const [what, ...rest] = args;
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
