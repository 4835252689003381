/**
 * What the Elasticsearch indexes of this service (companies, people) share: a mapping kept as JSON
 * in index-mappings/ with a `_meta.version`, read through an alias in front of `<alias>_vN`; the
 * first index created behind a missing alias; a full rebuild into the next `_vN` and one atomic
 * alias swap (no downtime); an index older than its mapping reported as outdated; bulk writes and
 * multi-searches whose refusals surface as errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client, estypes } from '@elastic/elasticsearch';
import { EsSearchRefused } from './es-unavailable.ts';

export interface IndexMapping {
  settings: Record<string, unknown> & { refresh_interval: string };
  mappings: Record<string, unknown> & {
    _meta: { version: number };
    properties: Record<string, estypes.MappingProperty>;
  };
}

/** The mapping in index-mappings/`file`, read afresh (a test may change it between calls). */
export function readIndexMapping<Mapping extends IndexMapping = IndexMapping>(file: string): Mapping {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'index-mappings', file), 'utf8'));
}

/**
 * Create the first index behind the alias if there is none. An index built from an earlier mapping
 * version gets the fields it lacks (new fields never conflict), so that updates, which write every
 * field, keep working; its documents gain their values when the indexer, seeing it `outdated`,
 * rebuilds it in full. Returns whether the alias was there already.
 */
export async function ensureAliasedIndex(client: Client, alias: string, mapping: IndexMapping): Promise<boolean> {
  if (await client.indices.existsAlias({ name: alias })) {
    await addMissingFields(client, alias, mapping.mappings.properties);
    return true;
  }
  try {
    await client.indices.create({ index: `${alias}_v1`, ...mapping, aliases: { [alias]: {} } });
  } catch (error) {
    // Another process (of several started at once) created it between our look and our create.
    if (!isAlreadyThere(error)) throw error;
    await addMissingFields(client, alias, mapping.mappings.properties);
    return true;
  }
  return false;
}

function isAlreadyThere(error: unknown): boolean {
  const body = (error as { meta?: { body?: { error?: { type?: unknown } } } }).meta?.body;
  return body?.error?.type === 'resource_already_exists_exception';
}

async function addMissingFields(
  client: Client,
  alias: string,
  properties: Record<string, estypes.MappingProperty>,
): Promise<void> {
  const live = await client.indices.getMapping({ index: alias });
  for (const [index, { mappings }] of Object.entries(live)) {
    const missing = Object.entries(properties).filter(([field]) => !(field in (mappings.properties ?? {})));
    if (missing.length > 0) await client.indices.putMapping({ index, properties: Object.fromEntries(missing) });
  }
}

/** Some index behind the alias was built from an older mapping version than `mapping`'s. */
export async function mappingOutdated(client: Client, alias: string, mapping: IndexMapping): Promise<boolean> {
  const live = await client.indices.getMapping({ index: alias });
  return Object.values(live).some(({ mappings }) => builtVersion(mappings) < mapping.mappings._meta.version);
}

/** The mapping version (`_meta.version`) an index was built from; 1 for those built before it was kept. */
function builtVersion(mappings: estypes.MappingTypeMapping): number {
  const version = mappings._meta?.version;
  return typeof version === 'number' ? version : 1;
}

/** How long publishing waits for the merge into one segment (minutes for millions of documents). */
const FORCE_MERGE_TIMEOUT_MS = 3 * 3_600_000;

/** Bulk requests in flight while a rebuild reads the next batch. */
const BULK_CONCURRENCY = 3;

/** The versioned indices `<alias>_vN` behind one alias, and the mapping each is created with. */
export interface AliasedIndex {
  client: Client;
  alias: string;
  mapping: IndexMapping;
}

/**
 * Build a new index `<alias>_v(N+1)` from `batches` (each written by `write`), then move the alias
 * to it in one atomic update and delete the old ones; returns how many documents were written. A
 * failure leaves no half-built index behind, and the alias where it was.
 */
export async function rebuildBehindAlias<Document>(
  target: AliasedIndex,
  batches: AsyncIterable<readonly Document[]>,
  write: (index: string, batch: readonly Document[]) => Promise<void>,
): Promise<number> {
  const { client, alias, mapping } = target;
  // Only the indices there before this build are retired by it: one that another process starts
  // meanwhile (a shared build, docs/shared-loads.md) is not deleted under its writers.
  const existing = await versionedIndices(client, alias);
  const next = await createNextIndex(client, alias, mapping);
  // A few bulk requests in flight keep Elasticsearch's indexing threads busy while the next
  // batch is read and sent.
  let count = 0;
  const inFlight = new Set<Promise<void>>();
  try {
    for await (const batch of batches) {
      const request: Promise<void> = write(next, batch).finally(() => inFlight.delete(request));
      inFlight.add(request);
      count += batch.length;
      if (inFlight.size >= BULK_CONCURRENCY) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } catch (error) {
    // Let the other requests end before failing, and leave no half-built index behind.
    await Promise.allSettled(inFlight);
    await client.indices.delete({ index: next, ignore_unavailable: true });
    throw error;
  }
  await publishBehindAlias(target, next, existing);
  return count;
}

/**
 * Create the next versioned index `<alias>_v(N+1)` (N: the highest there is), empty and set for
 * writing fast; returns its name. Shared full builds (docs/shared-loads.md) write into it from
 * several processes.
 */
export async function createNextIndex(client: Client, alias: string, mapping: IndexMapping): Promise<string> {
  const existing = await versionedIndices(client, alias);
  const versions = existing.map((name) => Number(/_v(\d+)$/.exec(name)?.[1] ?? 0));
  const next = `${alias}_v${Math.max(0, ...versions) + 1}`;
  // No refreshes and no fsync per bulk request while building: the new index is not searched
  // until the alias moves to it, and a crash mid-build only means building it again.
  await client.indices.create({
    index: next,
    ...mapping,
    settings: { ...mapping.settings, refresh_interval: '-1', 'index.translog.durability': 'async' },
  });
  return next;
}

/**
 * Set the built index `next` for searching, move the alias to it in one atomic update, and delete
 * `retire` (default: every other versioned index). Idempotent: done again (its first run cut
 * short), it ends the same.
 */
export async function publishBehindAlias(
  { client, alias, mapping }: AliasedIndex,
  next: string,
  retire?: readonly string[],
): Promise<void> {
  await client.indices.putSettings({
    index: next,
    settings: { refresh_interval: mapping.settings.refresh_interval, 'index.translog.durability': 'request' },
  });
  await client.indices.refresh({ index: next });
  // Merged into one segment before searches reach it: a build leaves a few dozen, and each search
  // (sorted by the index's own order, stopping early) reads every one. On the full-size companies
  // index, 28 segments to 1 took 83 s and raised name searches from about 540/s (p99 73 ms) to
  // 750/s (p99 52-55 ms) at 16 connections (BENCHMARKS.md). Done again, it finds one segment and
  // returns. Not bounded by a search timeout the client may carry: it takes as long as it takes.
  await client.indices.forcemerge({ index: next, max_num_segments: 1 }, { requestTimeout: FORCE_MERGE_TIMEOUT_MS });
  const others = (retire ?? (await versionedIndices(client, alias))).filter((index) => index !== next);
  // Only the indices that hold the alias lose it (an index left by a build that never finished has none).
  const holders = (await client.indices.existsAlias({ name: alias }))
    ? Object.keys(await client.indices.getAlias({ name: alias }))
    : [];
  // One atomic alias update: searches move from the old index to the new one at once.
  await client.indices.updateAliases({
    actions: [
      ...holders.filter((index) => index !== next).map((index) => ({ remove: { index, alias } })),
      { add: { index: next, alias } },
    ],
  });
  if (others.length > 0) await client.indices.delete({ index: others, ignore_unavailable: true });
}

async function versionedIndices(client: Client, alias: string): Promise<string[]> {
  return Object.keys(
    await client.indices.get({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true }),
  );
}

/**
 * One bulk request; a document Elasticsearch refused fails it with the first reason. With
 * requireAlias, writes through an alias that is missing (an index never built, or deleted by hand)
 * are refused rather than creating an index of that name with default settings and no mapping.
 */
export async function bulkWrite(
  client: Client,
  operations: estypes.BulkRequest['operations'],
  { requireAlias = false } = {},
): Promise<void> {
  if (!operations || operations.length === 0) return;
  const result = await client.bulk({ operations, require_alias: requireAlias });
  if (result.errors) {
    const first = result.items.map((item) => Object.values(item)[0]?.error).find((error) => error !== undefined);
    throw new Error(`Elasticsearch refused documents: ${first?.reason ?? 'unknown reason'}`);
  }
}

/**
 * Several searches in one request, each answer whole. A search Elasticsearch refused (the request
 * itself answered 200) fails the lot with its status and reason, classified like a whole
 * request's: "all shards failed" while shards start is search unavailable, not a fault of ours.
 */
export async function msearchHits<Source>(
  client: Client,
  index: string,
  bodies: readonly estypes.SearchSearchRequestBody[],
): Promise<estypes.MsearchMultiSearchItem<Source>[]> {
  const result = await client.msearch<Source>({ index, searches: bodies.flatMap((body) => [{}, body]) });
  return result.responses.map((response) => {
    if ('error' in response) throw new EsSearchRefused(response.status, response.error);
    return response;
  });
}

/** Several searches in one request; each answer's sources and total, in order. */
export async function msearch<Source>(
  client: Client,
  index: string,
  bodies: readonly estypes.SearchSearchRequestBody[],
): Promise<{ documents: Source[]; total: number }[]> {
  return (await msearchHits<Source>(client, index, bodies)).map(({ hits }) => ({
    documents: hits.hits.map((hit) => hit._source!),
    total: typeof hits.total === 'number' ? hits.total : (hits.total?.value ?? 0),
  }));
}
