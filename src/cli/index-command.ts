/**
 * `ukcd index [--full]`: bring the search indexes, companies then people (Elasticsearch with
 * ELASTICSEARCH_URL, else the Postgres ones), up to date with the store. Without --full it updates what changed since the last
 * run, or builds everything when the index is empty or was never built.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openSearch } from '../composition/open-search.ts';
import { openStore } from '../composition/open-store.ts';
import { leaseHolder } from '../shared-work/hold-lease.ts';
import { buildIndexShared, describeSharedBuildSummary } from '../shared-work/shared-index-build.ts';
import { readAhead, toDocuments } from '../../loaders/index-search.ts';
import { indexPeopleOf, updateIndexes } from '../composition/update-search.ts';

const USAGE = 'usage: ukcd index [--full]';

export async function runIndexCommand(args: readonly string[]): Promise<number> {
  let full: boolean | undefined;
  try {
    ({
      values: { full },
    } = parseArgs({ args: [...args], options: { full: { type: 'boolean' } } }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openStore(config);
  const { sql, store, indexBuilds, location } = opened;
  try {
    const search = await openSearch(config, sql);
    try {
      log(`store: ${location}; search: ${search.location}`);
      if (full === true && search.sharedBuild) {
        // Every process started with --full joins one build (docs/shared-loads.md).
        const lease = { holder: leaseHolder(), seconds: config.UKCD_LOAD_LEASE_SECONDS };
        log(`indexing as ${lease.holder}`);
        const summary = await buildIndexShared(
          store,
          {
            target: search.target,
            sharedBuild: search.sharedBuild,
            toDocuments: (batches) => readAhead(toDocuments(batches)),
          },
          { builds: indexBuilds, lease, rangeSize: config.UKCD_INDEX_RANGE_COMPANIES, log },
        );
        log(describeSharedBuildSummary(summary));
        // The people index is rebuilt once, by the process that published the companies index.
        if (summary.published) await indexPeopleOf(opened, search, { full: true, log });
        return 0;
      }
      await updateIndexes(opened, search, { full: full === true, log });
      return 0;
    } finally {
      await search.close();
    }
  } finally {
    await sql.close();
  }
}
