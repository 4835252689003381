/**
 * The people index on Elasticsearch. UNDER CONSTRUCTION (issue 14).
 */
import type { Client } from '@elastic/elasticsearch';
import type { PeopleIndex } from '../../ownership/people.ts';

export function createEsPeopleIndex(_options: { client: Client; alias: string }): PeopleIndex {
  const notYet = () => Promise.reject(new Error('people index not built yet'));
  return {
    upsertPeople: notYet,
    removePeople: notYet,
    refresh: notYet,
    count: notYet,
    rebuild: notYet,
    outdated: notYet,
    searchPeople: notYet,
  };
}
