/**
 * The people index alone, built in full from the store (bench/psc's index-people stages): what
 * `ukcd index --full` does after the companies index, which it would rebuild first. Configured
 * as the CLI is (DATABASE_URL; ELASTICSEARCH_URL and ELASTICSEARCH_PEOPLE_INDEX, else Postgres).
 */
import { loadConfig } from '../src/config.ts';
import { openSearch } from '../src/composition/open-search.ts';
import { openStore } from '../src/composition/open-store.ts';
import { indexPeopleOf } from '../src/composition/update-search.ts';

const config = loadConfig();
const log = (line: string) => process.stderr.write(`${line}\n`);
const opened = await openStore(config);
const { sql, location } = opened;
try {
  const search = await openSearch(config, sql);
  try {
    log(`store: ${location}; search: ${search.location}, people ${search.peopleTarget}`);
    await indexPeopleOf(opened, search, { full: true, log });
  } finally {
    await search.close();
  }
} finally {
  await sql.close();
}
