/**
 * The follower: every configured stream followed at once (followStream), with alert detection on
 * each batch applied, so that a watched company's change reaches get_alerts and its webhooks
 * seconds after Companies House publishes it. At start it runs one detection over what changed
 * since the last run: a batch applied just before a crash, whose detection never ran, is caught.
 * With the REST API, a gap a 416 left is filled for the watched companies (fill-gaps.ts).
 */
import { detectAlerts, detectAlertsOf } from '../alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps } from '../alert-detection/detect-alerts.ts';
import type { StreamApplier } from '../ports/stream-appliers.ts';
import type { StreamLedger } from '../ports/stream-ledger.ts';
import { startDocumentFetcher } from './fetch-documents.ts';
import type { DocumentFetcherDeps } from './fetch-documents.ts';
import { startGapFiller } from './fill-gaps.ts';
import type { GapFillerDeps } from './fill-gaps.ts';
import { followStream } from './follow-stream.ts';
import { startIndexTicker } from './index-ticker.ts';
import type { IndexTickerOptions } from './index-ticker.ts';
import type { FollowStreamOptions } from './follow-stream.ts';

export interface FollowerDeps {
  ledger: StreamLedger;
  appliers: readonly StreamApplier[];
  /** Alert detection (absent: none runs, e.g. a benchmark of applying alone). */
  detection?: AlertDetectionDeps;
  /** Accounts documents of the filings stream fetched and parsed (absent: none is fetched). */
  documents?: Omit<DocumentFetcherDeps, 'afterLoaded' | 'log'>;
  /** The REST catch-up of gaps (a 416), for the watched companies (absent: gaps wait for a load). */
  gapFill?: Omit<GapFillerDeps, 'appliers' | 'afterFill' | 'log' | 'holder'>;
  /** The search indexes brought up to date after changes, at most every intervalMs (absent: not here). */
  index?: Pick<IndexTickerOptions, 'update' | 'intervalMs'>;
}

export interface Follower {
  /** Stop following: connections closed, leases given up. */
  stop(): Promise<void>;
  /** Settles when every stream has stopped (rejects when one failed beyond reconnecting). */
  done: Promise<void>;
}

export function startFollower(
  deps: FollowerDeps,
  options: Omit<FollowStreamOptions, 'signal' | 'afterBatch'>,
): Follower {
  const controller = new AbortController();
  const detection = deps.detection;
  const observed = options.observer;
  const indexer = deps.index
    ? startIndexTicker({
        ...deps.index,
        log: options.log,
        ...(observed?.indexState ? { onState: (state) => observed.indexState?.(state) } : {}),
        ...(observed?.indexFailed ? { onFailure: () => observed.indexFailed?.() } : {}),
      })
    : null;
  const afterBatch = detection
    ? async (companies: string[]) => {
        await detectAlertsOf(detection, companies);
      }
    : undefined;
  // A document loaded or a gap filled wakes the index update as a batch applied does; none waits for it.
  const afterChange =
    afterBatch || indexer
      ? async (companies: string[]) => {
          indexer?.wake();
          await afterBatch?.(companies);
        }
      : undefined;
  const fetcher = deps.documents
    ? startDocumentFetcher({
        ...deps.documents,
        log: options.log,
        ...(afterChange ? { afterLoaded: afterChange } : {}),
      })
    : null;
  // Started at once: a catch-up interrupted by a stop resumes now.
  const filler = deps.gapFill
    ? startGapFiller({
        ...deps.gapFill,
        appliers: deps.appliers,
        log: options.log,
        holder: options.lease.holder,
        ...(afterChange ? { afterFill: afterChange } : {}),
      })
    : null;
  const observer = {
    ...options.observer,
    gap(stream: string) {
      options.observer?.gap?.(stream);
      filler?.wake();
    },
    applied(stream: string, batch: { events: number; timepoint: number; publishedAt: string }) {
      options.observer?.applied?.(stream, batch);
      indexer?.wake();
      if (stream === 'filings') fetcher?.wake();
    },
  };
  const done = (async () => {
    if (detection) {
      await detectAlerts(detection, { log: options.log }).catch((error: unknown) =>
        options.log(`follow: alert detection at start failed: ${(error as Error).message}`),
      );
    }
    await Promise.all(
      deps.appliers.map((applier) =>
        followStream(deps.ledger, applier, {
          ...options,
          observer,
          signal: controller.signal,
          ...(afterBatch ? { afterBatch } : {}),
        }),
      ),
    );
  })();
  return {
    done,
    async stop() {
      controller.abort(new Error('stopping'));
      await Promise.all([done.catch(() => undefined), fetcher?.stop(), filler?.stop()]);
      await indexer?.stop();
    },
  };
}
