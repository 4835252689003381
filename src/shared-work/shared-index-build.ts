/**
 * `ukcd index --full` on Elasticsearch, shared: every process started with --full on the same store
 * and index joins one build (docs/shared-loads.md). The build's ranges of company numbers are
 * claimed one at a time under a lease and written into the build's index; a range whose holder
 * died is taken over when its lease runs out. When every range is done, exactly one process
 * publishes the index (moves the alias) and records what it is up to date with; the others wait
 * for that, so that each ends knowing the index is live.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IndexSource, SearchDocument } from '../domain/search-document.ts';
import type { IndexCursor } from '../ports/index-cursor.ts';
import { formatDuration, startProgress } from '../progress/progress.ts';
import { holdLease, isDeadHere, LeaseLostError, renewalIntervalMs } from './hold-lease.ts';
import type { IndexBuilds, IndexRange, Lease, SharedIndexBuild } from '../ports/shared-work.ts';

export interface SharedBuildOptions {
  builds: IndexBuilds;
  lease: Lease;
  /** Companies per range when this process starts the build. */
  rangeSize: number;
  batchSize?: number;
  log?: (line: string) => void;
}

/** The index a shared build writes, and how the companies of a range become its documents. */
export interface SharedBuildTarget {
  target: string;
  sharedBuild: SharedIndexBuild;
  /** The search documents of the companies a range reads, batch by batch (the indexer's own). */
  toDocuments: (batches: AsyncIterable<IndexSource[]>) => AsyncIterable<SearchDocument[]>;
}

export interface SharedBuildSummary {
  index: string;
  /** This process started the build (others joined it). */
  started: boolean;
  /** This process published it (moved the alias). */
  published: boolean;
  ranges: number;
  /** Ranges taken over from a process that stopped holding them (its lease ran out, or it is gone). */
  takenOver: number;
  documents: number;
  seconds: number;
}

const BATCH_SIZE = 2_000;

/** What the steps of one process's part in a shared build share. */
interface SharedBuildRun {
  store: Pick<IndexCursor, 'indexingExclusively' | 'recordSearchIndexedThrough'>;
  target: string;
  sharedBuild: SharedIndexBuild;
  toDocuments: SharedBuildTarget['toDocuments'];
  builds: IndexBuilds;
  lease: Lease;
  build: Awaited<ReturnType<IndexBuilds['joinOrStart']>>['build'];
  batchSize: number;
  log: (line: string) => void;
  summary: SharedBuildSummary;
  progress: ReturnType<typeof startProgress>;
}

export async function buildIndexShared(
  store: Pick<IndexCursor, 'indexingExclusively' | 'recordSearchIndexedThrough'>,
  search: SharedBuildTarget,
  options: SharedBuildOptions,
): Promise<SharedBuildSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { builds, lease } = options;
  const { target, sharedBuild, toDocuments } = search;
  const { build, started } = await builds.joinOrStart(target, options.rangeSize, {
    create: () => sharedBuild.createNext(),
    exists: (index) => sharedBuild.exists(index),
  });
  log(
    started
      ? `search index ${target}: started full build ${build.id} into ${build.indexName} (ranges of ${options.rangeSize} companies)`
      : `search index ${target}: joined full build ${build.id} into ${build.indexName}`,
  );
  const run: SharedBuildRun = {
    store,
    target,
    sharedBuild,
    toDocuments,
    builds,
    lease,
    build,
    batchSize: options.batchSize ?? BATCH_SIZE,
    log,
    summary: { index: build.indexName, started, published: false, ranges: 0, takenOver: 0, documents: 0, seconds: 0 },
    progress: startProgress({ label: 'index (full, shared)', unit: 'companies' }),
  };
  try {
    await takePart(run);
  } finally {
    run.progress.stop();
  }
  run.summary.seconds = run.progress.elapsedSeconds;
  return run.summary;
}

/**
 * Claims ranges and writes them until none is left to claim, waits for those other processes hold,
 * then publishes the build (or sees another process publish it).
 */
async function takePart(run: SharedBuildRun): Promise<void> {
  const { builds, build, lease } = run;
  const pause = () => sleep(Math.min(renewalIntervalMs(lease.seconds), 1000));
  for (;;) {
    const { claimed, heldElsewhere } = await builds.claimRange(build.id, lease);
    if (claimed) {
      await indexClaimedRange(run, claimed);
      continue;
    }
    if (heldElsewhere > 0) {
      if (!(await expireTheDead(run))) await pause();
      continue;
    }
    if (await builds.claimPublish(build.id, lease)) {
      await publish(run);
      return;
    }
    const status = await builds.status(build.id);
    if (status === 'done') return;
    if (status === 'abandoned')
      throw new Error(`full build ${build.id} of ${run.target} was abandoned (its index is gone)`);
    await pause();
  }
}

/** Writes a claimed range under its lease; a lease lost on the way leaves the range to its new holder. */
async function indexClaimedRange(run: SharedBuildRun, claimed: { piece: IndexRange; takenOverFrom: string | null }) {
  const { builds, build, lease, summary } = run;
  const range = claimed.piece;
  if (claimed.takenOverFrom) {
    summary.takenOver++;
    run.log(`range ${describeRange(range)}: taken over from ${claimed.takenOverFrom}, which stopped holding it`);
  }
  const held = holdLease(() => builds.renewRange(build.id, range, lease), lease.seconds);
  try {
    const documents = await writeRange(run, range, held);
    if (held.lost() || !(await builds.finishRange(build.id, range, lease.holder, documents)))
      throw new LeaseLostError('another process took it over (this process lease ran out)');
    summary.ranges++;
    summary.documents += documents;
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    run.log(`range ${describeRange(range)}: ${error.message}`);
  } finally {
    await held.stop();
  }
}

/** A process of this machine that is gone is not waited for (as in shared loads). True when some ranges were freed. */
async function expireTheDead(run: SharedBuildRun): Promise<boolean> {
  let expired = 0;
  for (const other of await run.builds.rangeHolders(run.build.id)) {
    if (!isDeadHere(other)) continue;
    expired += await run.builds.expireRanges(run.build.id, other);
    run.log(`${other} no longer runs on this machine: its ranges are taken over without waiting for its lease`);
  }
  return expired > 0;
}

async function publish(run: SharedBuildRun): Promise<void> {
  const { store, target, sharedBuild, builds, build, lease } = run;
  const held = holdLease(() => builds.renewPublish(build.id, lease), lease.seconds);
  try {
    // Under the indexing lock: an update run (`ukcd index`) writing through the alias ends
    // first, and the time recorded (the build's start) makes the next update redo its work.
    await store.indexingExclusively(target, async () => {
      await sharedBuild.publish(build.indexName);
      await store.recordSearchIndexedThrough(target, build.indexedThrough);
    });
    await builds.finishBuild(build.id, lease.holder);
  } finally {
    await held.stop();
  }
  run.summary.published = true;
  run.log(`search index ${target}: build ${build.id} published (${build.indexName} is live)`);
}

async function writeRange(run: SharedBuildRun, range: IndexRange, held: { lost(): boolean }): Promise<number> {
  const { sharedBuild } = run;
  const index = run.build.indexName;
  // Elasticsearch would create a missing index on the first write, with no mapping: a build whose
  // index was deleted (by hand, or by another full rebuild's publication) must stop instead.
  if (!(await sharedBuild.exists(index)))
    throw new Error(`the index of this build, ${index}, is gone (deleted); start the full build again`);
  let documents = 0;
  for await (const batch of run.toDocuments(run.builds.companiesInRange(range, run.batchSize))) {
    if (held.lost()) throw new LeaseLostError('another process took it over (this process lease ran out)');
    await sharedBuild.write(index, batch);
    documents += batch.length;
    run.progress.advance(batch.length);
  }
  return documents;
}

function describeRange(range: IndexRange): string {
  return `(${range.after || 'start'}, ${range.last ?? 'end'}]`;
}

export function describeSharedBuildSummary(summary: SharedBuildSummary): string {
  const rate =
    summary.seconds > 0 ? `, ${Math.round(summary.documents / summary.seconds).toLocaleString('en-GB')}/s` : '';
  return (
    `search index ${summary.index}: this process wrote ${summary.documents.toLocaleString('en-GB')} companies in ` +
    `${summary.ranges} range(s) in ${formatDuration(summary.seconds)}${rate}` +
    (summary.takenOver > 0 ? `; ${summary.takenOver} range(s) taken over from a process that died` : '') +
    (summary.started ? '; it started the build' : '') +
    (summary.published ? '; it published the build' : '; another process published it')
  );
}
