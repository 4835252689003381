/**
 * What the searches of an index behind an alias can see, as a value that changes whenever that
 * can change: the concrete index (a rebuild moves the alias to a new one), its uuid, its highest
 * sequence number (every write and delete raises it, and it survives restarts) and its refresh
 * count (writes become visible to searches at a refresh). Pages cached under one generation are
 * never served under another, so whoever writes the index — this process, a loader in another
 * one, a shared build on another machine — invalidates them without telling anyone.
 *
 * It is read from Elasticsearch at most every `maxAgeMs` (one read shared by everyone who asks
 * meanwhile), so another process's change is seen at most that long after Elasticsearch made it
 * visible; a change made through this process (`advance`, called by the adapter's writes and
 * refreshes) is seen at once.
 */
import type { Client } from '@elastic/elasticsearch';

export interface IndexGeneration {
  /** The generation now, read again when the last read is older than `maxAgeMs`. */
  current(): Promise<string>;
  /** This process wrote or refreshed the index: the next `current` reads it again. */
  advance(): void;
}

/** Writes and refreshes made in this process, per alias: every adapter of the alias sees them. */
const localChanges = new Map<string, number>();

interface ShardStats {
  routing?: { primary?: boolean };
  refresh?: { total?: number };
  seq_no?: { max_seq_no?: number };
}

export function indexGeneration(client: Client, alias: string, maxAgeMs: number): IndexGeneration {
  let read: { value: Promise<string>; at: number; local: number } | null = null;
  const local = () => localChanges.get(alias) ?? 0;
  return {
    current() {
      const now = Date.now();
      if (read && now - read.at < maxAgeMs && read.local === local()) return read.value;
      const value = readGeneration(client, alias);
      const mine = { value, at: now, local: local() };
      read = mine;
      // A failed read is not kept: the next caller tries again (and meets the error itself).
      value.catch(() => {
        if (read === mine) read = null;
      });
      return value;
    },
    advance() {
      localChanges.set(alias, local() + 1);
    },
  };
}

async function readGeneration(client: Client, alias: string): Promise<string> {
  const stats = await client.indices.stats({
    index: alias,
    metric: ['refresh', 'indexing'],
    level: 'shards',
    filter_path: [
      'indices.*.uuid',
      'indices.*.shards.*.routing.primary',
      'indices.*.shards.*.refresh.total',
      'indices.*.shards.*.seq_no.max_seq_no',
    ],
  });
  const indices = (stats.indices ?? {}) as Record<string, { uuid?: string; shards?: Record<string, ShardStats[]> }>;
  // Sorted, so that the same state always reads as the same string. Every copy of a shard: a
  // search may be answered by a replica, which refreshes on its own schedule.
  const sorted = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted(Object.entries(indices))
    .map(([name, index]) => {
      const shards = sorted(Object.entries(index.shards ?? {})).map(([id, copies]) => {
        const states = copies.map(
          (copy) =>
            `${copy.routing?.primary ? 'p' : 'r'}${copy.seq_no?.max_seq_no ?? '?'}.${copy.refresh?.total ?? '?'}`,
        );
        return `${id}:${states.sort().join('|')}`;
      });
      return `${name}/${index.uuid ?? '?'}/${shards.join(',')}`;
    })
    .join(';');
}
