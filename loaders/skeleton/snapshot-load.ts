/**
 * The loader skeleton for a snapshot (the register, the PSC register): a source plugs in its
 * verified parts and decoding, and the skeleton runs the stages between, the same for each:
 *
 *   verified parts -> decoded, validated batches (each rejection reported with its file, line and
 *   reason) -> batched writes (one write behind the reading per connection) -> the decision
 *   whether the snapshot is complete, and what follows from it (marking what it no longer lists)
 *
 * with the load journal (started, progress reported, finished done or failed with its counts)
 * and the progress line (rate and ETA, estimated from the bytes read) kept here. Alert detection
 * and the index update follow (after-load.ts). A source refuses what it cannot read before the
 * skeleton starts: nothing is written from a wrong file.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startProgress } from '../../src/progress/progress.ts';
import type { LoadCounts } from '../../src/domain/loads.ts';
import { failureDetail, startJournalEntry } from './journal-entry.ts';
import type { JournalWrites } from './journal-entry.ts';
import { lineRejectReport } from './reject-report.ts';
import type { InputPart } from './snapshot-inputs.ts';
import { writeBehind } from './write-behind.ts';

/** What a source's decoding yields for each batch of records it read. */
export interface DecodedBatch {
  /** Records read for the batch: valid, rejected or neither (what the progress counts). */
  read: number;
  /** Bytes of the part read so far. */
  bytes: number;
  /** Records that are not a valid row, with their line and why. */
  rejects: readonly { line: number; reason: string }[];
}

/** A lane's write of a batch: resolves to the rows written. */
type LaneWrite = () => Promise<number>;

/** Whether the snapshot was read whole, as the source judges it once every batch is in. */
interface SnapshotDecision {
  complete: boolean;
  /** Why not, for the summary; null when complete. */
  partialBecause: string | null;
}

/** What a complete snapshot would mark as no longer listed, of how many held. */
interface RemovalCount {
  count: number;
  held: number;
  /** What is counted ("companies", "PSCs and statements"). */
  what: string;
  /** The newest snapshot date any of those it would mark was last listed on; null when none. */
  lastListed: string | null;
}

/** The share of what is held that one snapshot may mark as no longer listed without --allow-removals. */
const REMOVAL_SHARE = 0.02;

export interface SnapshotSource<Batch extends DecodedBatch> {
  kind: 'register' | 'psc';
  /** What the progress counts ("rows", "lines"). */
  unit: string;
  snapshotDate: string;
  /** The input files, as the journal names the load. */
  files: readonly string[];
  /** The names (or --complete) say these files are the whole snapshot. */
  claimedWhole: boolean;
  /** The journal's detail when the load starts. */
  detail: Record<string, unknown>;
  /** The parts to read in order, each checked already. */
  parts: readonly InputPart[];
  /** Connections writing at once (lane i of every batch goes to connection i). */
  lanes: number;
  /** Decoded and validated records of one part, in batches. */
  batches(part: InputPart): AsyncIterable<Batch>;
  /** A batch's writes, one per lane (null: nothing for that lane). */
  writes(batch: Batch): readonly (LaneWrite | null)[];
  /**
   * Is the snapshot complete as the source judges it (its files name the whole of it, its own
   * checks pass: a PSC snapshot's totals line)? Asked once every batch is written. The skeleton
   * adds its own checks to every source's: no record rejected, and not too much removed.
   */
  decide(): SnapshotDecision;
  /** What a complete snapshot would mark as no longer listed: counted before anything is marked. */
  removals(): Promise<RemovalCount>;
  /** What follows from the decision (marking what a complete snapshot no longer lists): the journal's detail. */
  conclude(decision: SnapshotDecision): Promise<Record<string, unknown>>;
}

export interface SnapshotLoadOptions {
  /** Where the report of rejected records goes. */
  reportDir: string;
  log: (line: string) => void;
  /** How often the counts so far are written to the load journal (default 5 s). */
  progressIntervalMs?: number | undefined;
  /**
   * The number the operator expects a complete snapshot to mark as no longer listed, allowing
   * more than the 2% of what is held one month's snapshot may; any other number is refused.
   */
  allowRemovals?: number | undefined;
}

export interface SnapshotLoadOutcome {
  /** The skeleton's: the source's decision with the skeleton's own checks. */
  decision: SnapshotDecision;
  /** The files were named as the whole snapshot (or --complete said so). */
  claimedWhole: boolean;
  /** Named as the whole snapshot but not read whole: the command exits non-zero. */
  refusedAsWhole: boolean;
  read: number;
  written: number;
  rejected: number;
  rejectReport: string | null;
  seconds: number;
}

/** Runs the source's load through the stages (see the header), journalled in `deps.journal`. */
export async function runSnapshotLoad<Batch extends DecodedBatch>(
  source: SnapshotSource<Batch>,
  deps: { journal: JournalWrites },
  options: SnapshotLoadOptions,
): Promise<SnapshotLoadOutcome> {
  const rejects = lineRejectReport({ ...options, kind: source.kind, snapshotDate: source.snapshotDate });
  let read = 0;
  let written = 0;
  const counts = (): LoadCounts => ({ rows_read: read, rows_written: written, rows_rejected: rejects.count });
  const journal = await startJournalEntry(deps.journal, {
    kind: source.kind,
    source: source.files.join(', '),
    detail: source.detail,
    counts,
    progressIntervalMs: options.progressIntervalMs,
  });
  const progress = startProgress({ label: source.kind, unit: source.unit });
  const lanes = Array.from({ length: Math.max(1, source.lanes) }, () => writeBehind());
  const write = (batch: Batch) =>
    Promise.all(
      source.writes(batch).map((laneWrite, i) =>
        laneWrite === null
          ? undefined
          : lanes[i]!.start(() =>
              laneWrite().then((rows) => {
                written += rows;
              }),
            ),
      ),
    );
  try {
    const totalBytes = source.parts.reduce((sum, part) => sum + part.size, 0);
    let bytesDone = 0;
    for (const part of source.parts) {
      let bytesRead = 0;
      for await (const batch of source.batches(part)) {
        for (const { line, reason } of batch.rejects) await rejects.reject({ label: part.label, line, reason });
        read += batch.read;
        bytesRead = batch.bytes;
        await write(batch);
        progress.advance(batch.read);
        // Records to come, estimated from the bytes read so far: the files do not say how many they hold.
        progress.setExpected(Math.round((read * totalBytes) / Math.max(bytesDone + bytesRead, 1)));
        // A turn of the event loop a batch: on PGlite a write and the batches queued behind it
        // resolve without one, which would keep the progress line and the journal's reports waiting.
        await nextTurn();
      }
      bytesDone += bytesRead;
    }
    await Promise.all(lanes.map((lane) => lane.finish()));
    const claimed = source.decide();
    const decision = await checkedDecision(source, claimed, {
      snapshotDate: source.snapshotDate,
      ...options,
      rejected: rejects.count,
      report: rejects.path,
    });
    if (!decision.complete && claimed.complete) {
      options.log(
        `${source.kind} snapshot ${source.snapshotDate} loaded as partial, nothing marked as no longer listed: ${decision.partialBecause}`,
      );
    }
    const detail = await source.conclude(decision);
    progress.stop();
    await journal.finish('done', { ...detail, complete: decision.complete, partialBecause: decision.partialBecause });
    return {
      decision,
      claimedWhole: source.claimedWhole,
      refusedAsWhole: source.claimedWhole && !decision.complete,
      read,
      written,
      rejected: rejects.count,
      rejectReport: rejects.path,
      seconds: progress.elapsedSeconds,
    };
  } catch (error) {
    progress.stop();
    await Promise.all(lanes.map((lane) => lane.settle()));
    await journal.finish('failed', failureDetail(error));
    throw error;
  } finally {
    await rejects.close();
  }
}

/**
 * Whole months from the snapshot that last listed what this one would mark to this one, at least
 * one: the bound is per month, so a yearly snapshot (the sample dataset's) may remove a year's worth.
 */
function monthsSince(previous: string | null, snapshotDate: string): number {
  if (previous === null || previous >= snapshotDate) return 1;
  const days = (Date.parse(snapshotDate) - Date.parse(previous)) / 86_400_000;
  return Math.max(1, Math.round(days / 30.44));
}

/**
 * The source's decision with the skeleton's checks, the same for every source: a snapshot that
 * had a record rejected was not read whole (the record's company or PSC would be marked as no
 * longer listed), and one that would mark more than REMOVAL_SHARE of what is held is held back
 * unless the operator names that number (--allow-removals N).
 */
async function checkedDecision(
  source: Pick<SnapshotSource<never>, 'unit' | 'removals'>,
  claimed: SnapshotDecision,
  options: { allowRemovals?: number | undefined; rejected: number; report: string | null; snapshotDate: string },
): Promise<SnapshotDecision> {
  const reasons: string[] = [];
  if (!claimed.complete) reasons.push(claimed.partialBecause ?? 'the inputs are not the whole snapshot');
  if (options.rejected > 0) {
    const unit = options.rejected === 1 ? source.unit.replace(/s$/, '') : source.unit;
    reasons.push(
      `${options.rejected} ${unit} rejected${options.report ? ` (see ${options.report})` : ''}: ` +
        'what they hold would be marked as no longer listed; fix or fetch the file again and load it again',
    );
  }
  if (reasons.length === 0) {
    const { count, held, what, lastListed } = await source.removals();
    const months = monthsSince(lastListed, options.snapshotDate);
    const share = held === 0 ? 0 : count / held;
    const allowed = options.allowRemovals;
    const percent = `${(share * 100).toFixed(1)}%`;
    if (allowed !== undefined && allowed !== count) {
      reasons.push(
        `--allow-removals ${allowed} was given but the snapshot would mark ${count} ${what} as no longer listed; ` +
          `if that is right, load it again with --allow-removals ${count}`,
      );
    } else if (allowed === undefined && share > REMOVAL_SHARE * months) {
      const bound =
        months === 1
          ? `${REMOVAL_SHARE * 100}% one month's snapshot should`
          : `${REMOVAL_SHARE * 100 * months}% that ${months} months' snapshots should`;
      reasons.push(
        `it would mark ${count} of the ${held} ${what} held (${percent}) as no longer listed, more than the ` +
          `${bound}; check the file, and if that is right, load it again with --allow-removals ${count}`,
      );
    }
  }
  return reasons.length === 0
    ? { complete: true, partialBecause: null }
    : { complete: false, partialBecause: reasons.join('; ') };
}
