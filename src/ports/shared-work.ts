/**
 * Work split between processes through the store: bulk files of a load, and ranges of
 * company numbers of a full index build. A process claims the next piece nobody holds, holds it by
 * a lease on the database's clock that it renews while it works, and gives it up when done. A
 * piece whose lease ran out (its holder died) is claimed again by another process: a takeover.
 * docs/shared-loads.md describes the whole.
 */
import type { LoadKind } from '../domain/loads.ts';
import type { IndexSource, SearchDocument } from '../domain/search-document.ts';

/** Who claims (unique per process: host, pid and a random tag) and for how long. */
export interface Lease {
  holder: string;
  seconds: number;
}

/** A piece of work just claimed. */
interface Claimed<Piece> {
  piece: Piece;
  /** The holder whose lease ran out, when this claim takes the piece over; null for a fresh claim. */
  takenOverFrom: string | null;
}

/** The answer to "give me the next piece": one, or none, with how many others still hold. */
interface ClaimAnswer<Piece> {
  claimed: Claimed<Piece> | null;
  /** Pieces not finished and held by a live lease of another process (wait for them, or their lease). */
  heldElsewhere: number;
}

/** A file one load was asked for. */
export interface LoadFile {
  source: string;
  /** Bytes; a completed load of the source counts only with this size (null: any size). */
  size: number | null;
  /** A completed load counts only when it finished at or after this time (null: any time). */
  doneSince: string | null;
}

export interface LoadClaims {
  /** Make the files claimable (idempotent: a file known already keeps its claim). */
  register(kind: LoadKind, sources: readonly string[]): Promise<void>;
  /**
   * Claim the first of `files`, in their order, that no completed load covers and no live lease
   * holds, with SELECT … FOR UPDATE SKIP LOCKED, so two processes never claim the same.
   */
  claimNext(kind: LoadKind, files: readonly LoadFile[], lease: Lease): Promise<ClaimAnswer<string>>;
  /** Extend the lease; false when it is no longer this holder's (taken over). */
  renew(kind: LoadKind, source: string, lease: Lease): Promise<boolean>;
  /** Give the file up (after its journal entry says how its load ended). */
  release(kind: LoadKind, source: string, holder: string): Promise<void>;
  /** The holders of live leases on files of this kind. */
  holders(kind: LoadKind): Promise<string[]>;
  /** End the leases of a holder known to be dead (its process is gone), so its files are claimable now. */
  expire(kind: LoadKind, holder: string): Promise<number>;
}

/** A range of a full index build: company numbers after `after` up to `last` (null: to the end). */
export interface IndexRange {
  after: string;
  last: string | null;
}

interface IndexBuild {
  id: number;
  /** The index being written (companies_v7). */
  indexName: string;
  /** The database's clock when the build began: what the index holds when done. */
  indexedThrough: string;
}

export type IndexBuildStatus = 'building' | 'publishing' | 'done' | 'abandoned';

/** A full index build: joined or started, its state, and the companies it reads. */
interface IndexBuildRuns {
  /**
   * The unfinished build of `target`, joined; or, when there is none (or its index is gone), a new
   * one: `createIndex` makes the index and the ranges are cut every `rangeSize` companies. Two
   * processes asking at once get the same build.
   */
  joinOrStart(
    target: string,
    rangeSize: number,
    index: { create(): Promise<string>; exists(name: string): Promise<boolean> },
  ): Promise<{ build: IndexBuild; started: boolean }>;
  status(buildId: number): Promise<IndexBuildStatus>;
  /** The companies of a range for the index, in company-number order, in batches. */
  companiesInRange(range: IndexRange, batchSize: number): AsyncGenerator<IndexSource[]>;
}

/** The ranges of a build, claimed, renewed and finished by the processes writing them. */
interface IndexRangeClaims {
  claimRange(buildId: number, lease: Lease): Promise<ClaimAnswer<IndexRange>>;
  renewRange(buildId: number, range: IndexRange, lease: Lease): Promise<boolean>;
  /** The holders of live leases on ranges of the build. */
  rangeHolders(buildId: number): Promise<string[]>;
  /** End a holder's leases on ranges of the build (it is known to be dead); returns how many. */
  expireRanges(buildId: number, holder: string): Promise<number>;
  /** Mark the range written (by this holder, with this many documents); false if it lost the lease. */
  finishRange(buildId: number, range: IndexRange, holder: string, documents: number): Promise<boolean>;
}

/** The one process that publishes a finished build. */
interface IndexPublishClaims {
  /**
   * Become the one process that publishes the build: true only when every range is done and no
   * other process publishes it (or the one that did let its lease run out).
   */
  claimPublish(buildId: number, lease: Lease): Promise<boolean>;
  renewPublish(buildId: number, lease: Lease): Promise<boolean>;
  /** The build is published: done. */
  finishBuild(buildId: number, holder: string): Promise<void>;
}

/** A full index build shared between processes (the adapter implements all three). */
export interface IndexBuilds extends IndexBuildRuns, IndexRangeClaims, IndexPublishClaims {}

/** A search index that several processes can build in parts (Elasticsearch). */
export interface SharedIndexBuild {
  /** Make the next index beside the live one, empty, set for writing; returns its name. */
  createNext(): Promise<string>;
  exists(index: string): Promise<boolean>;
  write(index: string, documents: readonly SearchDocument[]): Promise<void>;
  /** Set the index for searching and move the alias to it (deleting the older ones); idempotent. */
  publish(index: string): Promise<void>;
}
