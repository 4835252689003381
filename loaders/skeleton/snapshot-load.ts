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

export interface SnapshotSource<Batch extends DecodedBatch> {
  kind: 'register' | 'psc';
  /** What the progress counts ("rows", "lines"). */
  unit: string;
  snapshotDate: string;
  /** The input files, as the journal names the load. */
  files: readonly string[];
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
  /** Is the snapshot complete? Asked once every batch is written. */
  decide(): SnapshotDecision;
  /** What follows from the decision (marking what a complete snapshot no longer lists): the journal's detail. */
  conclude(decision: SnapshotDecision): Promise<Record<string, unknown>>;
}

export interface SnapshotLoadOptions {
  /** Where the report of rejected records goes. */
  reportDir: string;
  log: (line: string) => void;
  /** How often the counts so far are written to the load journal (default 5 s). */
  progressIntervalMs?: number | undefined;
}

export interface SnapshotLoadOutcome {
  decision: SnapshotDecision;
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
    const decision = source.decide();
    const detail = await source.conclude(decision);
    progress.stop();
    await journal.finish('done', detail);
    return {
      decision,
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
