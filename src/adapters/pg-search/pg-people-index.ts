/**
 * The people index on PostgreSQL or PGlite (the embedded default). UNDER CONSTRUCTION (issue 14).
 */
import type { PeopleIndex } from '../../ownership/people.ts';
import type { Sql } from '../../ports.ts';

export function createPgPeopleIndex(_sql: Sql): PeopleIndex {
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
