/**
 * Opens the search index the configuration asks for: Elasticsearch when ELASTICSEARCH_URL is set,
 * else the Postgres-backed index in the store's own database. The service and the loaders share this.
 */
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../adapters/elasticsearch/es-search-index.ts';
import { createEsSharedBuild } from '../adapters/elasticsearch/es-shared-build.ts';
import { isEsUnavailable } from '../adapters/elasticsearch/es-unavailable.ts';
import { createEsPeopleIndex, ensurePeopleIndex } from '../adapters/elasticsearch/es-people-index.ts';
import { createPgPeopleIndex } from '../adapters/pg-search/pg-people-index.ts';
import { createPgSearchIndex } from '../adapters/pg-search/pg-search-index.ts';
import type { PeopleIndex } from '../ports/people-index.ts';
import type { Config } from '../config.ts';
import type { SearchIndex } from '../ports/search-index.ts';
import type { Sql } from '../ports/sql.ts';
import type { SharedIndexBuild } from '../ports/shared-work.ts';

export interface OpenedSearch {
  index: SearchIndex;
  /** Names this index in the store's record of how far each index has been brought. */
  target: string;
  /** The people index beside it (persons with significant control), and its name in that record. */
  people: PeopleIndex;
  peopleTarget: string;
  /** Where it lives, for messages. */
  location: string;
  /** Elasticsearch: a full build that several processes can write in parts (docs/shared-loads.md). */
  sharedBuild?: SharedIndexBuild;
  close(): Promise<void>;
}

export interface OpenSearchOptions {
  /** The service's bound on each search (SEARCH_TIMEOUT_MS); the client's defaults for loaders. */
  timeoutMs?: number;
  /**
   * Open even when Elasticsearch does not answer (the service: lookups work without it, searches
   * answer 503 until it is back). Loaders need it, so they fail at once instead.
   */
  whenUnavailable?: (error: unknown) => void;
}

export async function openSearch(
  config: Pick<Config, 'ELASTICSEARCH_URL' | 'ELASTICSEARCH_INDEX' | 'ELASTICSEARCH_PEOPLE_INDEX'>,
  sql: Sql,
  options: OpenSearchOptions = {},
): Promise<OpenedSearch> {
  if (!config.ELASTICSEARCH_URL) {
    return {
      index: createPgSearchIndex(sql),
      target: 'postgres:company_search',
      people: createPgPeopleIndex(sql),
      peopleTarget: 'postgres:people_search',
      location: 'Postgres (the store)',
      close: async () => {},
    };
  }
  const client = new Client({
    node: config.ELASTICSEARCH_URL,
    ...(options.timeoutMs ? { requestTimeout: Math.ceil(options.timeoutMs / 2), maxRetries: 1 } : {}),
  });
  const alias = config.ELASTICSEARCH_INDEX;
  try {
    await ensureIndex({ client, alias });
    await ensurePeopleIndex({ client, alias: config.ELASTICSEARCH_PEOPLE_INDEX });
  } catch (error) {
    if (options.whenUnavailable && isEsUnavailable(error)) options.whenUnavailable(error);
    else {
      await client.close();
      throw new Error(
        `Elasticsearch at ${config.ELASTICSEARCH_URL} is not usable: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return {
    index: createEsSearchIndex({ client, alias }),
    target: `elasticsearch:${alias}`,
    sharedBuild: createEsSharedBuild({ client, alias }),
    people: createEsPeopleIndex({ client, alias: config.ELASTICSEARCH_PEOPLE_INDEX }),
    peopleTarget: `elasticsearch:${config.ELASTICSEARCH_PEOPLE_INDEX}`,
    location: `Elasticsearch ${new URL(config.ELASTICSEARCH_URL).host}, alias ${alias}`,
    close: () => client.close(),
  };
}
