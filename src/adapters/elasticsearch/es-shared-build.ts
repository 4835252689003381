/**
 * The companies index built in parts by several processes (`ukcd index --full` on several
 * machines, docs/shared-loads.md): the build's index is made once, each process writes its ranges
 * of companies into it, and one publishes it behind the alias. The store's index_builds say who
 * does what (src/adapters/postgres/index-builds.ts).
 */
import type { Client } from '@elastic/elasticsearch';
import type { SharedIndexBuild } from '../../ports/shared-work.ts';
import { bulkIndex, readMapping } from './es-search-index.ts';
import { createNextIndex, publishBehindAlias } from './es-versioned-index.ts';

export function createEsSharedBuild({ client, alias }: { client: Client; alias: string }): SharedIndexBuild {
  return {
    createNext: () => createNextIndex(client, alias, readMapping()),
    exists: (index) => client.indices.exists({ index }),
    write: (index, documents) => bulkIndex(client, index, documents),
    publish: (index) => publishBehindAlias({ client, alias, mapping: readMapping() }, index),
  };
}
